/** Progress, downloads and cancelling of the user's own import and export jobs (any process answers: the state is in the job row). */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { JobView } from "../../shared/crud/list";
import { gone, notFound } from "../../shared/errors";
import type { Jobs } from "./user-jobs";
import { utf8Attachment } from "../common/http";

const tags = ["导入导出"];
const JobParam = Type.Object({ id: Type.String({ format: "uuid", title: "任务" }) });

export function jobRoutes(app: FastifyInstance, jobs: Jobs) {
  app.get(
    "/Backend/Common/job/:id",
    {
      schema: { tags, summary: "导入或导出任务的进度和结果", params: JobParam, response: { 200: Envelope(JobView) } },
      config: { access: ["api.job", "read"] },
    },
    async (req) => {
      const job = await jobs.get((req.params as { id: string }).id, req.user!.id);
      if (!job) throw notFound("任务不存在");
      const { outputSha256: _o, ...view } = job;
      return { error: 0, info: "成功", data: view };
    },
  );

  app.post(
    "/Backend/Common/job/:id/cancel",
    {
      schema: {
        tags,
        summary: "取消任务：进行中的导出停止；尚未导入的导入不再导入；已完成的不能取消",
        params: JobParam,
        response: { 200: Envelope(JobView) },
      },
      config: { access: ["api.job", "update"] },
    },
    async (req) => {
      const id = (req.params as { id: string }).id;
      await jobs.cancel(id, req.user!.id);
      const { outputSha256: _o, ...view } = (await jobs.get(id, req.user!.id))!;
      return { error: 0, info: "任务已取消", data: view };
    },
  );

  app.get(
    "/Backend/Common/job/:id/download",
    {
      schema: { tags, summary: "下载导出的文件（.xlsx；证书批量打印为 .pdf）", params: JobParam },
      config: { access: ["api.job", "read"] },
    },
    async (req, reply) => {
      const job = await jobs.get((req.params as { id: string }).id, req.user!.id);
      if (!job || job.kind !== "export") throw notFound("导出任务不存在");
      if (job.status !== "done" || !job.outputSha256) throw notFound("导出尚未完成");
      if (!(await jobs.store.has(job.outputSha256))) throw gone("导出文件已被清理，请重新导出");
      const out = jobs.outputOf(job.resource);
      const name = `${out.name ?? job.resource}-${new Date().toISOString().slice(0, 10)}.${out.ext}`;
      return reply
        .header("content-type", out.contentType)
        .header("content-disposition", utf8Attachment(name))
        .send(await jobs.store.get(job.outputSha256));
    },
  );
}
