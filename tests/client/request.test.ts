import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  ResponseCache,
  buildUrl,
  cacheLifetime,
  clearRequestCache,
  describeHttpError,
  describeNetworkError,
  feedbackFor,
  get,
  loaderData,
  post,
  serializeParams,
  setFeedbackSink,
  setSessionLostHandler,
  toReply,
  NETWORK_ERROR,
  type Notice,
} from "../../src/client/request";
import { NETWORK_ERROR_TEXT, NETWORK_ERROR_TITLE, REQUEST_ERROR_TITLE, STATUS_TEXT } from "../../src/shared/errors";
import { REQUEST_CACHE_TTL_MS } from "../../src/shared/constants";

describe("GET parameters", () => {
  test("arrays become repeated keys, null and undefined are left out", () => {
    expect(serializeParams({ a: [1, 2], b: "x y", c: null, d: undefined, e: true })).toBe("a=1&a=2&b=x+y&e=true");
  });
  test("dates are sent as ISO text", () => {
    expect(serializeParams({ t: new Date("2026-01-02T03:04:05.000Z") })).toBe("t=2026-01-02T03%3A04%3A05.000Z");
  });
  test("buildUrl appends to an existing query", () => {
    expect(buildUrl("/x", { a: [1, 2] })).toBe("/x?a=1&a=2");
    expect(buildUrl("/x?k=v", { a: 1 })).toBe("/x?k=v&a=1");
    expect(buildUrl("/x", {})).toBe("/x");
  });
});

describe("GET cache lifetime", () => {
  test("the default lifetime is 60000 ms", () => {
    expect(REQUEST_CACHE_TTL_MS).toBe(60000);
    expect(cacheLifetime(true)).toBe(60000);
    expect(cacheLifetime(5000)).toBe(5000);
    expect(cacheLifetime(false)).toBeUndefined();
    expect(cacheLifetime(undefined)).toBeUndefined();
  });
  test("an entry lives exactly its lifetime", () => {
    let now = 1000;
    const cache = new ResponseCache<string>(() => now);
    cache.set("k", "v");
    now += 59999;
    expect(cache.get("k")).toBe("v");
    now += 1;
    expect(cache.get("k")).toBeUndefined();
    cache.set("s", "short", 10);
    now += 11;
    expect(cache.get("s")).toBeUndefined();
  });
});

describe("error mapping", () => {
  test("an HTTP error without info shows the catalogue text with status and url", () => {
    expect(describeHttpError(502, "/Backend/x")).toEqual({
      message: REQUEST_ERROR_TITLE,
      description: `${STATUS_TEXT[502]}（502：/Backend/x）`,
    });
  });
  test("an HTTP error with the server's info shows the info", () => {
    expect(describeHttpError(422, "/Backend/x", "密码须至少 8 位")).toEqual({
      message: "请求错误",
      description: "密码须至少 8 位",
    });
  });
  test("no response at all is 网络异常", () => {
    expect(describeNetworkError(false)).toEqual({ message: NETWORK_ERROR_TITLE, description: NETWORK_ERROR_TEXT });
    expect(describeNetworkError(true).description).toContain("超时");
  });
  test("feedback: error status → notification, error flag → error message, success → success message unless silent", () => {
    expect(feedbackFor({ error: 500, info: "", status: 500 }, "/u")).toEqual({
      kind: "notification",
      notice: describeHttpError(500, "/u"),
    });
    expect(feedbackFor({ error: NETWORK_ERROR, info: "", status: 0 }, "/u")).toEqual({
      kind: "notification",
      notice: describeNetworkError(false),
    });
    expect(feedbackFor({ error: 7, info: "不行", status: 200 }, "/u")).toEqual({ kind: "message", type: "error", text: "不行" });
    expect(feedbackFor({ error: 0, info: "已保存", status: 200 }, "/u")).toEqual({
      kind: "message",
      type: "success",
      text: "已保存",
    });
    expect(feedbackFor({ error: 0, info: "成功", status: 200 }, "/u", { silent: true })).toBeNull();
  });
  test("toReply keeps envelopes and wraps other bodies", () => {
    expect(toReply(200, { error: 0, info: "ok", data: 1 })).toEqual({ error: 0, info: "ok", data: 1, status: 200 });
    expect(toReply(404, undefined)).toEqual({ error: 404, info: "", status: 404 });
    expect(toReply(200, [1, 2])).toEqual({ error: 0, info: "", data: [1, 2], status: 200 });
  });
  test("loaderData throws the server's info when the reply flags an error", async () => {
    await expect(loaderData({ error: 404, info: "作品不存在", status: 404 })).rejects.toThrow("作品不存在");
    await expect(loaderData({ error: 0, info: "", data: { id: 1 }, status: 200 })).resolves.toEqual({ id: 1 });
  });
});

describe("request client over fetch", () => {
  const shown: { kind: string; value: Notice | string }[] = [];
  const fetchMock = vi.fn();

  beforeEach(() => {
    shown.length = 0;
    fetchMock.mockReset();
    clearRequestCache();
    vi.stubGlobal("fetch", fetchMock);
    setFeedbackSink({
      notifyError: (n) => shown.push({ kind: "notification", value: n }),
      messageError: (t) => shown.push({ kind: "error", value: t }),
      messageSuccess: (t) => shown.push({ kind: "success", value: t }),
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setFeedbackSink(null);
  });

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  test("POST sends JSON with same-origin credentials and shows the success info", async () => {
    fetchMock.mockResolvedValue(json(200, { error: 0, info: "已保存" }));
    const r = await post("/Backend/x", { a: 1 });
    expect(r).toEqual({ error: 0, info: "已保存", data: undefined, status: 200 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/Backend/x");
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin", body: '{"a":1}' });
    expect(init.headers["Content-Type"]).toBe("application/json");
    expect(shown).toEqual([{ kind: "success", value: "已保存" }]);
  });

  test("a session lost mid-use: the application's handler takes over and one notice says so", async () => {
    fetchMock.mockImplementation(async () => json(401, { error: 401, info: "请先登录" }));
    let calls = 0;
    setSessionLostHandler(() => ++calls > 0);
    try {
      await get("/Backend/a");
      await get("/Backend/b");
      expect(calls).toBe(2);
      expect(shown).toEqual([
        { kind: "notification", value: { message: "登录已失效", description: "请重新登录，登录后回到当前页面" } },
      ]);
      // Not the application's case (e.g. a visitor): the request's own error as before.
      shown.length = 0;
      setSessionLostHandler(() => false);
      await get("/Backend/c");
      expect(shown).toHaveLength(1);
      expect((shown[0].value as Notice).description).toBe("请先登录");
      // Other 401s (a wrong password) never reach the handler.
      calls = 0;
      setSessionLostHandler(() => ++calls > 0);
      fetchMock.mockImplementation(async () => json(401, { error: 401, info: "用户名或密码错误" }));
      await post("/Backend/login", {});
      expect(calls).toBe(0);
    } finally {
      setSessionLostHandler(null);
    }
  });

  test("a body-less POST carries no JSON content type; form data is sent as is", async () => {
    fetchMock.mockImplementation(async () => json(200, { error: 0, info: "" }));
    await post("/Backend/logout");
    expect(fetchMock.mock.calls[0][1].headers["Content-Type"]).toBeUndefined();
    expect(fetchMock.mock.calls[0][1].body).toBeUndefined();
    const form = new URLSearchParams({ a: "1" });
    await post("/Backend/f", form);
    expect(fetchMock.mock.calls[1][1].body).toBe(form);
    await post("/Backend/f", { a: [1, 2] }, { requestType: "form" });
    expect(String(fetchMock.mock.calls[2][1].body)).toBe("a=1&a=2");
  });

  test("cached GETs are served from the cache within their lifetime", async () => {
    fetchMock.mockImplementation(async () => json(200, { error: 0, info: "成功", data: [1] }));
    await get("/Backend/list", { a: [1, 2] }, { cache: true, silent: true });
    const second = await get("/Backend/list", { a: [1, 2] }, { cache: true, silent: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][0]).toBe("/Backend/list?a=1&a=2");
    expect(second.data).toEqual([1]);
    await get("/Backend/list", { a: [1, 2] }, { silent: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(shown).toEqual([]);
  });

  test("an HTTP error shows 请求错误 with the server's info", async () => {
    fetchMock.mockResolvedValue(json(403, { error: 403, info: "您没有权限进行此操作" }));
    const r = await get("/Backend/secret");
    expect(r.error).toBe(403);
    expect(shown).toEqual([{ kind: "notification", value: { message: "请求错误", description: "您没有权限进行此操作" } }]);
  });

  test("an HTTP error without a body shows the catalogue text", async () => {
    fetchMock.mockResolvedValue(new Response("", { status: 504 }));
    await get("/Backend/slow");
    expect(shown).toEqual([{ kind: "notification", value: describeHttpError(504, "/Backend/slow") }]);
  });

  test("a network failure shows 网络异常", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    const r = await get("/Backend/x");
    expect(r).toMatchObject({ error: NETWORK_ERROR, status: 0 });
    expect(shown).toEqual([{ kind: "notification", value: { message: "网络异常", description: NETWORK_ERROR_TEXT } }]);
  });

  test("a timeout aborts the request and shows 网络异常", async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
    );
    const r = await get("/Backend/hang", undefined, { timeout: 20 });
    expect(r.error).toBe(NETWORK_ERROR);
    expect(shown[0]).toMatchObject({ kind: "notification", value: { message: "网络异常" } });
  });

  test("notify: false shows nothing", async () => {
    fetchMock.mockResolvedValue(json(401, { error: 401, info: "用户名或密码错误" }));
    const r = await post("/Backend/login", {}, { notify: false });
    expect(r.info).toBe("用户名或密码错误");
    expect(shown).toEqual([]);
  });
});
