/**
 * Hardening on both dialects: the Origin check compares scheme, host and port with
 * PUBLIC_URL or with the address the request was sent to, and believes X-Forwarded-Host
 * and -Proto only from a trusted proxy; under an https PUBLIC_URL the session cookie is
 * Secure and HSTS is sent, under http neither; remote images leave rich text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";

const PROXY = "10.0.0.1";
const REFUSED = { error: 403, info: "请求来源不被允许，请从本站页面操作" };

describe.each(DIALECTS)("origin, cookie and HSTS on %s", (dialect) => {
  let https: TestApp;
  let http: TestApp;

  beforeAll(async () => {
    https = await makeApp(dialect, { env: { PUBLIC_URL: "https://saiwu.example.cn", TRUSTED_PROXIES: PROXY } });
    http = await makeApp(dialect, { seed: false });
  });
  afterAll(async () => {
    await https?.close();
    await http?.close();
  });

  /** A login attempt with these headers from `remote`: 403 when the origin is refused, 401 (wrong password) when it passes. */
  const attempt = async (t: TestApp, headers: Record<string, string>, remote = "192.0.2.1") => {
    const res = await t.app.inject({
      method: "POST",
      url: "/Backend/Common/account/login",
      payload: { username: "nobody", password: "wrong-pass1", page: "admin" },
      remoteAddress: remote,
      headers,
    });
    return res.json();
  };

  it("accepts our own origin: PUBLIC_URL's, or the one the request was addressed to", async () => {
    // Behind an untrusted TLS-terminating proxy: the browser's origin is PUBLIC_URL's.
    expect((await attempt(https, { origin: "https://saiwu.example.cn", host: "127.0.0.1:8080" })).error).toBe(401);
    expect((await attempt(https, { origin: "https://saiwu.example.cn:443", host: "127.0.0.1:8080" })).error).toBe(401);
    expect(
      (await attempt(https, { referer: "https://saiwu.example.cn/login?x=1", host: "127.0.0.1:8080", cookie: "saiwu_sid=x" }))
        .error,
    ).toBe(401);
    // The dev server proxies with the browser's Host (changeOrigin false).
    expect((await attempt(http, { origin: "http://localhost:5173", host: "localhost:5173" })).error).toBe(401);
    // A trusted proxy tells the scheme and host the browser used.
    expect(
      (
        await attempt(
          https,
          {
            origin: "https://other.example.cn",
            host: "127.0.0.1:8080",
            "x-forwarded-host": "other.example.cn",
            "x-forwarded-proto": "https",
          },
          PROXY,
        )
      ).error,
    ).toBe(401);
  });

  it("refuses another scheme, host or port, and forwarded headers from an untrusted client", async () => {
    expect(await attempt(https, { origin: "http://saiwu.example.cn", host: "127.0.0.1:8080" })).toEqual(REFUSED);
    expect(await attempt(https, { origin: "https://saiwu.example.cn:8443", host: "127.0.0.1:8080" })).toEqual(REFUSED);
    expect(await attempt(https, { origin: "https://evil.example.com", host: "saiwu.example.cn" })).toEqual(REFUSED);
    expect(await attempt(https, { origin: "null", host: "saiwu.example.cn" })).toEqual(REFUSED);
    expect(
      await attempt(https, { referer: "https://evil.example.com/a", host: "saiwu.example.cn", cookie: "saiwu_sid=x" }),
    ).toEqual(REFUSED);
    expect(await attempt(https, { host: "saiwu.example.cn", cookie: "saiwu_sid=x" })).toEqual(REFUSED);
    // A forged X-Forwarded-Host or -Proto from a client that is not a trusted proxy is ignored.
    expect(
      await attempt(https, {
        origin: "https://evil.example.com",
        host: "127.0.0.1:8080",
        "x-forwarded-host": "evil.example.com",
        "x-forwarded-proto": "https",
      }),
    ).toEqual(REFUSED);
    expect(
      await attempt(http, { origin: "https://localhost:5173", host: "localhost:5173", "x-forwarded-proto": "https" }),
    ).toEqual(REFUSED);
    // The scheme counts: an https page is not the http address it was sent to.
    expect(await attempt(http, { origin: "https://localhost:5173", host: "localhost:5173" })).toEqual(REFUSED);
    expect(await attempt(http, { origin: "http://localhost:5174", host: "localhost:5173" })).toEqual(REFUSED);
  });

  it("marks the session cookie Secure and sends HSTS under an https PUBLIC_URL only", async () => {
    const c = new Client(https);
    const r = await c.req(
      "POST",
      "/Backend/Common/account/login",
      { username: "root", password: "Demo@2026", page: "admin" },
      { origin: "https://saiwu.example.cn" },
    );
    expect(r.status).toBe(200);
    expect(r.res.cookies.find((k) => k.name === "saiwu_sid")).toMatchObject({ secure: true, httpOnly: true });
    expect(r.res.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    const plain = await http.app.inject({ method: "GET", url: "/Backend/openapi.json" });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    // COOKIE_SECURE still decides when set.
    expect(loadConfig({ PUBLIC_URL: "https://saiwu.example.cn" }).cookieSecure).toBe(true);
    expect(loadConfig({ PUBLIC_URL: "https://saiwu.example.cn", COOKIE_SECURE: "0" }).cookieSecure).toBe(false);
    expect(loadConfig({ PUBLIC_URL: "http://localhost:8080" }).cookieSecure).toBe(false);
    expect(loadConfig({ PUBLIC_URL: "http://localhost:8080", COOKIE_SECURE: "1" }).cookieSecure).toBe(true);
  });

  it("drops remote images from rich text and keeps inline and our own", async () => {
    const root = new Client(https);
    await root.req(
      "POST",
      "/Backend/Common/account/login",
      { username: "root", password: "Demo@2026", page: "admin" },
      { origin: "https://saiwu.example.cn" },
    );
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const body = `<p>正文</p><img src="https://tracker.example.com/p.gif?u=1"><img src="//tracker.example.com/q.gif"><img src="/\\tracker.example.com/r.gif"><img src="/Backend/Public/logo.png"><img src="${png}">`;
    const r = await root.req("POST", "/Backend/Admin/news", { title: "图片测试", body }, { origin: "https://saiwu.example.cn" });
    expect(r.status).toBe(201);
    expect(r.body.data.body).toBe(`<p>正文</p><img src="/Backend/Public/logo.png" /><img src="${png}" />`);
  });
});
