/**
 * Judge invitations over HTTP; the route list is in src/shared/judge-invite/schema.ts.
 * Admin routes need api.judgeInvitations (rows scoped to the contests the admin manages,
 * 404 outside); a judge's own invitations api.myJudgeInvitations; the link's routes are
 * public and limited per address (plugins/limits.ts), mail to one mailbox shares the account
 * module's "mail" bucket.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Envelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import {
  AcceptBody,
  AnswerOutcome,
  CheckBody,
  CodeParam,
  ConflictCheck,
  ContestParam,
  DeclineBody,
  InvitationFilters,
  InvitationParam,
  InvitationView,
  InviteBody,
  InviteContest,
  InviteDashboard,
  InviteOutcome,
  InviteRegisterBody,
  MyInvitations,
  PublicInvitation,
  ResendBody,
  WithdrawBody,
} from "../../shared/judge-invite/schema";
import { CurrentUser } from "../../shared/account/schema";
import type { Db } from "../db";
import type { Config } from "../config";
import type { Mailer } from "../mail/mailer";
import { HOUR, MINUTE, perAddress, type LimitRule } from "../plugins/limits";
import { startSession } from "../plugins/auth";
import { currentUserView } from "../common/routes";
import { checkInvitations } from "./check";
import { dashboard } from "./dashboard";
import { inviteContest, listInvitations, resendInvitation, sendInvitations, withdrawInvitation } from "./invite";
import { acceptInvitation, declineInvitation, myInvitations, publicInvitation, registerFromInvitation } from "./answer";

const tags = ["评委邀请"];
const ok = <T>(data: T, info = "成功") => ({ error: 0, info, data });

export interface InviteRouteDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
}

export const JI = "/Backend/JudgeInvite";
export const PUB = "/Backend/Public/judge-invite";

export function judgeInviteRoutes(app: FastifyInstance, deps: InviteRouteDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, mailer, config } = deps;
  // Read at send time: PUBLIC_URL may be settled after the routes are registered (tests listen on port 0).
  const inviteDeps = {
    db,
    mailer,
    get publicUrl() {
      return config.publicUrl;
    },
  };
  const acc = (act: "read" | "create" | "update") => ["api.judgeInvitations", act] as const;
  const mine = (act: "read" | "update") => ["api.myJudgeInvitations", act] as const;
  const perUser = (name: string, max: number, windowMs = MINUTE): LimitRule => ({
    name,
    max,
    windowMs,
    key: (req) => (req.user ? String(req.user.id) : null),
  });
  // A resend mails the invited address: it counts in that mailbox's bucket (MAIL_RATE_MAX an hour).
  const resendMail: LimitRule = {
    name: "mail",
    max: config.mailRateMax,
    windowMs: HOUR,
    key: async (req) => {
      const id = (req.params as { id?: number }).id;
      const row = id
        ? await db.selectFrom("judge_invitation").select("email").where("id", "=", Number(id)).executeTakeFirst()
        : undefined;
      return row?.email ?? null;
    },
  };

  // ---- Contest admins and root ----

  r.get(
    `${JI}/contests/:contestId`,
    {
      schema: {
        tags,
        summary: "邀请用的赛事信息：开放的大类及小类、每件作品评审次数、评委容量、是否回避本省",
        params: ContestParam,
        response: { 200: Envelope(InviteContest) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await inviteContest(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${JI}/contests/:contestId/check`,
    {
      schema: {
        tags,
        summary:
          "发送邀请前的回避检查（不写入）：每位受邀者在各受邀类别中须回避的作品数（同校、同省、申报回避、指导），以及现有评委加上受邀者能否让每件作品得到 N 位无回避评委",
        params: ContestParam,
        body: CheckBody,
        response: { 200: Envelope(ConflictCheck) },
      },
      config: { access: acc("read"), limits: [perUser("judge-invite-check", 30)] },
    },
    async (req) => {
      const data = await checkInvitations(db, req.user!, req.params.contestId, req.body);
      return ok(data, data.warnings.length ? `检查完成，有 ${data.warnings.length} 条提醒` : "检查完成，没有发现问题");
    },
  );

  r.post(
    `${JI}/contests/:contestId/invitations`,
    {
      schema: {
        tags,
        summary: "发出评委邀请：每人一个单次有效的链接，以邮件发送；已是评委、已有待答复邀请或重复的人员跳过并说明原因",
        params: ContestParam,
        body: InviteBody,
        response: { 201: Envelope(InviteOutcome) },
      },
      config: { access: acc("create"), limits: [perUser("judge-invite-send", 20)] },
    },
    async (req, reply) => {
      const data = await sendInvitations(inviteDeps, req.user!, req.params.contestId, req.body);
      const info = `已发出 ${data.created.length} 份邀请${
        data.skipped.length
          ? `，${data.skipped.length} 人未邀请：${data.skipped
              .slice(0, 3)
              .map((s) => `${s.name}（${s.reason}）`)
              .join("；")}${data.skipped.length > 3 ? " 等" : ""}`
          : ""
      }`;
      return reply.code(201).send(ok(data, info));
    },
  );

  r.get(
    `${JI}/contests/:contestId/invitations`,
    {
      schema: {
        tags,
        summary: "本赛事的评委邀请（按状态、类别、姓名或邮箱筛选）",
        params: ContestParam,
        querystring: InvitationFilters,
        response: { 200: Envelope(Page(InvitationView)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await listInvitations(db, req.user!, req.params.contestId, req.query)),
  );

  r.get(
    `${JI}/contests/:contestId/dashboard`,
    {
      schema: {
        tags,
        summary:
          "邀请统计：各大类已发出、已打开、待答复、已接受、已谢绝、已过期、已撤回的数量，以及评委数与 N 次评审所需评委数的对比",
        params: ContestParam,
        response: { 200: Envelope(InviteDashboard) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await dashboard(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${JI}/invitations/:id/withdraw`,
    {
      schema: {
        tags,
        summary: "撤回一份待答复的邀请（链接随即失效）",
        params: InvitationParam,
        body: WithdrawBody,
        response: { 200: Envelope(InvitationView) },
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const v = await withdrawInvitation(db, req.user!, req.params.id, req.body.reason);
      return ok(v, `已撤回对「${v.name}」的邀请，原链接已失效`);
    },
  );

  r.post(
    `${JI}/invitations/:id/resend`,
    {
      schema: {
        tags,
        summary: "重新发送邀请：生成新链接并发送邮件，原链接随即失效；已过期的须设定新的答复截止日期",
        params: InvitationParam,
        body: ResendBody,
        response: { 200: Envelope(InvitationView) },
      },
      config: { access: acc("update"), limits: [perUser("judge-invite-resend", 20), resendMail] },
    },
    async (req) => {
      const v = await resendInvitation(inviteDeps, req.user!, req.params.id, req.body.answerBy);
      return ok(v, `已重新发送邀请至 ${v.email}，原链接已失效`);
    },
  );

  // ---- A judge's own invitations ----

  r.get(
    `${JI}/mine`,
    {
      schema: {
        tags,
        summary: "我的评委邀请（发给本账号邮箱的邀请，待答复的在前）及评委库中的本人信息",
        response: { 200: Envelope(MyInvitations) },
      },
      config: { access: mine("read") },
    },
    async (req) => ok(await myInvitations(db, req.user!)),
  );

  r.post(
    `${JI}/mine/:id/accept`,
    {
      schema: {
        tags,
        summary: "接受邀请：确认学校、职称、专长和可评审类别，申报回避；成为该赛事的评委",
        params: InvitationParam,
        body: AcceptBody,
        response: { 200: Envelope(AnswerOutcome) },
      },
      config: { access: mine("update"), limits: [perUser("judge-invite-answer", 20)] },
    },
    async (req) => {
      const data = await acceptInvitation(db, req.user!, { id: req.params.id }, req.body);
      return ok(
        data,
        `已接受邀请，您已成为「${data.contest.name}」的评委${data.conflicts ? `，并申报了 ${data.conflicts} 项回避` : ""}`,
      );
    },
  );

  r.post(
    `${JI}/mine/:id/decline`,
    {
      schema: {
        tags,
        summary: "谢绝邀请（可填写原因）",
        params: InvitationParam,
        body: DeclineBody,
        response: { 200: Envelope(AnswerOutcome) },
      },
      config: { access: mine("update"), limits: [perUser("judge-invite-answer", 20)] },
    },
    async (req) => {
      const data = await declineInvitation(db, req.user!, { id: req.params.id }, req.body.reason);
      return ok(data, `已谢绝「${data.contest.name}」的评委邀请`);
    },
  );

  // ---- The link ----

  r.get(
    `${PUB}/:code`,
    {
      schema: {
        tags,
        summary: "邀请链接：赛事、评审类别、截止日期、说明、受邀邮箱（部分隐去）和状态；无效与已撤回的链接答复相同",
        params: CodeParam,
        response: { 200: Envelope(PublicInvitation) },
      },
      config: { access: "public", limits: [perAddress("judge-invite-view", 60)] },
    },
    async (req) => {
      const data = await publicInvitation(db, req.params.code, req.user);
      const info = {
        open: "成功",
        accepted: "该邀请已接受，链接已失效",
        declined: "该邀请已谢绝，链接已失效",
        expired: "该邀请已过期，链接已失效",
        invalid: "邀请链接无效或已被撤回",
      }[data.state];
      return ok(data, info);
    },
  );

  r.post(
    `${PUB}/:code/register`,
    {
      schema: {
        tags,
        summary: "用邀请链接创建评委账号（邮箱为受邀邮箱，已由链接验证）并登录",
        params: CodeParam,
        body: InviteRegisterBody,
        response: { 201: Envelope(CurrentUser) },
      },
      config: { access: "public", limits: [perAddress("judge-invite-register", 10), perAddress("register", 20)] },
    },
    async (req, reply) => {
      const user = await registerFromInvitation(db, req.params.code, req.user, req.body);
      await startSession(db, config, req, reply, user.id);
      return reply
        .code(201)
        .send(ok(await currentUserView(db, user), `评委账号「${user.username}」已创建并登录，请确认信息后接受邀请`));
    },
  );

  r.post(
    `${PUB}/:code/accept`,
    {
      schema: {
        tags,
        summary: "接受邀请（须登录受邀邮箱对应的评委账号）：确认学校、职称、专长和可评审类别，申报回避；成为该赛事的评委",
        params: CodeParam,
        body: AcceptBody,
        response: { 200: Envelope(AnswerOutcome) },
      },
      config: { access: "public", limits: [perAddress("judge-invite-answer", 20)] },
    },
    async (req) => {
      const data = await acceptInvitation(db, req.user, { code: req.params.code }, req.body);
      return ok(
        data,
        `已接受邀请，您已成为「${data.contest.name}」的评委${data.conflicts ? `，并申报了 ${data.conflicts} 项回避` : ""}`,
      );
    },
  );

  r.post(
    `${PUB}/:code/decline`,
    {
      schema: {
        tags,
        summary: "谢绝邀请（可填写原因）；登录时须为受邀邮箱对应的账号",
        params: CodeParam,
        body: DeclineBody,
        response: { 200: Envelope(AnswerOutcome) },
      },
      config: { access: "public", limits: [perAddress("judge-invite-answer", 20)] },
    },
    async (req) => {
      const data = await declineInvitation(db, req.user, { code: req.params.code }, req.body.reason);
      return ok(data, `已谢绝「${data.contest.name}」的评委邀请`);
    },
  );
}
