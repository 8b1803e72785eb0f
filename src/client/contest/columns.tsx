/** Cells shared by the contest tables: the running stage, stage list, open categories, members. */
import { Popover, Space, Tag, Typography } from "antd";
import type { ContestView } from "../../shared/contest/schema";
import { STAGE_NAMES, currentStage } from "../../shared/contest/stages";
import { fmtTime } from "../format";

export function StageCell({ contest }: { contest: ContestView }) {
  if (!contest.stages.length) return <Typography.Text type="secondary">未设置</Typography.Text>;
  const now = currentStage(contest.stages);
  const list = (
    <Space direction="vertical" size={2}>
      {contest.stages.map((s) => (
        <span key={s.stage}>
          <Tag color={s.stage === now ? "green" : undefined}>{STAGE_NAMES[s.stage]}</Tag>
          {fmtTime(s.startsAt)} ~ {fmtTime(s.endsAt)}
        </span>
      ))}
    </Space>
  );
  return (
    <Popover content={list} title="阶段时间">
      {now ? <Tag color="green">{STAGE_NAMES[now]}中</Tag> : <Tag>{contest.stages.length} 个阶段</Tag>}
    </Popover>
  );
}

export function CategoriesCell({ contest }: { contest: ContestView }) {
  if (!contest.categoryNames.length) return <Typography.Text type="secondary">未开放</Typography.Text>;
  return (
    <Popover
      title="开放的大类"
      content={
        <Space direction="vertical" size={2}>
          {contest.categoryNames.map((n) => (
            <span key={n}>{n}</span>
          ))}
        </Space>
      }
    >
      <span>{contest.categoryNames.length} 个大类</span>
    </Popover>
  );
}

export function QuotaCell({ contest }: { contest: ContestView }) {
  if (contest.level === "national") return <>—</>;
  return <>{contest.recommendQuota ?? "不限"}</>;
}

export const names = (list: { name: string }[]) => (list.length ? list.map((m) => m.name).join("、") : "—");
