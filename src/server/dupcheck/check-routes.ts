/**
 * The duplicate check's routes for users: checks by work id, pasted text and uploaded
 * document; the side by side views of a pair; the review sheet's matches.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Envelope } from "../../shared/envelope";
import { badRequest } from "../../shared/errors";
import {
  DupFilters,
  DupPairDocumentQuery,
  DupPairParams,
  DupPairTextBody,
  DupPairView,
  DupSheetPanel,
  DupTextBody,
  DupTextReport,
  DupWorkReport,
  MAX_DOCUMENT_MB,
} from "../../shared/dupcheck/api";
import { WorkIdParam } from "../../shared/work/schema";
import { loadForReview } from "../review/sheet";
import { closeIfUnread } from "../plugins/uploads";
import { PER_USER, P, ctxOf, ok, read, receiveDocument, tags, textInfo, type DupDeps } from "./route-kit";
import { checkDocumentFor, checkTextFor, checkWorkFor, documentText, pairFor, pairTextFor, sheetPanelFor } from "./service";

/** Checks: a work by id, a pasted text, an uploaded document. */
export function checkRoutes(app: FastifyInstance, deps: DupDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = (req: FastifyRequest) => ctxOf(deps, req);
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
}

/** Side by side: two works, a pasted text or an uploaded document and a work. */
export function pairRoutes(app: FastifyInstance, deps: DupDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = (req: FastifyRequest) => ctxOf(deps, req);
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
}

/** The review sheet's panel: the work's index status and its closest matches. */
export function sheetRoutes(app: FastifyInstance, deps: DupDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = deps;
  const ctx = (req: FastifyRequest) => ctxOf(deps, req);
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
}
