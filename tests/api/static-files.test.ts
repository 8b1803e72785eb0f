/**
 * Static files of the built front end: hashed assets go out precompressed (br / gzip by
 * Accept-Encoding, identity otherwise) with a year-long immutable cache; index.html and the SPA
 * fallback are `no-cache` and revalidate with 304. A small dist is built by hand and precompressed
 * with the same function the vite build uses.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApp, type TestApp } from "../helpers/app";
import { precompressDir } from "../../src/server/static/precompress";

const JS = "/assets/index-Bx3k9QzA.js";
const CSS = "/assets/index-D4f2LmNo.css";
const jsBody = Array.from({ length: 3000 }, (_, i) => `export const v${i} = "赛务平台 ${i % 17}";`).join("\n");
const cssBody = Array.from(
  { length: 500 },
  (_, i) => `.c${i}{color:#${(i % 4096).toString(16).padStart(3, "0")};margin:${i % 9}px}`,
).join("\n");
const html = `<!doctype html><html><head><script type="module" src="${JS}"></script></head><body><div id="root"></div></body></html>`;

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "saiwu-dist-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), html);
  writeFileSync(join(dist, JS), jsBody);
  writeFileSync(join(dist, CSS), cssBody);
  precompressDir(join(dist, "assets"));
  // Without the metrics route, so /metrics is one of the unknown paths below.
  t = await makeApp("sqlite", { seed: false, env: { DIST_DIR: dist, METRICS: "0" } });
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

describe("hashed assets", () => {
  it("the build step wrote .br and .gz siblings", () => {
    expect(existsSync(join(dist, JS + ".br"))).toBe(true);
    expect(existsSync(join(dist, JS + ".gz"))).toBe(true);
    expect(existsSync(join(dist, CSS + ".br"))).toBe(true);
  });

  it("Accept-Encoding br → a brotli body that decompresses to the file", async () => {
    const r = await get(JS, { "accept-encoding": "br, gzip" });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-encoding"]).toBe("br");
    expect(r.headers["content-type"]).toMatch(/javascript/);
    expect(r.headers["vary"]).toMatch(/accept-encoding/i);
    expect(Number(r.headers["content-length"])).toBe(r.rawPayload.length);
    expect(r.rawPayload.length).toBeLessThan(jsBody.length / 3);
    expect(brotliDecompressSync(r.rawPayload).toString("utf8")).toBe(jsBody);
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("Accept-Encoding gzip → a gzip body that decompresses to the file", async () => {
    const r = await get(CSS, { "accept-encoding": "gzip" });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(r.headers["content-type"]).toMatch(/text\/css/);
    expect(r.headers["vary"]).toMatch(/accept-encoding/i);
    expect(Number(r.headers["content-length"])).toBe(r.rawPayload.length);
    expect(gunzipSync(r.rawPayload).toString("utf8")).toBe(cssBody);
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("no Accept-Encoding → the identity file, still immutable and varying on the encoding", async () => {
    const r = await get(JS);
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.headers["content-type"]).toMatch(/javascript/);
    expect(r.headers["vary"]).toMatch(/accept-encoding/i);
    expect(Number(r.headers["content-length"])).toBe(Buffer.byteLength(jsBody));
    expect(r.body).toBe(jsBody);
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("a missing hashed asset is a 404, not the page", async () => {
    const r = await get("/assets/index-gone0000.js", { "accept-encoding": "br" });
    expect(r.statusCode).toBe(404);
  });
});

describe("index.html", () => {
  for (const url of ["/index.html", "/", "/admin/Contest"]) {
    it(`${url} is no-cache and revalidates with 304 on If-None-Match / If-Modified-Since`, async () => {
      const r = await get(url, { "accept-encoding": "br, gzip" });
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-type"]).toMatch(/text\/html/);
      expect(r.headers["cache-control"]).toBe("no-cache");
      expect(r.body).toContain('<div id="root">');
      const etag = r.headers["etag"] as string;
      const lastModified = r.headers["last-modified"] as string;
      expect(etag).toBeTruthy();
      expect(lastModified).toBeTruthy();
      const again = await get(url, { "if-none-match": etag, "accept-encoding": "br, gzip" });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe("");
      const since = await get(url, { "if-modified-since": lastModified });
      expect(since.statusCode).toBe(304);
      const changed = await get(url, { "if-none-match": '"something-else"' });
      expect(changed.statusCode).toBe(200);
    });
  }

  it("API paths stay JSON 404s", async () => {
    const r = await get("/Backend/nope");
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe(404);
  });

  it("pages with parameters and query strings get the page", async () => {
    for (const url of ["/mainpage/news/12", "/account/StudentLogin?to=%2Findex", "/workInvite/Yx3_k-9QzA0bC1d2"]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).toContain('<div id="root">');
    }
  });

  it("files, dot-files and probe paths that are not served are 404s in the envelope, not the page", async () => {
    for (const url of [
      "/wp-login.php",
      "/.env",
      "/x.js",
      "/favicon.ico",
      "/.git/config",
      "/%2eenv",
      "/metrics",
      "/healthz/extra",
      "/livez",
      "/server-status",
      "/wp-admin/setup-config.php",
      "/api/v1/users",
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.headers["content-type"], url).toMatch(/application\/json/);
      expect(r.json(), url).toEqual({ error: 404, info: "请求的地址不存在" });
      expect(r.body, url).not.toContain('<div id="root">');
    }
  });
});

it("index.html in the dist is the one written", () => {
  expect(readFileSync(join(dist, "index.html"), "utf8")).toBe(html);
});

it("the server adds the compressed files to a dist built without them", async () => {
  const { precompressFrontEnd } = await import("../../src/server/serve");
  const { loadConfig } = await import("../../src/server/config");
  const old = mkdtempSync(join(tmpdir(), "saiwu-olddist-"));
  mkdirSync(join(old, "assets"));
  writeFileSync(join(old, JS), jsBody);
  writeFileSync(join(old, "index.html"), html);
  precompressFrontEnd(loadConfig({ DIST_DIR: old }));
  expect(brotliDecompressSync(readFileSync(join(old, JS + ".br"))).toString("utf8")).toBe(jsBody);
  expect(gunzipSync(readFileSync(join(old, JS + ".gz"))).toString("utf8")).toBe(jsBody);
});
