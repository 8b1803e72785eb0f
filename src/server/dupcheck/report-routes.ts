/** The duplicate check's batch report routes (root, contest admins): the contests to report on, starting a report job. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { DupReportBody, DupReportContest } from "../../shared/dupcheck/api";
import { reportContests, startReport } from "./report";
import { P, ok, tags, type DupDeps } from "./route-kit";

export function reportRoutes(app: FastifyInstance, deps: DupDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, jobs } = deps;
  r.get(
    `${P}/contests`,
    {
      schema: {
        tags,
        summary: "可生成查重报告的赛事（超级管理员：全部；赛事管理员：管理范围内）及其已提交作品数",
        response: { 200: Envelope(Type.Array(DupReportContest)) },
      },
      config: { access: ["api.dupcheckReport", "read"] },
    },
    async (req) => ok(await reportContests(db, req.user!)),
  );

  r.post(
    `${P}/report`,
    {
      schema: {
        tags,
        summary:
          "赛事查重报告：检查赛事（含下级赛事）的全部作品，列出相似度达到阈值的作品对并分组，后台生成 .xlsx（进度和结果：/Backend/Common/job/:id）",
        body: DupReportBody,
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: ["api.dupcheckReport", "create"] },
    },
    async (req, reply) =>
      reply.code(202).send(ok({ jobId: await startReport(db, jobs, req.user!, req.body) }, "查重报告已开始生成")),
  );
}
