/**
 * /statistics, 统计 (root, contest admins, school admins; page.stats): the dashboards of issue 32
 * as tabs — 报名进度, 作品状态, 分布, 审查与评审进度, 评分与获奖, 申诉 — over one year and one
 * contest (or all contests in scope), each tab one GET (src/shared/stats/schema.ts) whose
 * figures the server scopes like the lists. The tab, year and contest live in the address
 * (?tab=&year=&contestId=), so a view can be linked. 导出 .xlsx downloads the open tab's figures.
 * This page's chunk is the only one that loads ECharts.
 */
import { Alert, Button, Card, Select, Skeleton, Space, Tabs, Typography } from "antd";
import { FileExcelOutlined } from "@ant-design/icons";
import { useSearchParams } from "react-router";
import type { ComponentType } from "react";
import {
  STATS_DASHBOARDS,
  STATS_DASHBOARD_NAMES,
  type StatsDashboard,
  type StatsQuery,
  type StatsScope,
} from "../../shared/stats/schema";
import type { PageProps } from "../routing/model";
import { fmtTime } from "../format";
import { exportHref, useStats } from "./api";
import type { DashboardProps } from "./types";
import { TimelineDashboard } from "./dashboards/timeline";
import { PipelineDashboard } from "./dashboards/pipeline";
import { BreakdownDashboard } from "./dashboards/breakdown";
import { ProgressDashboard } from "./dashboards/progress";
import { ScoresDashboard } from "./dashboards/scores";
import { ComplaintsDashboard } from "./dashboards/complaints";

// Each dashboard renders the reply of its own GET (the shapes of src/shared/stats/schema.ts).
const DASHBOARDS: Record<StatsDashboard, ComponentType<DashboardProps<never>>> = {
  timeline: TimelineDashboard,
  pipeline: PipelineDashboard,
  breakdown: BreakdownDashboard,
  progress: ProgressDashboard,
  scores: ScoresDashboard,
  complaints: ComplaintsDashboard,
};

const isDashboard = (s: string | null): s is StatsDashboard => (STATS_DASHBOARDS as readonly string[]).includes(s ?? "");

function ScopeBar({ scope, q, set }: { scope?: StatsScope; q: StatsQuery; set: (k: "year" | "contestId", v?: number) => void }) {
  const year = q.year ?? scope?.year;
  return (
    <Space wrap>
      <Select
        aria-label="年度"
        style={{ width: 110 }}
        value={year}
        placeholder="年度"
        options={(scope?.years ?? (year ? [year] : [])).map((y) => ({ value: y, label: `${y} 年` }))}
        onChange={(y) => set("year", y)}
        data-testid="stats-year"
      />
      <Select
        aria-label="赛事"
        style={{ minWidth: 220 }}
        value={q.contestId ?? 0}
        options={[{ value: 0, label: "全部赛事" }, ...(scope?.contests ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        onChange={(id) => set("contestId", id || undefined)}
        data-testid="stats-contest"
      />
    </Space>
  );
}

export default function StatsPage({ route }: PageProps) {
  const [sp, setSp] = useSearchParams();
  const tabParam = sp.get("tab");
  const tab: StatsDashboard = isDashboard(tabParam) ? tabParam : "timeline";
  const q: StatsQuery = { year: Number(sp.get("year")) || undefined, contestId: Number(sp.get("contestId")) || undefined };
  const query = useStats<{ scope: StatsScope }>(tab, q);
  const scope = query.data?.scope;
  const set = (k: string, v?: string | number) =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (v === undefined || v === "") next.delete(k);
        else next.set(k, String(v));
        // Another year has other contests: the contest choice does not carry over.
        if (k === "year") next.delete("contestId");
        return next;
      },
      { replace: true },
    );
  const Dashboard = DASHBOARDS[tab];

  return (
    <Card
      title={route.label}
      extra={
        <Space wrap>
          <ScopeBar scope={scope} q={q} set={set} />
          <Button icon={<FileExcelOutlined />} href={exportHref(tab, q)} download data-testid="stats-xlsx">
            导出 .xlsx
          </Button>
        </Space>
      }
      data-testid="stats-page"
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => set("tab", k === "timeline" ? undefined : k)}
        items={STATS_DASHBOARDS.map((d) => ({ key: d, label: STATS_DASHBOARD_NAMES[d] }))}
        data-testid="stats-tabs"
      />
      {scope && (
        <Typography.Paragraph type="secondary" data-testid="stats-scope">
          {scope.year} 年{scope.schoolName ? ` · ${scope.schoolName}` : ""}
          {q.contestId ? ` · ${scope.contests.find((c) => c.id === q.contestId)?.name ?? ""}` : ""} · 统计于{" "}
          {fmtTime(scope.computedAt)}
        </Typography.Paragraph>
      )}
      {query.isPending && <Skeleton active paragraph={{ rows: 8 }} />}
      {query.isError && <Alert type="error" showIcon message={query.error.message} data-testid="stats-error" />}
      {query.data && (
        <div data-dashboard={tab}>
          <Dashboard data={query.data as never} q={q} />
        </div>
      )}
    </Card>
  );
}
