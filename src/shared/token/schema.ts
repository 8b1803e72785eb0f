/**
 * API tokens (issue 16): request and reply shapes, and which casbin objects a token may
 * list — derived from the one policy (casbin/policy.csv) the server and the browser load.
 */
import { Type, type Static } from "typebox";
import type { Policy, Principal } from "../access";

/** Objects a token never reaches: sessions, account security and tokens themselves. */
export const TOKEN_FORBIDDEN_OBJECTS = new Set(["api.session", "api.registration", "api.recovery", "api.security", "api.apiTokens"]);
export const TOKEN_ROLES = [0, 1, 2] as const;
export const TOKEN_MAX_DAYS = 366;
export const READ_ACTIONS = new Set(["read"]);

/** The API objects the principal may use with some action, which a token may list. */
export async function tokenObjects(policy: Policy, p: Principal): Promise<string[]> {
  const rows = (await policy.enforcer.getPolicy()) as string[][];
  const objs = [...new Set(rows.map((r) => r[1]).filter((o) => o?.startsWith("api.") && !TOKEN_FORBIDDEN_OBJECTS.has(o)))].sort();
  const out: string[] = [];
  for (const o of objs) {
    const acts = [...new Set(rows.filter((r) => r[1] === o).map((r) => r[2]))];
    for (const a of acts) if (await policy.can(p, o, a)) { out.push(o); break; }
  }
  return out;
}

export const TokenCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, title: "令牌名称" }),
  readOnly: Type.Boolean({ title: "只读" }),
  resources: Type.Array(Type.String({ maxLength: 60, pattern: "^api\\.[A-Za-z]+$" }), { minItems: 1, maxItems: 100, uniqueItems: true, title: "可访问的资源" }),
  expiresAt: Type.String({ format: "date-time", maxLength: 40, title: "到期时间" }),
}, { additionalProperties: false });
export type TokenCreateBody = Static<typeof TokenCreateBody>;

export const TokenView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  readOnly: Type.Boolean(),
  resources: Type.Array(Type.String()),
  expiresAt: Type.String(),
  createdAt: Type.String(),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAddr: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal("active"), Type.Literal("expired"), Type.Literal("revoked")]),
});
export type TokenView = Static<typeof TokenView>;

export const TokenList = Type.Object({ items: Type.Array(TokenView), resources: Type.Array(Type.String()) });
export type TokenList = Static<typeof TokenList>;
export const TokenCreated = Type.Object({ token: TokenView, secret: Type.String() });
export type TokenCreated = Static<typeof TokenCreated>;
