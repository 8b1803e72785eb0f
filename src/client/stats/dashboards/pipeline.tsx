/**
 * 作品状态: how many works stand in each state of the works state machine (the reply lists
 * WORK_STATES in order, so a new state shows by itself), stacked per contest. A click on a bar —
 * or on the state's link in the table — opens the works list filtered to that state and contest.
 */
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import type { PipelineReply } from "../../../shared/stats/schema";
import { ChartCard, fmtShare, type FigureColumn } from "../chart-card";
import type { ChartClick } from "../chart";
import { worksListPath } from "../links";
import { barOption, summarize } from "../options";
import type { DashboardProps } from "../types";

type Row = { state: string; name: string; total: number; share: number } & Record<string, string | number>;

export function PipelineDashboard({ data, q }: DashboardProps<PipelineReply>) {
  const navigate = useNavigate();
  const role = data.scope.role;
  // One contest: its id goes with the link; several: each bar segment names its own contest.
  const only = q.contestId ?? (data.contests.length === 1 ? data.contests[0].contestId : undefined);
  const names = data.states.map((s) => s.name);
  const option = useMemo(
    () =>
      barOption(
        names,
        data.contests.map((c) => ({
          name: c.contestName,
          values: data.states.map((s) => c.counts[s.state] ?? 0),
          stack: "works",
        })),
      ),
    [data, names],
  );
  const rows: Row[] = data.states.map((s) => ({
    state: s.state,
    name: s.name,
    total: data.totals[s.state] ?? 0,
    share: data.total ? (data.totals[s.state] ?? 0) / data.total : 0,
    ...Object.fromEntries(data.contests.map((c) => [`c${c.contestId}`, c.counts[s.state] ?? 0])),
  }));
  const columns: FigureColumn<Row>[] = [
    {
      key: "name",
      title: "状态",
      render: (r) => (
        <Link to={worksListPath(role, r.state, only)} data-testid={`pipeline-link-${r.state}`}>
          {r.name}
        </Link>
      ),
    },
    { key: "total", title: "作品数", numeric: true },
    { key: "share", title: "占比", render: (r) => fmtShare(r.share) },
    ...(data.contests.length > 1
      ? data.contests.map((c) => ({ key: `c${c.contestId}`, title: c.contestName, numeric: true }))
      : []),
  ];
  const onClick = (p: ChartClick) => {
    const state = data.states[p.dataIndex]?.state;
    const contest = p.seriesIndex !== undefined ? data.contests[p.seriesIndex]?.contestId : only;
    if (state) void navigate(worksListPath(role, state, contest ?? only));
  };
  return (
    <ChartCard
      title={`各状态作品数（共 ${data.total.toLocaleString("zh-CN")} 件）`}
      summary={`${summarize(
        "各状态作品数",
        names,
        rows.map((r) => r.total),
      )}。点击柱子打开该状态的作品列表`}
      option={option}
      table={{ columns, rows: data.total ? rows : [], rowKey: "state" }}
      onClick={onClick}
      below={data.contests.length > 1}
      height={360}
      data-testid="pipeline-card"
    />
  );
}
