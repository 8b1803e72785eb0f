/**
 * Complaints and arbitration on the server; the route list is in
 * src/shared/complaint/schema.ts. Visitors (/Backend/Public/complaint/…) prove their email
 * with a mailed code whose token they send along; everything else needs a login and the
 * policy object of its area; rows are checked in scope.ts (404 out of scope).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import "@fastify/multipart";
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../shared/envelope";
import { ListParams, Page } from "../../shared/crud/list";
import {
  ArbitrationBody,
  ArbitrationRequestBody,
  CodeBody,
  CodeSent,
  ComplaintContest,
  ComplaintContestParam,
  ComplaintCounts,
  ComplaintFilters,
  ComplaintIdParam,
  ComplaintInfo,
  ComplaintListItem,
  ComplaintSettings,
  ComplaintWorkParam,
  ComplaintWorkView,
  ContestHandler,
  CountsQuery,
  DecisionBody,
  EvidenceIdParam,
  EvidenceView,
  FileBody,
  FilerComplaintView,
  HandlerComplaintView,
  HandlersBody,
  OpinionBody,
  StepBody,
  StepOutcome,
  TokenBody,
  TokenQuery,
  VerifyBody,
  VisitorArbitrationBody,
  VisitorFileBody,
  VisitorToken,
  VisitorWithdrawBody,
  WithdrawBody,
} from "../../shared/complaint/schema";
import {
  COMPLAINT_CATEGORY_NAMES,
  APPEAL_CATEGORIES,
  COMPLAINT_CATEGORIES,
  EVIDENCE_EXTENSIONS,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_FILES,
  type ComplaintAction,
} from "../../shared/complaint/states";
import { badRequest, notFound } from "../../shared/errors";
import type { Db } from "../db";
import type { Config } from "../config";
import type { Mailer } from "../mail/mailer";
import type { BlobStore } from "../storage";
import { HOUR, MINUTE, normEmail, perAddress, type LimitRule } from "../plugins/limits";
import { contentDisposition } from "../work/files/routes";
import { findWork } from "../work/repository";
import { publishedAward } from "../judging/service/results/publish";
import {
  contestOfWork,
  fileComplaint,
  sendVisitorCode,
  uploadEvidence,
  verifyVisitorCode,
  visitorEmail,
  windowsOf,
  type IncomingFile,
} from "./filing";
import { applyRejudgeResult, stepInfo, takeStep, type StepInput } from "./transition";
import {
  arbitrationReviewList,
  arbitratorList,
  counts,
  evidenceFor,
  filerList,
  filerView,
  handlerContests,
  handlerList,
  handlerView,
} from "./views";
import { contestHandlers, readSettings, setContestHandlers, writeSettings } from "./manage";
import type { Caller } from "./scope";
import { closeIfUnread } from "../plugins/uploads";
import { resultsPublished } from "../judging/service/results/publish";

const tags = ["申诉与仲裁"];
const ok = <T>(data: T, info = "成功") => ({ error: 0, info, data });

export interface ComplaintDeps {
  db: Db;
  store: BlobStore;
  mailer: Mailer;
  config: Config;
}

const RULES = `<p>比赛结果公示期（及申诉期）内：</p><ul><li><b>申诉</b>：作品的作者或指导教师登录后，可对本作品的形式审查结论、取消资格、评分或奖项提出申诉。</li><li><b>投诉</b>：任何人可对已公布结果中的作品提出投诉（抄袭剽窃、重复参赛、材料虚假、作者未实际参与等）；未登录时须填写真实姓名、手机号，并用邮箱验证码验证邮箱。</li><li>每人对同一作品同时只能有一件未结案的申诉或投诉；可上传图片、PDF、docx、zip 格式的证据材料。</li><li>投诉人的身份只对申诉处理人员可见，不会告知作品的作者、指导教师或学校。</li><li>对处理决定不服的，双方均可在决定后规定期限内申请仲裁；仲裁结果经确认后为最终结果。</li></ul>`;

async function receiveEvidence(req: FastifyRequest): Promise<{ token?: string; file?: IncomingFile }> {
  if (!req.isMultipart()) throw badRequest("请以 multipart/form-data 方式上传证据文件（表单字段 file）");
  let token: string | undefined;
  const options = { limits: { fileSize: EVIDENCE_MAX_BYTES + 1, files: 1, fields: 3, parts: 4 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") {
      if (part.fieldname === "token") token = String(part.value);
      continue;
    }
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("文件须以表单字段 file 发送");
    }
    return { token, file: { filename: part.filename, stream: part.file, truncated: () => part.file.truncated } };
  }
  return { token };
}

export function complaintRoutes(app: FastifyInstance, deps: ComplaintDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, store, mailer, config } = deps;
  const stepDeps = { db, mailer, publicUrl: config.publicUrl, log: (m: string) => app.log.warn(m) };
  const body = <T>(req: { body?: unknown }) => (req.body ?? {}) as T;
  const perEmail = (name: string, max: number, windowMs = MINUTE): LimitRule => ({
    name,
    max,
    windowMs,
    key: (req) => (body<{ email?: string }>(req).email ? normEmail(body<{ email: string }>(req).email) : null),
  });
  const perToken = (name: string, max: number): LimitRule => ({
    name,
    max,
    windowMs: MINUTE,
    key: (req) => body<{ token?: string }>(req).token ?? null,
  });
  // Mail to one mailbox shares the account module's bucket ("mail", MAIL_RATE_MAX an hour).
  const mailTo: LimitRule = {
    name: "mail",
    max: config.mailRateMax,
    windowMs: HOUR,
    key: (req, k) => (body<{ email?: string }>(req).email ? k.recipient(body<{ email: string }>(req).email) : null),
  };
  const visitor = async (token: string): Promise<Caller> => ({ user: null, visitorEmail: await visitorEmail(db, token) });
  const userCaller = (req: FastifyRequest): Caller => ({ user: req.user! });
  const list = (q: { current?: number; pageSize?: number }) => {
    const size = q.pageSize ?? 20;
    return { offset: ((q.current ?? 1) - 1) * size, limit: size };
  };
  const step = async (caller: Caller, id: number, action: ComplaintAction, input: StepInput) => {
    const o = await takeStep(stepDeps, caller, id, action, input);
    return ok(o, stepInfo(action, o));
  };
  const sendFile = async (reply: FastifyReply, e: { mime: string; size: number; filename: string; sha256: string }) =>
    reply
      .header("content-type", e.mime)
      .header("content-length", String(e.size))
      .header("content-disposition", contentDisposition(e.filename))
      .header("cache-control", "private, no-store")
      .send(await store.get(e.sha256));

  // ---- Public entry ----
  const PUB = "/Backend/Public/complaint";

  r.get(
    `${PUB}/info`,
    {
      schema: {
        tags,
        summary: "申诉入口说明：公示/申诉期（已发布结果的赛事）、须知、事由和证据要求",
        response: { 200: Envelope(ComplaintInfo) },
      },
      config: { access: "public" },
    },
    async () => {
      const contests = await db
        .selectFrom("contest")
        .select("contest.id as contest_id")
        .where(resultsPublished("contest.id"))
        .orderBy("contest.id")
        .execute();
      const windows = [];
      for (const c of contests)
        windows.push(...(await windowsOf(db, c.contest_id)).filter((w) => Date.parse(w.endsAt) > Date.now()));
      const opts = (keys: readonly string[]) =>
        keys.map((key) => ({ key, name: COMPLAINT_CATEGORY_NAMES[key as keyof typeof COMPLAINT_CATEGORY_NAMES] }));
      return ok({
        windows,
        notices: [{ contestId: null, title: "申诉与投诉须知", content: RULES }],
        categories: { appeal: opts(APPEAL_CATEGORIES), complaint: opts(COMPLAINT_CATEGORIES) },
        evidence: { extensions: [...EVIDENCE_EXTENSIONS], maxBytes: EVIDENCE_MAX_BYTES, maxFiles: EVIDENCE_MAX_FILES },
      });
    },
  );

  r.get(
    `${PUB}/work/:workId`,
    {
      schema: {
        tags,
        summary: "可申诉/投诉的作品：名称、学校、大类、赛事、已公布奖项、是否在已发布结果中、受理期",
        params: ComplaintWorkParam,
        response: { 200: Envelope(ComplaintWorkView) },
      },
      config: { access: "public", limits: [perAddress("complaint-work", 30)] },
    },
    async (req) => {
      const w = await findWork(db, req.params.workId);
      if (!w || w.status === "draft") throw notFound(`作品 ${req.params.workId} 不存在`);
      const { contestId, published } = await contestOfWork(db, w);
      const contest = await db.selectFrom("contest").select("name").where("id", "=", contestId).executeTakeFirstOrThrow();
      const windows = await windowsOf(db, contestId);
      return ok({
        workId: Number(w.id),
        name: w.name,
        schoolName: w.school_name,
        categoryName: w.category_name,
        contestId,
        contestName: contest.name,
        award: await publishedAward(db, Number(w.id)),
        published,
        window: windows[0] ?? null,
      });
    },
  );

  r.post(
    `${PUB}/code`,
    {
      schema: {
        tags,
        summary: "向邮箱发送一次性验证码（15 分钟内有效）；按地址和邮箱限流",
        body: CodeBody,
        response: { 200: Envelope(CodeSent) },
      },
      config: { access: "public", limits: [perAddress("complaint-code", 5), perEmail("complaint-code-email", 3), mailTo] },
    },
    async (req) =>
      ok(
        await sendVisitorCode(db, mailer, config.publicUrl, req.body.email),
        `验证码已发送至 ${normEmail(req.body.email)}，15 分钟内有效`,
      ),
  );

  r.post(
    `${PUB}/verify`,
    {
      schema: {
        tags,
        summary: "用邮箱和验证码换取查询凭证（2 小时内有效，用于投诉、上传证据和查询本人的投诉）",
        body: VerifyBody,
        response: { 200: Envelope(VisitorToken) },
      },
      config: { access: "public", limits: [perAddress("complaint-verify", 10), perEmail("complaint-verify-email", 10)] },
    },
    async (req) => ok(await verifyVisitorCode(db, req.body.email, req.body.code), "邮箱验证成功"),
  );

  r.post(
    `${PUB}/evidence`,
    {
      schema: {
        tags,
        summary: "访客上传证据（multipart/form-data：先 token 再 file）；图片、PDF、docx、zip，不超过 20 MB",
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(EvidenceView) },
      },
      config: { access: "public", limits: [perAddress("complaint-evidence", 20)] },
    },
    async (req, reply) => {
      try {
        const { token, file } = await receiveEvidence(req);
        if (!token) {
          file?.stream.destroy();
          throw badRequest("请先验证邮箱（表单字段 token 须在文件之前发送）");
        }
        let email: string;
        try {
          email = await visitorEmail(db, token);
        } catch (e) {
          file?.stream.destroy();
          throw e;
        }
        const v = await uploadEvidence(db, store, { userId: null, email }, file);
        return reply.code(201).send(ok(v, `已上传证据「${v.name}」`));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.post(
    PUB,
    {
      schema: {
        tags,
        summary: "访客提交投诉（真实姓名、手机号、已验证的邮箱）",
        body: VisitorFileBody,
        response: { 201: Envelope(FilerComplaintView) },
      },
      config: { access: "public", limits: [perAddress("complaint-file", 30), perToken("complaint-file-token", 5)] },
    },
    async (req, reply) => {
      const caller = await visitor(req.body.token);
      const id = await fileComplaint(db, caller, { ...req.body, type: "complaint" });
      return reply.code(201).send(ok(await filerView(db, caller, id), `投诉已提交（编号 ${id}），处理进展可凭邮箱验证码查询`));
    },
  );

  r.post(
    `${PUB}/mine`,
    {
      schema: {
        tags,
        summary: "访客查询本人的投诉",
        body: TokenBody,
        response: { 200: Envelope(Type.Array(FilerComplaintView)) },
      },
      config: { access: "public", limits: [perAddress("complaint-mine", 30)] },
    },
    async (req) => ok(await filerList(db, await visitor(req.body.token))),
  );

  r.post(
    `${PUB}/mine/:id/arbitration`,
    {
      schema: {
        tags,
        summary: "访客对处理决定申请仲裁（在仲裁申请期限内）",
        params: ComplaintIdParam,
        body: VisitorArbitrationBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: "public", limits: [perAddress("complaint-step", 20)] },
    },
    async (req) =>
      step(await visitor(req.body.token), req.params.id, "request_arbitration", {
        reason: req.body.reason,
        version: req.body.version,
      }),
  );

  r.post(
    `${PUB}/mine/:id/withdraw`,
    {
      schema: {
        tags,
        summary: "访客撤回投诉（决定作出之前）",
        params: ComplaintIdParam,
        body: VisitorWithdrawBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: "public", limits: [perAddress("complaint-step", 20)] },
    },
    async (req) =>
      step(await visitor(req.body.token), req.params.id, "withdraw", { reason: req.body.reason, version: req.body.version }),
  );

  r.get(
    `${PUB}/evidence/:evidenceId`,
    {
      schema: { tags, summary: "访客下载本人上传的证据", params: EvidenceIdParam, querystring: TokenQuery },
      config: { access: "public" },
    },
    async (req, reply) => sendFile(reply, await evidenceFor(db, await visitor(req.query.token), req.params.evidenceId)),
  );

  // ---- Logged-in filers and the work's parties ----
  const F = "/Backend/Complaint";
  const filing = (act: "read" | "create" | "update") => ["api.complaintFiling", act] as const;

  r.get(
    `${F}/mine`,
    {
      schema: {
        tags,
        summary: "我的申诉/投诉，以及针对我参与或指导的作品的申诉/投诉（不显示申诉人）",
        response: { 200: Envelope(Type.Array(FilerComplaintView)) },
      },
      config: { access: filing("read") },
    },
    async (req) => ok(await filerList(db, userCaller(req))),
  );

  r.get(
    `${F}/mine/:id`,
    {
      schema: {
        tags,
        summary: "一件我的（或针对我的作品的）申诉/投诉",
        params: ComplaintIdParam,
        response: { 200: Envelope(FilerComplaintView) },
      },
      config: { access: filing("read") },
    },
    async (req) => ok(await filerView(db, userCaller(req), req.params.id)),
  );

  r.post(
    `${F}/mine`,
    {
      schema: {
        tags,
        summary: "提交申诉（本人参与或指导的作品）或投诉（已发布结果中的他人作品）",
        body: FileBody,
        response: { 201: Envelope(FilerComplaintView) },
      },
      config: { access: filing("create"), limits: [perAddress("complaint-file", 30)] },
    },
    async (req, reply) => {
      const id = await fileComplaint(db, userCaller(req), req.body);
      return reply.code(201).send(ok(await filerView(db, userCaller(req), id), `已提交（编号 ${id}）`));
    },
  );

  r.post(
    `${F}/evidence`,
    {
      schema: {
        tags,
        summary: "上传证据（multipart/form-data：file）；图片、PDF、docx、zip，不超过 20 MB",
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(EvidenceView) },
      },
      config: { access: filing("create"), limits: [perAddress("complaint-evidence", 20)] },
    },
    async (req, reply) => {
      try {
        const { file } = await receiveEvidence(req);
        const v = await uploadEvidence(db, store, { userId: req.user!.id, email: null }, file);
        return reply.code(201).send(ok(v, `已上传证据「${v.name}」`));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.post(
    `${F}/mine/:id/arbitration`,
    {
      schema: {
        tags,
        summary: "申请仲裁：申诉人或作品的作者、指导教师，在仲裁申请期限内",
        params: ComplaintIdParam,
        body: ArbitrationRequestBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: filing("update") },
    },
    async (req) => step(userCaller(req), req.params.id, "request_arbitration", req.body),
  );

  r.post(
    `${F}/mine/:id/withdraw`,
    {
      schema: {
        tags,
        summary: "撤回申诉/投诉（申诉人，决定作出之前）；记录保留",
        params: ComplaintIdParam,
        body: WithdrawBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: filing("update") },
    },
    async (req) => step(userCaller(req), req.params.id, "withdraw", req.body),
  );

  r.get(
    `${F}/evidence/:evidenceId`,
    {
      schema: { tags, summary: "下载证据：上传者、处理人员、仲裁员、超级管理员", params: EvidenceIdParam },
      config: { access: filing("read") },
    },
    async (req, reply) => sendFile(reply, await evidenceFor(db, userCaller(req), req.params.evidenceId)),
  );

  // ---- Complaint management ----
  const M = "/Backend/ComplaintManagement";
  const handle = (act: "read" | "update") => ["api.complaints", act] as const;

  r.get(
    `${M}/contests`,
    {
      schema: {
        tags,
        summary: "我处理申诉的赛事（超级管理员：全部）",
        response: { 200: Envelope(Type.Array(ComplaintContest)) },
      },
      config: { access: handle("read") },
    },
    async (req) => ok(await handlerContests(db, req.user!)),
  );

  r.get(
    `${M}/complaints`,
    {
      schema: {
        tags,
        summary: "申诉/投诉列表（所处理赛事的；超期的在前）：按赛事、状态、类型、超期筛选",
        querystring: Type.Intersect([ListParams, ComplaintFilters]),
        response: { 200: Envelope(Page(ComplaintListItem)) },
      },
      config: { access: handle("read") },
    },
    async (req) => {
      const { offset, limit } = list(req.query);
      return ok(await handlerList(db, req.user!, req.query, offset, limit));
    },
  );

  r.get(
    `${M}/counts`,
    {
      schema: { tags, summary: "各状态的数量和超期数量", querystring: CountsQuery, response: { 200: Envelope(ComplaintCounts) } },
      config: { access: handle("read") },
    },
    async (req) => ok(await counts(db, req.user!, req.query.contestId)),
  );

  r.get(
    `${M}/complaints/:id`,
    {
      schema: {
        tags,
        summary: "申诉/投诉详情：申诉人、作品、证据、审核意见、决定、仲裁、处理记录、可执行的操作",
        params: ComplaintIdParam,
        response: { 200: Envelope(HandlerComplaintView) },
      },
      config: { access: handle("read") },
    },
    async (req) => ok(await handlerView(db, req.user!, req.params.id)),
  );

  const stepRoute = (
    path: string,
    action: ComplaintAction,
    schemaBody: typeof StepBody | typeof OpinionBody | typeof DecisionBody,
    summary: string,
  ) =>
    r.post(
      `${M}/complaints/:id/${path}`,
      {
        schema: {
          tags,
          summary,
          params: ComplaintIdParam,
          body: schemaBody,
          response: { 200: Envelope(StepOutcome), 400: EmptyEnvelope },
        },
        config: { access: handle("update") },
      },
      async (req) => {
        const b = req.body as StepInput & { text?: string };
        return step(userCaller(req), req.params.id, action, { ...b, reason: b.text ?? b.reason });
      },
    );
  stepRoute("accept", "accept", StepBody, "受理（申诉审核员、申诉管理员、超级管理员）");
  stepRoute("refuse", "refuse", StepBody, "不予受理（须填写理由；通知申诉人）");
  stepRoute("opinion", "opinion", OpinionBody, "出具审核意见（申诉审核员、超级管理员）：建议的结论和处理方式");
  stepRoute(
    "decision",
    "decide",
    DecisionBody,
    "作出决定（申诉管理员、超级管理员）：结论和处理方式，处理立即执行；通知申诉人和作品第一作者，开始仲裁申请期",
  );
  stepRoute("close", "close", StepBody, "结案（仲裁申请期满且无人申请仲裁）");

  r.post(
    `${M}/complaints/:id/rejudge-result`,
    {
      schema: {
        tags,
        summary:
          "重新评审完成后，用新评委的评分替换原评分（申诉管理员、超级管理员）：原评分保留但不再计入，该结果分组重新计算排名，已发布时生成新的结果版本",
        params: ComplaintIdParam,
        body: StepBody,
        response: { 200: Envelope(StepOutcome), 400: EmptyEnvelope },
      },
      config: { access: handle("update") },
    },
    async (req) => {
      const o = await applyRejudgeResult(stepDeps, userCaller(req), req.params.id, req.body.version);
      return ok(o, o.effect ?? "已替换");
    },
  );

  const settings = (act: "read" | "update") => ["api.complaintSettings", act] as const;
  r.get(
    `${M}/contests/:contestId/settings`,
    {
      schema: {
        tags,
        summary: "赛事的申诉处理期限（天）和提醒提前量（小时）",
        params: ComplaintContestParam,
        response: { 200: Envelope(ComplaintSettings) },
      },
      config: { access: settings("read") },
    },
    async (req) => ok(await readSettings(db, req.user!, req.params.contestId)),
  );
  r.put(
    `${M}/contests/:contestId/settings`,
    {
      schema: {
        tags,
        summary: "设置赛事的申诉处理期限（超级管理员、本赛事的赛事管理员）",
        params: ComplaintContestParam,
        body: ComplaintSettings,
        response: { 200: Envelope(ComplaintSettings) },
      },
      config: { access: settings("update") },
    },
    async (req) => ok(await writeSettings(db, req.user!, req.params.contestId, req.body), "已保存申诉处理期限"),
  );
  r.get(
    `${M}/contests/:contestId/handlers`,
    {
      schema: {
        tags,
        summary: "赛事的申诉处理人员和仲裁员",
        params: ComplaintContestParam,
        response: { 200: Envelope(Type.Array(ContestHandler)) },
      },
      config: { access: settings("read") },
    },
    async (req) => ok(await contestHandlers(db, req.user!, req.params.contestId)),
  );
  r.put(
    `${M}/contests/:contestId/handlers`,
    {
      schema: {
        tags,
        summary: "设置赛事的申诉处理人员（有申诉权限的申诉审核员、申诉管理员）和仲裁员",
        params: ComplaintContestParam,
        body: HandlersBody,
        response: { 200: Envelope(Type.Array(ContestHandler)) },
      },
      config: { access: settings("update") },
    },
    async (req) => ok(await setContestHandlers(db, req.user!, req.params.contestId, req.body.userIds), "已保存处理人员"),
  );

  // ---- Arbitration ----
  const AR = "/Backend/Arbitrate/complaints";
  r.get(
    AR,
    {
      schema: {
        tags,
        summary: "待我仲裁的申诉（所仲裁赛事的、申请了仲裁的；回避的不显示）",
        querystring: Type.Intersect([ListParams, ComplaintFilters]),
        response: { 200: Envelope(Page(ComplaintListItem)) },
      },
      config: { access: ["api.arbitration", "read"] },
    },
    async (req) => {
      const { offset, limit } = list(req.query);
      return ok(await arbitratorList(db, req.user!, req.query, offset, limit));
    },
  );
  r.get(
    `${AR}/:id`,
    {
      schema: { tags, summary: "仲裁的申诉详情", params: ComplaintIdParam, response: { 200: Envelope(HandlerComplaintView) } },
      config: { access: ["api.arbitration", "read"] },
    },
    async (req) => ok(await handlerView(db, req.user!, req.params.id)),
  );
  r.post(
    `${AR}/:id/decision`,
    {
      schema: {
        tags,
        summary: "仲裁裁决：维持原决定或变更决定（结论和处理方式）；经超级管理员确认后生效",
        params: ComplaintIdParam,
        body: ArbitrationBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: ["api.arbitration", "update"] },
    },
    async (req) => step(userCaller(req), req.params.id, "arbitrate", { ...req.body, reason: req.body.text }),
  );

  // ---- Arbitration review (root) ----
  const AM = "/Backend/ArbitrateManagement/complaints";
  r.get(
    AM,
    {
      schema: {
        tags,
        summary: "仲裁审核：所有申请过仲裁的申诉",
        querystring: Type.Intersect([ListParams, ComplaintFilters]),
        response: { 200: Envelope(Page(ComplaintListItem)) },
      },
      config: { access: ["api.arbitrationReview", "read"] },
    },
    async (req) => {
      const { offset, limit } = list(req.query);
      return ok(await arbitrationReviewList(db, req.query, offset, limit));
    },
  );
  r.get(
    `${AM}/:id`,
    {
      schema: {
        tags,
        summary: "仲裁审核的申诉详情",
        params: ComplaintIdParam,
        response: { 200: Envelope(HandlerComplaintView) },
      },
      config: { access: ["api.arbitrationReview", "read"] },
    },
    async (req) => ok(await handlerView(db, req.user!, req.params.id)),
  );
  r.post(
    `${AM}/:id/confirm`,
    {
      schema: {
        tags,
        summary: "确认仲裁结果：变更的决定此时执行；结案并通知双方",
        params: ComplaintIdParam,
        body: StepBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: ["api.arbitrationReview", "update"] },
    },
    async (req) => step(userCaller(req), req.params.id, "confirm", req.body),
  );
  r.post(
    `${AM}/:id/return`,
    {
      schema: {
        tags,
        summary: "退回仲裁（须填写理由）：仲裁员重新裁决",
        params: ComplaintIdParam,
        body: StepBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: ["api.arbitrationReview", "update"] },
    },
    async (req) => step(userCaller(req), req.params.id, "return", req.body),
  );
}
