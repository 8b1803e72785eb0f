/**
 * The committed reverse-proxy example (deploy/nginx.conf) in front of two real server
 * processes on one PostgreSQL database, over HTTPS with a self-signed certificate: login
 * gives a Secure, HttpOnly cookie and HSTS; one session works on both processes; the login
 * limit counts the visitor's own address (TRUSTED_PROXIES), not nginx's or a forged one; a
 * 50 MB attachment streams up and down, and an upload reaches the app as it arrives (over
 * HTTP/1.1 and HTTP/2); /metrics stays inside; health answers; plain HTTP
 * redirects; API replies are compressed and precompressed assets pass through untouched.
 *
 * The nginx configuration is deploy/nginx.conf itself with its ports, certificate and log
 * paths replaced (renderNginxConf), included from a small main file that only sets the
 * test's own pid, logs and temporary directories — so the test runs whatever is committed.
 * Skipped when PostgreSQL (TEST_DATABASE_URL) is not set, or outside CI when nginx or
 * openssl is missing (in CI a missing one fails: .ci/run installs both).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { brotliCompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../src/server/seed/demo";
import { freePort, startCluster, within, type Cluster } from "../../support/cluster";

const ROOT = resolve(import.meta.dirname, "../..");
const CI = process.env.CI === "true" || process.env.CI === "1";
const TOO_MANY = { error: 429, info: "操作过于频繁，请稍后再试" };
const MB = 1024 * 1024;
const METRICS_TOKEN = "nginx-test-metrics-token-0123456789";

/** A program on PATH or in the sbin directories (nginx lives in /usr/sbin, often not on a user's PATH). */
function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin", "/sbin"];
  for (const d of dirs) if (d && existsSync(join(d, name))) return join(d, name);
  return null;
}
const NGINX = findProgram("nginx");
const OPENSSL = findProgram("openssl");

interface Rendering {
  /** the two app processes, in place of 127.0.0.1:8081 and :8082 */
  upstreams: [number, number];
  http: number;
  https: number;
  cert: string;
  key: string;
  logDir: string;
}

/**
 * deploy/nginx.conf with the test's ports and paths. Every replacement must match, so a
 * change to the file that moves one of these lines fails here instead of leaving a
 * production path or port in the tested configuration.
 */
function renderNginxConf(conf: string, r: Rendering): string {
  const subs: [RegExp, string][] = [
    [/server 127\.0\.0\.1:8081\b/g, `server 127.0.0.1:${r.upstreams[0]}`],
    [/server 127\.0\.0\.1:8082\b/g, `server 127.0.0.1:${r.upstreams[1]}`],
    // Not every test machine has IPv6; the IPv4 listeners below stand for them.
    [/^[ \t]*listen \[::\]:\d+[^;]*;[ \t]*\n/gm, ""],
    [/\blisten 80;/g, `listen 127.0.0.1:${r.http};`],
    [/\blisten 443 /g, `listen 127.0.0.1:${r.https} `],
    [/\bssl_certificate\s+\S+;/g, `ssl_certificate ${r.cert};`],
    [/\bssl_certificate_key\s+\S+;/g, `ssl_certificate_key ${r.key};`],
    [/\baccess_log \/var\/log\/nginx\/\S+/g, `access_log ${r.logDir}/access.log`],
    [/\berror_log \/var\/log\/nginx\/\S+/g, `error_log ${r.logDir}/error.log`],
  ];
  let out = conf;
  for (const [re, to] of subs) {
    if (!re.test(out)) throw new Error(`deploy/nginx.conf has no match for ${re}: update renderNginxConf with the file`);
    re.lastIndex = 0;
    out = out.replace(re, to);
  }
  const left = out.replace(/#.*$/gm, "").match(/\/var\/log\/\S*|\/etc\/\S*|:808[0-9]\b|\blisten (80|443)\b/);
  if (left) throw new Error(`deploy/nginx.conf still has a production value after rendering: ${left[0]}`);
  return out;
}

/** The main file around the rendered server blocks: foreground, and every path in the test's directory. */
function mainConf(dir: string, include: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/nginx.error.log warn;
events { worker_connections 256; }
http {
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  include ${include};
}
`;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** name, value, name, value, … as received */
  rawHeaders: string[];
  body: Buffer;
}

describe.runIf(!!process.env.TEST_DATABASE_URL && ((!!NGINX && !!OPENSSL) || CI))(
  "deploy/nginx.conf in front of two processes over HTTPS",
  () => {
    let dir = "";
    const ports = { http: 0, https: 0 };
    let cluster: Cluster | undefined;
    let nginx: ChildProcess | undefined;
    let nginxOutput = "";
    const origin = () => `https://localhost:${ports.https}`;
    const accessLog = () => readFileSync(join(dir, "logs/access.log"), "utf8");

    /** One request to nginx, from a chosen loopback address (Linux routes all of 127/8 to lo). */
    function request(
      method: string,
      path: string,
      o: {
        from?: string;
        headers?: Record<string, string | number>;
        body?: string | Buffer | Readable;
        plain?: boolean;
        sink?: (c: Buffer) => void;
        signal?: AbortSignal;
      } = {},
    ): Promise<Reply> {
      const port = o.plain ? ports.http : ports.https;
      const options: https.RequestOptions = {
        host: "127.0.0.1",
        port,
        method,
        path,
        localAddress: o.from,
        agent: false,
        signal: o.signal,
        headers: { host: `localhost:${port}`, ...o.headers },
        ...(o.plain ? {} : { rejectUnauthorized: false, servername: "localhost" }),
      };
      return new Promise((ok, fail) => {
        const req = (o.plain ? http : https).request(options, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => (o.sink ? o.sink(c) : chunks.push(c)));
          res.on("end", () =>
            ok({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
          );
          res.on("error", fail);
        });
        req.on("error", fail);
        if (o.body instanceof Readable) pipeline(o.body, req).catch(fail);
        else req.end(o.body);
      });
    }

    /** A browser at one address: keeps the session cookie and sends our Origin on writes. */
    class Visitor {
      cookie = "";
      constructor(readonly from?: string) {}
      async call(method: string, path: string, body?: unknown, headers: Record<string, string | number> = {}) {
        const write = method !== "GET" && method !== "HEAD";
        const r = await request(method, path, {
          from: this.from,
          headers: {
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...(write ? { origin: origin() } : {}),
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const set = ([] as string[]).concat(r.headers["set-cookie"] ?? []).find((c) => c.startsWith("saiwu_sid="));
        if (set) this.cookie = set.split(";")[0];
        let json: { error: number; info: string; data?: any } | null = null;
        try {
          json = JSON.parse(r.body.toString("utf8"));
        } catch {
          /* not JSON (nginx's own pages) */
        }
        return { ...r, json, setCookie: set };
      }
      login(
        username: string,
        page: "student" | "teacher" | "admin",
        password = DEMO_PASSWORD,
        headers: Record<string, string> = {},
      ) {
        return this.call("POST", "/Backend/Common/account/login", { username, password, page }, headers);
      }
    }

    beforeAll(async () => {
      if (!NGINX) throw new Error("nginx not found (apt-get install -y nginx)");
      if (!OPENSSL) throw new Error("openssl not found (apt-get install -y openssl)");
      dir = mkdtempSync(join(tmpdir(), "saiwu-nginx-"));
      // nginx's workers run as an unprivileged user when the test runs as root: they must reach the files.
      chmodSync(dir, 0o755);
      for (const d of ["logs", "tmp", "dist/assets"]) mkdirSync(join(dir, d), { recursive: true });
      execFileSync(
        OPENSSL,
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-subj",
          "/CN=localhost",
          "-days",
          "1",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ],
        { stdio: "pipe" },
      );

      // A tiny built front end: a hashed asset with its build-time .br, and one the build left raw.
      const dist = join(dir, "dist");
      writeFileSync(join(dist, "index.html"), "<!doctype html><title>赛务平台</title>");
      const app = Buffer.from(`console.log(${JSON.stringify("赛务平台".repeat(400))});\n`);
      writeFileSync(join(dist, "assets/app-5f3a9c1d.js"), app);
      writeFileSync(join(dist, "assets/app-5f3a9c1d.js.br"), brotliCompressSync(app));
      writeFileSync(join(dist, "assets/raw-8b2e4f60.js"), `/*${randomBytes(1500).toString("base64")}*/\n`);

      ports.http = await freePort();
      ports.https = await freePort();
      cluster = await startCluster(2, {
        env: { TRUSTED_PROXIES: "127.0.0.1", PUBLIC_URL: origin(), LOGIN_RATE_MAX: "3", DIST_DIR: dist, METRICS_TOKEN },
      });
      const [a, b] = cluster.procs.map((p) => p.port);
      const conf = renderNginxConf(readFileSync(join(ROOT, "deploy/nginx.conf"), "utf8"), {
        upstreams: [a, b],
        http: ports.http,
        https: ports.https,
        cert: join(dir, "cert.pem"),
        key: join(dir, "key.pem"),
        logDir: join(dir, "logs"),
      });
      writeFileSync(join(dir, "saiwu.conf"), conf);
      writeFileSync(join(dir, "nginx.conf"), mainConf(dir, join(dir, "saiwu.conf")));
      // -p and -e: nothing of the system's nginx (its prefix, /var/log/nginx) is used.
      const args = ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "logs/nginx.error.log")];
      const check = spawnSync(NGINX, ["-t", ...args], { encoding: "utf8" });
      if (check.status !== 0) throw new Error(`nginx -t refused the rendered deploy/nginx.conf:\n${check.stderr}\n${conf}`);
      nginx = spawn(NGINX, args, { stdio: ["ignore", "pipe", "pipe"] });
      nginx.stdout!.on("data", (d) => (nginxOutput += d));
      nginx.stderr!.on("data", (d) => (nginxOutput += d));
      await within(15_000, async () => {
        if (nginx!.exitCode !== null) throw new Error(`nginx exited: ${nginxOutput}`);
        try {
          return (await request("GET", "/index.html")).status === 200;
        } catch {
          return false;
        }
      });
    }, 120_000);

    afterAll(async () => {
      const n = nginx;
      if (n && n.exitCode === null && n.signalCode === null) {
        const gone = new Promise((r) => n.once("exit", r));
        n.kill("SIGQUIT"); // graceful stop, as `nginx -s quit`
        const timer = setTimeout(() => n.kill("SIGKILL"), 5_000);
        await gone;
        clearTimeout(timer);
      }
      await cluster?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it("logs in over HTTPS with a Secure, HttpOnly session cookie and HSTS", async () => {
      const v = new Visitor();
      const r = await v.login("student", "student");
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ error: 0, info: "登录成功", data: { username: "student" } });
      expect(r.setCookie).toMatch(/^saiwu_sid=[^;]+;/);
      expect(r.setCookie).toMatch(/;\s*Secure(;|$)/i);
      expect(r.setCookie).toMatch(/;\s*HttpOnly(;|$)/i);
      expect(r.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
      // Sent once (by the app), not a second time by nginx.
      expect(r.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === "strict-transport-security")).toHaveLength(1);
    });

    it("serves one session from both processes", async () => {
      const v = new Visitor();
      expect((await v.login("teacher", "teacher")).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        const r = await v.call("GET", `/Backend/Common/user/get-current?probe=session-${i}`);
        expect(r.status).toBe(200);
        expect(r.json?.data).toMatchObject({ username: "teacher" });
      }
      // nginx's log (the saiwu log_format) says which process answered each of them; a line is
      // written just after its reply is sent, so the last one may still be on its way.
      const served = () =>
        accessLog()
          .split("\n")
          .filter((l) => l.includes("probe=session-"))
          .map((l) => /upstream=(\S+)/.exec(l)?.[1]);
      await within(5_000, async () => served().length >= 10).catch(() => {});
      expect(served()).toHaveLength(10);
      expect(new Set(served())).toEqual(new Set(cluster!.procs.map((p) => `127.0.0.1:${p.port}`)));
    });

    it("counts login attempts per visitor address, not nginx's address or a forged X-Forwarded-For", async () => {
      // LOGIN_RATE_MAX=3: the fourth attempt from one address on one account is refused, even
      // though each claims another address: nginx appends the real one and only nginx is trusted.
      const attacker = new Visitor("127.0.0.2");
      const codes = [];
      for (let i = 1; i <= 4; i++)
        codes.push(await attacker.login("student2", "student", "Wrong-pass1", { "x-forwarded-for": `203.0.113.${i}` }));
      expect(codes.map((r) => r.status)).toEqual([401, 401, 401, 429]);
      expect(codes[3].json).toEqual(TOO_MANY);
      expect(codes[3].headers["retry-after"]).toMatch(/^\d+$/);
      expect((await attacker.login("student2", "student")).json).toEqual(TOO_MANY);
      // Another visitor logs into the same account: were the app counting nginx's address
      // (127.0.0.1 for every request), this would be the sixth attempt in one bucket.
      const owner = new Visitor("127.0.0.3");
      const ok = await owner.login("student2", "student");
      expect(ok.status).toBe(200);
      expect(ok.json?.data).toMatchObject({ username: "student2" });
    });

    it("streams a 50 MB attachment up to a draft work and back down", async () => {
      const v = new Visitor();
      expect((await v.login("student", "student")).status).toBe(200);
      const work = await cluster!.db
        .selectFrom("work")
        .select(["id", "status"])
        .where("name", "=", "智慧助农：乡村特产直播电商平台")
        .executeTakeFirstOrThrow();
      expect(work.status).toBe("draft");

      // multipart/form-data: the kind first, then a zip ("PK\3\4" and random bytes) made while it is sent.
      const size = 50 * MB;
      const boundary = `----saiwu${randomBytes(8).toString("hex")}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nsource\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="源码.zip"\r\nContent-Type: application/zip\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const sent = createHash("sha256");
      async function* body() {
        yield head;
        for (let at = 0; at < size; at += MB) {
          const chunk = at === 0 ? Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), randomBytes(MB - 4)]) : randomBytes(MB);
          sent.update(chunk);
          yield chunk;
        }
        yield tail;
      }
      const up = await request("POST", `/Backend/Work/work/${work.id}/files`, {
        headers: {
          cookie: v.cookie,
          origin: origin(),
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": head.length + size + tail.length,
        },
        body: Readable.from(body()),
      });
      const reply = JSON.parse(up.body.toString("utf8"));
      expect(up.status, reply.info).toBe(201);
      const sha = sent.digest("hex");
      expect(reply.data).toMatchObject({ kind: "source", filename: "源码.zip", size, sha256: sha });
      const row = await cluster!.db
        .selectFrom("work_file")
        .select(["size", "sha256", "replaced_at"])
        .where("id", "=", reply.data.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ size, sha256: sha, replaced_at: null });

      // And back through nginx, byte for byte.
      const got = createHash("sha256");
      let length = 0;
      const down = await request("GET", `/Backend/Work/work/${work.id}/files/${reply.data.id}/download`, {
        headers: { cookie: v.cookie },
        sink: (c) => {
          got.update(c);
          length += c.length;
        },
      });
      expect(down.status).toBe(200);
      expect(down.headers["content-type"]).toBe("application/zip");
      expect(length).toBe(size);
      expect(got.digest("hex")).toBe(sha);
    }, 60_000);

    it("passes an upload on as it arrives, so the app refuses it before the last byte (HTTP/1.1 and HTTP/2)", async () => {
      // A visitor who is not logged in starts a 100 MB upload and sends only its first megabyte.
      // nginx streams it to the app, which answers 401 at once; were nginx buffering request
      // bodies, it would wait for the other 99 MB and no reply would come.
      const work = await cluster!.db
        .selectFrom("work")
        .select("id")
        .where("name", "=", "智慧助农：乡村特产直播电商平台")
        .executeTakeFirstOrThrow();
      const path = `/Backend/Work/work/${work.id}/files`;
      const headers = { origin: origin(), "content-type": "multipart/form-data; boundary=xyz", "content-length": 100 * MB };
      const NO_REPLY = Symbol("no reply");
      const noReply = () => new Promise<typeof NO_REPLY>((ok) => setTimeout(() => ok(NO_REPLY), 10_000));

      const body = new PassThrough();
      const stop = new AbortController();
      const reply = request("POST", path, { headers, body, signal: stop.signal });
      reply.catch(() => {});
      body.write(Buffer.alloc(MB, "a"));
      const r = await Promise.race([reply, noReply()]);
      stop.abort();
      if (r === NO_REPLY)
        throw new Error(
          "HTTP/1.1: no reply while the upload was incomplete: nginx buffers request bodies (proxy_request_buffering)",
        );
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body.toString()).error).toBe(401);

      // Browsers upload over HTTP/2 (listen … http2).
      const session = http2.connect(`https://127.0.0.1:${ports.https}`, { rejectUnauthorized: false, servername: "localhost" });
      try {
        const stream = session.request({
          ":method": "POST",
          ":path": path,
          ":authority": `localhost:${ports.https}`,
          ...headers,
        });
        const status = new Promise<number>((ok, fail) => {
          stream.once("response", (h) => ok(Number(h[":status"])));
          stream.once("error", fail);
        });
        status.catch(() => {});
        stream.write(Buffer.alloc(MB, "a"));
        const s2 = await Promise.race([status, noReply()]);
        if (s2 === NO_REPLY)
          throw new Error(
            "HTTP/2: no reply while the upload was incomplete: nginx buffers request bodies (proxy_request_buffering)",
          );
        expect(s2).toBe(401);
        expect(session.alpnProtocol).toBe("h2");
        stream.close();
      } finally {
        session.destroy();
      }
    }, 40_000);

    it("keeps /metrics inside and answers the health checks", async () => {
      // The scraper's token works on an app port directly …
      const direct = await fetch(`${cluster!.procs[0].url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(direct.status).toBe(200);
      await direct.body?.cancel();
      // … but nginx never passes /metrics on, with the token or without.
      for (const [path, headers] of [
        ["/metrics", {}],
        ["/metrics?format=prometheus", {}],
        ["/metrics", { authorization: `Bearer ${METRICS_TOKEN}` }],
      ] as const) {
        const r = await request("GET", path, { headers });
        expect(r.status).toBe(404);
        // nginx's own page, not the app's JSON: the request never reached a process.
        expect(r.headers["content-type"]).toMatch(/^text\/html/);
        expect(r.body.toString()).toContain("<center>nginx</center>");
      }
      const live = await request("GET", "/healthz", { from: "127.0.0.2" });
      expect(live.status).toBe(200);
      expect(JSON.parse(live.body.toString())).toEqual({ status: "ok" });
      // /readyz only for the listed addresses (the load balancer's): 127.0.0.1, not another visitor.
      expect((await request("GET", "/readyz", { from: "127.0.0.2" })).status).toBe(403);
      const ready = await request("GET", "/readyz", { from: "127.0.0.1" });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body.toString())).toMatchObject({ status: "ok", checks: { database: true, accepting: true } });
    });

    it("redirects plain HTTP to HTTPS", async () => {
      const r = await request("GET", "/Backend/Common/user/get-current?x=1", { plain: true });
      expect(r.status).toBe(301);
      expect(r.headers.location).toBe("https://localhost/Backend/Common/user/get-current?x=1");
    });

    it("compresses API replies and passes the precompressed assets through untouched", async () => {
      const api = await request("GET", "/Backend/openapi.json", { headers: { "accept-encoding": "gzip" } });
      expect(api.status).toBe(200);
      expect(api.headers["content-encoding"]).toBe("gzip");
      expect(JSON.parse(gunzipSync(api.body).toString("utf8")).info.title).toBe("赛务平台 API");

      const dist = join(dir, "dist/assets");
      const br = await request("GET", "/assets/app-5f3a9c1d.js", { headers: { "accept-encoding": "gzip, br" } });
      expect(br.status).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.body.equals(readFileSync(join(dist, "app-5f3a9c1d.js.br")))).toBe(true);
      // An asset the build did not compress stays as it is (nginx does not gzip under /assets/).
      const raw = await request("GET", "/assets/raw-8b2e4f60.js", { headers: { "accept-encoding": "gzip" } });
      expect(raw.status).toBe(200);
      expect(raw.headers["content-encoding"]).toBeUndefined();
      expect(raw.body.equals(readFileSync(join(dist, "raw-8b2e4f60.js")))).toBe(true);
    });
  },
);
