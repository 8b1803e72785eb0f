/**
 * GET /metrics in the Prometheus text format, and the one onResponse hook that counts
 * requests for it. Registered only when metrics are on (METRICS=0 turns them off: no route,
 * no hook); who may scrape is decided by ./access.ts.
 *
 * The path is outside /Backend/ on purpose: sessions (plugins/auth.ts), casbin and the
 * same-origin check (plugins/access.ts), API-token audit and the bare-JSON/CORS replies
 * (token/routes.ts, crud/rest.ts) act only on /Backend/ paths, and rate limits
 * (plugins/limits.ts) only on routes that list rules or on API-token calls, which a
 * /metrics request never is. So a scrape reads no session, sets no cookie, is never
 * refused as cross-site and never counts against a limit; its bearer token is not taken
 * for an API token either.
 */
import type { FastifyInstance } from "fastify";
import type { Config } from "../config";
import { poolOf, type Db, type Dialect } from "../db";
import { perToken } from "../plugins/limits";
import { scrapeGate } from "./access";
import type { OverloadReason } from "../plugins/overload";
import { createAppMetrics, UNMATCHED } from "./registry";

export const METRICS_PATH = "/metrics";

/** What other plugins report to the metrics. */
export interface MetricsHooks {
  /** A request was refused with 429 by the rate-limit rule `rule`. */
  limitRefused(rule: string): void;
  /** An API request was refused with 503 because the process was over capacity (plugins/overload.ts). */
  overloadRefused(reason: OverloadReason): void;
}

export function registerMetrics(
  app: FastifyInstance,
  deps: { db: Db; dialect: Dialect; config: Pick<Config, "metrics"> },
): MetricsHooks | null {
  const { enabled, token } = deps.config.metrics;
  if (!enabled) return null;
  const metrics = createAppMetrics({
    db: deps.db,
    dialect: deps.dialect,
    pool: poolOf(deps.db),
    log: (msg) => app.log.warn(msg),
  });
  const gate = scrapeGate(token);

  // The route pattern, never the raw URL (ids and query strings would make every request its
  // own series); scrapes are left out so that watching does not change what is watched.
  app.addHook("onResponse", (req, reply, done) => {
    const route = req.routeOptions.url;
    if (route !== METRICS_PATH) metrics.request(route ?? UNMATCHED, req.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // Every rule's refusal series exists from the start (routes registered after this hook are all of them).
  app.addHook("onRoute", (route) => {
    for (const rule of route.config?.limits ?? []) metrics.limitRule(rule.name);
  });
  // …and the rule every API-token call counts in, which no route lists.
  metrics.limitRule(perToken(0).name);

  app.get(METRICS_PATH, { schema: { hide: true } }, async (req, reply) => {
    const verdict = gate(req.headers, req.socket.remoteAddress);
    // Not for this caller: the same answer as a path that does not exist.
    if (verdict === "hidden") return reply.code(404).send({ error: 404, info: "请求的接口不存在" });
    if (verdict === "unauthorized") {
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ error: 401, info: "缺少或错误的监控令牌：请在 Authorization 头中以 Bearer 方式提供 METRICS_TOKEN" });
    }
    const text = await metrics.scrape();
    return reply.header("content-type", metrics.contentType).header("cache-control", "no-store").send(text);
  });

  app.addHook("onClose", async () => metrics.close());
  return { limitRefused: (rule) => metrics.limitRefused(rule), overloadRefused: (reason) => metrics.overloadRefused(reason) };
}
