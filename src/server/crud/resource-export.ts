/** A resource's .xlsx files out: the import template, and the export of the filtered rows as a background job. */
import { readFile, rm } from "node:fs/promises";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import type { RunCtx } from "../jobs/user-jobs";
import { writeXlsx } from "./excel";
import type { Ctx, ExcelDef, ResourceParts } from "./resource-def";
import { utf8Attachment } from "../common/http";

export function registerExportRoutes<V extends { id: number }, C, U>(parts: ResourceParts<V, C, U>, excel: ExcelDef<V, C, U>) {
  const { app, jobs, def, ctxOf } = parts;
  const tags = def.tags;
  const importable = excel.columns.filter((c) => !c.readOnly);

  app.get(
    `${def.path}/template`,
    {
      schema: { tags, summary: `下载${def.label}导入模板 (.xlsx)` },
      config: { access: [def.object, "create"] },
    },
    async (_req, reply) => {
      const file = await jobs.tmpPath("xlsx");
      try {
        await writeXlsx(file, excel.sheet, importable, (async function* () {})());
        const buf = await readFile(file);
        return reply
          .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          .header("content-disposition", utf8Attachment(`${def.label}导入模板.xlsx`))
          .send(buf);
      } finally {
        await rm(file, { force: true });
      }
    },
  );

  app.post(
    `${def.path}/export`,
    {
      schema: {
        tags,
        summary: `导出${def.label}（当前筛选条件，后台生成 .xlsx）`,
        body: def.filters,
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: [def.object, "read"] as const },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const jobId = await jobs.create("export", def.entity, ctx.user.id, { filters: req.body ?? {} });
      await jobs.enqueue(jobId);
      return reply.code(202).send({ error: 0, info: "导出任务已开始", data: { jobId } });
    },
  );

  jobs.register("export", def.entity, (rc) => runExport(parts, excel, rc));
}

/** The export, in whichever process takes the job: the filtered rows a page at a time into an .xlsx blob. */
async function runExport<V extends { id: number }, C, U>(
  { db, jobs, def }: ResourceParts<V, C, U>,
  excel: ExcelDef<V, C, U>,
  rc: RunCtx,
) {
  const ctx: Ctx = { db, user: rc.user };
  const filters = (rc.params.filters ?? {}) as Record<string, unknown>;
  const first = await def.list(ctx, { filters, sort: [], offset: 0, limit: 1 });
  rc.progress(0, first.total);
  let done = 0;
  const file = await jobs.tmpPath("xlsx");
  try {
    const BATCH = 1000;
    await writeXlsx(
      file,
      excel.sheet,
      excel.columns,
      (async function* () {
        for (let offset = 0; ; offset += BATCH) {
          rc.signal.throwIfAborted();
          const page = await def.list(ctx, { filters, sort: [["id", "asc"]], offset, limit: BATCH });
          if (!page.list.length) break;
          yield page.list.map((v) => excel.columns.map((c) => c.get(v)));
          done += page.list.length;
          rc.progress(done);
          if (page.list.length < BATCH) break;
        }
      })(),
    );
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
  const sha = await jobs.storeFile(file);
  await jobs.finish(rc.job.id, "running", "done", {
    output_sha256: sha,
    processed: done,
    total: done,
    message: `已导出 ${done} 条`,
  });
}
