/**
 * The invitation link's public routes (/Backend/Public/judge-invite/:code, limited per address):
 * the link's page data, creating a judge account from the link (and logging in), accepting and
 * declining. Registered from routes.ts.
 */
import { Envelope } from "../../shared/envelope";
import {
  AcceptBody,
  AnswerOutcome,
  CodeParam,
  DeclineBody,
  InviteRegisterBody,
  PublicInvitation,
} from "../../shared/judge-invite/schema";
import { CurrentUser } from "../../shared/account/schema";
import { perAddress } from "../plugins/limits";
import { startSession } from "../plugins/auth";
import { currentUserView } from "../common/routes";
import { acceptInvitation, declineInvitation, publicInvitation, registerFromInvitation } from "./answer";
import { type InviteRouteKit, tags, ok, PUB } from "./route-kit";

export function invitationLinkRoutes(kit: InviteRouteKit) {
  const { r, db, config } = kit;
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
      config: {
        access: "public",
        limits: [perAddress("judge-invite-register", 10), perAddress("register", 20)],
        startsSession: true,
      },
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
