/**
 * The offline defence (现场答辩) routes: the contest admin's arrangement of a group's session,
 * the draw (admin or group leader), the judges' scores, the leader's consolidated sheet and
 * sign-off, the admin's reopening; the authors' link /contest/reply/:code (public, rate
 * limited; upload by the work's authors); the judge profile and earlier years' works.
 * Registered by one plugin in four route groups (admin, judges, authors' link, judge profile).
 * Row rules live in service/defence/, defence-reply.ts and judge-profile.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import "@fastify/multipart";
import { Type } from "typebox";
import { Envelope } from "../../../shared/envelope";
import { badRequest } from "../../../shared/errors";
import {
  AdminGroupDefence,
  AdminSession,
  CodeFileParam,
  CodeParam,
  ContestIdParam,
  DefenceFileView,
  DrawBody,
  DrawView,
  GroupIdParam,
  GroupSheet,
  JudgeProfile,
  JudgeProfileBody,
  JudgeSession,
  MyScore,
  PastWork,
  PastWorkFilters,
  ReopenBody,
  ReplyView,
  ScoreBody,
  SessionFileParam,
  SessionInput,
  SessionParam,
  SessionWorkParam,
  SignOffBody,
} from "../../../shared/judging/defence-schema";
import type { Db } from "../../db";
import type { BlobStore } from "../../storage";
import {
  adminGroupDefence,
  createSession,
  drawSession,
  groupSheet,
  judgeDefenceFile,
  judgeSessionById,
  mySessions,
  reopenSession,
  saveScore,
  signOff,
  updateSession,
} from "../service/defence";
import { authorDefenceFile, MAX_DEFENCE_BYTES, replyView, uploadDefenceFile, type IncomingFile } from "../service/defence-reply";
import { judgeProfile, pastWorks, updateJudgeProfile } from "../service/judge-profile";
import { contentDisposition, ok } from "../../common/http";
import { perAddress } from "../../plugins/limits";
import { closeIfUnread } from "../../plugins/uploads";

const D = "/Backend/Defence";

async function receiveFile(req: FastifyRequest): Promise<IncomingFile | undefined> {
  if (!req.isMultipart()) throw badRequest("请以 multipart/form-data 方式上传文件（表单字段 file）");
  const options = { limits: { fileSize: MAX_DEFENCE_BYTES, files: 1, fields: 3, parts: 4 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") continue;
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("文件须以表单字段 file 发送");
    }
    return { filename: part.filename, stream: part.file, truncated: () => part.file.truncated };
  }
  return undefined;
}

type Deps = { db: Db; store: BlobStore };

const tags = ["现场答辩"];
const acc = (act: "read" | "create" | "update") => ["api.defence", act] as const;
/** Sends a stored file as a private download. */
const send = (reply: FastifyReply, f: { filename: string; mime: string; size: number }, stream: unknown) =>
  reply
    .header("content-type", f.mime)
    .header("content-length", String(f.size))
    .header("content-disposition", contentDisposition(f.filename))
    .header("cache-control", "private, no-store")
    .send(stream);

/** The contest admin's arrangement of a group's session, its reopening, and the draw (admin or group leader). */
function adminRoutes(app: FastifyInstance, { db }: Deps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    `${D}/admin/group/:groupId`,
    {
      schema: {
        tags,
        summary: "评审组的答辩安排（赛事管理员）：组内作品、评委、答辩场次（顺序、时间、作者答辩链接代码、评分进度）",
        params: GroupIdParam,
        response: { 200: Envelope(AdminGroupDefence) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await adminGroupDefence(db, req.user!, req.params.groupId)),
  );

  r.post(
    `${D}/admin/group/:groupId/session`,
    {
      schema: {
        tags,
        summary:
          "新建评审组的答辩场次：时间、地点或会议链接、准备事项、每件作品时长；答辩作品为组内作品（可只选部分），每件作品生成不可猜测的答辩链接",
        params: GroupIdParam,
        body: SessionInput,
        response: { 201: Envelope(AdminSession) },
      },
      config: { access: acc("create") },
    },
    async (req, reply) =>
      reply.code(201).send(ok(await createSession(db, req.user!, req.params.groupId, req.body), "答辩场次已创建")),
  );

  r.patch(
    `${D}/admin/session/:sessionId`,
    {
      schema: {
        tags,
        summary: "修改答辩场次（组长签署后不能修改）；更改答辩作品会清除抽签结果，已有评分时不能更改作品",
        params: SessionParam,
        body: SessionInput,
        response: { 200: Envelope(AdminSession) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await updateSession(db, req.user!, req.params.sessionId, req.body), "答辩安排已保存"),
  );

  r.post(
    `${D}/admin/session/:sessionId/reopen`,
    {
      schema: {
        tags,
        summary: "重新开放已签署的答辩结果（赛事管理员，须填写原因）",
        params: SessionParam,
        body: ReopenBody,
        response: { 200: Envelope(AdminSession) },
      },
      config: { access: acc("update") },
    },
    async (req) =>
      ok(
        await reopenSession(db, req.user!, req.params.sessionId, req.body.reason),
        "已重新开放，评委可以修改评分，组长须重新签署",
      ),
  );

  r.post(
    `${D}/session/:sessionId/draw`,
    {
      schema: {
        tags,
        summary:
          "随机抽签确定答辩顺序（赛事管理员或专家组长）：种子取自密码学随机数并记录，任何人可按种子复核；开始评分后不能重新抽签",
        params: SessionParam,
        body: DrawBody,
        response: { 200: Envelope(DrawView) },
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const { draw, message } = await drawSession(db, req.user!, req.params.sessionId, !!req.body.redraw);
      return ok(draw, message);
    },
  );
}

/** The judges: their sessions, scores and the defence material; the leader's sheet and sign-off. */
function judgeRoutes(app: FastifyInstance, { db, store }: Deps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    `${D}/my/:contestId`,
    {
      schema: {
        tags,
        summary: "我所在评审组的答辩场次：顺序、时间、作品（不含作者和学校；回避的作品不显示）和我的评分",
        params: ContestIdParam,
        response: { 200: Envelope(Type.Array(JudgeSession)) },
      },
      config: { access: acc("read") },
    },
    async (req) => {
      const data = await mySessions(db, req.user!, req.params.contestId);
      return ok(data, data.length ? "成功" : "您所在的评审组尚未安排现场答辩");
    },
  );

  r.get(
    `${D}/session/:sessionId`,
    {
      schema: {
        tags,
        summary: "一个答辩场次（本组评委或专家组长）",
        params: SessionParam,
        response: { 200: Envelope(JudgeSession) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await judgeSessionById(db, req.user!, req.params.sessionId)),
  );

  r.put(
    `${D}/session/:sessionId/work/:workId/score`,
    {
      schema: {
        tags,
        summary:
          "评委录入或修改一件作品的答辩评分：0–100 分、推荐意见（强烈推荐/推荐/不推荐）、评语；组长签署后不能修改；每次修改记入评分日志",
        params: SessionWorkParam,
        body: ScoreBody,
        response: { 200: Envelope(MyScore) },
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const { score, changed } = await saveScore(db, req.user!, req.params.sessionId, req.params.workId, req.body);
      return ok(score, changed ? `已保存作品 ${req.params.workId} 的答辩评分` : "评分没有变化");
    },
  );

  r.get(
    `${D}/session/:sessionId/work/:workId/files/:fileId`,
    {
      schema: { tags, summary: "下载作品的答辩材料（本组评委，回避的作品除外）", params: SessionFileParam },
      config: { access: acc("read") },
    },
    async (req, reply) => {
      const f = await judgeDefenceFile(db, req.user!, req.params.sessionId, req.params.workId, req.params.fileId);
      return send(reply, f, await store.get(f.sha256));
    },
  );

  r.get(
    `${D}/session/:sessionId/sheet`,
    {
      schema: {
        tags,
        summary: "本组答辩结果汇总（专家组长、赛事管理员）：每位评委的评分和推荐意见、平均分、各推荐意见数、缺评",
        params: SessionParam,
        response: { 200: Envelope(GroupSheet) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await groupSheet(db, req.user!, req.params.sessionId)),
  );

  r.post(
    `${D}/session/:sessionId/sign-off`,
    {
      schema: {
        tags,
        summary: "专家组长签署本组答辩结果；有评委未评完时须确认并填写说明（如评委缺席）；签署后全部只读",
        params: SessionParam,
        body: SignOffBody,
        response: { 200: Envelope(GroupSheet) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await signOff(db, req.user!, req.params.sessionId, req.body), "已签署本组答辩结果"),
  );
}

/** The authors' link /contest/reply/:code: public, rate limited; upload and download by the work's authors. */
function replyRoutes(app: FastifyInstance, { db, store }: Deps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const rtags = ["答辩链接"];
  r.get(
    `${D}/reply/:code`,
    {
      schema: {
        tags: rtags,
        summary: "作者的答辩链接：作品编号和名称、答辩时间、地点或会议链接、准备事项；作品的作者登录后可看到已上传的答辩材料",
        params: CodeParam,
        response: { 200: Envelope(ReplyView) },
      },
      config: { access: ["api.defenceReply", "read"], limits: [perAddress("defence-reply-read", 30)] },
    },
    async (req) => ok(await replyView(db, req.user ?? null, req.params.code)),
  );

  r.post(
    `${D}/reply/:code/files`,
    {
      schema: {
        tags: rtags,
        summary:
          "上传答辩材料（multipart/form-data，字段 file；pdf、ppt/pptx、zip、mp4）：仅限该作品已确认的作者；新文件替换旧文件，旧文件保留",
        params: CodeParam,
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(DefenceFileView) },
      },
      config: { access: ["api.defenceReply", "create"], limits: [perAddress("defence-reply-upload", 10)] },
    },
    async (req, reply) => {
      try {
        const { file, message } = await uploadDefenceFile(db, store, req.user!, req.params.code, () => receiveFile(req));
        return reply.code(201).send(ok(file, message));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.get(
    `${D}/reply/:code/files/:fileId`,
    {
      schema: { tags: rtags, summary: "下载本作品的答辩材料（该作品的作者）", params: CodeFileParam },
      config: { access: ["api.defenceReply", "read"], limits: [perAddress("defence-reply-file", 30)] },
    },
    async (req, reply) => {
      const f = await authorDefenceFile(db, store, req.user ?? null, req.params.code, req.params.fileId);
      return send(reply, f, await store.get(f.sha256));
    },
  );
}

/** The judge profile and earlier years' works. */
function profileRoutes(app: FastifyInstance, { db }: Deps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const ptags = ["评委信息"];
  r.get(
    "/Backend/Judge/profile",
    {
      schema: {
        tags: ptags,
        summary: "评委本人的资料：学校、省份、专业特长、参加评审的赛事和评审组",
        response: { 200: Envelope(JudgeProfile) },
      },
      config: { access: ["api.judgeProfile", "read"] },
    },
    async (req) => ok(await judgeProfile(db, req.user!)),
  );

  r.put(
    "/Backend/Judge/profile",
    {
      schema: { tags: ptags, summary: "修改本人的专业特长", body: JudgeProfileBody, response: { 200: Envelope(JudgeProfile) } },
      config: { access: ["api.judgeProfile", "update"] },
    },
    async (req) => ok(await updateJudgeProfile(db, req.user!, req.body), "评委资料已保存"),
  );

  r.get(
    "/Backend/Judge/past-works",
    {
      schema: {
        tags: ptags,
        summary: "往年参赛作品（查重复参赛）：作品编号、年份、名称、类别和已公布的奖项；不含作者、指导教师和学校",
        querystring: PastWorkFilters,
        response: { 200: Envelope(Type.Object({ list: Type.Array(PastWork), total: Type.Integer(), before: Type.Integer() })) },
      },
      config: { access: ["api.pastWorks", "read"] },
    },
    async (req) => ok(await pastWorks(db, req.query)),
  );
}

export function defenceRoutes(app: FastifyInstance, deps: Deps) {
  adminRoutes(app, deps);
  judgeRoutes(app, deps);
  replyRoutes(app, deps);
  profileRoutes(app, deps);
}
