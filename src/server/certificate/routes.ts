/**
 * Certificate routes: public verification (src/shared/certificate/schema.ts) and printing,
 * templates and own downloads (src/shared/certificate/print-schema.ts, which lists them).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { Id } from "../../shared/bounds";
import { Page } from "../../shared/crud/list";
import { CertificateCheck, CertificateKey, VerifyQuery } from "../../shared/certificate/schema";
import { SAMPLE_FACTS, verifyUrl } from "../../shared/certificate/layout";
import {
  BrowserPrint,
  BrowserPrintConfirm,
  BrowserPrintLogged,
  CertContest,
  CertificateRow,
  CertListQuery,
  MyCertificate,
  PrintBody,
  PrintLogRow,
  TemplateBody,
  TemplateView,
} from "../../shared/certificate/print-schema";
import type { AccessRule } from "../../shared/access";
import type { Config } from "../config";
import type { Db } from "../db";
import type { Jobs } from "../jobs/user-jobs";
import type { BlobStore } from "../storage";
import { perAddress } from "../plugins/limits";
import { publicKeys } from "./signing";
import { checkCertificateCached } from "./verify";
import {
  browserPrint,
  confirmBrowserPrint,
  certificateContests,
  listCertificates,
  myCertificatePdf,
  myCertificates,
  printLog,
  registerCertificatePdf,
  renderToBuffer,
  startPdf,
} from "./print";
import {
  BACKGROUND_MAX_BYTES,
  contestTemplates,
  previewLayout,
  saveTemplate,
  uploadBackground,
  visibleBackground,
} from "./templates";
import { receiveImage } from "../storage/image-upload";
import { assertPrintable } from "./pdf";
import { closeIfUnread } from "../plugins/uploads";
import { ok, utf8Attachment } from "../common/http";

const tags = ["证书"];

export interface CertificateDeps {
  db: Db;
  store: BlobStore;
  jobs: Jobs;
  config: Config;
}

const IdParam = Type.Object({ id: Id("证书") });
const ShaParam = Type.Object({ sha256: Type.String({ pattern: "^[0-9a-f]{64}$", maxLength: 64, title: "图片" }) });
const ContestQuery = Type.Object({ contestId: Id("竞赛") });
const Background = Type.Object({ sha256: Type.String(), width: Type.Integer(), height: Type.Integer() });

/** Where a QR code points: PUBLIC_URL, else the address this request was sent to. */
const originOf = (config: Config) => (req: FastifyRequest) =>
  config.publicUrlSet ? config.publicUrl : `${req.protocol}://${req.host}`;

export function certificateRoutes(app: FastifyInstance, deps: CertificateDeps) {
  registerCertificatePdf(deps.db, deps.jobs);
  verificationRoutes(app, deps);
  printingRoutes(app, deps);
  templateRoutes(app, deps);
  ownCertificateRoutes(app, deps);
}

/** Public verification: a certificate's check and the signing keys. */
function verificationRoutes(app: FastifyInstance, { db, config }: CertificateDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    "/Backend/Certificate/verify",
    {
      schema: {
        tags,
        summary:
          "核验证书：编号 + 持证人姓名（可附验证码），或编号 + 验证码（证书二维码，无需姓名）；未知编号、姓名不符、验证码不符的回答相同",
        querystring: VerifyQuery,
        response: { 200: Envelope(CertificateCheck) },
      },
      config: { access: "public", limits: [perAddress("certificate-verify", config.certVerifyRateMax)] },
    },
    async (req) => ok(await checkCertificateCached(db, req.query)),
  );
  r.get(
    "/Backend/Certificate/keys",
    {
      schema: {
        tags,
        summary: "证书签名公钥（历来使用的全部公钥及有效期）",
        response: { 200: Envelope(Type.Array(CertificateKey)) },
      },
      config: { access: "public" },
    },
    async () => ok(await publicKeys(db)),
  );
  // The same list at a well-known address, without the envelope, for verifiers elsewhere.
  r.get(
    "/.well-known/certificate-keys.json",
    {
      schema: {
        tags,
        summary: "证书签名公钥（同 /Backend/Certificate/keys，不带信封，可跨站读取）",
        response: { 200: Type.Array(CertificateKey) },
      },
      config: { access: "public" },
    },
    async (_req, reply) => {
      reply.header("access-control-allow-origin", "*").header("cache-control", "public, max-age=300");
      return publicKeys(db);
    },
  );
}

/** Printing (root: every contest; contest admins: their contests): lists, print log, browser print and PDF jobs. */
function printingRoutes(app: FastifyInstance, { db, jobs, config }: CertificateDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const origin = originOf(config);
  const certs = (action: "read" | "update"): AccessRule => ["api.certificates", action];
  r.get(
    "/Backend/Certificate/contests",
    {
      schema: {
        tags,
        summary: "可打印证书的赛事（管理范围内、已有证书或已发布结果）",
        response: { 200: Envelope(Type.Array(CertContest)) },
      },
      config: { access: certs("read") },
    },
    async (req) => ok(await certificateContests(db, req.user!)),
  );

  r.get(
    "/Backend/Certificate/list",
    {
      schema: {
        tags,
        summary: "证书列表（每个编号的最新版本）：按分组、奖项、学校、持证人类型、状态、关键词、是否打印过筛选",
        querystring: CertListQuery,
        response: { 200: Envelope(Page(CertificateRow)) },
      },
      config: { access: certs("read") },
    },
    async (req) => ok(await listCertificates(db, req.user!, req.query)),
  );

  r.get(
    "/Backend/Certificate/:id/prints",
    {
      schema: {
        tags,
        summary: "证书（该编号各版本）的打印记录：谁、何时、何种方式、是否重印",
        params: IdParam,
        response: { 200: Envelope(Type.Array(PrintLogRow)) },
      },
      config: { access: certs("read") },
    },
    async (req) => ok(await printLog(db, req.user!, req.params.id)),
  );

  r.post(
    "/Backend/Certificate/print/browser",
    {
      schema: {
        tags,
        summary:
          "浏览器打印：返回每张证书的内容、二维码和所用模板（不记入打印记录，用户确认已打印后由 …/browser/confirm 记录）；已撤销或已换发的证书不打印",
        body: PrintBody,
        response: { 200: Envelope(BrowserPrint) },
      },
      config: { access: certs("update") },
    },
    async (req) => {
      const out = await browserPrint(db, req.user!, req.body, origin(req));
      return ok(out, `共 ${out.sheets.length} 张证书${out.skipped ? `，${out.skipped} 张已撤销或已换发新版本，不打印` : ""}`);
    },
  );

  r.post(
    "/Backend/Certificate/print/browser/confirm",
    {
      schema: {
        tags,
        summary: "确认浏览器打印已完成：记入打印记录（以前打印过的记为补打）；已撤销或已换发的证书不记录",
        body: BrowserPrintConfirm,
        response: { 200: Envelope(BrowserPrintLogged) },
      },
      config: { access: certs("update") },
    },
    async (req) => {
      const out = await confirmBrowserPrint(db, req.user!, req.body);
      return ok(out, `已记录 ${out.count} 张证书的打印${out.reprints ? `（其中 ${out.reprints} 张为补打）` : ""}`);
    },
  );

  r.post(
    "/Backend/Certificate/print/pdf",
    {
      schema: {
        tags,
        summary: "批量生成 PDF（后台任务）：进度 GET /Backend/Common/job/:id，下载 GET /Backend/Common/job/:id/download",
        body: PrintBody,
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: certs("update") },
    },
    async (req, reply) => {
      const { jobId, count, skipped } = await startPdf(db, jobs, req.user!, req.body, origin(req));
      return reply
        .code(202)
        .send(ok({ jobId }, `正在生成 ${count} 张证书的 PDF${skipped ? `（${skipped} 张已撤销或已换发新版本，不打印）` : ""}`));
    },
  );
}

/** The contests' certificate templates, their background images and previews. */
function templateRoutes(app: FastifyInstance, { db, store, config }: CertificateDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const origin = originOf(config);
  const tpl = (action: "read" | "update"): AccessRule => ["api.certificateTemplates", action];
  r.get(
    "/Backend/Certificate/templates",
    {
      schema: {
        tags,
        summary: "赛事的证书模板（每种证书一个；未保存的为内置默认模板）",
        querystring: ContestQuery,
        response: { 200: Envelope(Type.Array(TemplateView)) },
      },
      config: { access: tpl("read") },
    },
    async (req) => ok(await contestTemplates(db, req.user!, req.query.contestId)),
  );

  r.put(
    "/Backend/Certificate/templates",
    {
      schema: {
        tags,
        summary: "保存证书模板：字段超出页面等问题时不保存（400，指明字段）",
        body: TemplateBody,
        response: { 200: Envelope(TemplateView) },
      },
      config: { access: tpl("update") },
    },
    async (req) => ok(await saveTemplate(db, store, req.user!, req.body), "模板已保存"),
  );

  r.post(
    "/Backend/Certificate/templates/background",
    {
      schema: {
        tags,
        summary: "上传证书底图（multipart/form-data：file）；PNG 或 JPEG，不超过 10 MB",
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(Background) },
      },
      config: { access: tpl("update"), limits: [perAddress("certificate-background", 30)] },
    },
    async (req, reply) => {
      try {
        const out = await uploadBackground(
          db,
          store,
          req.user!,
          await receiveImage(req, { what: "背景图片", maxBytes: BACKGROUND_MAX_BYTES }),
        );
        return reply.code(201).send(ok(out, "底图已上传"));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.get(
    "/Backend/Certificate/background/:sha256",
    {
      schema: { tags, summary: "证书底图（本人上传的，或管理范围内赛事模板使用的）", params: ShaParam },
      config: { access: tpl("read") },
    },
    async (req, reply) => {
      const type = await visibleBackground(db, req.user!, req.params.sha256);
      return reply
        .header("content-type", type)
        .header("cache-control", "private, max-age=86400")
        .send(await store.get(req.params.sha256));
    },
  );

  r.post(
    "/Backend/Certificate/templates/preview",
    {
      schema: { tags, summary: "模板预览：用示例数据生成一页 PDF（模板不保存）", body: TemplateBody },
      config: { access: tpl("update"), limits: [perAddress("certificate-preview", 120)] },
    },
    async (req, reply) => {
      const layout = await previewLayout(db, store, req.user!, req.body);
      const item = { facts: SAMPLE_FACTS, layout, verifyUrl: verifyUrl(origin(req), SAMPLE_FACTS.number, "示例证书") };
      assertPrintable(item);
      const pdf = await renderToBuffer([item], store);
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", 'inline; filename="preview.pdf"')
        .send(pdf);
    },
  );
}

/** A holder's own certificates and their PDFs. */
function ownCertificateRoutes(app: FastifyInstance, { db, store, config }: CertificateDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const origin = originOf(config);
  r.get(
    "/Backend/Certificate/mine",
    {
      schema: {
        tags,
        summary: "我的证书（已发布结果的，及已撤销、已换发的）",
        response: { 200: Envelope(Type.Array(MyCertificate)) },
      },
      config: { access: ["api.myCertificates", "read"] },
    },
    async (req) => ok(await myCertificates(db, req.user!, origin(req))),
  );

  r.get(
    "/Backend/Certificate/mine/:id/pdf",
    {
      schema: { tags, summary: "下载本人的证书（PDF）；已撤销或已换发的版本不能下载", params: IdParam },
      config: { access: ["api.myCertificates", "read"], limits: [perAddress("certificate-download", 30)] },
    },
    async (req, reply) => {
      const { pdf, number } = await myCertificatePdf(db, store, req.user!, req.params.id, origin(req));
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", utf8Attachment(`证书-${number}.pdf`))
        .send(pdf);
    },
  );
}
