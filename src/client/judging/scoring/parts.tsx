/** Small pieces of the judging screens: the judging window, a score status tag, the blind work view. */
import { Alert, Descriptions, Empty, Table, Tag, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import type { JudgeWorkView } from "../../../shared/judging/schema";
import { SCORE_STATUS_NAMES, type JudgingWindow, type ScoreStatus } from "../../../shared/judging/score-schema";
import type { AiToolUse } from "../../../shared/work/schema";
import { fileUrl } from "./api";
import { fmtSize, fmtTime } from "../../format";

/** "网络评审时间：… 至 …" or why scoring is closed. */
export function WindowText({ window: w }: { window: JudgingWindow }) {
  if (!w.open) return <Alert type="warning" showIcon message={w.message} data-testid="window-closed" />;
  return (
    <Typography.Text type="secondary">
      {w.startsAt && w.endsAt ? `网络评审时间：${fmtTime(w.startsAt)} 至 ${fmtTime(w.endsAt)}` : "网络评审：未设置时间限制"}
    </Typography.Text>
  );
}

const STATUS_COLOR: Record<ScoreStatus, string> = { none: "default", draft: "orange", submitted: "green" };
export const ScoreStatusTag = ({ status }: { status: ScoreStatus }) => (
  <Tag color={STATUS_COLOR[status]} data-testid="score-status">
    {SCORE_STATUS_NAMES[status]}
  </Tag>
);

/** What a judge sees of an assigned work: fields, AI declaration, attachments (no authors or school). */
export function JudgeWorkContent({ work, contestId }: { work: JudgeWorkView; contestId: number }) {
  return (
    <>
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label="作品编号">{work.id}</Descriptions.Item>
        <Descriptions.Item label="组别">{work.groupName}</Descriptions.Item>
        <Descriptions.Item
          label="大类 / 小类"
          span={2}
        >{`${work.category.name}${work.subcategory ? ` / ${work.subcategory.name}` : ""}`}</Descriptions.Item>
        {work.fields
          .filter((f) => f.key !== "name")
          .map((f) => (
            <Descriptions.Item key={f.key} label={f.label} span={2}>
              {f.value ? (
                f.key.startsWith("deployLink") ? (
                  <a href={f.value} target="_blank" rel="noreferrer noopener">
                    {f.value}
                  </a>
                ) : (
                  <span style={{ whiteSpace: "pre-wrap" }}>{f.value}</span>
                )
              ) : (
                <Typography.Text type="secondary">未填写</Typography.Text>
              )}
            </Descriptions.Item>
          ))}
      </Descriptions>
      <Typography.Title level={5}>AI工具使用声明</Typography.Title>
      {!work.aiDeclaration ? (
        <Typography.Paragraph type="secondary">未填写</Typography.Paragraph>
      ) : !work.aiDeclaration.used ? (
        <Typography.Paragraph>声明：本作品未使用 AI 工具。</Typography.Paragraph>
      ) : (
        <Table<AiToolUse>
          size="small"
          rowKey={(_, i) => String(i)}
          pagination={false}
          dataSource={work.aiDeclaration.tools}
          style={{ marginBottom: 16 }}
          scroll={{ x: "max-content" }}
        >
          <Table.Column<AiToolUse>
            dataIndex="tool"
            title="工具"
            render={(t: string, r) => `${t}${r.version ? ` ${r.version}` : ""}`}
          />
          <Table.Column<AiToolUse> dataIndex="purpose" title="使用阶段与用途" />
          <Table.Column<AiToolUse> dataIndex="edits" title="人工修改" />
          <Table.Column<AiToolUse> dataIndex="adoption" title="采纳比例" render={(n: number) => `${n}%`} />
        </Table>
      )}
      <Typography.Title level={5}>附件</Typography.Title>
      {work.files.length ? (
        <Table size="small" rowKey="id" pagination={false} dataSource={work.files} data-testid="judge-files">
          <Table.Column dataIndex="kindName" title="附件" width={160} />
          <Table.Column<JudgeWorkView["files"][number]>
            dataIndex="filename"
            title="文件"
            render={(name: string, f) => (
              <a href={fileUrl(contestId, work.id, f.id)} download>
                <DownloadOutlined /> {name}
              </a>
            )}
          />
          <Table.Column dataIndex="size" title="大小" width={100} render={fmtSize} />
        </Table>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该作品没有附件" />
      )}
    </>
  );
}
