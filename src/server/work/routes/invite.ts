/** Email invitations into a work's team (shapes and route list: shared/work/invite.ts). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../../shared/envelope";
import { CurrentUser } from "../../../shared/account/schema";
import {
  PublicTeamInvite,
  TeamCodeParam,
  TeamInviteBody,
  TeamInviteParam,
  TeamInviteRegisterBody,
  TeamInviteView,
} from "../../../shared/work/invite";
import { WorkIdParam } from "../../../shared/work/schema";
import type { Config } from "../../config";
import type { Db } from "../../db";
import type { Mailer } from "../../mail/mailer";
import { HOUR, perAddress, type LimitRule, perUser } from "../../plugins/limits";
import { startSession } from "../../plugins/auth";
import { currentUserView } from "../../common/routes";
import { normEmail } from "../../common/email";
import {
  inviteToTeam,
  listTeamInvitations,
  publicTeamInvite,
  registerFromTeamInvite,
  withdrawTeamInvitation,
} from "../service/invite";
import { ctxOf } from "./common";
import { ok } from "../../common/http";

const tags = ["作品（作者）"];
const P = "/Backend/Work/work";
export const TEAM_PUB = "/Backend/Public/work-invite";

export function teamInviteRoutes(app: FastifyInstance, deps: { db: Db; mailer: Mailer; config: Config }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, mailer, config } = deps;
  const mailDeps = {
    mailer,
    get publicUrl() {
      return config.publicUrl;
    },
  };
  // The invitation mails the given address: it counts in that mailbox's bucket (MAIL_RATE_MAX an hour).
  const mailBucket: LimitRule = {
    name: "mail",
    max: config.mailRateMax,
    windowMs: HOUR,
    key: (req) => {
      const e = (req.body as { email?: unknown } | undefined)?.email;
      return typeof e === "string" ? normEmail(e) : null;
    },
  };

  r.get(
    `${P}/:id/invitations`,
    {
      schema: {
        tags,
        summary: "等待注册的邮件邀请（第一作者）",
        params: WorkIdParam,
        response: { 200: Envelope(Type.Array(TeamInviteView)) },
      },
      config: { access: ["api.works", "update"] },
    },
    async (req) => ok(await listTeamInvitations(ctxOf(db, req), req.params.id)),
  );

  r.post(
    `${P}/:id/invitations`,
    {
      schema: {
        tags,
        summary: "用邮件邀请没有账号的同学或老师加入团队（第一作者；占用团队名额直至注册、撤回或过期）",
        params: WorkIdParam,
        body: TeamInviteBody,
        response: { 200: Envelope(TeamInviteView) },
      },
      config: {
        access: ["api.works", "update"],
        limits: [perUser("work-invite-send", 10), perUser("work-invite-send-day", 30, 24 * HOUR), mailBucket],
      },
    },
    async (req) => {
      const data = await inviteToTeam(ctxOf(db, req), mailDeps, req.params.id, req.body);
      return ok(data, `邀请邮件已发送至 ${data.email}，对方注册后即加入团队`);
    },
  );

  r.delete(
    `${P}/:id/invitations/:invitationId`,
    {
      schema: { tags, summary: "撤回邮件邀请（链接随即失效）", params: TeamInviteParam, response: { 200: EmptyEnvelope } },
      config: { access: ["api.works", "update"] },
    },
    async (req) => {
      await withdrawTeamInvitation(ctxOf(db, req), req.params.id, req.params.invitationId);
      return { error: 0, info: "邀请已撤回" };
    },
  );

  r.get(
    `${TEAM_PUB}/:code`,
    {
      schema: {
        tags: ["作品团队邀请"],
        summary: "邀请链接：作品、学校、身份、受邀邮箱（部分隐去）和状态",
        params: TeamCodeParam,
        response: { 200: Envelope(PublicTeamInvite) },
      },
      config: { access: "public", limits: [perAddress("work-invite-view", 60)] },
    },
    async (req) => {
      const data = await publicTeamInvite(db, req.params.code);
      const info = {
        open: "成功",
        used: "该邀请已使用，链接已失效",
        expired: "该邀请已过期，链接已失效",
        closed: "该作品已不能再加入团队",
        invalid: "邀请链接无效或已被撤回",
      }[data.state];
      return ok(data, info);
    },
  );

  r.post(
    `${TEAM_PUB}/:code/register`,
    {
      schema: {
        tags: ["作品团队邀请"],
        summary: "用邀请链接创建学生或教师账号（作品所属学校；邮箱已由链接验证），加入团队并登录",
        params: TeamCodeParam,
        body: TeamInviteRegisterBody,
        response: { 201: Envelope(CurrentUser) },
      },
      config: {
        access: "public",
        limits: [perAddress("work-invite-register", 10), perAddress("register", 20)],
        startsSession: true,
      },
    },
    async (req, reply) => {
      const user = await registerFromTeamInvite(db, req.params.code, req.user, req.body);
      await startSession(db, config, req, reply, user.id);
      return reply
        .code(201)
        .send(
          ok(
            await currentUserView(db, user),
            `账号「${user.username}」已创建并登录，您已加入作品团队${user.user_type === 100 ? "，请确认参赛" : ""}`,
          ),
        );
    },
  );
}
