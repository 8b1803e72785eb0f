/**
 * Server-side sessions: the cookie holds a random token; the database holds its sha256.
 * Each request is resolved to req.user (or null) before any route runs. A bearer API token is
 * resolved by the resolver app.ts passes in (token/service.ts), so this plugin does not depend
 * on the token domain.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db";
import { readCache } from "../db/changes";
import type { User } from "../db/schema";
import type { Config } from "../config";
import { newToken, sha256 } from "../common/crypto";
import { STATUS_TEXT, unauthenticated } from "../../shared/errors";

export const SESSION_COOKIE = "saiwu_sid";
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** What a bearer request carries besides req.user. */
export interface RequestToken {
  id: number;
  name: string;
  readOnly: boolean;
  resources: Set<string>;
}

/** Resolves a bearer secret to its creator and token, or throws tokenRefused(). */
export type TokenResolver = (secret: string, addr: string | null) => Promise<{ user: User; token: RequestToken }>;

/** The one refusal of a bearer token, whatever is wrong with it. */
export const tokenRefused = () => unauthenticated(STATUS_TEXT[401]);

declare module "fastify" {
  interface FastifyRequest {
    user: User | null;
    sessionId: string | null;
    /** set when the request came with `Authorization: Bearer <API token>` (token/service.ts) */
    apiToken: RequestToken | null;
  }
}

export async function startSession(db: Db, config: Config, req: FastifyRequest, reply: FastifyReply, userId: number) {
  const token = newToken();
  const now = new Date();
  const expires = new Date(now.getTime() + config.sessionDays * 86400_000);
  await db
    .insertInto("user_session")
    .values({
      id: sha256(token),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expires.toISOString(),
      ip: req.ip ?? null,
      user_agent: (req.headers["user-agent"] ?? "").slice(0, 300) || null,
    })
    .execute();
  // The last log-in outlives the session: the retention purge keeps active accounts' e-mails (retention/purge.ts).
  await db
    .insertInto("user_activity")
    .values({ user_id: userId, last_login_at: now.toISOString() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ last_login_at: now.toISOString() }))
    .execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.cookieSecure,
    expires,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: config.cookieSecure });
}

const SESSION_TABLES = ["user_session", "app_user"] as const;

export function registerAuth(app: FastifyInstance, db: Db, resolveToken: TokenResolver) {
  const sessions = readCache(db, "sessions", { maxEntries: 20_000, maxAgeMs: 60_000 });
  app.decorateRequest("user", null);
  app.decorateRequest("sessionId", null);
  app.decorateRequest("apiToken", null);
  app.addHook("onRequest", async (req) => {
    if (!req.url.startsWith("/Backend/")) return;
    // A bearer call acts as the token's creator; its cookies are ignored.
    const authz = req.headers.authorization;
    if (authz !== undefined && /^bearer(\s|$)/i.test(authz)) {
      const secret = authz.slice(6).trim();
      if (!secret || secret.length > 200) throw tokenRefused();
      const { user, token } = await resolveToken(secret, req.ip ?? null);
      req.user = user;
      req.apiToken = token;
      return;
    }
    const token = req.cookies[SESSION_COOKIE];
    if (!token) return;
    const id = sha256(token);
    // Served from memory while user_session and app_user are unchanged (db/changes.ts): a
    // logout, lock, role or password change is a write to one of them and ends the entry —
    // on PostgreSQL also when another server process made it (db/change-bus.ts).
    const row = await sessions.get(id, SESSION_TABLES, () =>
      db
        .selectFrom("user_session")
        .innerJoin("app_user", "app_user.id", "user_session.user_id")
        .selectAll("app_user")
        .select(["user_session.expires_at as session_expires", "user_session.last_seen_at as session_seen"])
        .where("user_session.id", "=", id)
        .executeTakeFirst(),
    );
    if (!row) return;
    const now = Date.now();
    if (Date.parse(row.session_expires) <= now || row.locked) {
      await db.deleteFrom("user_session").where("id", "=", id).execute();
      return;
    }
    const { session_expires: _e, session_seen, ...user } = row;
    req.user = user; // a copy: the cached row stays as read
    req.sessionId = id;
    if (now - Date.parse(session_seen) > TOUCH_EVERY_MS) {
      await db
        .updateTable("user_session")
        .set({ last_seen_at: new Date(now).toISOString() })
        .where("id", "=", id)
        .execute();
    }
  });
}
