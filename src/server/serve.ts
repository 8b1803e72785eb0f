/**
 * The steps of starting the server, shared by `npm start` (main.ts, one process) and
 * `npm run start:cluster` (cluster.ts, several processes on one PostgreSQL):
 * buildFrontEndIfNeeded → prepareDatabase (migrate, demo seed on a new embedded database)
 * → serve (listen, and stop gracefully on SIGTERM/SIGINT).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildApp, ROOT_DIR } from "./app";
import type { Config } from "./config";
import { migrate, type OpenedDb } from "./db";
import { seedDemo } from "./db/seed/demo";
import { seedReviewDemoFiles } from "./db/seed/review-demo";
import { seedResultsDemo } from "./db/seed/results-demo";
import { seedBestWorksDemo } from "./db/seed/mainpage-demo";
import { seedComplaintsDemo } from "./db/seed/complaints-demo";
import { seedNationalDemo } from "./db/seed/national-demo";
import { seedScoringDemo, seedScoringDemoFiles } from "./db/seed/scoring-demo";
import { seedJudgePoolDemo } from "./db/seed/judge-pool-demo";
import { seedDupcheckDemo } from "./db/seed/dupcheck-demo";
import { createBlobStore } from "./storage";
import { precompressDir } from "./static/precompress";

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, f) => Math.max(m, newestMtime(join(path, f))), st.mtimeMs);
}

/** Builds the front end into `config.distDir` when it is missing or older than its sources (SKIP_BUILD=1 skips); the vite build also precompresses the assets. */
export function buildFrontEndIfNeeded(config: Config) {
  if (process.env.SKIP_BUILD === "1") return;
  const index = join(config.distDir, "index.html");
  const sources = ["src/client", "src/shared", "casbin", "index.html", "vite.config.ts"].map((p) => join(ROOT_DIR, p)).filter(existsSync);
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) {
    // A dist built before precompression existed: add the .br/.gz files rather than rebuild.
    const assets = join(config.distDir, "assets");
    if (existsSync(assets) && !readdirSync(assets).some((f) => f.endsWith(".br"))) precompressDir(assets);
    return;
  }
  console.log("正在构建前端（vite build）…");
  execFileSync(process.execPath, [join(ROOT_DIR, "node_modules/vite/bin/vite.js"), "build", "--outDir", config.distDir, "--emptyOutDir"], { cwd: ROOT_DIR, stdio: "inherit" });
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

/**
 * Serves the platform on config.port (in a node:cluster worker the port is shared through
 * the primary). SIGTERM and SIGINT close the server (in-flight requests finish), then the
 * database, then exit; a second signal while closing is ignored.
 */
export async function serve(config: Config, opened: OpenedDb) {
  const { db, dialect } = opened;
  const app = await buildApp({ db, dialect, config });
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    try {
      await app.close();
      await db.destroy();
    } finally {
      process.exit(0);
    }
  };
  process.on("SIGINT", close);
  process.on("SIGTERM", close);
  await app.listen({ port: config.port, host: config.host });
  return app;
}

