/**
 * refine's dataProvider over /Backend, built on `@refinedev/simple-rest` (issue 16): its
 * provider builds the calls (URLs, getMany, the list's total from `x-total-count`, the
 * HttpError contract) and the seed's one request client (../request.ts) carries them — the
 * provider is handed an adapter with the shape of the axios instance it expects, no axios.
 * Resources map to /Backend/<meta.path> (src/client/providers/resources.ts).
 *
 * What of simple-rest does not fit the seed's client, and what is done instead:
 * - its axios instance: the seed's client is the only HTTP client (same-origin credentials,
 *   repeated GET keys, timeout, opt-in cache, one place for notifications; it resolves to
 *   the envelope and never rejects). `restHttp` below adapts it: envelope → data, a list's
 *   { list, total } → the array plus `x-total-count`, a failure → refine HttpError.
 * - its `_start`/`_end`/`_sort`/`_order` dialect: the generic resource router and the works
 *   lists answer it, but other /Backend lists (work log, …) speak only the project's own
 *   current/pageSize/sort, so the adapter sends the project's parameters on the wire.
 * - its `contains` → `<field>_like`: the project's filters are named filters where the
 *   server decides how a field matches (keyword searches several columns), so contains,
 *   eq and in go as `<field>=value`; empty filter values are left out (simple-rest sends
 *   them, and an empty typed filter would be refused).
 * - `pagination: { mode: "off" }`: simple-rest then sends no paging and the server's default
 *   page (20) would apply; the provider asks for the largest page (500) instead.
 * - `custom`: simple-rest's builds `url?&…` and drops the query on writes; the project's own
 *   custom (below) goes through the same client.
 * - its getMany asks `<path>?id=1&id=2`, which the /Backend lists do not answer: getMany
 *   (below) asks each row's getOne instead.
 *
 * On the wire, list: GET /Backend/<path>?current=&pageSize=&sort=name&sort=-createdAt&<field>=…
 * (src/shared/crud/list.ts): eq, contains and in filters are sent as <field>=value
 * (repeated for in), other operators as <field>_<operator>.
 */
import type { CrudFilter, CrudFilters, CrudSort, DataProvider, HttpError } from "@refinedev/core";
import simpleRest from "@refinedev/simple-rest";
import { request, type ClientReply, type Method, type Params } from "../request";
import { resourceMeta } from "./resources";

export const API_URL = "/Backend";

export function toHttpError(reply: ClientReply): HttpError {
  const field = (reply.data as { field?: unknown } | undefined)?.field;
  return {
    message: reply.info || "请求失败",
    statusCode: reply.status || 0,
    ...(typeof field === "string" ? { errors: { [field]: reply.info } } : {}),
  };
}

async function call<T>(
  method: Method,
  url: string,
  opts: { params?: Params; data?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const reply = await request<T>(url, { method, ...opts, notify: false });
  if (reply.error !== 0) throw toHttpError(reply);
  return reply.data as T;
}

/** The resource's path under /Backend: meta.path, the resource list's path, or the name. */
const pathOf = (resource: string, meta?: object) => {
  const path = (meta as { path?: unknown } | undefined)?.path ?? resourceMeta(resource)?.path;
  return typeof path === "string" ? path : resource;
};

export function filterParams(filters: readonly CrudFilter[] | undefined): Params {
  const out: Record<string, string | number | boolean | null | (string | number | boolean | null)[]> = {};
  for (const f of filters ?? []) {
    if (!("field" in f)) continue; // conditional (and/or) filters: not supported by the back end
    if (f.value === undefined || f.value === null || f.value === "" || (Array.isArray(f.value) && !f.value.length)) continue;
    const key = f.operator === "eq" || f.operator === "contains" || f.operator === "in" ? f.field : `${f.field}_${f.operator}`;
    out[key] = f.value;
  }
  return out as Params;
}

export function sortParams(sorters: readonly CrudSort[] | undefined): Params {
  if (!sorters?.length) return {};
  return { sort: sorters.map((s) => (s.order === "desc" ? `-${s.field}` : s.field)) };
}

/** simple-rest's `_start`/`_end`/`_sort`/`_order` and filters → the project's own list parameters. */
export function projectParams(query: URLSearchParams): Params {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    if (key.startsWith("_")) continue;
    const values = query.getAll(key);
    out[key] = values.length > 1 ? values : values[0];
  }
  const start = query.get("_start");
  const end = query.get("_end");
  if (start !== null && end !== null) {
    const size = Math.max(1, Number(end) - Number(start));
    Object.assign(out, { current: String(Math.floor(Number(start) / size) + 1), pageSize: String(size) });
  }
  const fields = query.get("_sort")?.split(",") ?? [];
  const orders = query.get("_order")?.split(",") ?? [];
  Object.assign(
    out,
    sortParams(fields.filter(Boolean).map((field, i) => ({ field, order: orders[i] === "desc" ? "desc" : "asc" }))),
  );
  return out as Params;
}

type RestHttp = NonNullable<Parameters<typeof simpleRest>[1]>;
type Reply = { data: unknown; headers: Record<string, string> };

/**
 * The seed's request client in the shape simple-rest's provider calls (get/delete with a
 * config, post/put/patch with a body): the one HTTP client stays ../request.ts.
 */
async function send(
  method: Method,
  url: string,
  body: unknown,
  config?: { headers?: Record<string, string>; data?: unknown },
): Promise<Reply> {
  const [path, search = ""] = url.split("?");
  const reply = await request(path, {
    method,
    params: method === "GET" ? projectParams(new URLSearchParams(search)) : undefined,
    data: body ?? config?.data,
    headers: config?.headers,
    notify: false,
  });
  if (reply.error !== 0) throw toHttpError(reply);
  const data = reply.data as { list?: unknown; total?: unknown } | undefined;
  if (data && typeof data === "object" && Array.isArray(data.list) && typeof data.total === "number") {
    return { data: data.list, headers: { "x-total-count": String(data.total) } };
  }
  return { data: data ?? {}, headers: {} };
}

export const restHttp = {
  get: (url: string, config?: { headers?: Record<string, string> }) => send("GET", url, undefined, config),
  delete: (url: string, config?: { headers?: Record<string, string>; data?: unknown }) => send("DELETE", url, undefined, config),
  post: (url: string, body?: unknown, config?: { headers?: Record<string, string> }) => send("POST", url, body, config),
  put: (url: string, body?: unknown, config?: { headers?: Record<string, string> }) => send("PUT", url, body, config),
  patch: (url: string, body?: unknown, config?: { headers?: Record<string, string> }) => send("PATCH", url, body, config),
} as unknown as RestHttp;

const rest = simpleRest(API_URL, restHttp);

/** Filters as the project sends them: contains/in as eq (the server decides how a field matches), empty ones left out. */
function projectFilters(filters: CrudFilters | undefined): CrudFilters {
  return (filters ?? []).flatMap((f): CrudFilter[] => {
    if (!("field" in f)) return []; // conditional (and/or) filters: not supported by the back end
    if (f.value === undefined || f.value === null || f.value === "" || (Array.isArray(f.value) && !f.value.length)) return [];
    if (f.operator === "contains" || f.operator === "in") return [{ ...f, operator: "eq" }];
    // Operators simple-rest has no suffix for keep the project's <field>_<operator>.
    if (!["eq", "ne", "gte", "lte"].includes(f.operator))
      return [{ field: `${f.field}_${f.operator}`, operator: "eq", value: f.value }];
    return [f];
  });
}

export const dataProvider: DataProvider = {
  getApiUrl: () => API_URL,

  getList: ({ resource, pagination, sorters, filters, meta }) =>
    rest.getList({
      resource: pathOf(resource, meta),
      pagination:
        pagination?.mode === "off"
          ? { currentPage: 1, pageSize: 500, mode: "server" }
          : { currentPage: pagination?.currentPage ?? 1, pageSize: pagination?.pageSize ?? 10, mode: "server" },
      sorters,
      filters: projectFilters(filters),
      meta,
    }) as never,

  getOne: ({ resource, id, meta }) =>
    rest.getOne({ resource: pathOf(resource, meta), id: encodeURIComponent(String(id)), meta }) as never,

  // The rows of several ids (useMany, a select's chosen options): each one's own GET, in the order
  // asked, each id once (in parallel): the /Backend lists take no list of ids, every resource has
  // its getOne.
  getMany: async ({ resource, ids, meta }) => {
    const unique = [...new Set(ids.map(String))];
    const rows = new Map(
      await Promise.all(
        unique.map(async (id) => {
          const { data } = await rest.getOne({ resource: pathOf(resource, meta), id: encodeURIComponent(id), meta });
          return [id, data] as const;
        }),
      ),
    );
    return { data: ids.map((id) => rows.get(String(id))) } as never;
  },

  create: ({ resource, variables, meta }) => rest.create({ resource: pathOf(resource, meta), variables, meta }) as never,

  update: ({ resource, id, variables, meta }) =>
    rest.update({ resource: pathOf(resource, meta), id: encodeURIComponent(String(id)), variables, meta }) as never,

  deleteOne: ({ resource, id, variables, meta }) =>
    rest.deleteOne({ resource: pathOf(resource, meta), id: encodeURIComponent(String(id)), variables, meta }) as never,

  custom: async ({ url, method, payload, query, headers }) => ({
    data: await call(method.toUpperCase() as Method, url.startsWith("/") ? url : `${API_URL}/${url}`, {
      params: query as Params | undefined,
      data: payload,
      headers,
    }),
  }),
};
