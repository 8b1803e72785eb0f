/**
 * npm run bench:cluster — the platform as one and as two server processes on one
 * PostgreSQL database (needs TEST_DATABASE_URL: a fresh scratch database is made on its
 * server and dropped afterwards). Seeds the demo, 700 schools and WORKS generated works
 * (bench/works-data.ts) plus the scoring demo (its judges and their assigned works), starts
 * two real server processes (`src/server/main.ts`, as the test harness does) and measures:
 *
 * - list: the contest admin's filtered, sorted works list as in bench:api (autocannon,
 *   CONNECTIONS connections walking every page in two orders, a browser's headers), on
 *   process A alone, then with the connections split over A and B at the same time;
 * - write: judges saving drafts of their assigned works, one writer per (judge, work) pair,
 *   each sending the version its last save returned (so none conflicts), through A alone,
 *   then with the writers split over A and B; afterwards every chain of the contests' score
 *   logs must verify (one chain per judge: saves of different judges do not wait for each other);
 * - staleMs: STALE_TRIALS times, a session is logged in on A, used on B, logged out on A,
 *   and B is polled every 20 ms until it refuses the session — the longest wait. Without
 *   cross-process invalidation B's session cache keeps a session up to 60 s: a trial gives up
 *   after 65 s, and trials stop once they have taken STALE_BUDGET_S in all.
 *
 * The two processes, PostgreSQL and the load generator share this machine's cores, so two
 * processes do not double the figures on a 2-core machine. Ends with one JSON line
 * {"listRps1","listRps2","writeRps1","writeRps2","staleMsMax",…}.
 * WORKS=<n>, DURATION=<s>, CONNECTIONS=<n>, WRITERS=<n>, STALE_TRIALS=<n>, STALE_BUDGET_S=<s> change the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { openDb } from "../src/server/db";
import { verifyScoreLog } from "../src/server/judging/service/score-log-store";
import { seedScoringDemo } from "../src/server/seed/scoring-demo";
import { freePort, HttpClient, ServerProcess } from "../support/cluster";
import { createPgDatabase, log, seconds, seedWorksDb } from "./works-data";

const WORKS = Number(process.env.WORKS ?? 50_000);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const STALE_TRIALS = Number(process.env.STALE_TRIALS ?? 20);
/** At most this many (judge, work) writers (default: every unsubmitted pair of the scoring demo). */
const WRITERS = Number(process.env.WRITERS ?? Infinity);
const STALE_BUDGET_MS = Number(process.env.STALE_BUDGET_S ?? 180) * 1000;
const STALE_GIVE_UP_MS = 65_000;
/** A cheap route that needs a session: 401 once the session is refused. */
const WHO = "/Backend/Common/account/security";

const listPages = (total: number) => {
  const pages = Math.max(1, Math.ceil(total / 20));
  return ["-submittedAt", "name"].flatMap((sort) =>
    Array.from(
      { length: pages },
      (_, i) => `/Backend/Admin/work?status=submitted&status=school_approved&sort=${sort}&current=${i + 1}&pageSize=20`,
    ),
  );
};

const p99 = (xs: number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] : 0;

/** The works list with `connections` split evenly over `bases`, all at once; summed rps and the worst p99. */
async function listLoad(bases: string[], headers: Record<string, string>, paths: string[], duration: number) {
  const requests = paths.map((path) => ({ method: "GET" as const, path }));
  const runs = await Promise.all(
    bases.map((url) =>
      autocannon({ url, connections: Math.round(CONNECTIONS / bases.length), duration, headers, workers: 1, requests }),
    ),
  );
  for (const r of runs) if (r.non2xx || r.errors) throw new Error(`list load: ${r.non2xx} non-2xx replies, ${r.errors} errors`);
  return {
    rps: runs.reduce((s, r) => s + Math.round(r.requests.average), 0),
    p99ms: Math.max(...runs.map((r) => r.latency.p99)),
    timeouts: runs.reduce((s, r) => s + r.timeouts, 0),
  };
}

interface Writer {
  judge: string;
  contestId: number;
  workId: number;
  version: number;
}

/** Every writer saves drafts of its pair in a loop for `duration` s, through bases[i % n]; rps and p99. */
async function writeLoad(
  writers: Writer[],
  sessions: Map<string, HttpClient>,
  bases: string[],
  items: string[],
  duration: number,
) {
  const until = Date.now() + duration * 1000;
  const latencies: number[] = [];
  let k = 0;
  const t0 = performance.now();
  await Promise.all(
    writers.map(async (w, i) => {
      const c = sessions.get(w.judge)!.on(bases[i % bases.length]);
      while (Date.now() < until) {
        const n = k++;
        const body = {
          items: { [items[0]]: n % 20, [items[1]]: (n % 9) + 0.5 },
          deductions: [],
          comment: `压测草稿 ${n}`,
          version: w.version,
        };
        const s = performance.now();
        const r = await c.req("PUT", `/Backend/Judge/contest/${w.contestId}/work/${w.workId}/score`, body);
        latencies.push(performance.now() - s);
        if (r.status !== 200) throw new Error(`score write ${r.status}: ${r.body.info}`);
        w.version = r.body.data.version;
      }
    }),
  );
  return {
    rps: Math.round(latencies.length / ((performance.now() - t0) / 1000)),
    p99ms: Math.round(p99(latencies)),
    writes: latencies.length,
  };
}

/** Log in on A, use the session on B, log out on A, poll B until it refuses the session: the milliseconds (or null after STALE_GIVE_UP_MS). */
async function staleTrial(a: string, b: string): Promise<number | null> {
  const onA = new HttpClient(a);
  await onA.login("contest_admin");
  const onB = onA.on(b);
  for (let i = 0; i < 3; i++) if ((await onB.get(WHO)).status !== 200) throw new Error("the new session is not accepted on B");
  const out = await onA.post("/Backend/Common/account/logout");
  if (out.status !== 200) throw new Error(`logout failed: ${out.status} ${out.body.info}`);
  const start = performance.now();
  const stale = onA.on(a);
  stale.cookie = onB.cookie;
  if ((await stale.get(WHO)).status !== 401) throw new Error("A still accepts the session it ended");
  for (;;) {
    const r = await onB.get(WHO);
    if (r.status === 401) return Math.round(performance.now() - start);
    if (r.status !== 200) throw new Error(`B answered ${r.status}: ${r.body.info}`);
    if (performance.now() - start > STALE_GIVE_UP_MS) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main() {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || !/^postgres(ql)?:\/\//.test(base)) {
    console.error(
      "bench:cluster 需要 PostgreSQL：请设置 TEST_DATABASE_URL=postgres://用户@主机:端口/库（将在该服务器上新建并在结束后删除一个临时数据库）",
    );
    process.exit(2);
  }
  const { url, drop } = await createPgDatabase(base);
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-cluster-"));
  const procs: ServerProcess[] = [];
  try {
    const t0 = performance.now();
    const { db } = await seedWorksDb(url, WORKS);
    if (!(await seedScoringDemo(db))) throw new Error("the scoring demo could not be seeded");
    // The writers: every (judge, work) assignment whose score is not submitted, with its version.
    const writers: Writer[] = (
      await db
        .selectFrom("judge_assignment as a")
        .innerJoin("app_user as u", "u.id", "a.judge_id")
        .leftJoin("judge_score as s", "s.assignment_id", "a.id")
        .select(["u.username", "a.contest_id", "a.work_id", "s.version", "s.status"])
        .where("u.username", "in", ["judge", "judge2", "judge3"])
        .orderBy("a.id")
        .execute()
    )
      .filter((r) => r.status !== "submitted")
      .map((r) => ({ judge: r.username, contestId: Number(r.contest_id), workId: Number(r.work_id), version: r.version ?? 0 }))
      .slice(0, WRITERS);
    const cat = await db.selectFrom("work").select("category_id").where("id", "=", writers[0].workId).executeTakeFirstOrThrow();
    const items = (
      await db
        .selectFrom("rubric_item")
        .select("id")
        .where("category_id", "=", cat.category_id)
        .orderBy("sort")
        .orderBy("id")
        .execute()
    ).map((r) => String(r.id));
    await db.destroy();
    log(`数据就绪：${WORKS} 件作品，${writers.length} 个评委—作品评分对，${seconds(t0)} s`);

    const env = {
      DATABASE_URL: url,
      DATA_DIR: dir,
      SKIP_BUILD: "1",
      SEED_DEMO: "0",
      DIST_DIR: join(dir, "no-dist"),
      PUBLIC_URL: "http://localhost:8080",
      LOG_LEVEL: "warn",
      LOGIN_RATE_MAX: "100000",
    };
    for (let i = 0; i < 2; i++) procs.push(new ServerProcess(await freePort(), env));
    await Promise.all(procs.map((p) => p.start()));
    const [A, B] = procs.map((p) => p.url);
    log(`两个服务进程已启动：${A}，${B}`);

    // The contest admin's session (shared by both processes: sessions live in the database).
    const admin = new HttpClient(A);
    await admin.login("contest_admin");
    const headers = { cookie: admin.cookie, "accept-encoding": "gzip, deflate, br" };
    const probe = await admin.get(listPages(1)[0]);
    if (probe.body.error !== 0) throw new Error(`list failed: ${JSON.stringify(probe.body).slice(0, 300)}`);
    const paths = listPages(probe.body.data.total);
    log(`contest_admin 的列表共 ${probe.body.data.total} 件，${paths.length} 个不同页面`);
    // Warm-up on both processes: JIT, connections, every page once.
    for (const b of [A, B])
      for (const path of paths) if ((await fetch(b + path, { headers })).status !== 200) throw new Error(`${path} failed`);
    await listLoad([A, B], headers, paths, 2);

    const list1 = await listLoad([A], headers, paths, DURATION);
    log(`作品列表，1 个进程：${list1.rps} 次/秒，p99 ${list1.p99ms} ms`);
    const list2 = await listLoad([A, B], headers, paths, DURATION);
    log(`作品列表，2 个进程：${list2.rps} 次/秒，p99 ${list2.p99ms} ms`);

    const sessions = new Map<string, HttpClient>();
    for (const judge of new Set(writers.map((w) => w.judge))) {
      const c = new HttpClient(A);
      await c.login(judge);
      sessions.set(judge, c);
    }
    await writeLoad(writers, sessions, [A, B], items, 2);
    const write1 = await writeLoad(writers, sessions, [A], items, DURATION);
    log(`保存评分草稿（${writers.length} 位写入者），1 个进程：${write1.rps} 次/秒，p99 ${write1.p99ms} ms`);
    const write2 = await writeLoad(writers, sessions, [A, B], items, DURATION);
    log(`保存评分草稿（${writers.length} 位写入者），2 个进程：${write2.rps} 次/秒，p99 ${write2.p99ms} ms`);
    const check = openDb(url).db;
    try {
      for (const contestId of new Set(writers.map((w) => w.contestId))) {
        const r = await verifyScoreLog(check, contestId);
        if (!r.ok) throw new Error(`score log of contest ${contestId} broken: ${r.message}`);
        log(`评分日志（赛事 ${contestId}）校验通过：${r.count} 条记录，${r.chains} 条评分链`);
      }
    } finally {
      await check.destroy();
    }

    const stale: number[] = [];
    let gaveUp = false;
    const staleStart = performance.now();
    while (stale.length < STALE_TRIALS && performance.now() - staleStart < STALE_BUDGET_MS) {
      const ms = await staleTrial(A, B);
      if (ms === null) {
        gaveUp = true;
        stale.push(STALE_GIVE_UP_MS);
        log(`会话失效：第 ${stale.length} 次在 ${STALE_GIVE_UP_MS / 1000} 秒内进程 B 仍接受已退出的会话，放弃等待`);
        break;
      }
      stale.push(ms);
      log(`会话失效：第 ${stale.length} 次，进程 B 在 ${ms} ms 后拒绝`);
    }
    for (const p of procs) if (!p.alive) throw new Error(`a server process died:\n${p.output}`);

    console.log(
      JSON.stringify({
        listRps1: list1.rps,
        listRps2: list2.rps,
        writeRps1: write1.rps,
        writeRps2: write2.rps,
        staleMsMax: stale.length ? Math.max(...stale) : null,
        listP99ms1: list1.p99ms,
        listP99ms2: list2.p99ms,
        writeP99ms1: write1.p99ms,
        writeP99ms2: write2.p99ms,
        ...(list1.timeouts + list2.timeouts ? { listTimeouts: list1.timeouts + list2.timeouts } : {}),
        staleTrials: stale.length,
        staleGaveUp: gaveUp,
        works: WORKS,
        listPages: paths.length,
        writers: writers.length,
        cores: availableParallelism(),
      }),
    );
  } finally {
    await Promise.all(procs.map((p) => p.kill("SIGTERM")));
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
