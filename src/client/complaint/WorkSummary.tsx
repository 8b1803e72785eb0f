/** The work a complaint is about, as the public result shows it, with its filing window (ComplaintForm.tsx). */
import { Descriptions, Typography } from "antd";
import type { ComplaintWorkView } from "../../shared/complaint/schema";
import { fmtTime } from "../format";

export function WorkSummary({ w }: { w: ComplaintWorkView }) {
  return (
    <Descriptions size="small" bordered column={2} style={{ marginBottom: 16 }} data-testid="complaint-work">
      <Descriptions.Item label="作品">{w.name}</Descriptions.Item>
      <Descriptions.Item label="学校">{w.schoolName}</Descriptions.Item>
      <Descriptions.Item label="类别">{w.categoryName}</Descriptions.Item>
      <Descriptions.Item label="赛事">{w.contestName}</Descriptions.Item>
      <Descriptions.Item label="公示奖项">{w.award ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="受理时间">
        {w.window ? (
          <Typography.Text type={w.window.open ? "success" : "danger"}>
            {fmtTime(w.window.startsAt)} 至 {fmtTime(w.window.endsAt)}（{w.window.open ? "受理中" : "未在受理期"}）
          </Typography.Text>
        ) : (
          "未设置"
        )}
      </Descriptions.Item>
    </Descriptions>
  );
}
