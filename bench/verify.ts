/**
 * npm run bench:verify — the public certificate check under load: GET
 * /Backend/Certificate/verify?number=&name=&code= (what /verify-cert asks after a QR scan)
 * at 50 connections (autocannon, ~10 s after a 2 s warm-up) against the real server on
 * 127.0.0.1 with 1,000 certificates issued the real way on a fresh embedded SQLite database
 * (seeded by a child process). Each connection walks all 1,000 certificates, so every
 * request asks about a certificate and its Ed25519 signature. Answers are served from the
 * verification read cache (certificate/verify.ts) while no certificate changes, as in
 * production; the same load is then run with the read caches off (every request looks the
 * certificate up and verifies the signature), for comparison.
 *
 * The route is limited per client address (30 a minute by default), and all the load comes
 * from one address: the bench starts the server with CERT_VERIFY_RATE_MAX raised — the same
 * setting an operator uses — so the limiter still runs on every request (its bucket is
 * counted) but does not refuse.
 * Ends with one JSON line: {"certificates","connections","seconds","requests","rps","p50Ms","p99Ms","non2xx",
 * "cacheHitRate","uncachedRps","uncachedP50Ms","uncachedP99Ms"}.
 * CERTIFICATES, CONNECTIONS, DURATION change the run.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { readCache, readCaches } from "../src/server/db/changes";
import { seedCertificates } from "./certificates-data";
import { log, seconds } from "./works-data";
import { runBench } from "./entry";
import { startBenchServer } from "./server";

const COUNT = Number(process.env.CERTIFICATES ?? 1000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);

async function seedOnly(dir: string) {
  const { db } = await seedCertificates(`file:${join(dir, "bench.db")}`, COUNT);
  await db.destroy();
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-verify-"));
  try {
    const t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", dir], { stdio: "inherit" });
    log(`签发 ${COUNT} 张证书：${seconds(t0)} s（子进程）`);
    // One address sends everything: the per-address limit is raised, not bypassed.
    const server = await startBenchServer({ dataDir: dir, env: { CERT_VERIFY_RATE_MAX: "1000000000" } });
    const { db, base } = server;
    try {
      const rows = await db.selectFrom("certificate").select(["number", "holder_name", "signature"]).orderBy("number").execute();
      const paths = rows.map(
        (r) => `/Backend/Certificate/verify?${new URLSearchParams({ number: r.number, name: r.holder_name, code: r.signature })}`,
      );
      for (const p of [paths[0], paths[paths.length - 1]]) {
        const r = await (await fetch(`${base}${p}`)).json();
        if (r.data?.status !== "valid" || r.data?.signature !== "valid")
          throw new Error(`verify failed: ${JSON.stringify(r).slice(0, 300)}`);
      }
      log(`核验：${rows.length} 张证书，例如 ${rows[0].number} ${rows[0].holder_name} → 有效，签名有效`);
      const requests = paths.map((path) => ({ method: "GET" as const, path }));
      const run = async (duration: number) => {
        const r = await autocannon({ url: base, connections: CONNECTIONS, duration, workers: 1, requests });
        if (r.non2xx) throw new Error(`${r.non2xx} replies were not 2xx`);
        return {
          requests: r.requests.total,
          rps: Math.round(r.requests.average),
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          timeouts: r.timeouts,
        };
      };
      const cache = readCache(db, "certificateChecks", { maxEntries: 0, maxAgeMs: 0 });
      await run(2);
      const before = { hits: cache.hits, misses: cache.misses };
      const cached = await run(DURATION);
      const hits = cache.hits - before.hits;
      const cacheHitRate = Math.round((hits / Math.max(1, hits + cache.misses - before.misses)) * 1000) / 1000;
      log(
        `${CONNECTIONS} 个连接 ${DURATION} s（缓存命中 ${cacheHitRate}）：${cached.rps} 次/秒，p50 ${cached.p50Ms} ms，p99 ${cached.p99Ms} ms，共 ${cached.requests} 次${cached.timeouts ? `，${cached.timeouts} 次超时` : ""}`,
      );
      readCaches.enabled = false;
      await run(2);
      const uncached = await run(DURATION);
      readCaches.enabled = true;
      log(
        `不用读缓存（每次查库并验签）：${uncached.rps} 次/秒，p50 ${uncached.p50Ms} ms，p99 ${uncached.p99Ms} ms，共 ${uncached.requests} 次${uncached.timeouts ? `，${uncached.timeouts} 次超时` : ""}`,
      );
      const out = {
        certificates: rows.length,
        connections: CONNECTIONS,
        seconds: DURATION,
        requests: cached.requests,
        rps: cached.rps,
        p50Ms: cached.p50Ms,
        p99Ms: cached.p99Ms,
        non2xx: 0,
        cacheHitRate,
        uncachedRps: uncached.rps,
        uncachedP50Ms: uncached.p50Ms,
        uncachedP99Ms: uncached.p99Ms,
      };
      console.log(JSON.stringify(out));
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main, seedOnly);
