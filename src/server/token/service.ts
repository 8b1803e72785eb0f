/**
 * API tokens (issue 16): create, list, revoke, and resolve a bearer secret to its creator.
 * A token reads `swp_<public id>_<secret>`; the row is found by the public id and the
 * secret's SHA-256 compared in constant time. The creator is read with the token on every
 * request through a read cache that a write to api_token or app_user ends on every process
 * (db/change-bus.ts), so a lock, a role change or a revocation takes effect at once.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../db";
import { readCache } from "../db/changes";
import type { ApiToken, User } from "../db/schema";
import type { Policy } from "../../shared/access";
import { forbidden, invalid, notFound } from "../../shared/errors";
import {
  TOKEN_MAX_DAYS,
  TOKEN_ROLES,
  TOKEN_PERSONAL_OBJECTS,
  resourceLabel,
  tokenObjects,
  type TokenCreateBody,
  type TokenCreated,
  type TokenView,
} from "../../shared/token/schema";
import { principalOf } from "../plugins/access";
import { tokenRefused, type TokenResolver } from "../plugins/auth";
import { newToken, sha256 } from "../common/crypto";
import { nowIso } from "../../shared/time";

export const TOKEN_PREFIX = "swp_";
const FORMAT = /^swp_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
const TOUCH_EVERY_MS = 60_000;

function view(t: ApiToken): TokenView {
  const now = Date.now();
  return {
    id: t.id,
    name: t.name,
    readOnly: !!t.read_only,
    resources: JSON.parse(t.resources) as string[],
    expiresAt: t.expires_at,
    createdAt: t.created_at,
    revokedAt: t.revoked_at,
    lastUsedAt: t.last_used_at,
    lastUsedAddr: t.last_used_addr,
    status: t.revoked_at ? "revoked" : Date.parse(t.expires_at) <= now ? "expired" : "active",
  };
}

export async function listTokens(db: Db, policy: Policy, user: User) {
  const rows = await db.selectFrom("api_token").selectAll().where("user_id", "=", user.id).orderBy("id", "desc").execute();
  return { items: rows.map(view), resources: await tokenObjects(policy, principalOf(user)) };
}

export async function createToken(db: Db, policy: Policy, user: User, body: TokenCreateBody): Promise<TokenCreated> {
  if (!(TOKEN_ROLES as readonly number[]).includes(user.user_type))
    throw forbidden("只有超级管理员、赛事管理员和学校管理员可以创建 API 令牌");
  const name = body.name.trim();
  if (!name) throw invalid("name", "请填写令牌名称");
  const allowed = new Set(await tokenObjects(policy, principalOf(user)));
  const bad = body.resources.find((r) => !allowed.has(r));
  if (bad && TOKEN_PERSONAL_OBJECTS.has(bad))
    throw invalid("resources", `「${resourceLabel(bad)}」（${bad}）是本人办理的事项，不能授予令牌`);
  if (bad) throw invalid("resources", `您无权访问资源 ${bad}，不能授予令牌`);
  const expires = Date.parse(body.expiresAt);
  const now = Date.now();
  if (!(expires > now)) throw invalid("expiresAt", "到期时间必须晚于现在");
  if (expires > now + TOKEN_MAX_DAYS * 86400_000) throw invalid("expiresAt", "令牌有效期不能超过一年");
  const taken = await db
    .selectFrom("api_token")
    .select("id")
    .where("user_id", "=", user.id)
    .where("name", "=", name)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (taken) throw invalid("name", "已有同名的有效令牌，请换一个名称");
  const publicId = randomBytes(6).toString("hex");
  const secret = newToken();
  const row = await db
    .insertInto("api_token")
    .values({
      public_id: publicId,
      user_id: user.id,
      name,
      token_hash: sha256(secret),
      read_only: body.readOnly ? 1 : 0,
      resources: JSON.stringify(body.resources),
      expires_at: new Date(expires).toISOString(),
      created_at: nowIso(),
      revoked_at: null,
      last_used_at: null,
      last_used_addr: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token: view(row), secret: `${TOKEN_PREFIX}${publicId}_${secret}` };
}

export async function revokeToken(db: Db, user: User, id: number) {
  const t = await db
    .selectFrom("api_token")
    .select(["id", "revoked_at"])
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!t) throw notFound("令牌不存在");
  if (!t.revoked_at) await db.updateTable("api_token").set({ revoked_at: nowIso() }).where("id", "=", id).execute();
}

const TOKEN_TABLES = ["api_token", "app_user"] as const;

/** Resolves a bearer secret to its creator and token, or throws 401. */
export function tokenResolver(db: Db): TokenResolver {
  const cache = readCache(db, "api-tokens", { maxEntries: 5_000, maxAgeMs: 60_000 });
  return async (secret, addr) => {
    const m = FORMAT.exec(secret);
    if (!m) throw tokenRefused();
    const [, publicId, raw] = m;
    const row = await cache.get(publicId, TOKEN_TABLES, () =>
      db
        .selectFrom("api_token")
        .innerJoin("app_user", "app_user.id", "api_token.user_id")
        .selectAll("app_user")
        .select([
          "api_token.id as t_id",
          "api_token.name as t_name",
          "api_token.token_hash as t_hash",
          "api_token.read_only as t_read_only",
          "api_token.resources as t_resources",
          "api_token.expires_at as t_expires",
          "api_token.revoked_at as t_revoked",
          "api_token.last_used_at as t_used",
        ])
        .where("api_token.public_id", "=", publicId)
        .executeTakeFirst(),
    );
    if (!row) throw tokenRefused();
    const a = Buffer.from(sha256(raw), "hex");
    const b = Buffer.from(row.t_hash, "hex");
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw tokenRefused();
    const now = Date.now();
    if (row.t_revoked || Date.parse(row.t_expires) <= now || row.locked) throw tokenRefused();
    if (!(TOKEN_ROLES as readonly number[]).includes(row.user_type)) throw tokenRefused();
    const { t_id, t_name, t_hash: _h, t_read_only, t_resources, t_expires: _e, t_revoked: _r, t_used, ...user } = row;
    if (!t_used || now - Date.parse(t_used) > TOUCH_EVERY_MS) {
      await db
        .updateTable("api_token")
        .set({ last_used_at: new Date(now).toISOString(), last_used_addr: addr })
        .where("id", "=", t_id)
        .execute();
    }
    return {
      user,
      token: { id: t_id, name: t_name, readOnly: !!t_read_only, resources: new Set(JSON.parse(t_resources) as string[]) },
    };
  };
}
