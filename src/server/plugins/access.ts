/**
 * Every /Backend route declares config.access: "public" or an [object, action] pair of
 * casbin/policy.csv. A route without one refuses to register. The guard runs the policy
 * for the current user before the handler; unsafe methods must come from our own origin.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AccessRule, Policy, Principal } from "../../shared/access";
import { DomainError, forbidden, unauthenticated } from "../../shared/errors";
import type { User } from "../db/schema";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessRule | "public";
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

function sameOrigin(req: FastifyRequest): boolean {
  const source = req.headers.origin ?? req.headers.referer;
  if (!source) return false;
  try {
    const host = String(req.headers["x-forwarded-host"] ?? req.headers.host ?? "");
    const proto = new URL(source).protocol;
    return new URL(source).host === new URL(`${proto}//${host}`).host;
  } catch {
    return false;
  }
}

export function registerAccess(app: FastifyInstance, policy: Policy) {
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
    // A request carrying our cookie must come from our own pages (CSRF).
    const hasCookie = !!req.headers.cookie;
    if ((req.headers.origin || hasCookie) && !sameOrigin(req)) {
      throw new DomainError(403, "请求来源不被允许，请从本站页面操作");
    }
  });

  // Before validation, so a refused caller learns nothing about the body it sent.
  app.addHook("preValidation", async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access || access === "public") return;
    const [obj, act] = access;
    if (await policy.can(principalOf(req.user), obj, act)) return;
    if (!req.user) throw unauthenticated("请先登录");
    if (await policy.can({ needToLogin: true }, obj, act)) {
      throw forbidden("您已登录，请先退出登录后再进行此操作");
    }
    throw forbidden("您没有权限进行此操作");
  });
}
