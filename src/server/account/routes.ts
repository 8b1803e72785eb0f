/**
 * HTTP for accounts: schema, access rule, call the service. The routes come in four groups —
 * session, registration, password recovery, account security — registered by accountRoutes.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope, EmptyEnvelope } from "../../shared/envelope";
import {
  ChangeEmailBody,
  ChangePasswordBody,
  CurrentUser,
  EmailBody,
  LoginBody,
  RecoveryConfirmBody,
  RecoveryRequestBody,
  RegisterBody,
  SecurityView,
  TokenBody,
} from "../../shared/account/schema";
import { clearSessionCookie, startSession } from "../plugins/auth";
import { currentUserView } from "../common/routes";
import { HOUR, MINUTE, perAddress, type FailureRule, type LimitRule, perUser } from "../plugins/limits";
import * as svc from "./service";
import type { AccountCtx } from "./service";
import type { Config } from "../config";

const tags = ["账号"];

export function accountRoutes(app: FastifyInstance, ctx: AccountCtx) {
  const limits = accountLimits(ctx.config);
  sessionRoutes(app, ctx, limits);
  registrationRoutes(app, ctx, limits);
  recoveryRoutes(app, ctx, limits);
  securityRoutes(app, ctx, limits);
}

/**
 * The rate limits of the account routes (plugins/limits.ts). A login name counts in its
 * canonical form, so a trailing space, another case or the account's email share one bucket;
 * every request that may send a mail counts against the recipient's mailbox (mail flooding).
 */
function accountLimits(config: Config) {
  const body = <T>(req: { body?: unknown }) => (req.body ?? {}) as T;
  const loginLimits: LimitRule[] = [
    {
      name: "login",
      max: config.loginRateMax,
      windowMs: MINUTE,
      key: async (req, k) => `${k.address(req)}|${await k.account(body<{ username: string }>(req).username)}`,
    },
    // Many addresses against one account (a botnet) still meet a ceiling.
    {
      name: "login-account",
      max: config.loginRateMax * 5,
      windowMs: MINUTE,
      key: (req, k) => k.account(body<{ username: string }>(req).username),
    },
  ];
  const mailTo = (pick: (b: Record<string, string | undefined>) => string | undefined): LimitRule => ({
    name: "mail",
    max: config.mailRateMax,
    windowMs: HOUR,
    key: (req, k) => {
      const to = pick(body(req));
      return to ? k.recipient(to) : null;
    },
  });
  const accountOf = (name: string, max: number): LimitRule => ({
    name,
    max,
    windowMs: MINUTE,
    key: (req, k) => {
      const a = body<{ account?: string }>(req).account;
      return a ? k.account(a) : null;
    },
  });
  // Wrong passwords from one address against any accounts (password spraying): slowed past the
  // allowance, refused at ten times it; right passwords count nothing, so a school's shared
  // address keeps logging its students in.
  const loginFailures: FailureRule[] = [
    {
      name: "login-address-failures",
      allowance: config.loginAddressRateMax,
      ceiling: config.loginAddressRateMax * 10,
      windowMs: 10 * MINUTE,
      slowdownStepMs: config.loginSlowdownMs,
      failed: (status) => status === 401,
      key: (req, k) => k.address(req),
    },
  ];
  return { loginLimits, loginFailures, mailTo, accountOf };
}

type Limits = ReturnType<typeof accountLimits>;

/** Login and logout. */
function sessionRoutes(app: FastifyInstance, ctx: AccountCtx, { loginLimits, loginFailures }: Limits) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = ctx;

  r.post(
    "/Backend/Common/account/login",
    {
      schema: { tags, summary: "登录（学生、教师、管理员登录页）", body: LoginBody, response: { 200: Envelope(CurrentUser) } },
      config: { access: ["api.session", "create"], limits: loginLimits, failureLimits: loginFailures, startsSession: true },
    },
    async (req, reply) => {
      const user = await svc.login(ctx, req.body.username, req.body.password, req.body.page);
      await startSession(db, config, req, reply, user.id);
      return { error: 0, info: "登录成功", data: await currentUserView(db, user) };
    },
  );

  r.post(
    "/Backend/Common/account/logout",
    {
      schema: { tags, summary: "退出登录：结束当前会话", response: { 200: EmptyEnvelope } },
      config: { access: ["api.session", "delete"] },
    },
    async (req, reply) => {
      if (req.sessionId) await db.deleteFrom("user_session").where("id", "=", req.sessionId).execute();
      clearSessionCookie(reply, config);
      return { error: 0, info: "已退出登录" };
    },
  );
}

/** Registration and email verification. */
function registrationRoutes(app: FastifyInstance, ctx: AccountCtx, { mailTo }: Limits) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    "/Backend/Common/account/register",
    {
      schema: {
        tags,
        summary: "注册学生或教师账号（绑定学校），并发送验证邮件",
        body: RegisterBody,
        response: { 201: Envelope(Type.Object({ id: Type.Integer(), email: Type.String() })) },
      },
      config: { access: ["api.registration", "create"], limits: [perAddress("register", 20), mailTo((b) => b.email)] },
    },
    async (req, reply) => {
      const data = await svc.register(ctx, req.body);
      return reply.code(201).send({ error: 0, info: `注册成功，验证邮件已发送至 ${data.email}，请验证后登录`, data });
    },
  );

  r.post(
    "/Backend/Common/account/verify-email",
    {
      schema: {
        tags,
        summary: "用邮件中的链接验证邮箱",
        body: TokenBody,
        response: { 200: Envelope(Type.Object({ email: Type.String() })) },
      },
      config: { access: "public" },
    },
    async (req) => {
      const data = await svc.verifyEmail(ctx, req.body.token);
      return { error: 0, info: `邮箱 ${data.email} 验证成功`, data };
    },
  );

  r.post(
    "/Backend/Common/account/resend-verification",
    {
      schema: { tags, summary: "重新发送验证邮件", body: EmailBody, response: { 200: EmptyEnvelope } },
      config: { access: "public", limits: [perAddress("resend", 5), mailTo((b) => b.email)] },
    },
    async (req) => {
      await svc.resendVerification(ctx, req.body.email);
      return { error: 0, info: "如果该邮箱属于一个尚未验证的账号，验证邮件已重新发送，请查收" };
    },
  );
}

/** Password recovery by link or code. */
function recoveryRoutes(app: FastifyInstance, ctx: AccountCtx, { accountOf, mailTo }: Limits) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    "/Backend/Common/account/recovery/request",
    {
      schema: {
        tags,
        summary: "找回密码：向账号邮箱发送链接和验证码",
        body: RecoveryRequestBody,
        response: { 200: EmptyEnvelope },
      },
      config: {
        access: ["api.recovery", "create"],
        limits: [perAddress("recovery", 5), accountOf("recovery-account", 5), mailTo((b) => b.account)],
      },
    },
    async (req) => {
      await svc.requestRecovery(ctx, req.body.account);
      return { error: 0, info: "如果该账号存在并绑定了邮箱，找回密码的邮件已发送，请在 30 分钟内完成" };
    },
  );

  r.post(
    "/Backend/Common/account/recovery/confirm",
    {
      schema: {
        tags,
        summary: "找回密码：用链接或验证码设置新密码",
        body: RecoveryConfirmBody,
        response: { 200: EmptyEnvelope },
      },
      config: {
        access: ["api.recovery", "create"],
        limits: [perAddress("recovery-confirm", 10), accountOf("recovery-confirm-account", 10)],
      },
    },
    async (req) => {
      await svc.confirmRecovery(ctx, req.body);
      return { error: 0, info: "密码已重置，请使用新密码登录" };
    },
  );
}

/** The signed-in user's password, email and sessions. */
function securityRoutes(app: FastifyInstance, ctx: AccountCtx, { mailTo }: Limits) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = ctx;

  r.get(
    "/Backend/Common/account/security",
    {
      schema: { tags, summary: "账号安全：邮箱与登录会话", response: { 200: Envelope(SecurityView) } },
      config: { access: ["api.security", "read"] },
    },
    async (req) => ({ error: 0, info: "成功", data: await svc.securityView(ctx, req.user!, req.sessionId) }),
  );

  r.post(
    "/Backend/Common/account/security/password",
    {
      schema: { tags, summary: "修改密码（结束其他会话）", body: ChangePasswordBody, response: { 200: EmptyEnvelope } },
      config: { access: ["api.security", "update"], limits: [perAddress("password", 10), perUser("password-user", 10)] },
    },
    async (req) => {
      await svc.changePassword(ctx, req.user!, req.sessionId, req.body.oldPassword, req.body.newPassword);
      return { error: 0, info: "密码已修改，其他设备上的登录已退出" };
    },
  );

  r.post(
    "/Backend/Common/account/security/email",
    {
      schema: {
        tags,
        summary: "修改邮箱：向新邮箱发送验证链接",
        body: ChangeEmailBody,
        response: { 200: Envelope(Type.Object({ email: Type.String() })) },
      },
      config: {
        access: ["api.security", "update"],
        limits: [perAddress("email-change", 10), perUser("email-change-user", 10), mailTo((b) => b.email)],
      },
    },
    async (req) => {
      const data = await svc.changeEmail(ctx, req.user!, req.body.password, req.body.email);
      return { error: 0, info: `验证邮件已发送至 ${data.email}，验证后邮箱才会更改`, data };
    },
  );

  r.delete(
    "/Backend/Common/account/security/sessions/:id",
    {
      schema: {
        tags,
        summary: "结束自己的一个会话",
        params: Type.Object({ id: Type.String({ pattern: "^[0-9a-f]{64}$", maxLength: 64, title: "会话" }) }),
        response: { 200: EmptyEnvelope },
      },
      config: { access: ["api.security", "update"] },
    },
    async (req, reply) => {
      await svc.endSession(ctx, req.user!, req.params.id);
      if (req.params.id === req.sessionId) clearSessionCookie(reply, config);
      return { error: 0, info: "该会话已结束" };
    },
  );

  r.post(
    "/Backend/Common/account/security/sessions/end-others",
    {
      schema: { tags, summary: "结束除当前外的所有会话", response: { 200: Envelope(Type.Object({ ended: Type.Integer() })) } },
      config: { access: ["api.security", "update"] },
    },
    async (req) => {
      const ended = await svc.endOtherSessions(ctx, req.user!, req.sessionId);
      return { error: 0, info: `已结束 ${ended} 个其他会话`, data: { ended } };
    },
  );
}
