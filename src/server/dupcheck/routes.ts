/**
 * The duplicate check's routes (contract and scope rules: src/shared/dupcheck/api.ts): checks
 * by work id, pasted text and uploaded document; the side by side views; the review sheet's
 * matches; the batch report job; the admin page (/admin/ElasticSearch). Registers the
 * background indexing, the report's and the rebuild's job runners.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import "@fastify/multipart";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { badRequest, invalid, tooLarge } from "../../shared/errors";
import {
  DOCUMENT_TYPES,
  DupAdminStats,
  DupEntriesQuery,
  DupEntryRow,
  DupFilters,
  DupIgnoredQuery,
  DupPairDocumentQuery,
  DupPairParams,
  DupPairTextBody,
  DupPairView,
  DupRebuildBody,
  DupReportBody,
  DupReportContest,
  DupSettingsBody,
  DupSheetPanel,
  DupTextBody,
  DupTextReport,
  DupWorkReport,
  MAX_DOCUMENT_MB,
} from "../../shared/dupcheck/api";
import { DupIgnoredShingle, DupSettings } from "../../shared/dupcheck/schema";
import { Page } from "../../shared/crud/list";
import { WorkIdParam } from "../../shared/work/schema";
import type { Jobs } from "../crud/jobs";
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import type { TaskQueue } from "../jobs/queue";
import { loadForReview } from "../review/sheet";
import { MINUTE, type LimitRule } from "../plugins/limits";
import { adminEntries, adminStats, registerRebuild, reindexWork, startRebuild, updateSettings } from "./admin";
import { EXTRACT_LIMITS, ignoredShingles } from "./index";
import { startIndexing } from "./indexing";
import { registerReport, reportContests, startReport } from "./report";
import {
  checkDocumentFor,
  checkTextFor,
  checkWorkFor,
  documentText,
  pairFor,
  pairTextFor,
  sheetPanelFor,
  type DupCtx,
} from "./service";
import { closeIfUnread } from "../plugins/uploads";

const tags = ["作品查重"];
const P = "/Backend/DupCheck";
const ok = <T>(data: T, info = "成功") => ({ error: 0, info, data });

export interface DupDeps {
  db: Db;
  store: BlobStore;
  jobs: Jobs;
  queue: TaskQueue;
  log: (msg: string, err?: unknown) => void;
}

const MB = 1024 * 1024;
const maxDocumentBytes = () => Math.min(MAX_DOCUMENT_MB * MB, EXTRACT_LIMITS.maxFileBytes);

/** Reads the uploaded document (multipart field `file`) into memory, refusing other types and oversized files. */
async function receiveDocument(req: FastifyRequest): Promise<{ filename: string; bytes: Buffer }> {
  if (!req.isMultipart()) throw badRequest("请以 multipart/form-data 方式上传文档（表单字段 file）");
  const max = maxDocumentBytes();
  const options = { limits: { fileSize: max + 1, files: 1, fields: 5, parts: 6 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") continue;
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("文档须以表单字段 file 发送");
    }
    const filename = String(part.filename ?? "")
      .replace(/\\/g, "/")
      .split("/")
      .pop()!
      .replace(/[\u0000-\u001f\u007f]/g, "")
      .trim()
      .slice(-200);
    const ext = filename.toLowerCase().split(".").pop() ?? "";
    if (!filename || !(DOCUMENT_TYPES as readonly string[]).includes(ext)) {
      part.file.destroy();
      throw invalid(
        "file",
        `只能上传 ${DOCUMENT_TYPES.map((t) => `.${t}`).join("、")} 文档进行查重${filename ? `，「${filename}」不符合` : ""}`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of part.file) {
      size += (c as Buffer).length;
      if (size > max) break;
      chunks.push(c as Buffer);
    }
    if (size > max || part.file.truncated) {
      part.file.destroy();
      throw tooLarge(`查重的文档不能超过 ${Math.floor(max / MB)} MB，「${filename}」超过了这一限制`);
    }
    return { filename, bytes: Buffer.concat(chunks) };
  }
  throw badRequest("请选择要查重的文档");
}

/** Texts and documents cost CPU (extraction, shingling, passages): at most 60 a minute per account. */
const PER_USER: LimitRule[] = [
  { name: "dupcheck-text", max: 60, windowMs: MINUTE, key: (req) => (req.user ? `user:${req.user.id}` : null) },
];

const textInfo = (r: DupTextReport) =>
  r.index.tooShort
    ? (r.index.reason ?? "文本太短，无法有意义地查重")
    : r.matches.length
      ? `找到 ${r.matches.length} 件相似作品`
      : "未发现相似作品";

export async function dupcheckRoutes(app: FastifyInstance, deps: DupDeps) {
  const { db, store, jobs, queue } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = (req: FastifyRequest): DupCtx => ({ db, store, user: req.user! });
  const read = ["api.dupcheck", "read"] as const;

  registerReport(db, store, jobs);
  registerRebuild(db, store, jobs);
  const stopIndexing = await startIndexing({ db, store, queue, log: deps.log });
  app.addHook("onClose", async () => stopIndexing());

  r.get(
    `${P}/work/:id`,
    {
      schema: {
        tags,
        summary:
          "按作品编号查重：与同年度及以前年度的全部作品比较；范围外的相似作品只列出编号和年度（作品须在您的查重范围内，否则 404）",
        params: WorkIdParam,
        querystring: DupFilters,
        response: { 200: Envelope(DupWorkReport) },
      },
      config: { access: read },
    },
    async (req) => {
      const data = await checkWorkFor(ctx(req), req.params.id, req.query);
      return ok(data, data.index.tooShort ? (data.index.reason ?? "作品文字太少，无法有意义地查重") : "成功");
    },
  );

  r.post(
    `${P}/text`,
    {
      schema: {
        tags,
        summary: "粘贴文本查重：与全部年度的作品比较；太短的文本说明无法查重（不给出 0%）",
        body: DupTextBody,
        response: { 200: Envelope(DupTextReport) },
      },
      config: { access: read, limits: PER_USER },
    },
    async (req) => {
      const { text, title: _t, ...filters } = req.body;
      const data = await checkTextFor(ctx(req), text, filters);
      return ok(data, textInfo(data));
    },
  );

  r.post(
    `${P}/document`,
    {
      schema: {
        tags,
        summary: `上传文档查重（multipart/form-data，字段 file；.docx 或 .pdf，不超过 ${MAX_DOCUMENT_MB} MB）：读出文字后与全部年度的作品比较`,
        querystring: DupFilters,
        consumes: ["multipart/form-data"],
        response: { 200: Envelope(DupTextReport) },
      },
      config: { access: read, limits: PER_USER },
    },
    async (req, reply) => {
      try {
        const { filename, bytes } = await receiveDocument(req);
        const data = await checkDocumentFor(ctx(req), filename, bytes, req.query);
        return ok(data, textInfo(data));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.get(
    `${P}/pair/:a/:b`,
    {
      schema: {
        tags,
        summary: "两件作品并排对比：共同片段在两边的位置和高亮，双向包含率；作品 A 须在您的范围内，B 在范围外时只显示共同片段",
        params: DupPairParams,
        response: { 200: Envelope(DupPairView) },
      },
      config: { access: ["api.dupcheckPair", "read"] },
    },
    async (req) => ok(await pairFor(ctx(req), req.params.a, req.params.b)),
  );

  r.post(
    `${P}/pair-text`,
    {
      schema: { tags, summary: "粘贴的文本与一件作品并排对比", body: DupPairTextBody, response: { 200: Envelope(DupPairView) } },
      config: { access: read, limits: PER_USER },
    },
    async (req) => ok(await pairTextFor(ctx(req), req.body.text, req.body.title?.trim() || "粘贴的文本", req.body.workId)),
  );

  r.post(
    `${P}/pair-document`,
    {
      schema: {
        tags,
        summary: "上传的文档与一件作品并排对比（multipart/form-data，字段 file）",
        querystring: DupPairDocumentQuery,
        consumes: ["multipart/form-data"],
        response: { 200: Envelope(DupPairView) },
      },
      config: { access: read, limits: PER_USER },
    },
    async (req, reply) => {
      try {
        const { filename, bytes } = await receiveDocument(req);
        const { text, document } = await documentText(filename, bytes);
        if (!text.trim())
          throw badRequest(
            document.reason ? `「${filename}」无法对比：${document.reason.message}` : `「${filename}」中没有读到文字`,
          );
        return ok(await pairTextFor(ctx(req), text, filename, req.query.workId));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.get(
    "/Backend/Review/work/:id/dupcheck",
    {
      schema: {
        tags: ["形式审查"],
        summary: "审查单的查重结果：作品的索引状态和最相似的几件作品（审查该作品的人可见）",
        params: WorkIdParam,
        response: { 200: Envelope(DupSheetPanel) },
      },
      config: { access: ["api.formReview", "read"] },
    },
    async (req) => {
      const l = await loadForReview(db, req.user!, req.params.id);
      return ok(await sheetPanelFor(ctx(req), l.work.id, l.work.status));
    },
  );

  // ---- batch report (root, contest admins)
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

  // ---- admin (root): /admin/ElasticSearch
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
