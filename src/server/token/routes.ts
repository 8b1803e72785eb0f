/**
 * HTTP for API tokens (issue 16): list, create (the secret is in this one reply only) and
 * revoke one's own tokens; and the audit row of every write made with a token.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope, EmptyEnvelope } from "../../shared/envelope";
import { Id } from "../../shared/bounds";
import type { Policy } from "../../shared/access";
import { TokenCreateBody, TokenCreated, TokenList, TOKEN_FORBIDDEN_OBJECTS } from "../../shared/token/schema";
import type { Db } from "../db";
import { perAddress } from "../plugins/limits";
import * as svc from "./service";
import { auditScope, type AuditScope } from "../common/audit";

const tags = ["账号"];
const BASE = "/Backend/Common/account/api-tokens";

export function tokenRoutes(app: FastifyInstance, db: Db, policy: Policy) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    BASE,
    {
      schema: { tags, summary: "我的 API 令牌，以及令牌可选的资源", response: { 200: Envelope(TokenList) } },
      config: { access: ["api.apiTokens", "read"] },
    },
    async (req) => ({ error: 0, info: "成功", data: await svc.listTokens(db, policy, req.user!) }),
  );

  r.post(
    BASE,
    {
      schema: {
        tags,
        summary: "创建 API 令牌（密钥只在此次返回中出现）",
        body: TokenCreateBody,
        response: { 201: Envelope(TokenCreated) },
      },
      config: { access: ["api.apiTokens", "create"], limits: [perAddress("api-token-create", 20)] },
    },
    async (req, reply) => {
      const data = await svc.createToken(db, policy, req.user!, req.body);
      return reply.code(201).send({ error: 0, info: "令牌已创建，请立即复制保存：密钥只显示这一次", data });
    },
  );

  r.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: "吊销自己的一个 API 令牌",
        params: Type.Object({ id: Id("令牌") }),
        response: { 200: EmptyEnvelope },
      },
      config: { access: ["api.apiTokens", "delete"] },
    },
    async (req) => {
      await svc.revokeToken(db, req.user!, req.params.id);
      return { error: 0, info: "令牌已吊销" };
    },
  );
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every successful write made with a token is in the audit log with the token's name: the
 * rows the use case writes itself (common/audit.ts record) carry it; a write that records
 * nothing of its own leaves one row naming the route.
 */
export function registerTokenAudit(app: FastifyInstance, db: Db) {
  const scopes = new WeakMap<object, AuditScope>();
  // After validation, around the handler: the audit scope follows the use case's async calls.
  app.addHook("preHandler", (req, _reply, done) => {
    const token = req.apiToken;
    if (!token || SAFE.has(req.method)) return done();
    const scope: AuditScope = { tokenName: token.name, rows: 0 };
    scopes.set(req, scope);
    auditScope.run(scope, done);
  });
  app.addHook("onSend", async (req, reply, payload) => {
    const token = req.apiToken;
    if (!token || SAFE.has(req.method) || reply.statusCode >= 400) return payload;
    if ((scopes.get(req)?.rows ?? 0) > 0) return payload;
    await db
      .insertInto("audit_log")
      .values({
        at: new Date().toISOString(),
        user_id: req.user?.id ?? null,
        entity: "api_request",
        entity_id: (req.routeOptions.url ?? req.url).slice(0, 200),
        action: req.method.toLowerCase(),
        changes: JSON.stringify({ url: [null, req.url.slice(0, 500)], status: [null, reply.statusCode] }),
        token_name: token.name,
      })
      .execute();
    return payload;
  });
}

/** OpenAPI: routes a token may call carry the bearer scheme (app.ts, swagger transform). */
export function acceptsToken(access: unknown): boolean {
  return (
    Array.isArray(access) &&
    access.length === 2 &&
    typeof access[0] === "string" &&
    access[0].startsWith("api.") &&
    !TOKEN_FORBIDDEN_OBJECTS.has(access[0])
  );
}
