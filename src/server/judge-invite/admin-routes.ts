/**
 * Judge invitations for contest admins and root (/Backend/JudgeInvite/contests…, /invitations…;
 * api.judgeInvitations): the contest's invite facts, the conflict check, sending, listing, the
 * dashboard, withdrawing and resending. Registered from routes.ts.
 */
import { Envelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import {
  CheckBody,
  ConflictCheck,
  ContestParam,
  InvitationFilters,
  InvitationParam,
  InvitationView,
  InviteBody,
  InviteContest,
  InviteDashboard,
  InviteOutcome,
  ResendBody,
  WithdrawBody,
} from "../../shared/judge-invite/schema";
import { checkInvitations } from "./check";
import { dashboard } from "./dashboard";
import { inviteContest, listInvitations, resendInvitation, sendInvitations, withdrawInvitation } from "./invite";
import { type InviteRouteKit, tags, ok, JI } from "./route-kit";

export function inviteAdminRoutes(kit: InviteRouteKit) {
  const { r, db, inviteDeps, acc, perUser, resendMail } = kit;
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
}
