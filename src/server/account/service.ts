/**
 * Accounts: login, registration, email verification, password recovery and account
 * security. Error texts never tell whether an account exists.
 */
import type { Db } from "../db";
import type { AccountToken, User } from "../db/schema";
import type { Config } from "../config";
import type { Mailer } from "../mail/mailer";
import { LOGIN_PAGES, LOGIN_PAGE_NAMES, type LoginPage } from "../../shared/roles";
import { badRequest, DomainError, gone, invalid, unauthenticated } from "../../shared/errors";
import type { RecoveryConfirmBody, RegisterBody, SecurityView } from "../../shared/account/schema";
import { dummyHash, hashPassword, verifyPassword } from "./password";
import { createUser } from "./create-user";
import { newToken, sha256, sixDigitCode } from "../common/crypto";
import { normEmail } from "../common/email";
import { nowIso } from "../../shared/time";

export interface AccountCtx {
  db: Db;
  config: Config;
  mailer: Mailer;
}

const VERIFY_TTL_MS = 48 * 3600_000;
const RECOVERY_TTL_MS = 30 * 60_000;
const RECOVERY_MAX_ATTEMPTS = 5;
const WRONG_CREDENTIALS = "用户名或密码错误";

function findByAccount(db: Db, account: string) {
  const a = account.trim();
  return db
    .selectFrom("app_user")
    .selectAll()
    .where((eb) => eb.or([eb("username", "=", a), eb("email", "=", normEmail(a))]))
    .orderBy("id")
    .executeTakeFirst();
}

/** Checks the password and the login page; returns the user to start a session for. */
export async function login(ctx: AccountCtx, username: string, password: string, page: LoginPage): Promise<User> {
  const user = await findByAccount(ctx.db, username);
  if (!user) {
    await verifyPassword(await dummyHash(), password);
    throw unauthenticated(WRONG_CREDENTIALS);
  }
  if (!(await verifyPassword(user.password_hash, password))) throw unauthenticated(WRONG_CREDENTIALS);
  const allowed = LOGIN_PAGES[page] as readonly number[];
  if (!allowed.includes(user.user_type)) {
    const right = (Object.keys(LOGIN_PAGES) as LoginPage[]).find((p) =>
      (LOGIN_PAGES[p] as readonly number[]).includes(user.user_type),
    );
    throw new DomainError(
      403,
      `该账号不能在${LOGIN_PAGE_NAMES[page]}页登录${right ? `，请前往${LOGIN_PAGE_NAMES[right]}页` : ""}`,
    );
  }
  if (user.locked) throw new DomainError(403, "该账号已被锁定，请联系管理员");
  if (!user.email_verified && user.email) {
    throw new DomainError(403, "邮箱尚未验证，请点击验证邮件中的链接；没有收到可在“验证邮箱”页面重新发送");
  }
  return user;
}

async function issueToken(
  ctx: AccountCtx,
  userId: number,
  purpose: "verify_email" | "recovery",
  ttlMs: number,
  email: string | null,
  code?: string,
) {
  const token = newToken();
  // Earlier unused tokens of the same purpose stop working.
  await ctx.db
    .updateTable("account_token")
    .set({ used_at: nowIso() })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
  await ctx.db
    .insertInto("account_token")
    .values({
      user_id: userId,
      purpose,
      token_hash: sha256(token),
      code_hash: code ? sha256(`${userId}:${code}`) : null,
      email,
      expires_at: new Date(Date.now() + ttlMs).toISOString(),
      used_at: null,
      created_at: nowIso(),
    })
    .execute();
  return token;
}

async function sendVerification(ctx: AccountCtx, user: { id: number; name: string }, email: string) {
  const token = await issueToken(ctx, user.id, "verify_email", VERIFY_TTL_MS, email);
  const link = `${ctx.config.publicUrl}/verify-email?token=${token}`;
  await ctx.mailer.send({
    to: email,
    subject: "【赛务平台】请验证您的邮箱",
    text: `${user.name}，您好：\n\n请在 48 小时内打开下面的链接完成邮箱验证：\n${link}\n\n如果这不是您本人的操作，请忽略本邮件。\n`,
  });
}

export async function register(ctx: AccountCtx, body: RegisterBody): Promise<{ id: number; email: string }> {
  const email = normEmail(body.email);
  const school = await ctx.db
    .selectFrom("school")
    .select(["id"])
    .where("id", "=", body.schoolId)
    .where("archived", "=", 0)
    .executeTakeFirst();
  if (!school) throw invalid("schoolId", "所选学校不存在，请重新选择");
  const taken = await ctx.db.selectFrom("app_user").select("id").where("username", "=", body.username).executeTakeFirst();
  if (taken) throw invalid("username", "该用户名已被使用，请换一个");
  const emailTaken = await ctx.db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirst();
  if (emailTaken) throw invalid("email", "该邮箱已注册；如忘记密码，请使用“找回密码”");
  const password_hash = await hashPassword(body.password);
  const row = await createUser(ctx.db, {
    username: body.username,
    password_hash,
    name: body.name.trim(),
    user_type: body.role,
    email,
    email_verified: 0,
    phone: body.phone ?? null,
    school_id: body.schoolId,
    member_no: body.memberNo?.trim() || null,
  });
  await sendVerification(ctx, row, email);
  return { id: row.id, email };
}

/** Marks the token's address verified (and makes it the account's address after a change). */
export async function verifyEmail(ctx: AccountCtx, token: string): Promise<{ email: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const t = await trx
      .selectFrom("account_token")
      .selectAll()
      .where("token_hash", "=", sha256(token))
      .where("purpose", "=", "verify_email")
      .executeTakeFirst();
    if (!t) throw badRequest("验证链接无效，请重新发送验证邮件");
    if (t.used_at) throw gone("该验证链接已使用或已失效");
    if (Date.parse(t.expires_at) < Date.now()) throw gone("验证链接已过期，请重新发送验证邮件");
    const email = t.email!;
    const other = await trx
      .selectFrom("app_user")
      .select("id")
      .where("email", "=", email)
      .where("id", "!=", t.user_id)
      .executeTakeFirst();
    if (other) throw badRequest("该邮箱已被其他账号使用");
    await trx.updateTable("account_token").set({ used_at: nowIso() }).where("id", "=", t.id).execute();
    await trx
      .updateTable("app_user")
      .set({ email, email_verified: 1, updated_at: nowIso() })
      .where("id", "=", t.user_id)
      .execute();
    return { email };
  });
}

/** Sends a new verification mail if an unverified account has this address; says the same either way. */
export async function resendVerification(ctx: AccountCtx, emailIn: string) {
  const email = normEmail(emailIn);
  const user = await ctx.db
    .selectFrom("app_user")
    .select(["id", "name", "email_verified"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (user && !user.email_verified) await sendVerification(ctx, user, email);
}

export async function requestRecovery(ctx: AccountCtx, account: string) {
  const user = await findByAccount(ctx.db, account);
  if (!user || !user.email || user.locked) return;
  const code = sixDigitCode();
  const token = await issueToken(ctx, user.id, "recovery", RECOVERY_TTL_MS, user.email, code);
  const link = `${ctx.config.publicUrl}/account/claim-account?token=${token}`;
  await ctx.mailer.send({
    to: user.email,
    subject: "【赛务平台】找回密码",
    text:
      `${user.name}，您好：\n\n您的用户名是 ${user.username}。请在 30 分钟内打开下面的链接设置新密码：\n${link}\n\n` +
      `或在找回密码页面输入验证码：${code}\n\n链接和验证码只能使用一次。如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。\n`,
  });
}

export async function confirmRecovery(ctx: AccountCtx, body: RecoveryConfirmBody) {
  const { db } = ctx;
  let t: AccountToken | undefined;
  if (body.token) {
    t = await db
      .selectFrom("account_token")
      .selectAll()
      .where("token_hash", "=", sha256(body.token))
      .where("purpose", "=", "recovery")
      .executeTakeFirst();
  } else if (body.account && body.code) {
    const user = await findByAccount(db, body.account);
    t = user
      ? await db
          .selectFrom("account_token")
          .selectAll()
          .where("user_id", "=", user.id)
          .where("purpose", "=", "recovery")
          .where("used_at", "is", null)
          .orderBy("id", "desc")
          .executeTakeFirst()
      : undefined;
    if (t && t.code_hash !== sha256(`${t.user_id}:${body.code}`)) {
      // A wrong code counts against the token; enough of them end it.
      const attempts = t.attempts + 1;
      await db
        .updateTable("account_token")
        .set({ attempts, ...(attempts >= RECOVERY_MAX_ATTEMPTS ? { used_at: nowIso() } : {}) })
        .where("id", "=", t.id)
        .execute();
      t = undefined;
    }
  } else {
    throw invalid("code", "请填写验证码，或打开邮件中的链接");
  }
  const expired = t && Date.parse(t.expires_at) < Date.now();
  if (!t || t.used_at || expired) {
    throw badRequest(expired ? "链接或验证码已过期，请重新申请找回密码" : "链接或验证码无效或已使用，请重新申请找回密码");
  }
  const password_hash = await hashPassword(body.newPassword);
  const tokenId = t.id;
  const userId = t.user_id;
  await db.transaction().execute(async (trx) => {
    // Single use even when two requests race: only one of them marks the token.
    const r = await trx
      .updateTable("account_token")
      .set({ used_at: nowIso() })
      .where("id", "=", tokenId)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw badRequest("链接或验证码无效或已使用，请重新申请找回密码");
    // The mailbox was reached, so the address is proven.
    await trx
      .updateTable("app_user")
      .set({ password_hash, email_verified: 1, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("user_session").where("user_id", "=", userId).execute();
  });
}

export async function securityView(ctx: AccountCtx, user: User, currentSessionId: string | null): Promise<SecurityView> {
  const sessions = await ctx.db
    .selectFrom("user_session")
    .selectAll()
    .where("user_id", "=", user.id)
    .where("expires_at", ">", nowIso())
    .orderBy("last_seen_at", "desc")
    .execute();
  const pending = await ctx.db
    .selectFrom("account_token")
    .select("email")
    .where("user_id", "=", user.id)
    .where("purpose", "=", "verify_email")
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso())
    .orderBy("id", "desc")
    .executeTakeFirst();
  return {
    username: user.username,
    email: user.email,
    emailVerified: !!user.email_verified,
    pendingEmail: pending?.email && pending.email !== user.email ? pending.email : null,
    sessions: sessions.map((s) => ({
      id: s.id,
      current: s.id === currentSessionId,
      createdAt: s.created_at,
      lastSeenAt: s.last_seen_at,
      expiresAt: s.expires_at,
      ip: s.ip,
      userAgent: s.user_agent,
    })),
  };
}

/** Changes the password and ends every other session of the user. */
export async function changePassword(
  ctx: AccountCtx,
  user: User,
  currentSessionId: string | null,
  oldPassword: string,
  newPassword: string,
) {
  if (!(await verifyPassword(user.password_hash, oldPassword))) throw invalid("oldPassword", "原密码不正确");
  if (oldPassword === newPassword) throw invalid("newPassword", "新密码不能与原密码相同");
  const password_hash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable("app_user").set({ password_hash, updated_at: nowIso() }).where("id", "=", user.id).execute();
    let q = trx.deleteFrom("user_session").where("user_id", "=", user.id);
    if (currentSessionId) q = q.where("id", "!=", currentSessionId);
    await q.execute();
  });
}

/** Sends a verification link to the new address; the address changes once it is verified. */
export async function changeEmail(ctx: AccountCtx, user: User, password: string, emailIn: string) {
  if (!(await verifyPassword(user.password_hash, password))) throw invalid("password", "密码不正确");
  const email = normEmail(emailIn);
  if (email === user.email) throw badRequest("新邮箱与当前邮箱相同");
  const other = await ctx.db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirst();
  if (other) throw invalid("email", "该邮箱已被其他账号使用");
  await sendVerification(ctx, user, email);
  return { email };
}

export async function endSession(ctx: AccountCtx, user: User, sessionId: string) {
  const r = await ctx.db.deleteFrom("user_session").where("id", "=", sessionId).where("user_id", "=", user.id).executeTakeFirst();
  if (!Number(r.numDeletedRows)) throw badRequest("该会话不存在或已结束");
}

export async function endOtherSessions(ctx: AccountCtx, user: User, currentSessionId: string | null) {
  let q = ctx.db.deleteFrom("user_session").where("user_id", "=", user.id);
  if (currentSessionId) q = q.where("id", "!=", currentSessionId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}
