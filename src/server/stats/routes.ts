/**
 * The statistics dashboards (issue 32): one GET per chart group, its .xlsx export, and the
 * user centre's summary. Paths and replies: src/shared/stats/schema.ts. Policy api.stats read
 * (roles 0, 1, 2); the row scope is the lists' (scope.ts).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { TSchema } from "typebox";
import { Envelope } from "../../shared/envelope";
import {
  BreakdownReply,
  ComplaintStatsReply,
  PipelineReply,
  ProgressReply,
  ScoresReply,
  STATS_DASHBOARD_NAMES,
  STATS_DASHBOARDS,
  STATS_PATHS,
  StatsQuery,
  SummaryReply,
  TimelineReply,
  statsExportPath,
} from "../../shared/stats/schema";
import type { Db } from "../db";
import { contentDisposition, ok } from "../common/http";
import { dashboard, userSummary, type Dashboard } from "./service";
import { exportDashboard } from "./export";

const REPLIES: Record<Dashboard, [TSchema, string]> = {
  timeline: [TimelineReply, "报名进度：每日与累计的创建、提交、学校审核、推荐、省赛接收作品数，与上一届按距截止日对齐"],
  pipeline: [PipelineReply, "作品状态：各赛事每个状态的作品数"],
  breakdown: [BreakdownReply, "分布：按省份、学校、大类/小类、组别的作品数和占比；学校管理员为本校概况"],
  progress: [ProgressReply, "审查与评审进度：形式审查（按审核员）、各评审分组的评分完成比例、评委进度、现场答辩"],
  scores: [ScoresReply, "评分与获奖：各分组的分数分布、评委宽严、分歧作品、奖项与名额"],
  complaints: [ComplaintStatsReply, "申诉：各赛事的提交、决定、支持、仲裁中、逾期数"],
};

export function statsRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["统计"];
  const access = ["api.stats", "read"] as const;

  for (const name of STATS_DASHBOARDS) {
    const [reply, summary] = REPLIES[name];
    r.get(
      STATS_PATHS[name],
      { schema: { tags, summary, querystring: StatsQuery, response: { 200: Envelope(reply) } }, config: { access } },
      async (req) => ok(await dashboard(db, req.user!, name, req.query)),
    );
    r.get(
      statsExportPath(name),
      {
        schema: { tags, summary: `导出${STATS_DASHBOARD_NAMES[name]}统计 (.xlsx)`, querystring: StatsQuery },
        config: { access },
      },
      async (req, res) => {
        const f = await exportDashboard(db, req.user!, name, req.query);
        return res
          .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          .header("content-disposition", contentDisposition(f.filename))
          .header("cache-control", "private, no-store")
          .send(f.buffer);
      },
    );
  }

  r.get(
    STATS_PATHS.summary,
    {
      schema: { tags, summary: "用户中心的统计摘要：当前角色最重要的三个数字", response: { 200: Envelope(SummaryReply) } },
      config: { access },
    },
    async (req) => ok(await userSummary(db, req.user!)),
  );
}
