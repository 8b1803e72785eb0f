/**
 * npm run bench:digest [-- --data <dir>] [--db pg] [--sample N] [--batch N] [--works N …]
 * The daily to-do digest (issue 15) on the large data set: the demo plus
 * `npm run seed -- --schools 700 --students 50000 --teachers 5000 --works 100000`, the same
 * cache as bench:pages (made by its seeding child when missing, default
 * /tmp/saiwu-bench-pages-<sizes>); the run works on a migrated copy in /tmp (SQLite).
 * --db pg: PostgreSQL on the server of TEST_DATABASE_URL. The cache is the database
 * saiwu_bench_digest_<sizes> there (the demo and the seed command with DATABASE_URL on it,
 * made when missing, marked complete by a comment on the database); the run works on a
 * migrated copy (CREATE DATABASE … TEMPLATE), dropped at the end.
 *
 * 1. The first digest run (records what is open, mails nobody) over every user.
 * 2. Every user's recorded state is then dropped (one placeholder row kept, so the run is not a
 *    first run): the next run mails every user who has any item — the worst day — through a
 *    counting mailer (no SMTP or disk: the mail transport is not what is measured).
 * 3. Baseline in the same run: the old per-user path (bench/digest-baseline-items.ts, the code
 *    before batching: queries per user and per item) and the new endpoint path (the batch
 *    function for one user) on a sample of users spread over the id range, including every
 *    user of the sample with items; their items are compared (mismatches reported; the defence
 *    kind is left out of the comparison, its 7-day rule changed with the batching).
 * Ends with one JSON line: {"users","usersWithItems","seconds","recordSeconds","mails","batch",
 * "perUserMsAfter","perUserMsBefore","perUserMsEndpoint","sample","projectedSecondsBefore","sampleMismatches","load"}.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT_DIR, loadPolicy } from "../src/server/app";
import pg from "pg";
import { migrate, openDb } from "../src/server/db";
import { seedDemo } from "../src/server/seed/demo";
import type { User } from "../src/server/db/schema";
import { sendDigests } from "../src/server/todo/digest";
import { todoItems } from "../src/server/todo/items";
import { todoItems as oldTodoItems } from "./digest-baseline-items";

const { values: args } = parseArgs({
  options: {
    works: { type: "string", default: "100000" },
    students: { type: "string", default: "50000" },
    teachers: { type: "string", default: "5000" },
    schools: { type: "string", default: "700" },
    data: { type: "string" },
    sample: { type: "string", default: "300" },
    batch: { type: "string", default: "500" },
    db: { type: "string", default: "sqlite" },
  },
  strict: false,
});
const DB_FILE = "saiwu.db";
const DONE_MARK = "complete";
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const secs = (t0: number) => Math.round((performance.now() - t0) / 10) / 100;

const SIZES = [
  "--schools",
  String(args.schools),
  "--students",
  String(args.students),
  "--teachers",
  String(args.teachers),
  "--works",
  String(args.works),
];

/** The SQLite working copy: the bench:pages cache (seeded when missing) copied to /tmp. */
async function sqliteCopy(): Promise<{ url: string; drop: () => Promise<void> }> {
  const cache = String(
    args.data ?? join(tmpdir(), `saiwu-bench-pages-${args.schools}-${args.students}-${args.teachers}-${args.works}`),
  );
  if (!existsSync(join(cache, DONE_MARK))) {
    log(`生成大数据集（${SIZES.join(" ")}）到 ${cache}（bench:pages 的数据集）…`);
    const t0 = performance.now();
    rmSync(cache, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [...process.execArgv, join(ROOT_DIR, "bench/pages.bench.ts"), "--seed-only", cache, ...SIZES],
      { stdio: "inherit" },
    );
    log(`大数据集生成完毕：${secs(t0)} s`);
  } else log(`使用已缓存的大数据集：${cache}`);
  const work = mkdtempSync(join(tmpdir(), "saiwu-bench-digest-"));
  copyFileSync(join(cache, DB_FILE), join(work, DB_FILE));
  return { url: `file:${join(work, DB_FILE)}`, drop: async () => rmSync(work, { recursive: true, force: true }) };
}

/** One statement on the server of TEST_DATABASE_URL (maintenance connection to its database). */
async function pgRun<T = unknown>(base: string, statement: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return (await c.query(statement, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** The PostgreSQL working copy: a copy (TEMPLATE) of the cached seeded database, seeded when missing. */
async function pgCopy(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("--db pg needs TEST_DATABASE_URL");
  const urlOf = (name: string) => {
    const u = new URL(base);
    u.pathname = `/${name}`;
    return u.toString();
  };
  const cache = `saiwu_bench_digest_${args.schools}_${args.students}_${args.teachers}_${args.works}`;
  const [mark] = await pgRun<{ c: string | null }>(
    base,
    "SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1",
    [cache],
  );
  if (mark?.c !== DONE_MARK) {
    log(`生成大数据集（${SIZES.join(" ")}）到 PostgreSQL 数据库 ${cache} …`);
    const t0 = performance.now();
    await pgRun(base, `DROP DATABASE IF EXISTS ${cache} WITH (FORCE)`);
    await pgRun(base, `CREATE DATABASE ${cache}`);
    const { db } = openDb(urlOf(cache));
    await migrate(db);
    await seedDemo(db);
    await db.destroy();
    execFileSync(process.execPath, [...process.execArgv, join(ROOT_DIR, "src/server/seed/cli.ts"), ...SIZES], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DATABASE_URL: urlOf(cache) },
    });
    await pgRun(urlOf(cache), "VACUUM ANALYZE");
    await pgRun(base, `COMMENT ON DATABASE ${cache} IS '${DONE_MARK}'`);
    log(`大数据集生成完毕：${secs(t0)} s`);
  } else log(`使用已缓存的大数据集：PostgreSQL 数据库 ${cache}`);
  const work = `saiwu_bench_digest_run_${process.pid}`;
  await pgRun(base, `DROP DATABASE IF EXISTS ${work} WITH (FORCE)`);
  await pgRun(base, `CREATE DATABASE ${work} TEMPLATE ${cache}`);
  await pgRun(urlOf(work), "ANALYZE");
  return { url: urlOf(work), drop: () => pgRun(base, `DROP DATABASE IF EXISTS ${work} WITH (FORCE)`).then(() => undefined) };
}

async function main() {
  const pgBench = args.db === "pg";
  const copy = pgBench ? await pgCopy() : await sqliteCopy();
  try {
    const { db } = openDb(copy.url);
    log(`数据库：${pgBench ? "PostgreSQL" : "SQLite"}（${copy.url}）`);
    await migrate(db);
    const policy = await loadPolicy();
    const batch = Number(args.batch);
    const counting = {
      mails: 0,
      async send() {
        this.mails++;
      },
      describe: () => "counting",
    };

    const eligible = (await db
      .selectFrom("app_user")
      .selectAll()
      .where("todo_digest", "=", 1)
      .where("locked", "=", 0)
      .where("archived", "=", 0)
      .where("email", "is not", null)
      .orderBy("id")
      .execute()) as User[];
    log(
      `${eligible.length} 个收邮件的用户（共 ${Number(
        (
          await db
            .selectFrom("app_user")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      )} 个账号）`,
    );

    await db.deleteFrom("todo_digest_state").execute();
    let t0 = performance.now();
    expect0(await sendDigests(db, policy, counting, "http://bench", new Date(), { batch }));
    const recordSeconds = secs(t0);
    const withItems = Number(
      (
        await db
          .selectFrom("todo_digest_state")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    log(`首次运行（只记录）：${recordSeconds} s，${withItems} 个用户有待办`);

    // The worst day: everyone's items are new (one placeholder row: not a first run).
    const keep = await db.selectFrom("todo_digest_state").select("user_id").orderBy("user_id").limit(1).executeTakeFirstOrThrow();
    await db.deleteFrom("todo_digest_state").where("user_id", "!=", keep.user_id).execute();
    await db.updateTable("todo_digest_state").set({ seen: "{}" }).execute();
    t0 = performance.now();
    const mails = await sendDigests(db, policy, counting, "http://bench", new Date(), { batch });
    const seconds = secs(t0);
    log(`每日待办邮件：${eligible.length} 个用户 ${seconds} s，${mails} 封邮件（每批 ${batch} 人）`);

    // The baseline on a sample: spread over the ids, plus users with items (up to a third).
    const n = Math.min(Number(args.sample), eligible.length);
    const holders = new Set((await db.selectFrom("todo_digest_state").select("user_id").execute()).map((r) => r.user_id));
    const sample = new Map<number, User>();
    const withI = eligible.filter((u) => holders.has(u.id));
    for (let i = 0; i < Math.floor(n / 3) && withI.length; i++)
      sample.set(
        withI[Math.floor((i * withI.length) / Math.floor(n / 3))].id,
        withI[Math.floor((i * withI.length) / Math.floor(n / 3))],
      );
    for (let i = 0; sample.size < n; i++) {
      const u = eligible[Math.floor((i * eligible.length) / n) % eligible.length];
      sample.set(u.id, u);
      if (i > 3 * n) break;
    }
    const users = [...sample.values()];
    const now = new Date();
    // Warm both paths once, then time them interleaved user by user.
    await oldTodoItems(db, policy, users[0], now);
    await todoItems(db, policy, users[0], now);
    // Three rounds, the order of the two paths alternating (the machine is shared: noise).
    let oldMs = 0;
    let newMs = 0;
    let mismatches = 0;
    const ROUNDS = 3;
    const strip = (l: Awaited<ReturnType<typeof todoItems>>) => JSON.stringify(l.filter((i) => i.kind !== "defence"));
    for (let round = 0; round < ROUNDS; round++) {
      for (const u of users) {
        const timeOld = async () => {
          const t = performance.now();
          const r = await oldTodoItems(db, policy, u, now);
          oldMs += performance.now() - t;
          return r;
        };
        const timeNew = async () => {
          const t = performance.now();
          const r = await todoItems(db, policy, u, now);
          newMs += performance.now() - t;
          return r;
        };
        let before, after;
        if (round % 2) {
          before = await timeOld();
          after = await timeNew();
        } else {
          after = await timeNew();
          before = await timeOld();
        }
        if (round === 0 && strip(before) !== strip(after)) mismatches++;
      }
    }
    oldMs /= ROUNDS;
    newMs /= ROUNDS;
    const perUserMsBefore = Math.round((oldMs / users.length) * 100) / 100;
    const perUserMsEndpoint = Math.round((newMs / users.length) * 100) / 100;
    const perUserMsAfter = Math.round(((seconds * 1000) / eligible.length) * 100) / 100;
    log(
      `样本 ${users.length} 人：旧的逐人计算 ${perUserMsBefore} ms/人，新的单人接口 ${perUserMsEndpoint} ms/人；批量摘要 ${perUserMsAfter} ms/人；不一致 ${mismatches}`,
    );
    log(
      `负载：${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
    await db.destroy();
    console.log(
      JSON.stringify({
        users: eligible.length,
        usersWithItems: withItems,
        seconds,
        recordSeconds,
        mails,
        batch,
        perUserMsAfter,
        perUserMsBefore,
        perUserMsEndpoint,
        sample: users.length,
        projectedSecondsBefore: Math.round((perUserMsBefore * eligible.length) / 1000),
        sampleMismatches: mismatches,
        load: Number(loadavg()[0].toFixed(2)),
        db: pgBench ? "postgres" : "sqlite",
      }),
    );
  } finally {
    await copy.drop();
  }
}

function expect0(n: number) {
  if (n !== 0) throw new Error(`首次运行不应发送邮件，却发送了 ${n} 封`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
