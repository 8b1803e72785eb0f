/**
 * npm run bench:import — imports 50,000 generated students through the real HTTP API on a
 * fresh embedded SQLite database: upload → dry run → confirm → done, logged in as root.
 * Ends with one JSON line: {"rows", "seconds", "dryRunSeconds", "confirmSeconds", "peakRssMB"}.
 * ROWS=<n> changes the row count.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { migrate, openDb } from "../src/server/db";
import { seedDemo } from "../src/server/seed/demo";
import { confirmImport, pollJob, uploadUsers, writeStudentsXlsx } from "./import-data";
import { rootHeaders } from "./works-data";

const ROWS = Number(process.env.ROWS ?? 50_000);
const seconds = (from: number) => Math.round((performance.now() - from) / 10) / 100;
const mem = () =>
  `RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB，堆 ${Math.round(process.memoryUsage().heapUsed / 1048576)} MB`;
const log = (msg: string) => process.stderr.write(`${msg}（${mem()}）\n`);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-"));
  try {
    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: `file:${join(dir, "bench.db")}`,
      PUBLIC_URL: "http://localhost:8080",
      LOG_LEVEL: "silent",
      DIST_DIR: join(dir, "no-dist"),
    });
    const { db } = openDb(config.databaseUrl);
    await migrate(db);
    await seedDemo(db);
    // The file: 50k students of the seeded schools, with Chinese names.
    let t0 = performance.now();
    const upload = await writeStudentsXlsx(db, join(dir, "students.xlsx"), ROWS);
    log(`生成 ${ROWS} 行 .xlsx：${(upload.length / 1048576).toFixed(1)} MB，${seconds(t0)} s`);

    const app = await buildApp({ db, dialect: "sqlite", config, logger: false });
    await app.ready();
    const headers = await rootHeaders(app);

    const start = performance.now();
    t0 = start;
    const jobId = await uploadUsers(app, headers, upload);
    const dry = await pollJob(app, headers, jobId);
    const dryRunSeconds = seconds(t0);
    if (dry.status !== "ready" || dry.result.errors.length)
      throw new Error(`dry run failed: ${dry.message} ${JSON.stringify(dry.result?.errors?.slice(0, 5))}`);
    log(`试运行：${dryRunSeconds} s，${dry.message}`);

    t0 = performance.now();
    await confirmImport(app, headers, jobId);
    const done = await pollJob(app, headers, jobId);
    const confirmSeconds = seconds(t0);
    if (done.status !== "done") throw new Error(`import failed: ${done.message}`);
    log(`确认导入：${confirmSeconds} s，${done.message}`);

    const imported = await db
      .selectFrom("app_user")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("username", "like", "s2026%")
      .executeTakeFirstOrThrow();
    const audited = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("action", "=", "import")
      .executeTakeFirstOrThrow();
    if (Number(imported.n) !== ROWS || Number(audited.n) !== ROWS)
      throw new Error(`expected ${ROWS} users and audit entries, found ${imported.n} and ${audited.n}`);
    const garbled = await db
      .selectFrom("app_user")
      .select("username")
      .where("name", "like", "%\uFFFD%")
      .limit(1)
      .executeTakeFirst();
    if (garbled) throw new Error(`garbled name imported for ${garbled.username}`);
    log(`数据库中：${imported.n} 个学生，${audited.n} 条导入记录`);

    const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
    await app.close();
    await db.destroy();
    console.log(JSON.stringify({ rows: ROWS, seconds: seconds(start), dryRunSeconds, confirmSeconds, peakRssMB }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
