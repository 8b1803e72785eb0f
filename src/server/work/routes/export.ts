/** /work/export: the works list's filters → a background job writing the .xlsx (progress and download: /Backend/Common/job/:id). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../../shared/envelope";
import { WorkFilters } from "../../../shared/work/schema";
import type { Jobs } from "../../jobs/user-jobs";
import type { Db } from "../../db";
import { adminContestIds } from "../../scope";
import { startExport } from "../export";
import { ok } from "../../common/http";

export function workExportRoutes(app: FastifyInstance, deps: { db: Db; jobs: Jobs }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    "/Backend/Admin/work/export",
    {
      schema: {
        tags: ["作品（赛事管理）"],
        summary: "导出作品（超级管理员和赛事管理员，管理范围内、按列表的筛选条件）：作者和指导教师信息，后台生成 .xlsx",
        body: WorkFilters,
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: ["api.contestWorks", "read"] },
    },
    async (req, reply) => {
      const user = req.user!;
      const scope = { kind: "contests" as const, ids: await adminContestIds(deps.db, user) };
      const jobId = await startExport(deps.jobs, user.id, scope, req.body);
      return reply.code(202).send(ok({ jobId }, "导出任务已开始"));
    },
  );
}
