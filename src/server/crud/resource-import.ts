/**
 * A resource's two-step .xlsx import routes: the upload (a job whose dry run reports per-row
 * errors and a diff) and the confirm (the apply, all rows or none); the job's runner is in
 * resource-import-run.ts.
 */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import type { ImportReport } from "../../shared/crud/list";
import { badRequest, DomainError, notFound } from "../../shared/errors";
import { auditScope } from "../common/audit";
import { JobGone } from "../jobs/user-jobs";
import type { Ctx, ExcelDef, ResourceParts } from "./resource-def";
import { applyImport, dryRunImport } from "./resource-import-run";

export function registerImportRoutes<V extends { id: number }, C, U>(parts: ResourceParts<V, C, U>, excel: ExcelDef<V, C, U>) {
  const { app, db, jobs, def, ctxOf } = parts;
  const tags = def.tags;

  app.post(
    `${def.path}/import`,
    {
      schema: {
        tags,
        summary: `导入${def.label}：上传 .xlsx，先试运行（逐行错误和差异）`,
        consumes: ["multipart/form-data"],
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: [def.object, "create"] },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const part = await req.file();
      if (!part) throw badRequest("请选择要导入的 .xlsx 文件");
      if (!/\.xlsx$/i.test(part.filename)) throw badRequest("只支持 .xlsx 格式的文件，请使用导入模板");
      // A token's import names the token in the audit rows its apply writes (in whichever process).
      const jobId = await jobs.create(
        "import",
        def.entity,
        ctx.user.id,
        req.apiToken ? { tokenName: req.apiToken.name } : undefined,
      );
      // The upload goes to the blob store: any process can run the dry run.
      const { sha256 } = await jobs.store.put(part.file);
      if (part.file.truncated) {
        await jobs.failNow(jobId, "文件过大");
        throw badRequest("文件过大，请拆分后再导入");
      }
      await jobs.setInput(jobId, sha256);
      await jobs.enqueue(jobId);
      return reply.code(202).send({ error: 0, info: "文件已上传，正在检查", data: { jobId } });
    },
  );

  /** An import job: the dry run while it is running, the apply once confirmed. */
  jobs.register("import", def.entity, async (rc) => {
    const ctx: Ctx = { db, user: rc.user };
    if (rc.job.status === "running") {
      try {
        await dryRunImport(parts, excel, ctx, rc);
      } catch (err) {
        if (err instanceof JobGone || rc.signal.aborted) throw err;
        await jobs.finish(rc.job.id, "running", "failed", {
          message: err instanceof DomainError ? err.info : "无法读取该文件，请确认是 .xlsx 格式并使用导入模板",
        });
      }
    } else {
      const tokenName = (rc.params as { tokenName?: unknown } | undefined)?.tokenName;
      if (typeof tokenName === "string") await auditScope.run({ tokenName, rows: 0 }, () => applyImport(parts, excel, ctx, rc));
      else await applyImport(parts, excel, ctx, rc);
    }
  });

  app.post(
    `${def.path}/import/:jobId/confirm`,
    {
      schema: {
        tags,
        summary: `确认导入${def.label}：在一个事务中全部导入或全部不导入`,
        params: Type.Object({ jobId: Type.String({ format: "uuid" }) }),
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: [def.object, "create"] },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const { jobId } = req.params as { jobId: string };
      const job = await jobs.get(jobId, ctx.user.id);
      if (!job || job.kind !== "import" || job.resource !== def.entity) throw notFound("导入任务不存在");
      const refused = (status: string) =>
        badRequest(
          status === "done"
            ? "该导入已完成，不能重复确认"
            : status === "applying"
              ? "该导入已确认，正在导入，不能重复确认"
              : status === "cancelled"
                ? "该导入已取消"
                : "该导入任务尚未完成检查或已失败",
        );
      if (job.status !== "ready") throw refused(job.status);
      const report = job.result as ImportReport;
      if (report.errors.length) throw badRequest("文件中存在错误行，请修正后重新上传");
      // ready → applying in one conditional update: of two confirms exactly one wins.
      if (!(await jobs.confirm(jobId, report.created + report.changed))) {
        const now = await jobs.get(jobId, ctx.user.id);
        throw refused(now?.status ?? "failed");
      }
      return reply.code(202).send({ error: 0, info: "正在导入", data: { jobId } });
    },
  );
}
