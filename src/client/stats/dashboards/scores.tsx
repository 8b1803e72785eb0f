/**
 * 评分与获奖: per judging group the distribution of the scores (box plots, and the histogram of a
 * chosen group), each judge's severity (the judge effect of the additive model the results use:
 * negative harsh, positive lenient) and spread, the works whose judges disagree, and the awards
 * per level against the quota.
 */
import { useMemo, useState } from "react";
import { Select, Space } from "antd";
import type { ScoresReply } from "../../../shared/stats/schema";
import { ChartCard, fmtNum } from "../chart-card";
import { barOption, boxOption, summarize } from "../options";
import type { DashboardProps } from "../types";

const r1 = (n: number) => Math.round(n * 10) / 10;

function Boxes({ groups }: { groups: ScoresReply["groups"] }) {
  const withBox = groups.filter((g) => g.box);
  const option = useMemo(
    () =>
      boxOption(
        withBox.map((g) => g.name),
        withBox.map((g) => [g.box!.min, g.box!.q1, g.box!.median, g.box!.q3, g.box!.max]),
      ),
    [withBox],
  );
  const rows = withBox.map((g) => ({ ...g, ...g.box! }));
  return (
    <ChartCard
      title="各评审组的分数分布"
      summary={`各评审组分数中位数：${rows.map((g) => `${g.name} ${r1(g.median)}`).join("，")}`}
      option={option}
      table={{
        columns: [
          { key: "name", title: "评审组" },
          { key: "scores", title: "评分数", numeric: true },
          { key: "min", title: "最低", numeric: true },
          { key: "q1", title: "下四分位", numeric: true },
          { key: "median", title: "中位数", numeric: true },
          { key: "q3", title: "上四分位", numeric: true },
          { key: "max", title: "最高", numeric: true },
          { key: "flagged", title: "分歧作品", numeric: true },
        ],
        rows,
        rowKey: "groupId",
      }}
      below
      data-testid="scores-box"
    />
  );
}

function Histogram({ groups }: { groups: ScoresReply["groups"] }) {
  const withBins = groups.filter((g) => g.bins.length > 0);
  const [id, setId] = useState<number | undefined>(undefined);
  const g = withBins.find((x) => x.groupId === id) ?? withBins[0];
  const rows = (g?.bins ?? []).map((b, i) => ({ key: String(i), range: `${r1(b.from)}–${r1(b.to)}`, count: b.count }));
  const option = useMemo(
    () =>
      barOption(
        rows.map((r) => r.range),
        [{ name: "评分数", values: rows.map((r) => r.count) }],
      ),
    [rows],
  );
  if (!g) return null;
  return (
    <ChartCard
      title={`分数直方图：${g.name}`}
      summary={summarize(
        `${g.name}各分数段的评分数`,
        rows.map((r) => r.range),
        rows.map((r) => r.count),
        3,
      )}
      option={option}
      extra={
        <Select
          size="small"
          aria-label="评审组"
          style={{ minWidth: 160 }}
          value={g.groupId}
          onChange={setId}
          options={withBins.map((x) => ({ value: x.groupId, label: x.name }))}
        />
      }
      table={{
        columns: [
          { key: "range", title: "分数段" },
          { key: "count", title: "评分数", numeric: true },
        ],
        rows,
        rowKey: "key",
      }}
      data-testid="scores-histogram"
    />
  );
}

function Severity({ judges }: { judges: ScoresReply["judges"] }) {
  const rows = judges.map((j) => ({
    ...j,
    key: `${j.groupKey}-${j.judgeId}`,
    label: `${j.name}（${j.groupName}）`,
    eff: r1(j.effect),
    m: r1(j.mean),
    s: r1(j.sd),
    note: j.identified ? "" : "无共评作品",
  }));
  const option = useMemo(
    () =>
      barOption(
        rows.map((r) => r.label),
        [{ name: "评委效应（负为偏严，正为偏宽）", values: rows.map((r) => r.eff) }],
        { horizontal: true },
      ),
    [rows],
  );
  const harsh = rows.slice(0, 3).map((r) => `${r.label} ${r.eff}`);
  const lenient = rows.slice(-3).map((r) => `${r.label} ${r.eff}`);
  return (
    <ChartCard
      title="评委宽严（评委效应，负为偏严）"
      summary={`最严：${harsh.join("，")}；最宽：${lenient.join("，")}`}
      option={option}
      table={{
        columns: [
          { key: "label", title: "评委" },
          { key: "count", title: "评分数", numeric: true },
          { key: "m", title: "平均分", numeric: true },
          { key: "s", title: "标准差", numeric: true },
          { key: "eff", title: "评委效应", numeric: true },
          { key: "note", title: "说明" },
        ],
        rows,
        rowKey: "key",
      }}
      height={Math.max(200, rows.length * 24 + 60)}
      data-testid="scores-judges"
    />
  );
}

function Awards({ awards }: { awards: ScoresReply["awards"] }) {
  const rows = awards.map((a) => ({
    ...a,
    key: `${a.contestId}-${a.levelId}`,
    label: `${a.contestName} ${a.levelName}`,
    q: a.quota ?? "不限",
  }));
  const option = useMemo(
    () =>
      barOption(
        rows.map((r) => r.label),
        [
          { name: "获奖", values: rows.map((r) => r.count) },
          { name: "名额", values: rows.map((r) => r.quota), color: "#8c8c8c" },
        ],
      ),
    [rows],
  );
  return (
    <ChartCard
      title="各奖项获奖数与名额"
      summary={`各奖项获奖数/名额：${rows.map((r) => `${r.label} ${r.count}/${r.q}`).join("，")}`}
      option={option}
      table={{
        columns: [
          { key: "label", title: "奖项" },
          { key: "count", title: "获奖", numeric: true },
          { key: "q", title: "名额", numeric: true },
        ],
        rows,
        rowKey: "key",
      }}
      data-testid="scores-awards"
    />
  );
}

function Flags({ data }: { data: ScoresReply }) {
  const rows = data.flags.map((f) => ({ ...f, lo: r1(f.min), hi: r1(f.max), sp: r1(f.spread) }));
  const top = rows.slice(0, 20);
  const option = useMemo(
    () =>
      barOption(
        top.map((f) => `${f.workId} ${f.workName}`),
        [{ name: "极差", values: top.map((f) => f.sp) }],
        { horizontal: true },
      ),
    [top],
  );
  return (
    <ChartCard
      title={`评分分歧（极差超过 ${fmtNum(data.threshold)} 分的作品，共 ${rows.length} 件）`}
      summary={`评分分歧最大的作品：${top
        .slice(0, 5)
        .map((f) => `${f.workName} 极差 ${f.sp}`)
        .join("，")}`}
      option={option}
      table={{
        columns: [
          { key: "workId", title: "编号" },
          { key: "workName", title: "作品" },
          { key: "groupName", title: "评审组" },
          { key: "judgeCount", title: "评委数", numeric: true },
          { key: "lo", title: "最低", numeric: true },
          { key: "hi", title: "最高", numeric: true },
          { key: "sp", title: "极差", numeric: true },
        ],
        rows,
        rowKey: "workId",
      }}
      height={Math.max(200, top.length * 24 + 60)}
      below
      data-testid="scores-flags"
    />
  );
}

export function ScoresDashboard({ data }: DashboardProps<ScoresReply>) {
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      {data.groups.some((g) => g.box) && <Boxes groups={data.groups} />}
      <Histogram groups={data.groups} />
      {data.judges.length > 0 && <Severity judges={data.judges} />}
      {data.flags.length > 0 && <Flags data={data} />}
      <Awards awards={data.awards} />
    </Space>
  );
}
