/**
 * `npm run bench:startup`: how fast the server starts and how much memory it holds, compiled
 * (`node dist/server/main.js`, what `npm start` runs) against the development way (`node
 * --import tsx src/server/main.ts`) as the baseline, in turn in the same run.
 *
 * - coldStartMs: a start on a new empty SQLite database (migrations, no demo data) until
 *   /readyz answers 200.
 * - warmStartMs: a restart on the migrated demo database until /readyz answers 200.
 * - idleRssMB: the process's resident memory 3 s after that start, with no request.
 * - rssAfterLoadMB: its resident memory after 10,000 mixed API requests (visitors' public
 *   pages, root's and a school admin's lists, the works list, the user centre), 8 at a time.
 * Each figure is the median of ROUNDS interleaved runs. Ends with one JSON line:
 * {"coldStartMs","warmStartMs","idleRssMB","rssAfterLoadMB","tsxIdleRssMB","tsxWarmStartMs"}.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer, ROOT, SERVER_OUT } from "../scripts/build.mjs";
import { procStatusMB, startNodeOptions, startServerChild } from "./server";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const REQUESTS = Number(process.env.REQUESTS ?? 10_000);
const CONCURRENCY = 8;

type Way = "compiled" | "tsx";
/** The compiled way runs as `npm start` does (its node options included); tsx as `npm run dev:server`. */
const command = (way: Way): string[] =>
  way === "compiled"
    ? [...startNodeOptions(), join(SERVER_OUT, "main.js")]
    : ["--import", "tsx", join(ROOT, "src/server/main.ts")];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rssMB = (pid: number) => procStatusMB(pid, "VmRSS");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the server `way` on `dataDir` and waits for /readyz (200). */
const start = (way: Way, dataDir: string, env: Record<string, string> = {}) =>
  startServerChild(command(way), { DATA_DIR: dataDir, DIST_DIR: join(dataDir, "no-dist"), LOGIN_RATE_MAX: "100000", ...env });

/** Logs in and returns the session cookie. */
async function login(base: string, username: string, page: "admin" | "student" | "teacher"): Promise<string> {
  const r = await fetch(`${base}/Backend/Common/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ username, password: "Demo@2026", page }),
  });
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${await r.text()}`);
  return r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** REQUESTS mixed GETs, CONCURRENCY at a time; every answer must be 200. */
async function load(base: string) {
  const root = await login(base, "root", "admin");
  const school = await login(base, "school_admin", "admin");
  const student = await login(base, "student", "student");
  const mix: [string, string | null][] = [
    ["/Backend/Public/mainpage/home", null],
    ["/Backend/Public/mainpage/news?current=1&pageSize=10", null],
    ["/Backend/Common/user/get-current", root],
    ["/Backend/Admin/user?current=1&pageSize=20", root],
    ["/Backend/Admin/school?current=1&pageSize=20", root],
    ["/Backend/Admin/work?current=1&pageSize=20", root],
    ["/Backend/School/work?current=1&pageSize=20", school],
    ["/Backend/UserCenter/todo", student],
    ["/Backend/Work/work/mine", student],
  ];
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < REQUESTS) {
      const [path, cookie] = mix[next++ % mix.length];
      const r = await fetch(base + path, { headers: cookie ? { cookie } : {} });
      await r.arrayBuffer();
      if (r.status !== 200 && failures.length < 5) failures.push(`${path}: ${r.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (failures.length) throw new Error(`requests failed: ${failures.join(", ")}`);
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "saiwu-bench-startup-"));
  try {
    console.log("编译服务器…");
    console.log(`  ${await buildServer()} ms`);
    // The demo database the warm starts and the load use (written once, not measured).
    const demo = join(work, "demo");
    await (await start("compiled", demo)).stop();

    const figures: Record<Way, { cold: number[]; warm: number[]; idle: number[]; loaded: number[] }> = {
      compiled: { cold: [], warm: [], idle: [], loaded: [] },
      tsx: { cold: [], warm: [], idle: [], loaded: [] },
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const way of (round % 2 ? ["compiled", "tsx"] : ["tsx", "compiled"]) as Way[]) {
        const empty = join(work, `empty-${way}-${round}`);
        const cold = await start(way, empty, { SEED_DEMO: "0" });
        await cold.stop();
        rmSync(empty, { recursive: true, force: true });
        const warm = await start(way, demo);
        await sleep(3000);
        const idle = rssMB(warm.proc.pid!);
        await load(warm.base);
        const loaded = rssMB(warm.proc.pid!);
        await warm.stop();
        const f = figures[way];
        f.cold.push(cold.ms);
        f.warm.push(warm.ms);
        f.idle.push(idle);
        f.loaded.push(loaded);
        console.log(
          `第 ${round} 轮 ${way.padEnd(8)} 冷启动 ${cold.ms.toFixed(0)} ms  热启动 ${warm.ms.toFixed(0)} ms  空闲 ${idle.toFixed(0)} MB  ${REQUESTS} 次请求后 ${loaded.toFixed(0)} MB`,
        );
      }
    }
    const m = (way: Way, k: keyof (typeof figures)["compiled"]) => Math.round(median(figures[way][k]));
    console.log(
      JSON.stringify({
        coldStartMs: m("compiled", "cold"),
        warmStartMs: m("compiled", "warm"),
        idleRssMB: m("compiled", "idle"),
        rssAfterLoadMB: m("compiled", "loaded"),
        tsxIdleRssMB: m("tsx", "idle"),
        tsxWarmStartMs: m("tsx", "warm"),
      }),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
