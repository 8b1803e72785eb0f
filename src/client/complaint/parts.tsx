/** Small pieces the complaint screens share: state/type tags, texts, evidence links, due times. */
import { Space, Tag, Tooltip, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import type { EvidenceView } from "../../shared/complaint/schema";
import {
  COMPLAINT_STATE_NAMES,
  COMPLAINT_TYPE_NAMES,
  type ComplaintState,
  type ComplaintType,
} from "../../shared/complaint/states";
import { fmtSize, fmtTime } from "../format";
import { RichTextView } from "../richtext/view";
import { STATE_COLORS, TYPE_COLORS, dueWords } from "./logic";

export const StateTag = ({ state }: { state: ComplaintState }) => (
  <Tag color={STATE_COLORS[state]} data-testid="complaint-state">
    {COMPLAINT_STATE_NAMES[state]}
  </Tag>
);

export const TypeTag = ({ type }: { type: ComplaintType }) => <Tag color={TYPE_COLORS[type]}>{COMPLAINT_TYPE_NAMES[type]}</Tag>;

/** A sanitised text from the server: rich text as such, plain text with its line breaks. */
export function TextBlock({ text, testId }: { text: string | null | undefined; testId?: string }) {
  if (text && /<[a-z][^>]*>/i.test(text)) return <RichTextView html={text} data-testid={testId} />;
  return (
    <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} data-testid={testId}>
      {text || "—"}
    </Typography.Paragraph>
  );
}

/** Evidence files as download links (the url is the route of the caller's kind). */
export function EvidenceLinks({ files, token }: { files: readonly EvidenceView[]; token?: string }) {
  if (!files.length) return <Typography.Text type="secondary">未提交证据材料</Typography.Text>;
  return (
    <Space direction="vertical" size={2} data-testid="evidence-list">
      {files.map((f) => {
        const href =
          token && !f.url.includes("token=")
            ? `${f.url}${f.url.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`
            : f.url;
        const image = f.contentType.startsWith("image/");
        return (
          <Space key={f.id} size={6}>
            <PaperClipOutlined />
            <Typography.Link href={href} target="_blank" rel="noopener">
              {f.name}
            </Typography.Link>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fmtSize(f.size)} · {fmtTime(f.uploadedAt)}
            </Typography.Text>
            {image && (
              <Tooltip title={<img src={href} alt={f.name} style={{ maxWidth: 280, maxHeight: 280 }} />}>
                <Typography.Link href={href} target="_blank" rel="noopener">
                  预览
                </Typography.Link>
              </Tooltip>
            )}
            {f.contentType === "application/pdf" && (
              <Typography.Link href={href} target="_blank" rel="noopener">
                在线查看
              </Typography.Link>
            )}
          </Space>
        );
      })}
    </Space>
  );
}

/** The due time of the next step, red when overdue. */
export function Due({ dueAt, overdue }: { dueAt: string | null; overdue: boolean }) {
  if (!dueAt) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Tooltip title={`期限：${fmtTime(dueAt)}`}>
      <Typography.Text type={overdue ? "danger" : undefined} data-testid={overdue ? "overdue" : undefined}>
        {overdue ? <Tag color="red">超期</Tag> : null}
        {dueWords(dueAt)}
      </Typography.Text>
    </Tooltip>
  );
}
