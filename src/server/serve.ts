/**
 * The steps of starting the server, shared by `npm start` (main.ts, one process) and
 * `npm run start:cluster` (cluster.ts, several processes on one PostgreSQL):
 * precompressFrontEnd → prepareDatabase (migrate, demo seed on a new embedded database)
 * → serve (listen, and stop gracefully on SIGTERM/SIGINT).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { buildApp } from "./app";
import type { Config } from "./config";
import { migrate, type OpenedDb } from "./db";
import { seedDemo } from "./seed/demo";
import { seedReviewDemoFiles } from "./seed/review-demo";
import { seedResultsDemo } from "./seed/results-demo";
import { seedBestWorksDemo } from "./seed/mainpage-demo";
import { seedComplaintsDemo } from "./seed/complaints-demo";
import { seedNationalDemo } from "./seed/national-demo";
import { seedScoringDemo, seedScoringDemoFiles } from "./seed/scoring-demo";
import { seedJudgePoolDemo } from "./seed/judge-pool-demo";
import { seedDupcheckDemo } from "./seed/dupcheck-demo";
import { createBlobStore } from "./storage";
import { putsSettled } from "./storage/blob-store";
import { precompressDir } from "./static/precompress";

/**
 * Adds .br/.gz files to a front-end build made before precompression existed (a build that
 * has them, or no build at all, is left alone). The build itself is scripts/build.mjs's, run
 * by `npm start` before the server (never by the server: its tools are development-only).
 */
export function precompressFrontEnd(config: Config) {
  const assets = join(config.distDir, "assets");
  if (existsSync(join(config.distDir, "index.html")) && existsSync(assets) && !readdirSync(assets).some((f) => f.endsWith(".br")))
    precompressDir(assets);
}

/**
 * Checks the blob store (a missing bucket or refused keys stop the start with a clear
 * message), migrates the database and, on a new embedded SQLite database with SEED_DEMO on,
 * writes the demo data.
 */
export async function prepareDatabase(config: Config, { db, dialect }: OpenedDb) {
  const store = createBlobStore(config);
  await store.check();
  const applied = await migrate(db);
  if (applied.length) console.log(`数据库迁移完成：${applied.join(", ")}`);
  if (dialect === "sqlite" && config.seedDemo && (await seedDemo(db))) {
    // Works in online judging with some scores (kept out of seedDemo, whose works the tests count).
    await seedScoringDemo(db);
    // A judge group whose online judging is finished, with computed results (/ContestAdmin/ContestResult).
    await seedResultsDemo(db);
    // The Zhejiang results published, with a publicity period and three complaints in different states.
    await seedComplaintsDemo(db, config.publicUrl);
    // The national contest's judges, settings and judging stage, so its admin can run the national round.
    await seedNationalDemo(db);
    // Best works on the public main page, chosen among the published awards.
    await seedBestWorksDemo(db);
    // Pool records of the demo judges (categories, expertise, availability) and a few pool-only people.
    await seedJudgePoolDemo(db);
    // The attachments of the works waiting for format review (they need the blob store).
    await seedReviewDemoFiles(db, store);
    // The attachments of the works judges score online, so a judge sees what a real work looks like.
    await seedScoringDemoFiles(db, store);
    // Planted copies for the duplicate check, then its whole index (every demo work).
    await seedDupcheckDemo(db, store);
    console.log("已写入演示数据（演示账号密码 Demo@2026，见 README）");
  }
}

/** After the grace period, how long closing may still take (jobs handed back, queue and database closed) before the process exits anyway. */
const AFTER_GRACE_MS = 15_000;

/** The longest a stopping server process takes: its grace period and the rest of closing (cluster.ts waits this long for a worker). */
export const shutdownDeadlineMs = (config: Pick<Config, "shutdownGraceSeconds">) =>
  config.shutdownGraceSeconds * 1000 + AFTER_GRACE_MS;

/**
 * Serves the platform on config.port (in a node:cluster worker the port is shared through
 * the primary). SIGTERM and SIGINT stop it gracefully, a second signal while stopping is
 * ignored:
 * 1. app.close() begins: /readyz answers 503 (health/probes.ts), the listener closes (new
 *    connections are refused; a cluster worker gets none from the primary) and idle
 *    keep-alive connections are closed;
 * 2. requests in flight finish, for up to SHUTDOWN_GRACE_SECONDS; then their connections are
 *    cut (an upload cut short stores nothing: the blob store keeps a blob only once all of
 *    it is written, storage/local.ts and s3.ts, and the database row comes after; its
 *    temporary file is removed before the process exits);
 * 3. background jobs this process runs are aborted and handed back to the queue, released
 *    at once so another process (or the next start) takes them (jobs/user-jobs.ts Jobs.stop),
 *    and the queue stops;
 * 4. the database closes and the process exits 0 (1 if closing failed or hung).
 */
export async function serve(config: Config, opened: OpenedDb) {
  const { db, dialect } = opened;
  const app = await buildApp({ db, dialect, config });
  let closing = false;
  const close = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const graceMs = config.shutdownGraceSeconds * 1000;
    app.log.info(`收到 ${signal}，停止接受新连接，等待进行中的请求完成（最多 ${config.shutdownGraceSeconds} 秒）`);
    // Node closes the idle keep-alive connections once, as the server closes; a request still
    // running then leaves its connection idle after its answer, which would hold the close
    // until the keep-alive timeout. Closing idle ones again ends each as soon as it is done.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      app.log.warn(`${config.shutdownGraceSeconds} 秒内仍有请求未完成，已断开其连接`);
      app.server.closeAllConnections();
    }, graceMs);
    const hung = setTimeout(() => {
      console.error(`服务进程 ${shutdownDeadlineMs(config) / 1000} 秒内未能停止，强制退出`);
      process.exit(1);
    }, shutdownDeadlineMs(config));
    hung.unref();
    // Every connection has ended: nothing is left to cut.
    app.server.once("close", () => {
      clearTimeout(cut);
      clearInterval(idle);
    });
    let code = 0;
    try {
      await app.close();
      // An upload whose connection was cut removes its temporary file before we exit.
      await putsSettled(5_000);
      await db.destroy();
    } catch (err) {
      console.error("停止服务时出错", err);
      code = 1;
    } finally {
      clearTimeout(cut);
      clearInterval(idle);
      process.exit(code);
    }
  };
  process.on("SIGINT", (signal) => void close(signal));
  process.on("SIGTERM", (signal) => void close(signal));
  await app.listen({ port: config.port, host: config.host });
  return app;
}
