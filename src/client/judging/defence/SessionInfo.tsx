/** The facts of a defence session shown to judges, the leader and the admin: time, place, draw, status. */
import { Descriptions, Space, Tag, Typography } from "antd";
import { CheckCircleOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { RECOMMENDATION_NAMES, type JudgeSession, type Recommendation } from "../../../shared/judging/defence-schema";
import { timeText } from "./api";

export const RECOMMENDATION_COLORS: Record<Recommendation, string> = { strong: "green", recommend: "blue", not: "default" };

export function RecommendationTag({ value }: { value: string }) {
  return (
    <Tag color={RECOMMENDATION_COLORS[value as Recommendation] ?? "default"}>
      {RECOMMENDATION_NAMES[value as Recommendation] ?? value}
    </Tag>
  );
}

type Base = Pick<
  JudgeSession,
  "group" | "leader" | "startsAt" | "place" | "meetingLink" | "prepareNote" | "minutesPerWork" | "draw" | "signOff" | "reopened"
>;

export function StatusTag({ s }: { s: Pick<Base, "draw" | "signOff"> }) {
  if (s.signOff)
    return (
      <Tag color="green" icon={<CheckCircleOutlined />} data-testid="session-status">
        组长已签署
      </Tag>
    );
  if (s.draw)
    return (
      <Tag color="blue" data-testid="session-status">
        评分进行中
      </Tag>
    );
  return <Tag data-testid="session-status">待抽签</Tag>;
}

export function DrawText({ draw }: { draw: Base["draw"] }) {
  if (!draw) return <Typography.Text type="secondary">尚未抽签</Typography.Text>;
  // Older draws have a 64-hex seed: shown shortened, copied whole.
  const short = draw.seed.length <= 16 ? draw.seed : `${draw.seed.slice(0, 11)}…`;
  return (
    <Space direction="vertical" size={2}>
      <Space size={4} wrap>
        <span>
          {draw.drawnBy.name} 于 {timeText(draw.drawnAt)} 抽签，抽签码
        </span>
        <Typography.Text code strong copyable={{ text: draw.seed, tooltips: ["复制抽签码", "已复制"] }} data-testid="draw-seed">
          {short}
        </Typography.Text>
        {draw.verified ? (
          <Tag color="green" icon={<SafetyCertificateOutlined />}>
            顺序与抽签码一致
          </Tag>
        ) : (
          <Tag color="red">顺序与抽签码不一致</Tag>
        )}
      </Space>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="draw-howto">
        核对方法：答辩顺序完全由抽签码和按编号排序的作品（{draw.input.join("、")}
        {draw.withheld ? `，另有 ${draw.withheld} 件您回避的作品未列出` : ""}）按公开算法 {draw.algorithm} 算出，
        {draw.withheld
          ? `任何人用抽签码和全部作品编号运行 npm run draw-check -- ${draw.seed} <作品编号…> 都会得到同一顺序（平台已按全部作品核对）。`
          : `任何人运行 npm run draw-check -- ${draw.seed} ${draw.input.join(" ")} 都会得到同一顺序。`}
      </Typography.Text>
    </Space>
  );
}

export function SessionInfo({ s, column = 2 }: { s: Base; column?: number }) {
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: column }}
      styles={{ label: { whiteSpace: "nowrap", width: 96 } }}
      data-testid="session-info"
    >
      <Descriptions.Item label="评审组">{s.group.name}</Descriptions.Item>
      <Descriptions.Item label="专家组长">{s.leader?.name ?? "未指定"}</Descriptions.Item>
      <Descriptions.Item label="开始时间">{timeText(s.startsAt)}</Descriptions.Item>
      <Descriptions.Item label="每件作品">{s.minutesPerWork} 分钟</Descriptions.Item>
      <Descriptions.Item label="地点">{s.place ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="会议链接">
        {s.meetingLink ? (
          <a href={s.meetingLink} target="_blank" rel="noreferrer">
            {s.meetingLink}
          </a>
        ) : (
          "—"
        )}
      </Descriptions.Item>
      <Descriptions.Item label="答辩顺序" span={column}>
        <DrawText draw={s.draw} />
      </Descriptions.Item>
      {s.prepareNote && (
        <Descriptions.Item label="作者准备事项" span={column}>
          <span style={{ whiteSpace: "pre-wrap" }}>{s.prepareNote}</span>
        </Descriptions.Item>
      )}
      <Descriptions.Item label="状态" span={column}>
        <Space wrap>
          <StatusTag s={s} />
          {s.signOff && (
            <span>
              {s.signOff.by.name} 于 {timeText(s.signOff.at)} 签署{s.signOff.note ? `：${s.signOff.note}` : ""}
            </span>
          )}
          {!s.signOff && s.reopened && (
            <Typography.Text type="warning">
              赛事管理员 {s.reopened.by.name} 于 {timeText(s.reopened.at)} 重新开放：{s.reopened.reason}
            </Typography.Text>
          )}
        </Space>
      </Descriptions.Item>
    </Descriptions>
  );
}
