/** A saved notice as its readers see it: the server-sanitised HTML. */
import { Modal, Typography } from "antd";
import type { NoticeView } from "../../shared/notice/schema";
import { RichTextView } from "../richtext/view";
import { fmtTime } from "../format";

export const updatedText = (n: Pick<NoticeView, "updatedAt" | "updatedByName">) =>
  `${fmtTime(n.updatedAt)}${n.updatedByName ? ` · ${n.updatedByName}` : ""}`;

export function NoticeBody({ notice }: { notice: NoticeView }) {
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {notice.title}
      </Typography.Title>
      <RichTextView html={notice.content} data-testid="notice-preview" />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        更新于 {updatedText(notice)}
      </Typography.Text>
    </>
  );
}

export function NoticePreview({ notice, onClose }: { notice: NoticeView | null; onClose: () => void }) {
  return (
    <Modal
      open={!!notice}
      onCancel={onClose}
      footer={null}
      width={760}
      title={notice ? `预览 · ${notice.sectionName} · ${notice.contestName ?? "全平台"}` : ""}
      destroyOnHidden
    >
      {notice && <NoticeBody notice={notice} />}
    </Modal>
  );
}
