/** Parts of the work drawer (WorkDrawer.tsx): its title and the notices about a returned or disqualified work. */
import { Alert, Space, Tag, Typography } from "antd";
import type { WorkView } from "../../shared/work/schema";
import { StatusTag } from "./components/StatusTag";
import { fmtTime } from "../format";

const ROUND_COLORS: Record<string, string> = { 校赛: "cyan", 省赛: "blue", 国赛: "gold" };

/** The name, status, number and the rounds the work took part in. */
export function WorkTitle({ work }: { work: WorkView }) {
  return (
    <Space wrap>
      <span>{work.name}</span>
      <StatusTag status={work.status} name={work.statusName} />
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
        编号 {work.id}
      </Typography.Text>
      {(work.rounds ?? []).map((r) => (
        <Tag key={r.level} color={ROUND_COLORS[r.level] ?? "blue"} data-testid="work-round">
          {r.level}：{r.text}
        </Tag>
      ))}
    </Space>
  );
}

/** Why the work was returned (by the school or the format review) or disqualified. */
export function WorkNotices({ work }: { work: WorkView }) {
  return (
    <>
      {work.status === "returned" && work.returnReason && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="作品被学校退回修改"
          description={`原因：${work.returnReason}`}
          data-testid="return-reason"
        />
      )}
      {work.status === "format_returned" && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={`形式审查退回修改${work.formatDeadline ? `，请于 ${fmtTime(work.formatDeadline)} 前修改并重新提交` : ""}`}
          description={
            [work.formatReasons.map((r) => r.name).join("、"), work.returnReason].filter(Boolean).join("；") || undefined
          }
          data-testid="return-reason"
        />
      )}
      {work.status === "disqualified" && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message="作品已被取消资格"
          description={`原因：${work.disqualifyReason ?? "未说明"}`}
        />
      )}
    </>
  );
}
