/**
 * `npm start`: builds the front end if it is missing or older than its sources,
 * migrates the database, seeds demo data into a new embedded database, and serves
 * the platform (front end + /Backend) on one port.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildApp, ROOT_DIR } from "./app";
import { loadConfig } from "./config";
import { migrate, openDb } from "./db";
import { seedDemo } from "./db/seed/demo";
import { seedReviewDemoFiles } from "./db/seed/review-demo";
import { createBlobStore } from "./storage";
import { seedScoringDemo } from "./db/seed/scoring-demo";
import { seedResultsDemo } from "./db/seed/results-demo";

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, f) => Math.max(m, newestMtime(join(path, f))), st.mtimeMs);
}

function buildFrontEndIfNeeded(distDir: string) {
  const index = join(distDir, "index.html");
  const sources = ["src/client", "src/shared", "casbin", "index.html", "vite.config.ts"].map((p) => join(ROOT_DIR, p)).filter(existsSync);
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  console.log("正在构建前端（vite build）…");
  execFileSync(process.execPath, [join(ROOT_DIR, "node_modules/vite/bin/vite.js"), "build", "--outDir", distDir, "--emptyOutDir"], { cwd: ROOT_DIR, stdio: "inherit" });
}

async function main() {
  const config = loadConfig();
  if (process.env.SKIP_BUILD !== "1") buildFrontEndIfNeeded(config.distDir);
  const { db, dialect } = openDb(config.databaseUrl);
  const store = createBlobStore(config);
  await store.check();
  const applied = await migrate(db);
  if (applied.length) console.log(`数据库迁移完成：${applied.join(", ")}`);
  if (dialect === "sqlite" && config.seedDemo && (await seedDemo(db))) {
    // Works in online judging with some scores (kept out of seedDemo, whose works the tests count).
    await seedScoringDemo(db);
    // A judge group whose online judging is finished, with computed results (/ContestAdmin/ContestResult).
    await seedResultsDemo(db);
    // The attachments of the works waiting for format review (they need the blob store).
    await seedReviewDemoFiles(db, store);
    console.log("已写入演示数据（演示账号密码 Demo@2026，见 README）");
  }
  const app = await buildApp({ db, dialect, config });
  const close = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on("SIGINT", close);
  process.on("SIGTERM", close);
  await app.listen({ port: config.port, host: config.host });
  console.log(`赛务平台已启动：http://localhost:${config.port}  （API 文档：/Backend/docs）`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
