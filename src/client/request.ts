/**
 * The request client of the seed (section 7 and 8): same-origin credentials, GET
 * parameters as repeated keys, JSON or form bodies, a timeout, opt-in GET caching,
 * and one place that turns replies into notifications and messages.
 *
 * Every call resolves to the reply envelope { error, info, data? } plus the HTTP
 * status; it never rejects. error 0 is success. With no response at all the reply is
 * { error: NETWORK_ERROR, status: 0 }.
 */
import type { Reply } from "../shared/envelope";
import { NETWORK_ERROR_TEXT, NETWORK_ERROR_TITLE, REQUEST_ERROR_TITLE, STATUS_TEXT } from "../shared/errors";
import { REQUEST_CACHE_TTL_MS } from "../shared/constants";
import { dropEarlyRequests, noteGet, takeEarlyResponse } from "./early-requests";

/** `error` of a reply that never arrived (network failure, timeout). */
export const NETWORK_ERROR = -1;
/** `error` of a request the caller cancelled. */
export const ABORTED = -2;

export type ParamValue = string | number | boolean | Date | null | undefined;
export type Params = Record<string, ParamValue | readonly ParamValue[]>;

export type ClientReply<T = unknown> = Reply<T> & { status: number };

/* ---------------------------------------------------------------- pure parts */

function paramText(v: ParamValue): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/** `{ a: [1, 2], b: "x" }` → `a=1&a=2&b=x`; null and undefined are left out. */
export function serializeParams(params?: Params): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    const values = Array.isArray(value) ? (value as readonly ParamValue[]) : [value as ParamValue];
    for (const v of values) {
      const text = paramText(v);
      if (text !== undefined) q.append(key, text);
    }
  }
  return q.toString();
}

export function buildUrl(url: string, params?: Params): string {
  const query = serializeParams(params);
  if (!query) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

/** A GET reply cache with per-entry lifetimes; the clock is injectable for tests. */
export class ResponseCache<V = unknown> {
  private entries = new Map<string, { value: V; expires: number }>();
  constructor(private readonly now: () => number = () => Date.now()) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.now() >= hit.expires) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, ttlMs: number = REQUEST_CACHE_TTL_MS): void {
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Lifetime of a GET's cache option: false/undefined → no caching. */
export function cacheLifetime(cache: boolean | number | undefined): number | undefined {
  if (cache === true) return REQUEST_CACHE_TTL_MS;
  if (typeof cache === "number" && cache > 0) return cache;
  return undefined;
}

export interface Notice {
  message: string;
  description: string;
}

/** The "请求错误" notification for an HTTP error status: the server's info if any, else the catalogue. */
export function describeHttpError(status: number, url: string, info?: string): Notice {
  const catalogue = STATUS_TEXT[status] ?? `请求失败（${status}）`;
  return {
    message: REQUEST_ERROR_TITLE,
    description: info ? info : `${catalogue}（${status}：${url}）`,
  };
}

/** The "网络异常" notification when no response arrived. */
export function describeNetworkError(timedOut: boolean): Notice {
  return {
    message: NETWORK_ERROR_TITLE,
    description: timedOut ? `${NETWORK_ERROR_TEXT}（请求超时）` : NETWORK_ERROR_TEXT,
  };
}

export type Feedback =
  { kind: "notification"; notice: Notice } | { kind: "message"; type: "success" | "error"; text: string } | null;

/**
 * What the user sees for a reply: an HTTP error → notification (the server's info
 * goes in it, so it is not repeated as a message); a 2xx reply with error ≠ 0 →
 * error message; error 0 → success message unless silent.
 */
export function feedbackFor(reply: ClientReply, url: string, opts: { silent?: boolean; timedOut?: boolean } = {}): Feedback {
  if (reply.error === ABORTED) return null;
  if (reply.status === 0) return { kind: "notification", notice: describeNetworkError(!!opts.timedOut) };
  if (reply.status >= 400) return { kind: "notification", notice: describeHttpError(reply.status, url, reply.info) };
  if (reply.error !== 0) return { kind: "message", type: "error", text: reply.info || "操作失败" };
  if (!opts.silent && reply.info) return { kind: "message", type: "success", text: reply.info };
  return null;
}

export const BUSY_TEXT = "服务器繁忙，请稍后重试";

/**
 * A 503 (the server over capacity or its database away): its text — 服务器繁忙，请稍后重试
 * when it sent none (a proxy's page) — with when to try again, from Retry-After (seconds or a date).
 */
export function busyInfo(info: string, retryAfter: string | null, now = Date.now()): string {
  const text = info || BUSY_TEXT;
  const at =
    retryAfter === null ? NaN : /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : (Date.parse(retryAfter) - now) / 1000;
  return Number.isFinite(at) && at > 0 ? `${text}（请约 ${Math.ceil(at)} 秒后再试）` : text;
}

/** Turns a parsed body into an envelope; bodies that are not envelopes become data. */
export function toReply<T>(status: number, body: unknown): ClientReply<T> {
  if (body && typeof body === "object" && "error" in body && "info" in body) {
    const b = body as Reply<T>;
    const error = typeof b.error === "number" ? b.error : status >= 400 ? status : 0;
    return { error: status >= 400 && error === 0 ? status : error, info: String(b.info ?? ""), data: b.data, status };
  }
  if (status >= 400) return { error: status, info: "", status };
  return { error: 0, info: "", data: body as T, status };
}

/* ------------------------------------------------------------ the side effects */

export interface FeedbackSink {
  notifyError(n: Notice): void;
  messageError(text: string): void;
  messageSuccess(text: string): void;
}

let sink: FeedbackSink | null = null;

/** Called once by a component inside antd's <App> so feedback follows the theme and locale. */
export function setFeedbackSink(s: FeedbackSink | null) {
  sink = s;
}

function show(f: Feedback) {
  if (!f || !sink) return;
  if (f.kind === "notification") sink.notifyError(f.notice);
  else if (f.type === "error") sink.messageError(f.text);
  else sink.messageSuccess(f.text);
}

const cache = new ResponseCache<ClientReply>();

/** The server's answer when a request needs a session it does not have (plugins/access.ts). */
export const LOGIN_NEEDED_TEXT = "请先登录";
let sessionLost: (() => boolean) | null = null;
let lostNoticeAt = 0;

/**
 * Called by the application with what to do when a request finds no session: for a user the
 * page still shows as signed in, the session ended meanwhile (expired, logged out elsewhere).
 * It returns whether it took the user to the login page (then one notice says so, instead of
 * the request's own error).
 */
export function setSessionLostHandler(fn: (() => boolean) | null) {
  sessionLost = fn;
}

/** Forgets cached GET replies and the page load's early answers (e.g. after logging in or out). */
export function clearRequestCache() {
  cache.clear();
  dropEarlyRequests();
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  method?: Method;
  params?: Params;
  /** A plain object/array is sent as JSON (or as a form with requestType "form"); FormData/URLSearchParams as a form. */
  data?: unknown;
  requestType?: "json" | "form";
  /** Milliseconds until the request is abandoned (shown as 网络异常). */
  timeout?: number;
  /** GET only: true caches for 60000 ms, a number for that many ms. */
  cache?: boolean | number;
  /** No success message (for quiet GETs such as get-current). */
  silent?: boolean;
  /** false: show nothing at all, the caller presents the outcome itself. */
  notify?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function isPlainBody(data: unknown): data is Record<string, unknown> | unknown[] {
  return (
    data !== null &&
    typeof data === "object" &&
    !(data instanceof FormData) &&
    !(data instanceof URLSearchParams) &&
    !(data instanceof Blob)
  );
}

function encodeBody(data: unknown, requestType: "json" | "form" | undefined): { body?: BodyInit; contentType?: string } {
  if (data === undefined || data === null) return {};
  if (data instanceof FormData || data instanceof URLSearchParams || data instanceof Blob) return { body: data };
  if (requestType === "form" && isPlainBody(data) && !Array.isArray(data)) {
    return { body: new URLSearchParams(serializeParams(data as Params)) };
  }
  return { body: JSON.stringify(data), contentType: "application/json" };
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  if (!text) return undefined;
  if (type.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<ClientReply<T>> {
  const method = options.method ?? "GET";
  const fullUrl = buildUrl(url, options.params);
  const ttl = method === "GET" ? cacheLifetime(options.cache) : undefined;
  const notify = options.notify !== false;

  if (ttl !== undefined) {
    const hit = cache.get(fullUrl);
    if (hit) return hit as ClientReply<T>;
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer =
    options.timeout && options.timeout > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeout)
      : undefined;
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener("abort", onOuterAbort);

  const { body, contentType } = method === "GET" ? {} : encodeBody(options.data, options.requestType);
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...(contentType ? { "Content-Type": contentType } : {}),
    ...options.headers,
  };

  // A GET the entry already started for this page load (early-requests.ts) is answered by that response.
  const early = method === "GET" && !options.signal && !options.timeout ? takeEarlyResponse(fullUrl, options.headers) : undefined;
  if (method === "GET") noteGet(fullUrl);
  else dropEarlyRequests();
  const send = () => fetch(fullUrl, { method, headers, body, credentials: "same-origin", signal: controller.signal });

  let reply: ClientReply<T>;
  try {
    const res = await (early ? early.catch(send) : send());
    reply = toReply<T>(res.status, await parseBody(res));
    if (res.status === 503) reply.info = busyInfo(reply.info, res.headers.get("retry-after"));
  } catch {
    const cancelled = !timedOut && !!options.signal?.aborted;
    reply = cancelled
      ? { error: ABORTED, info: "请求已取消", status: 0 }
      : { error: NETWORK_ERROR, info: timedOut ? `${NETWORK_ERROR_TEXT}（请求超时）` : NETWORK_ERROR_TEXT, status: 0 };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
  }

  if (reply.status === 401 && reply.info === LOGIN_NEEDED_TEXT && sessionLost?.()) {
    if (Date.now() - lostNoticeAt > 5000)
      show({ kind: "notification", notice: { message: "登录已失效", description: "请重新登录，登录后回到当前页面" } });
    lostNoticeAt = Date.now();
  } else if (notify) show(feedbackFor(reply, url, { silent: options.silent, timedOut }));
  if (ttl !== undefined && reply.error === 0) cache.set(fullUrl, reply, ttl);
  return reply;
}

type BodyOptions = Omit<RequestOptions, "method" | "data">;

export const get = <T = unknown>(
  url: string,
  params?: Params,
  options: Omit<RequestOptions, "method" | "params" | "data"> = {},
) => request<T>(url, { ...options, method: "GET", params });
export const post = <T = unknown>(url: string, data?: unknown, options: BodyOptions = {}) =>
  request<T>(url, { ...options, method: "POST", data });
export const put = <T = unknown>(url: string, data?: unknown, options: BodyOptions = {}) =>
  request<T>(url, { ...options, method: "PUT", data });
export const patch = <T = unknown>(url: string, data?: unknown, options: BodyOptions = {}) =>
  request<T>(url, { ...options, method: "PATCH", data });
export const del = <T = unknown>(url: string, data?: unknown, options: BodyOptions = {}) =>
  request<T>(url, { ...options, method: "DELETE", data });

/** A failed reply thrown out of a route loader: the router's error screen shows it. */
export class LoaderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "LoaderError";
  }
}

/**
 * For route loaders: the reply's data, or a thrown LoaderError carrying the server's
 * info text when the reply flags an error.
 */
export async function loaderData<T>(reply: ClientReply<T> | Promise<ClientReply<T>>): Promise<T> {
  const r = await reply;
  if (r.error !== 0) throw new LoaderError(r.info || STATUS_TEXT[r.status] || NETWORK_ERROR_TEXT, r.status || 500);
  return r.data as T;
}

/** The field a 422 reply names (data.field), for putting the message under the form field. */
export function fieldOf(reply: ClientReply): string | undefined {
  const d = reply.data as { field?: unknown } | undefined;
  return reply.status === 422 && d && typeof d.field === "string" ? d.field : undefined;
}

/** A GET whose failure becomes a query error with the server's text (no toast). */
export async function fetchData<T>(url: string, params?: Params): Promise<T> {
  const reply = await request<T>(url, { params, silent: true, notify: false });
  if (reply.error !== 0) throw Object.assign(new Error(reply.info || "加载失败"), { status: reply.status });
  return reply.data as T;
}
