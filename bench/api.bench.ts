/**
 * npm run bench:api — the busiest page under load. Seeds 100,000 works into a fresh
 * embedded SQLite database (and a fresh PostgreSQL database when TEST_DATABASE_URL is set),
 * starts the real server on 127.0.0.1, logs in as the contest admin and loads the
 * authorised, filtered, sorted, paginated works list with 50 connections for ~10 s
 * (autocannon, its own worker thread), sending what a browser sends (the session cookie,
 * Accept-Encoding: gzip): each connection walks every page of the list in two orders, so
 * the figure is not one URL served over and over. Then the same load with the
 * read caches off (db/changes.ts), then a bare hello route of the same server as the
 * baseline (without a cookie: no database work; also measured with the session cookie, for
 * information). Ends with one JSON line:
 * {"sqlite":{"rps","p99ms","baselineRps","ratio","sessionBaselineRps","sessionRatio","pages","cacheHitRate","uncachedRps","uncachedP99ms","uncachedP99Ms"},"postgres":{…}}
 * — uncachedP99Ms: {"adminWorks","schoolWorks","authorWorks","todo","users"}, each path's p99 one
 * request at a time with the read caches off, no load (./api-uncached.ts).
 * WORKS=<n>, DURATION=<s>, CONNECTIONS=<n> change the run; AS=root loads root's list;
 * ONLY=sqlite|postgres runs one database; UNCACHED_REQUESTS=<n> per uncached path (200).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import type { Dialect } from "../src/server/db";
import { readCache, readCaches } from "../src/server/db/changes";
import { DEMO_PASSWORD } from "../src/server/seed/demo";
import { createPgDatabase, log, seconds, seedWorksDb } from "./works-data";
import { startBenchServer } from "./server";
import { measureUncached, type UncachedP99 } from "./api-uncached";

const WORKS = Number(process.env.WORKS ?? 100_000);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const AS = process.env.AS ?? "contest_admin";
const LIST = "/Backend/Admin/work?status=submitted&status=school_approved&sort=-submittedAt&current=3&pageSize=20";
/** Every page of the same filtered list in two orders: each connection walks them in turn, as many admins paging would. */
const listPages = (total: number) => {
  const pages = Math.max(1, Math.ceil(total / 20));
  return ["-submittedAt", "name"].flatMap((sort) =>
    Array.from(
      { length: pages },
      (_, i) => `/Backend/Admin/work?status=submitted&status=school_approved&sort=${sort}&current=${i + 1}&pageSize=20`,
    ),
  );
};

interface Figures {
  rps: number;
  p99ms: number;
  baselineRps: number;
  ratio: number;
  /** the hello route with the session cookie, and the list's ratio to it */
  sessionBaselineRps: number;
  sessionRatio: number;
  /** list requests over autocannon's 10 s timeout, when any */
  timeouts?: number;
  /** distinct list pages walked, and the share of list reads served from the read cache */
  pages: number;
  cacheHitRate: number;
  /** the same load with every read cache off (db/changes.ts), for comparison */
  uncachedRps: number;
  uncachedP99ms: number;
  /** one request at a time, read caches off: p99 of each list a deadline day reloads (./api-uncached.ts) */
  uncachedP99Ms: UncachedP99;
}

async function load(url: string, headers: Record<string, string>, duration: number, paths?: string[]) {
  const requests = paths?.map((path) => ({ method: "GET" as const, path }));
  const r = await autocannon({ url, connections: CONNECTIONS, duration, headers, workers: 1, ...(requests ? { requests } : {}) });
  if (r.non2xx) throw new Error(`${url}: ${r.non2xx} replies were not 2xx`);
  // Requests that took longer than autocannon's 10 s timeout are counted, not hidden.
  return {
    rps: Math.round(r.requests.average),
    p99ms: r.latency.p99,
    p50ms: r.latency.p50,
    total: r.requests.total,
    timeouts: r.timeouts,
  };
}

async function run(dialect: Dialect): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-api-"));
  let url = `file:${join(dir, "bench.db")}`;
  let drop = async () => {};
  if (dialect === "postgres") ({ url, drop } = await createPgDatabase(process.env.TEST_DATABASE_URL!));
  try {
    const t0 = performance.now();
    const { db } = await seedWorksDb(url, WORKS);
    log(`${dialect}：数据就绪，${seconds(t0)} s`);
    const server = await startBenchServer({
      dataDir: dir,
      url,
      opened: { db, dialect },
      // The baseline: the same server, its hooks (session, access), no database work.
      routes: (app) =>
        app.get("/Backend/bench/hello", { config: { access: "public" } }, async () => ({ error: 0, info: "hello" })),
    });
    const { base } = server;
    try {
      const login = await fetch(`${base}/Backend/Common/account/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ username: AS, password: DEMO_PASSWORD, page: "admin" }),
      });
      if (login.status !== 200) throw new Error(`login failed: ${await login.text()}`);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .find((c) => c.startsWith("saiwu_sid="))!;
      // What a browser sends: the session cookie, and the encodings it accepts.
      const headers = { cookie, "accept-encoding": "gzip, deflate, br" };

      const probe = await (await fetch(`${base}${LIST}`, { headers })).json();
      if (probe.error !== 0 || probe.data.list.length !== 20)
        throw new Error(`list failed: ${JSON.stringify(probe).slice(0, 300)}`);
      log(
        `${dialect}：${AS} 的列表共 ${probe.data.total} 件（第 3 页 20 件，首件 ${probe.data.list[0].id} ${probe.data.list[0].name}）`,
      );

      const paths = listPages(probe.data.total);
      const works = readCache(db, "works", { maxEntries: 0, maxAgeMs: 0 });
      // Warm-up: JIT, connections, and every page read once (the steady state is measured;
      // the uncached figure below shows what a cold read costs).
      for (const path of paths)
        if ((await fetch(`${base}${path}`, { headers })).status !== 200) throw new Error(`${path} failed`);
      await load(`${base}${LIST}`, headers, 2, paths);
      const before = { hits: works.hits, misses: works.misses };
      const list = await load(`${base}${LIST}`, headers, DURATION, paths);
      const hits = works.hits - before.hits;
      const cacheHitRate = Math.round((hits / Math.max(1, hits + works.misses - before.misses)) * 1000) / 1000;
      readCaches.enabled = false;
      const uncached = await load(`${base}${LIST}`, headers, DURATION, paths);
      readCaches.enabled = true;
      log(`${dialect}：不用读缓存时 ${uncached.rps} 次/秒，p50 ${uncached.p50ms} ms，p99 ${uncached.p99ms} ms`);
      log(
        `${dialect}：作品列表（${paths.length} 个不同页面轮流，缓存命中 ${cacheHitRate}）${list.rps} 次/秒，p50 ${list.p50ms} ms，p99 ${list.p99ms} ms（${list.total} 次${list.timeouts ? `，${list.timeouts} 次超时` : ""}）`,
      );
      // The baseline: the bare route without a cookie, so no database work at all. For
      // information also with the session cookie (the session lookup every logged-in request makes).
      await load(`${base}/Backend/bench/hello`, {}, 2);
      const hello = await load(`${base}/Backend/bench/hello`, {}, DURATION);
      log(`${dialect}：hello 基准 ${hello.rps} 次/秒，p50 ${hello.p50ms} ms，p99 ${hello.p99ms} ms`);
      const withSession = await load(`${base}/Backend/bench/hello`, headers, DURATION);
      log(`${dialect}：hello（带会话 cookie）${withSession.rps} 次/秒，p50 ${withSession.p50ms} ms，p99 ${withSession.p99ms} ms`);
      const uncachedP99Ms = await measureUncached(base, db, (m) => log(`${dialect}：${m}`));
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      return {
        rps: list.rps,
        p99ms: list.p99ms,
        baselineRps: hello.rps,
        ratio: ratio(list.rps, hello.rps),
        sessionBaselineRps: withSession.rps,
        sessionRatio: ratio(list.rps, withSession.rps),
        ...(list.timeouts ? { timeouts: list.timeouts } : {}),
        pages: paths.length,
        cacheHitRate,
        uncachedRps: uncached.rps,
        uncachedP99ms: uncached.p99ms,
        uncachedP99Ms,
      };
    } finally {
      await server.close();
    }
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const out: Partial<Record<Dialect, Figures>> = {};
  const only = process.env.ONLY as Dialect | undefined;
  if (only !== "postgres") out.sqlite = await run("sqlite");
  if (only === "sqlite") return console.log(JSON.stringify(out));
  if (process.env.TEST_DATABASE_URL) out.postgres = await run("postgres");
  else log("未设置 TEST_DATABASE_URL：跳过 PostgreSQL");
  console.log(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
