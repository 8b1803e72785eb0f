/**
 * npm run bench:import — imports 50,000 generated students through the real HTTP API on a
 * fresh embedded SQLite database: upload → dry run → confirm → done, logged in as root.
 * Ends with one JSON line: {"rows", "seconds", "dryRunSeconds", "confirmSeconds", "peakRssMB"}.
 * ROWS=<n> changes the row count.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { migrate, openDb } from "../src/server/db";
import { seedDemo } from "../src/server/db/seed/demo";
import { personName, rng } from "../src/server/db/seed/generate";
import { rootHeaders } from "./works-data";

const ROWS = Number(process.env.ROWS ?? 50_000);
const HEADERS = ["用户名", "姓名", "身份", "学校代码", "学号/工号", "专业代码", "邮箱", "手机号", "校赛评委"];
const seconds = (from: number) => Math.round((performance.now() - from) / 10) / 100;
const mem = () => `RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB，堆 ${Math.round(process.memoryUsage().heapUsed / 1048576)} MB`;
const log = (msg: string) => process.stderr.write(`${msg}（${mem()}）\n`);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-"));
  try {
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: `file:${join(dir, "bench.db")}`, PUBLIC_URL: "http://localhost:8080", LOG_LEVEL: "silent", DIST_DIR: join(dir, "no-dist") });
    const { db } = openDb(config.databaseUrl);
    await migrate(db);
    await seedDemo(db);
    const schools = (await db.selectFrom("school").select("code").where("archived", "=", 0).execute()).map((s) => s.code);
    const majors = (await db.selectFrom("major").select("code").execute()).map((m) => m.code);

    // The file: 50k students of the seeded schools, with Chinese names.
    let t0 = performance.now();
    const file = join(dir, "students.xlsx");
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
    const ws = wb.addWorksheet("用户");
    ws.addRow(HEADERS).commit();
    const r = rng(2026);
    for (let i = 1; i <= ROWS; i++) {
      const no = String(i).padStart(6, "0");
      ws.addRow([`s2026${no}`, personName(r), "作者（学生）", r.pick(schools), `2026${no}`, r.pick(majors), `s2026${no}@stu.example.edu.cn`, `139${String(r.int(0, 99_999_999)).padStart(8, "0")}`, "否"]).commit();
    }
    ws.commit();
    await wb.commit();
    const upload = readFileSync(file);
    log(`生成 ${ROWS} 行 .xlsx：${(upload.length / 1048576).toFixed(1)} MB，${seconds(t0)} s`);

    const app = await buildApp({ db, dialect: "sqlite", config, logger: false });
    await app.ready();
    const headers = await rootHeaders(app);

    const poll = async (jobId: string) => {
      for (;;) {
        const j = (await app.inject({ method: "GET", url: `/Backend/Common/job/${jobId}`, headers })).json().data;
        if (!["running", "applying"].includes(j.status)) return j;
        await new Promise((res) => setTimeout(res, 100));
      }
    };

    const boundary = "----saiwubench";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="students.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
      upload,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const start = performance.now();
    t0 = start;
    const up = await app.inject({ method: "POST", url: "/Backend/Admin/user/import", headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` }, payload: body });
    if (up.statusCode !== 202) throw new Error(`upload failed: ${up.body}`);
    const jobId = up.json().data.jobId as string;
    const dry = await poll(jobId);
    const dryRunSeconds = seconds(t0);
    if (dry.status !== "ready" || dry.result.errors.length) throw new Error(`dry run failed: ${dry.message} ${JSON.stringify(dry.result?.errors?.slice(0, 5))}`);
    log(`试运行：${dryRunSeconds} s，${dry.message}`);

    t0 = performance.now();
    const confirm = await app.inject({ method: "POST", url: `/Backend/Admin/user/import/${jobId}/confirm`, headers });
    if (confirm.statusCode !== 202) throw new Error(`confirm failed: ${confirm.body}`);
    const done = await poll(jobId);
    const confirmSeconds = seconds(t0);
    if (done.status !== "done") throw new Error(`import failed: ${done.message}`);
    log(`确认导入：${confirmSeconds} s，${done.message}`);

    const imported = await db.selectFrom("app_user").select((eb) => eb.fn.countAll<number>().as("n")).where("username", "like", "s2026%").executeTakeFirstOrThrow();
    const audited = await db.selectFrom("audit_log").select((eb) => eb.fn.countAll<number>().as("n")).where("action", "=", "import").executeTakeFirstOrThrow();
    if (Number(imported.n) !== ROWS || Number(audited.n) !== ROWS) throw new Error(`expected ${ROWS} users and audit entries, found ${imported.n} and ${audited.n}`);
    const garbled = await db.selectFrom("app_user").select("username").where("name", "like", "%\uFFFD%").limit(1).executeTakeFirst();
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
