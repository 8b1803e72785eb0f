/**
 * The duplicate check's admin routes (root, /admin/ElasticSearch): the engine's status, index
 * entries, the ignored shingles, settings, the rebuild job, reindexing one work.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import {
  DupAdminStats,
  DupEntriesQuery,
  DupEntryRow,
  DupIgnoredQuery,
  DupRebuildBody,
  DupSettingsBody,
} from "../../shared/dupcheck/api";
import { DupIgnoredShingle, DupSettings } from "../../shared/dupcheck/schema";
import { Page } from "../../shared/crud/list";
import { WorkIdParam } from "../../shared/work/schema";
import { adminEntries, adminStats, reindexWork, startRebuild, updateSettings } from "./admin";
import { ignoredShingles } from "./index";
import { P, ok, tags, type DupDeps } from "./route-kit";

export function adminRoutes(app: FastifyInstance, deps: DupDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, jobs, queue } = deps;
  const A = `${P}/admin`;
  r.get(
    `${A}/stats`,
    {
      schema: {
        tags,
        summary: "查重引擎状态：已索引、等待索引、索引失败的作品数，阈值和参数，上次重建，正在进行的重建，上次基准测试的结果",
        response: { 200: Envelope(DupAdminStats) },
      },
      config: { access: ["api.dupcheckAdmin", "read"] },
    },
    async (req) => ok(await adminStats(db, jobs, req.user!)),
  );

  r.get(
    `${A}/entries`,
    {
      schema: {
        tags,
        summary: "索引条目：按状态筛选（索引失败的原因、未查重的文档）",
        querystring: DupEntriesQuery,
        response: { 200: Envelope(Page(DupEntryRow)) },
      },
      config: { access: ["api.dupcheckAdmin", "read"] },
    },
    async (req) => ok(await adminEntries(db, req.query)),
  );

  r.get(
    `${A}/ignored`,
    {
      schema: {
        tags,
        summary: "被忽略的常见片段（出现在大量作品中的模板语句等）",
        querystring: DupIgnoredQuery,
        response: { 200: Envelope(Page(DupIgnoredShingle)) },
      },
      config: { access: ["api.dupcheckAdmin", "read"] },
    },
    async (req) => {
      const size = req.query.pageSize ?? 50;
      const { total, items } = await ignoredShingles(db, { limit: size, offset: ((req.query.current ?? 1) - 1) * size });
      return ok({ list: items, total });
    },
  );

  r.put(
    `${A}/settings`,
    {
      schema: {
        tags,
        summary: "修改阈值（疑似重复、高度疑似重复，立即生效）和常见片段的设置（下次重建生效）",
        body: DupSettingsBody,
        response: { 200: Envelope(DupSettings) },
      },
      config: { access: ["api.dupcheckAdmin", "update"] },
    },
    async (req) => ok(await updateSettings(db, req.body), "查重设置已保存"),
  );

  r.post(
    `${A}/rebuild`,
    {
      schema: {
        tags,
        summary: "重建查重索引（后台任务，进度：/Backend/Common/job/:id）；同一时间只能有一个重建",
        body: DupRebuildBody,
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: ["api.dupcheckAdmin", "update"] },
    },
    async (req, reply) =>
      reply.code(202).send(ok({ jobId: await startRebuild(db, jobs, req.user!, !!req.body.reextract) }, "查重索引开始重建")),
  );

  r.post(
    `${A}/work/:id/reindex`,
    {
      schema: {
        tags,
        summary: "重新为一件作品建立索引（后台）",
        params: WorkIdParam,
        response: { 200: Envelope(Type.Object({ workId: Type.Integer() })) },
      },
      config: { access: ["api.dupcheckAdmin", "update"] },
    },
    async (req) => {
      await reindexWork(db, queue, req.params.id);
      return ok({ workId: req.params.id }, "已加入索引队列");
    },
  );
}
