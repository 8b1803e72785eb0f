/** Progress and downloads of the user's own import and export jobs. */
import { createReadStream, existsSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { JobView } from "../../shared/crud/list";
import { gone, notFound } from "../../shared/errors";
import type { Jobs } from "./jobs";

const tags = ["导入导出"];
const JobParam = Type.Object({ id: Type.String({ format: "uuid", title: "任务" }) });

export function jobRoutes(app: FastifyInstance, jobs: Jobs) {
  app.get("/Backend/Common/job/:id", {
    schema: { tags, summary: "导入或导出任务的进度和结果", params: JobParam, response: { 200: Envelope(JobView) } },
    config: { access: ["api.job", "read"] },
  }, async (req) => {
    const job = await jobs.get((req.params as { id: string }).id, req.user!.id);
    if (!job) throw notFound("任务不存在");
    const { file: _f, ...view } = job;
    return { error: 0, info: "成功", data: view };
  });

  app.get("/Backend/Common/job/:id/download", {
    schema: { tags, summary: "下载导出的 .xlsx 文件", params: JobParam },
    config: { access: ["api.job", "read"] },
  }, async (req, reply) => {
    const job = await jobs.get((req.params as { id: string }).id, req.user!.id);
    if (!job || job.kind !== "export") throw notFound("导出任务不存在");
    if (job.status !== "done" || !job.file) throw notFound("导出尚未完成");
    if (!existsSync(job.file)) throw gone("导出文件已被清理，请重新导出");
    const name = `${job.resource}-${new Date().toISOString().slice(0, 10)}.xlsx`;
    return reply
      .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
      .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(createReadStream(job.file));
  });
}
