/**
 * refine's simple-rest conventions (issue 16) on top of the project's own, in one layer of
 * the router: list routes accept `_start`/`_end` paging, `_sort`/`_order`, `q` and
 * `<field>_like`/`_gte`/`_lte`/`_ne` filters (whitelisted fields only, bounded) and answer
 * `x-total-count`; a request with `X-Envelope: off` gets bare JSON — a list reply is the
 * array itself, an error keeps its HTTP status and carries `{ message }` as refine's
 * HttpError expects. Without that header the { error, info, data } envelope stays.
 *
 * Paging and sorting are rewritten into the project's own parameters before validation
 * (current/pageSize/sort), so every list keeps one set of checks. The extra filters of a
 * master-data resource are added to its list query by a query plugin: the resource's list
 * stays as it is and the conditions land on the top-level selects of its own table (the
 * count and the page alike, so the total matches the rows).
 */
import { gunzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  AliasNode,
  QueryNode,
  sql,
  TableNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { Type, type TObject, type TSchema } from "typebox";
import { invalid, STATUS_TEXT } from "../../shared/errors";
import { MAX_ID } from "../../shared/bounds";
import type { Db } from "../db";

export const REST_OPS = ["like", "gte", "lte", "ne"] as const;
type Op = (typeof REST_OPS)[number] | "eq";
const MAX_PAGE_SIZE = 500;
const MAX_SORT_FIELDS = 3;
/** Names of the project's own list parameters: never a column filter. */
const RESERVED = new Set(["current", "pageSize", "sort", "q", "_start", "_end", "_sort", "_order"]);

/** Which fields of a resource the extra filters may name: API field → SQL column of `table`. */
export interface RestColumns {
  table: string;
  columns: Record<string, string>;
}

type Kind = "integer" | "number" | "boolean" | "string";

/** The type of a view field (a nullable union counts as its non-null member). */
function kindOf(view: TSchema | undefined, field: string): Kind {
  const prop = (view as { properties?: Record<string, TSchema> } | undefined)?.properties?.[field] as
    { type?: unknown; anyOf?: { type?: unknown }[] } | undefined;
  const t = prop?.type ?? prop?.anyOf?.map((s) => s.type).find((x) => x && x !== "null");
  return t === "integer" || t === "number" || t === "boolean" ? t : "string";
}

/** The filter parameters of a resource: `<field>_<op>` for each whitelisted field, `<field>` where the resource has no own filter of that name. */
function filterKeys(rest: RestColumns | undefined, own: TObject): Map<string, { field: string; op: Op }> {
  const out = new Map<string, { field: string; op: Op }>();
  if (!rest) return out;
  const ownKeys = new Set(Object.keys(own.properties));
  for (const field of Object.keys(rest.columns)) {
    for (const op of REST_OPS) out.set(`${field}_${op}`, { field, op });
    if (!ownKeys.has(field) && !RESERVED.has(field)) out.set(field, { field, op: "eq" });
  }
  return out;
}

/** The simple-rest parameters of a list route, for validation bounds and the OpenAPI document. */
export function restQuerySchema(rest: RestColumns | undefined, own: TObject, view?: TSchema): TObject {
  const props: Record<string, TSchema> = {
    _start: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, title: "起始行（simple-rest，从 0 起）" })),
    _end: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "结束行（不含；simple-rest）" })),
    _sort: Type.Optional(
      Type.String({ maxLength: 200, pattern: "^[A-Za-z_]+(,[A-Za-z_]+){0,2}$", title: "排序字段，逗号分隔（simple-rest）" }),
    ),
    _order: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: "^(asc|desc|ASC|DESC)(,(asc|desc|ASC|DESC)){0,2}$",
        title: "排序方向，逗号分隔（simple-rest）",
      }),
    ),
  };
  if ("keyword" in own.properties) props.q = Type.Optional(Type.String({ maxLength: 100, title: "全文检索（同 keyword）" }));
  for (const [key, { field, op }] of filterKeys(rest, own)) {
    const kind = kindOf(view, field);
    const title = `${field} ${{ like: "包含", gte: "不小于", lte: "不大于", ne: "不等于", eq: "等于" }[op]}`;
    if (key === "id")
      props.id = Type.Optional(
        Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
          maxItems: 100,
          title: "编号（可重复，simple-rest getMany）",
        }),
      );
    else if (op !== "like" && (kind === "integer" || kind === "number"))
      props[key] = Type.Optional(Type.Number({ minimum: -MAX_ID, maximum: MAX_ID, title }));
    else if (op !== "like" && kind === "boolean") props[key] = Type.Optional(Type.Boolean({ title }));
    else props[key] = Type.Optional(Type.String({ maxLength: 100, title }));
  }
  return Type.Object(props);
}

const digits = (v: unknown, name: string) => {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_ID) return v;
  if (typeof v !== "string" || !/^\d{1,10}$/.test(v) || Number(v) > MAX_ID)
    throw invalid(name, `${name} 必须是不大于 ${MAX_ID} 的非负整数`);
  return Number(v);
};
const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/**
 * Before validation: simple-rest's paging and sorting become the project's own
 * current/pageSize/sort; `q` becomes `keyword`; `<field>_like` on a route without column
 * filters becomes its own `<field>` filter (the project's text filters match by contains);
 * any other `<field>_<op>` the route does not whitelist is refused with a clear text.
 */
export function restPreValidation(rest: RestColumns | undefined, own: TObject) {
  const allowed = filterKeys(rest, own);
  const ownKeys = new Set(Object.keys(own.properties));
  return async (req: FastifyRequest) => {
    const q = req.query as Record<string, unknown> | undefined;
    if (!q || typeof q !== "object") return;
    if (q._start !== undefined || q._end !== undefined) {
      const start = digits(one(q._start ?? 0), "_start");
      if (q._end === undefined) throw invalid("_end", "使用 _start 分页时须同时给出 _end");
      const end = digits(one(q._end), "_end");
      if (end <= start) throw invalid("_end", "_end 必须大于 _start");
      const size = end - start;
      if (size > MAX_PAGE_SIZE) throw invalid("_end", `每页条数（_end − _start）不能超过 ${MAX_PAGE_SIZE}`);
      if (start % size) throw invalid("_start", "_start 必须是每页条数（_end − _start）的整数倍");
      q.current = start / size + 1;
      q.pageSize = size;
      delete q._start;
      delete q._end;
    }
    if (q._sort !== undefined) {
      const fields = String(one(q._sort)).split(",");
      const orders = q._order === undefined ? [] : String(one(q._order)).split(",");
      if (fields.length > MAX_SORT_FIELDS || fields.some((f) => !/^[A-Za-z_]{1,60}$/.test(f)))
        throw invalid("_sort", `_sort 最多 ${MAX_SORT_FIELDS} 个字段，逗号分隔`);
      if (orders.some((o) => !/^(asc|desc)$/i.test(o))) throw invalid("_order", "_order 只能是 asc 或 desc，逗号分隔");
      q.sort = fields.map((f, i) => (orders[i]?.toLowerCase() === "desc" ? `-${f}` : f));
      delete q._sort;
      delete q._order;
    } else if (q._order !== undefined) throw invalid("_order", "使用 _order 时须同时给出 _sort");
    if (q.q !== undefined && ownKeys.has("keyword")) {
      q.keyword = one(q.q);
      delete q.q;
    }
    for (const key of Object.keys(q)) {
      const m = /^(.+)_(like|gte|lte|ne)$/.exec(key);
      if (!m || allowed.has(key) || ownKeys.has(key)) continue;
      if (m[2] === "like" && ownKeys.has(m[1]) && q[m[1]] === undefined) {
        q[m[1]] = q[key];
        delete q[key];
      } else throw invalid(key, `不能按 ${m[1]} 筛选（${m[2]}）`);
    }
  };
}

const likeOf = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The extra column filters of a list request as SQL conditions on the resource's table. */
function conditions(rest: RestColumns, own: TObject, view: TSchema | undefined, query: Record<string, unknown>): OperationNode[] {
  const out: OperationNode[] = [];
  for (const [key, { field, op }] of filterKeys(rest, own)) {
    const raw = query[key];
    if (raw === undefined || raw === null || raw === "") continue;
    const col = sql.ref(rest.columns[field]);
    if (key === "id" && Array.isArray(raw)) {
      out.push(sql`${col} in (${sql.join(raw as number[])})`.toOperationNode());
      continue;
    }
    const kind = kindOf(view, field);
    const v = kind === "boolean" && op !== "like" ? (raw ? 1 : 0) : raw;
    if (op === "like") out.push(sql`lower(cast(${col} as text)) like ${likeOf(String(raw))} escape '\\'`.toOperationNode());
    else if (op === "gte") out.push(sql`${col} >= ${v}`.toOperationNode());
    else if (op === "lte") out.push(sql`${col} <= ${v}`.toOperationNode());
    else if (op === "ne") out.push(sql`(${col} is null or ${col} <> ${v})`.toOperationNode());
    else out.push(sql`${col} = ${v}`.toOperationNode());
  }
  return out;
}

function tableOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return node.table.identifier.name;
  if (AliasNode.is(node) && TableNode.is(node.node)) return node.node.table.identifier.name;
  return undefined;
}

/** Adds conditions to every top-level select from `table` (the list's count and its page). */
class RestFilterPlugin implements KyselyPlugin {
  constructor(
    private readonly table: string,
    private readonly conds: OperationNode[],
  ) {}
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind !== "SelectQueryNode" || tableOf(node.from?.froms[0]) !== this.table) return node;
    let out = node;
    for (const c of this.conds) out = QueryNode.cloneWithWhere(out, c);
    return out;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** The database handle a list runs on: with the request's column filters, if it has any. */
export function restListDb(
  db: Db,
  rest: RestColumns | undefined,
  own: TObject,
  view: TSchema | undefined,
  query: Record<string, unknown>,
): Db {
  if (!rest) return db;
  const conds = conditions(rest, own, view, query);
  return conds.length ? (db.withPlugin(new RestFilterPlugin(rest.table, conds)) as Db) : db;
}

/** The parameters of the list query minus the simple-rest filters (what the resource's own list reads). */
export function ownQuery(rest: RestColumns | undefined, own: TObject, query: Record<string, unknown>): Record<string, unknown> {
  const keys = filterKeys(rest, own);
  return Object.fromEntries(Object.entries(query).filter(([k]) => !keys.has(k) && k !== "q"));
}

/** The total of a list reply as simple-rest reads it, readable by a browser page of another origin. */
export function setTotal(reply: FastifyReply, total: number) {
  reply.header("x-total-count", String(total));
  reply.header("access-control-expose-headers", "x-total-count");
}

export const bareJson = (req: FastifyRequest) => String(req.headers["x-envelope"] ?? "").toLowerCase() === "off";

/**
 * `X-Envelope: off`: the reply's data without the envelope. A page `{ list, total }`
 * becomes the array with `x-total-count`; a failure `{ message }` (plus `field` and
 * refine's `errors` on a 422) with the status unchanged.
 */
export function registerBareJson(app: FastifyInstance) {
  app.addHook("onSend", async (req, reply, payload) => {
    if (!bareJson(req) || !req.url.startsWith("/Backend/")) return payload;
    const type = String(reply.getHeader("content-type") ?? "");
    if (!type.startsWith("application/json")) return payload;
    let text: string;
    if (typeof payload === "string") text = payload;
    else if (Buffer.isBuffer(payload))
      text = (reply.getHeader("content-encoding") === "gzip" ? gunzipSync(payload) : payload).toString("utf8");
    else return payload;
    let body: { error?: unknown; info?: unknown; data?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      return payload;
    }
    if (!body || typeof body !== "object" || typeof body.error !== "number") return payload;
    reply.removeHeader("content-encoding");
    reply.removeHeader("content-length");
    if (body.error !== 0 || reply.statusCode >= 400) {
      const field = (body.data as { field?: unknown } | undefined)?.field;
      return JSON.stringify({
        message: typeof body.info === "string" ? body.info : (STATUS_TEXT[reply.statusCode] ?? "请求失败"),
        statusCode: reply.statusCode,
        ...(typeof field === "string" ? { field, errors: { [field]: body.info } } : {}),
      });
    }
    const data = body.data as { list?: unknown; total?: unknown } | undefined;
    if (
      data &&
      typeof data === "object" &&
      Array.isArray(data.list) &&
      typeof data.total === "number" &&
      Object.keys(data).length === 2
    ) {
      setTotal(reply, data.total);
      return JSON.stringify(data.list);
    }
    return JSON.stringify(data ?? {});
  });
}

const BEARER = /^bearer\s/i;

/**
 * A refine app on another origin calls with a token: bearer requests may be read cross-origin
 * (`Access-Control-Allow-Origin: *`, never with credentials — cookies are ignored on them, so
 * the reply does not depend on any ambient login), and /Backend answers the browser's
 * preflight for the headers such a client sends. Cookie requests get no CORS header: a
 * foreign page still cannot read them, and the Origin check still refuses their writes.
 */
export function registerCrossOrigin(app: FastifyInstance) {
  app.options("/Backend/*", { schema: { hide: true }, config: { access: "public" } }, async (req, reply) => {
    if (!req.headers["access-control-request-method"]) return reply.code(204).send();
    return reply
      .code(204)
      .header("access-control-allow-origin", "*")
      .header("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE")
      .header("access-control-allow-headers", "authorization, content-type, x-envelope")
      .header("access-control-max-age", "600")
      .send();
  });
  app.addHook("onSend", async (req, reply, payload) => {
    if (req.url.startsWith("/Backend/") && BEARER.test(String(req.headers.authorization ?? ""))) {
      reply.header("access-control-allow-origin", "*");
      reply.header("access-control-expose-headers", "x-total-count");
    }
    return payload;
  });
}
