/**
 * npm run bench:mainpage — the public main page's API under load: GETs of /Backend/Public/mainpage/…
 * (首页, news and notice lists and an article, 获奖名单 pages with and without a search, options,
 * 优秀作品, 赛事介绍, 往届, a work's page) at 50 connections (autocannon, ~10 s after a 2 s warm-up)
 * against the real server on 127.0.0.1 with the demo data on a fresh embedded SQLite database
 * (seeded by a child process). Replies come from the main page's read cache (mainpage/http-cache.ts)
 * while nothing changes, as in production; the same load then runs with the read caches off
 * (every request queries the database), for comparison. Browsers revalidating with ETag get 304
 * (not measured here: autocannon counts a 304 as non-2xx).
 * Ends with one JSON line: {"connections","seconds","requests","rps","p50Ms","p99Ms","non2xx","serverCpuUsPerReq","loadAvg1","uncachedRps","uncachedP50Ms","uncachedP99Ms","uncachedServerCpuUsPerReq"}
 * (serverCpuUsPerReq: the server thread's CPU time per request, in µs; loadAvg1: the machine's load at the end).
 * CONNECTIONS and DURATION change the run.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { migrate, openDb } from "../src/server/db";
import { readCaches } from "../src/server/db/changes";
import { seedDemo } from "../src/server/seed/demo";
import { seedResultsDemo } from "../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../src/server/seed/complaints-demo";
import { seedBestWorksDemo } from "../src/server/seed/mainpage-demo";
import { log, seconds } from "./works-data";
import { runBench } from "./entry";
import { startBenchServer } from "./server";

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);

/**
 * CPU time of this process's main thread (the server's; autocannon runs in a worker thread) in
 * ms, from /proc (Linux); null elsewhere. Less disturbed by other load on the machine than the
 * latencies, which include waiting for a core.
 */
function serverCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in ticks of 1/100 s
  } catch {
    return null;
  }
}

async function seedOnly(dir: string) {
  const { db } = openDb(`file:${join(dir, "bench.db")}`);
  await migrate(db);
  await seedDemo(db);
  await seedResultsDemo(db);
  await seedComplaintsDemo(db);
  await seedBestWorksDemo(db);
  await db.destroy();
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-mainpage-"));
  try {
    const t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", dir], { stdio: "inherit" });
    log(`演示数据：${seconds(t0)} s（子进程）`);
    const server = await startBenchServer({ dataDir: dir });
    const base = server.base;
    try {
      const P = "/Backend/Public/mainpage";
      const get = async (p: string) => (await (await fetch(base + p)).json()) as { error: number; data: any };
      const news = (await get(`${P}/news`)).data.list;
      const results = (await get(`${P}/results?pageSize=5`)).data;
      if (!news.length || !results.total) throw new Error("演示数据中没有新闻或获奖作品");
      const paths = [
        `${P}/home`,
        `${P}/news`,
        `${P}/news?current=2&pageSize=3`,
        `${P}/news/${news[0].id}`,
        `${P}/notices`,
        `${P}/notices?level=provincial`,
        `${P}/intro`,
        `${P}/results`,
        `${P}/results?current=2&pageSize=5`,
        `${P}/results?keyword=${encodeURIComponent(results.list[0].schoolName)}`,
        `${P}/results/options`,
        `${P}/best-works`,
        `${P}/editions`,
        `${P}/works/${results.list[0].workId}`,
      ];
      log(`${paths.length} 种请求（${news.length} 条新闻首页，${results.total} 件获奖作品）`);
      const requests = paths.map((path) => ({ method: "GET" as const, path }));
      const run = async (duration: number) => {
        const cpu0 = serverCpuMs();
        const r = await autocannon({ url: base, connections: CONNECTIONS, duration, workers: 1, requests });
        const cpu1 = serverCpuMs();
        if (r.non2xx) throw new Error(`${r.non2xx} replies were not 2xx`);
        const cpuUs =
          cpu0 === null || cpu1 === null || !r.requests.total ? null : Math.round(((cpu1 - cpu0) * 1000) / r.requests.total);
        return {
          requests: r.requests.total,
          rps: Math.round(r.requests.average),
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          timeouts: r.timeouts,
          cpuUs,
        };
      };
      await run(2);
      const cached = await run(DURATION);
      log(
        `${CONNECTIONS} 个连接 ${DURATION} s：${cached.rps} 次/秒，p50 ${cached.p50Ms} ms，p99 ${cached.p99Ms} ms，共 ${cached.requests} 次，服务端每次 ${cached.cpuUs} µs CPU${cached.timeouts ? `，${cached.timeouts} 次超时` : ""}`,
      );
      readCaches.enabled = false;
      await run(2);
      const uncached = await run(DURATION);
      readCaches.enabled = true;
      log(
        `不用读缓存（每次查库）：${uncached.rps} 次/秒，p50 ${uncached.p50Ms} ms，p99 ${uncached.p99Ms} ms，共 ${uncached.requests} 次，服务端每次 ${uncached.cpuUs} µs CPU`,
      );
      console.log(
        JSON.stringify({
          connections: CONNECTIONS,
          seconds: DURATION,
          requests: cached.requests,
          rps: cached.rps,
          p50Ms: cached.p50Ms,
          p99Ms: cached.p99Ms,
          non2xx: 0,
          serverCpuUsPerReq: cached.cpuUs,
          loadAvg1: Number(loadavg()[0].toFixed(2)),
          uncachedRps: uncached.rps,
          uncachedP50Ms: uncached.p50Ms,
          uncachedP99Ms: uncached.p99Ms,
          uncachedServerCpuUsPerReq: uncached.cpuUs,
        }),
      );
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main, seedOnly);
