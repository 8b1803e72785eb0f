/**
 * Every /Backend route declares config.access: "public" or an [object, action] pair of
 * casbin/policy.csv. A route without one refuses to register. The guard runs the policy
 * for the current user before the handler; unsafe methods must come from our own origin.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AccessRule, Policy, Principal } from "../../shared/access";
import { DomainError, forbidden, unauthenticated } from "../../shared/errors";
import type { User } from "../db/schema";
import type { Config } from "../config";
import { READ_ACTIONS, TOKEN_FORBIDDEN_OBJECTS } from "../../shared/token/schema";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessRule | "public";
    /** The route logs the caller in: it must come from our own pages even without a cookie (login CSRF). */
    startsSession?: boolean;
  }
}

export const principalOf = (user: User | null): Principal =>
  user
    ? {
        needToLogin: false,
        userType: user.user_type,
        hasComplaintRight: !!user.has_complaint_right,
        isSchoolContestJudge: !!user.is_school_contest_judge,
      }
    : { needToLogin: true };

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** "scheme://host[:port]" of a URL, default ports dropped; null when it is not an http(s) URL. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether an unsafe request comes from our own pages. The Origin header (else the
 * Referer's origin) must equal, in scheme, host and port:
 * - PUBLIC_URL's origin (the address users are given; behind a TLS-terminating proxy the
 *   browser says https://… while the connection to us is http), or
 * - the origin the request was addressed to: the scheme of the connection and the Host
 *   header (the dev server proxies with the browser's Host, tests inject with their own).
 *   A browser cannot set Host for another site, so a cross-site page never matches.
 * X-Forwarded-Proto/-Host are taken into the second only from a trusted proxy: Fastify's
 * req.protocol and req.host read them only when the peer is in TRUSTED_PROXIES.
 */
function sameOrigin(req: FastifyRequest, publicOrigin: string | null): boolean {
  const source = req.headers.origin ?? req.headers.referer;
  if (!source) return false;
  const from = originOf(source);
  if (!from) return false;
  if (from === publicOrigin) return true;
  return !!req.host && from === originOf(`${req.protocol}://${req.host}`);
}

export function registerAccess(app: FastifyInstance, policy: Policy, config?: Pick<Config, "publicUrl">) {
  const publicOrigin = config ? originOf(config.publicUrl) : null;
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/Backend/")) return;
    if (route.url.startsWith("/Backend/docs")) return;
    if (route.url === "/Backend/openapi.json") return;
    const access = (route.config as { access?: unknown } | undefined)?.access;
    if (access !== "public" && !(Array.isArray(access) && access.length === 2)) {
      throw new Error(`route ${route.method} ${route.url} declares no access rule`);
    }
  });

  app.addHook("onRequest", async (req) => {
    if (SAFE.has(req.method) || !req.url.startsWith("/Backend/")) return;
    // A bearer call carries no ambient credential a foreign page could use: no CSRF check.
    if (req.apiToken) return;
    // A request carrying our cookie must come from our own pages (CSRF), and so must one that
    // logs in: a foreign form must not sign a victim into the attacker's account (login CSRF).
    const hasCookie = !!req.headers.cookie;
    const startsSession = req.routeOptions.config?.startsSession === true;
    if ((req.headers.origin || hasCookie || startsSession) && !sameOrigin(req, publicOrigin)) {
      throw new DomainError(403, "请求来源不被允许，请从本站页面操作");
    }
  });

  // Before validation, so a refused caller learns nothing about the body it sent.
  app.addHook("preValidation", async (req) => {
    const access = req.routeOptions.config?.access;
    if (req.apiToken && !SAFE.has(req.method) && (!access || access === "public")) {
      // A public write (registration, recovery) is no business of a token.
      throw forbidden("API 令牌不能用于此操作");
    }
    if (!access || access === "public") return;
    const [obj, act] = access;
    const token = req.apiToken;
    if (token) {
      // The creator's own right first, then the token's narrower grant.
      if (TOKEN_FORBIDDEN_OBJECTS.has(obj))
        throw forbidden("API 令牌不能用于创建令牌、修改密码或账号安全设置，请登录后在页面上操作");
      if (!(await policy.can(principalOf(req.user), obj, act))) throw forbidden("您没有权限进行此操作");
      if (!token.resources.has(obj)) throw forbidden("该 API 令牌无权访问此资源");
      if (token.readOnly && !READ_ACTIONS.has(act)) throw forbidden("该 API 令牌为只读令牌，不能修改数据");
      return;
    }
    if (await policy.can(principalOf(req.user), obj, act)) return;
    if (!req.user) throw unauthenticated("请先登录");
    if (await policy.can({ needToLogin: true }, obj, act)) {
      throw forbidden("您已登录，请先退出登录后再进行此操作");
    }
    throw forbidden("您没有权限进行此操作");
  });
}
