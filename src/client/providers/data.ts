/**
 * refine's dataProvider over /Backend: unwraps { error, info, data } and turns failed
 * replies into refine HttpError (with the 422 field as a form error). Resources map
 * to /Backend/<resource> unless meta.path says otherwise; later issues add them.
 *
 * list: GET /Backend/<resource>?current=&pageSize=&sort=name&sort=-createdAt&<field>=…
 * (the server's list conventions, src/shared/crud/list.ts): eq, contains and in filters
 * are sent as <field>=value (repeated for in; the server decides how a field matches),
 * other operators as <field>_<operator>; the reply data is { list, total } or an array.
 */
import type { BaseRecord, CrudFilter, CrudSort, DataProvider, HttpError } from "@refinedev/core";
import { request, type ClientReply, type Method, type Params } from "../request";
import { resourceMeta } from "../crud/resources";

export const API_URL = "/Backend";

export function toHttpError(reply: ClientReply): HttpError {
  const field = (reply.data as { field?: unknown } | undefined)?.field;
  return {
    message: reply.info || "请求失败",
    statusCode: reply.status || 0,
    ...(typeof field === "string" ? { errors: { [field]: reply.info } } : {}),
  };
}

async function call<T>(method: Method, url: string, opts: { params?: Params; data?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const reply = await request<T>(url, { method, ...opts, notify: false });
  if (reply.error !== 0) throw toHttpError(reply);
  return reply.data as T;
}

const base = (resource: string, meta?: object) => {
  const path = (meta as { path?: unknown } | undefined)?.path ?? resourceMeta(resource)?.path;
  return `${API_URL}/${typeof path === "string" ? path : resource}`;
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

export const dataProvider: DataProvider = {
  getApiUrl: () => API_URL,

  getList: async ({ resource, pagination, sorters, filters, meta }) => {
    const paging =
      pagination?.mode === "off" ? { pageSize: 500 } : { current: pagination?.currentPage ?? 1, pageSize: pagination?.pageSize ?? 10 };
    const data = await call<{ list?: BaseRecord[]; total?: number } | BaseRecord[]>("GET", base(resource, meta), {
      params: { ...paging, ...sortParams(sorters), ...filterParams(filters) },
    });
    const list = Array.isArray(data) ? data : data?.list ?? [];
    const total = Array.isArray(data) ? data.length : data?.total ?? list.length;
    return { data: list as never[], total };
  },

  getOne: async ({ resource, id, meta }) => ({ data: await call("GET", `${base(resource, meta)}/${encodeURIComponent(String(id))}`) }),

  create: async ({ resource, variables, meta }) => ({ data: await call("POST", base(resource, meta), { data: variables }) }),

  update: async ({ resource, id, variables, meta }) => ({
    data: await call("PATCH", `${base(resource, meta)}/${encodeURIComponent(String(id))}`, { data: variables }),
  }),

  deleteOne: async ({ resource, id, variables, meta }) => ({
    data: await call("DELETE", `${base(resource, meta)}/${encodeURIComponent(String(id))}`, { data: variables }),
  }),

  custom: async ({ url, method, payload, query, headers }) => ({
    data: await call(method.toUpperCase() as Method, url.startsWith("/") ? url : `${API_URL}/${url}`, {
      params: query as Params | undefined,
      data: payload,
      headers,
    }),
  }),
};
