/**
 * npm run bench:stats — the statistics dashboards (issue 32) on the large data set: a fresh
 * embedded SQLite database (or PostgreSQL: BENCH_DB=postgres with TEST_DATABASE_URL) with the
 * demo, 700 generated schools, 100,000 works of this year and 100,000 of last year
 * (bench/works-data.ts, src/server/seed/works.ts), their creation and steps spread over the 60
 * days before the registration deadline, and online scores (3 judges per format-passed work of
 * this year). Each dashboard's endpoint (src/shared/stats/schema.ts) as root, the demo contest
 * admin (浙江省级赛) and the school admin of the school with most works, through app.inject:
 *  - coldMs: the median of 3 requests with every read cache off (db/changes.ts readCaches, as
 *    bench/api-uncached.ts turns them off), after one uncached warm-up request (JIT);
 *  - warmMs: the median of 10 requests with the caches on, after one that fills them.
 * chartPageKB: the gzip size of the dashboard page's own chunk with its charts, from a vite
 * build's manifest (STATS_DIST=<a built dist> reads an existing build, STATS_DIST=none skips it,
 * else one is built into a temporary folder): the dynamic entry whose source is under src/client/stats/, plus the chunks
 * it imports statically that the admin entry (src/client/admin-main.tsx) does not already load;
 * null when there is no such entry.
 * WORKS=<n> per year changes the size; STATS_DB=<file> keeps the SQLite database there (and reuses it when it exists). Ends with one JSON line
 * {"dashboards":[{"name","role","coldMs","warmMs"}],"maxColdMs","maxWarmMs","chartPageKB"}.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { sql } from "kysely";
import type { FastifyInstance } from "fastify";
import { ROOT_DIR } from "../src/server/app";
import { hashPassword } from "../src/server/account/password";
import { openDb, type Db, type Dialect } from "../src/server/db";
import { readCaches, readCachesOf } from "../src/server/db/changes";
import { DEMO_PASSWORD } from "../src/server/seed/demo";
import { insertDemoUser } from "../src/server/seed/demo-helpers";
import { generateWorks } from "../src/server/seed/works";
import { ROLE } from "../src/shared/roles";
import { STATS_DASHBOARDS, STATS_PATHS } from "../src/shared/stats/schema";
import { createPgDatabase, log, seconds, seedWorksDb, YEAR } from "./works-data";
import { startBenchServer } from "./server";

const WORKS = Number(process.env.WORKS ?? 100_000);
const DAY = 86_400_000;
const work = mkdtempSync(join(tmpdir(), "saiwu-bench-stats-"));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor((s.length - 1) / 2)] * 10) / 10;
};

/** Each year's works created and stepped on one of the 60 days before the year's registration deadline (by id). */
async function spread(db: Db, year: number) {
  const row = await db
    .selectFrom("contest_stage")
    .innerJoin("contest", "contest.id", "contest_stage.contest_id")
    .select((eb) => eb.fn.max("contest_stage.ends_at").as("at"))
    .where("contest.year", "=", year)
    .where("contest_stage.stage", "=", "registration")
    .executeTakeFirstOrThrow();
  const end = Date.parse(String(row.at));
  for (let b = 0; b < 60; b++) {
    const at = (days: number) => new Date(end - (62 - b - days) * DAY + 3_600_000 * (b % 24)).toISOString();
    await db
      .updateTable("work")
      .set({ created_at: at(0) })
      .where("year", "=", year)
      .where(sql<number>`id % 60`, "=", b)
      .execute();
    for (const [action, days] of [
      ["submit", 1],
      ["approve", 2],
      ["recommend", 3],
      ["accept", 4],
    ] as const)
      await db
        .updateTable("work_log")
        .set({ at: at(days) })
        .where("action", "=", action)
        .where(sql<number>`work_id % 60`, "=", b)
        .where("work_id", ">=", year * 1_000_000)
        .where("work_id", "<", (year + 1) * 1_000_000)
        .execute();
  }
}

/** One judge group per provincial contest of the year, 3 of 40 judges per format-passed work, all scored. */
async function scoreWorks(db: Db, year: number) {
  const now = new Date().toISOString();
  const judges = (
    await db.selectFrom("app_user").select("id").where("user_type", "=", ROLE.teacher).orderBy("id").limit(40).execute()
  ).map((u) => u.id);
  const contests = await db
    .selectFrom("contest")
    .select("id")
    .where("year", "=", year)
    .where("level", "=", "provincial")
    .execute();
  let scores = 0;
  for (const c of contests) {
    const works = await db
      .selectFrom("work")
      .select(["id", "category_id"])
      .where("contest_id", "=", c.id)
      .where("status", "=", "format_passed")
      // the demo's own judging (浙江) keeps its groups
      .where("id", "not in", db.selectFrom("judge_group_work").select("work_id"))
      .where("id", "not in", db.selectFrom("judge_assignment").select("work_id"))
      .orderBy("id")
      .execute();
    if (!works.length) continue;
    const g = await db
      .insertInto("judge_group")
      .values({ contest_id: c.id, name: `评审组${c.id}`, category_id: works[0].category_id, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < works.length; i += 300) {
      const part = works.slice(i, i + 300);
      await db
        .insertInto("judge_group_work")
        .values(part.map((w) => ({ contest_id: c.id, group_id: g.id, work_id: Number(w.id), created_at: now })))
        .execute();
      const rows = part.flatMap((w, k) =>
        [0, 1, 2].map((j) => ({ w: Number(w.id), judge: judges[(i + k + j * 13) % judges.length], j })),
      );
      const ids = await db
        .insertInto("judge_assignment")
        .values(rows.map((r) => ({ contest_id: c.id, work_id: r.w, judge_id: r.judge, group_id: g.id, created_at: now })))
        .returning("id")
        .execute();
      await db
        .insertInto("judge_score")
        .values(
          rows.map((r, x) => ({
            assignment_id: ids[x].id,
            contest_id: c.id,
            work_id: r.w,
            judge_id: r.judge,
            total: 55 + ((r.w * 7 + r.j * 11) % 40) + (r.judge % 5) * 2,
            status: "submitted",
            submitted_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      scores += rows.length;
    }
  }
  log(`评分：${scores} 条`);
}

async function prepare(): Promise<{ url: string; db: Db; dialect: Dialect; drop: () => Promise<void> }> {
  let url = `file:${process.env.STATS_DB ?? join(work, "bench.db")}`;
  let drop = async () => {};
  if (process.env.STATS_DB && existsSync(process.env.STATS_DB)) {
    const { db, dialect } = openDb(url);
    log(`沿用已生成的数据库 ${process.env.STATS_DB}`);
    return { url, db, dialect, drop };
  }
  if (process.env.BENCH_DB === "postgres") {
    if (!process.env.TEST_DATABASE_URL) throw new Error("BENCH_DB=postgres needs TEST_DATABASE_URL");
    ({ url, drop } = await createPgDatabase(process.env.TEST_DATABASE_URL));
  }
  const t0 = performance.now();
  const { db, dialect } = await seedWorksDb(url, WORKS);
  await generateWorks(db, { count: WORKS, seed: 43, year: YEAR - 1, passwordHash: await hashPassword("Seed@2026") });
  log(`${dialect}：两届各 ${WORKS} 件作品，${seconds(t0)} s`);
  await spread(db, YEAR);
  await spread(db, YEAR - 1);
  await scoreWorks(db, YEAR);
  if (dialect === "postgres") await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  log(`数据准备完成，${seconds(t0)} s`);
  return { url, db, dialect, drop };
}

/** The school with most works of the year gets a school admin (password of the demo). */
async function schoolAdmin(db: Db): Promise<string> {
  const school = await db
    .selectFrom("work")
    .select(["school_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("year", "=", YEAR)
    .groupBy("school_id")
    .orderBy("n", "desc")
    .orderBy("school_id")
    .limit(1)
    .executeTakeFirstOrThrow();
  const name = "bench_stats_school";
  if (!(await db.selectFrom("app_user").select("id").where("username", "=", name).executeTakeFirst()))
    await insertDemoUser(
      db,
      { username: name, name: "统计校管", type: ROLE.schoolAdmin, schoolId: school.school_id },
      await hashPassword(DEMO_PASSWORD),
      new Date().toISOString(),
    );
  log(`学校管理员：学校 ${school.school_id}，今年 ${Number(school.n)} 件作品`);
  return name;
}

async function cookieOf(app: FastifyInstance, username: string) {
  const res = await app.inject({
    method: "POST",
    url: "/Backend/Common/account/login",
    headers: { host: "localhost:80", origin: "http://localhost:80" },
    payload: { username, password: DEMO_PASSWORD, page: "admin" },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.body}`);
  return `saiwu_sid=${res.cookies.find((c) => c.name === "saiwu_sid")!.value}`;
}

/** gzip KB of the stats page's own chunk and the static imports the admin entry does not load. */
function chartPageKB(): number | null {
  let dist = process.env.STATS_DIST;
  if (dist === "none") return null;
  if (!dist) {
    dist = join(work, "dist");
    log("构建前端（vite build）…");
    execFileSync(
      process.execPath,
      [join(ROOT_DIR, "node_modules/vite/bin/vite.js"), "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"],
      { cwd: ROOT_DIR, stdio: "inherit" },
    );
  }
  type Chunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; css?: string[] };
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<string, Chunk>;
  const closure = (key: string, seen = new Set<string>()) => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) closure(k, seen);
    return seen;
  };
  const stats = Object.entries(manifest).filter(([k, c]) => c.isDynamicEntry && (c.src ?? k).startsWith("src/client/stats/"));
  if (!stats.length) return null;
  const admin = Object.keys(manifest).find((k) => k === "src/client/admin-main.tsx");
  const shared = admin ? closure(admin) : new Set<string>();
  const own = new Set<string>();
  for (const [k] of stats) for (const x of closure(k)) if (!shared.has(x)) own.add(x);
  const gz = (file: string) => {
    const p = join(dist, file);
    return existsSync(p + ".gz") ? statSync(p + ".gz").size : gzipSync(readFileSync(p), { level: 9 }).length;
  };
  let bytes = 0;
  for (const k of own) {
    bytes += gz(manifest[k].file);
    for (const css of manifest[k].css ?? []) bytes += gz(css);
  }
  log(`统计页面的块：${stats.map(([k]) => k).join("、")}；自有块 ${own.size} 个`);
  return Math.round((bytes / 1024) * 10) / 10;
}

const { url, db, dialect, drop } = await prepare();
const who = { root: "root", contestAdmin: "contest_admin", schoolAdmin: await schoolAdmin(db) };
const server = await startBenchServer({
  dataDir: join(work, "data"),
  url,
  opened: { db, dialect },
  listen: false,
  env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0" },
});
const app = server.app;
// A fresh database's first start runs the daily to-do digest over every account: the figures wait for it (5 minutes at most).
for (let i = 0; i < 300; i++) {
  const running = await db.selectFrom("task_run").select("name").where("finished_at", "is", null).execute();
  if (!running.length) break;
  if (i % 30 === 0) log(`等待定时任务结束：${running.map((r) => r.name).join("、")}`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
const results: { name: string; role: string; coldMs: number; warmMs: number }[] = [];
try {
  for (const [role, username] of Object.entries(who)) {
    const cookie = await cookieOf(app, username);
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await app.inject({ method: "GET", url: path, headers: { host: "localhost:80", cookie } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${role} ${path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return ms;
    };
    for (const name of [...STATS_DASHBOARDS, "summary" as const]) {
      const path = STATS_PATHS[name];
      readCaches.enabled = false;
      await get(path);
      const cold = [await get(path), await get(path), await get(path)];
      readCaches.enabled = true;
      await get(path);
      const warm: number[] = [];
      for (let i = 0; i < 10; i++) warm.push(await get(path));
      const c = readCachesOf(db).get("stats");
      if (process.env.DEBUG_STATS) log(`hits ${c?.hits} misses ${c?.misses}`);
      const r = { name, role, coldMs: median(cold), warmMs: median(warm) };
      results.push(r);
      log(`${role} ${path}：冷 ${r.coldMs} ms（${cold.map((x) => Math.round(x)).join("、")}），热 ${r.warmMs} ms`);
    }
  }
} finally {
  readCaches.enabled = true;
  await server.close();
  await drop();
}
const kb = chartPageKB();
rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify({
    dashboards: results,
    maxColdMs: Math.max(...results.map((r) => r.coldMs)),
    maxWarmMs: Math.max(...results.map((r) => r.warmMs)),
    chartPageKB: kb,
  }),
);
