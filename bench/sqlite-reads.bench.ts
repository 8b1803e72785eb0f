/**
 * npm run bench:sqlite-reads — how long a public read waits while a big import writes, on a
 * fresh embedded SQLite database with the demo data. Reads the public news list
 * (GET /Backend/Public/news) over HTTP in a loop from another thread, one request at a time:
 * first with nothing else running (the baseline), then during the confirm of a 50,000-student
 * import (upload and dry run first, as an admin would), which writes all rows in one
 * transaction. Prints p50/p99/max of both; ends with one JSON line:
 * {"rows","readsDuringImport","p99msDuringImport","maxMsDuringImport","p99msIdle","importSeconds"}.
 * ROWS=<n> changes the row count; IDLE_SECONDS=<n> the length of the baseline (5 s).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { migrate, openDb } from "../src/server/db";
import { seedDemo } from "../src/server/seed/demo";
import { confirmImport, pollJob, uploadUsers, writeStudentsXlsx } from "./import-data";
import { log, rootHeaders, seconds } from "./works-data";

const ROWS = Number(process.env.ROWS ?? 50_000);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 5);
const URL = "/Backend/Public/news?current=1&pageSize=10";

const ms = (v: number) => Math.round(v * 10) / 10;
function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : 0);
  return { n: s.length, p50: ms(at(0.5)), p99: ms(at(0.99)), max: ms(s.at(-1) ?? 0) };
}

/**
 * A client on its own thread reading the news list over HTTP, one request at a time, while
 * running: a read's latency includes any time the server's event loop was busy, as for a
 * browser's request (a loop of app.inject on the server's own thread would not count it).
 */
const CLIENT = `
const { parentPort, workerData } = require("node:worker_threads");
let running = false;
parentPort.on("message", async (m) => {
  if (m !== "start") { running = false; return; }
  running = true;
  const out = [];
  while (running) {
    const t0 = performance.now();
    const r = await fetch(workerData.url);
    const body = await r.json();
    out.push(performance.now() - t0);
    if (r.status !== 200 || !body.data.list.length) { parentPort.postMessage({ error: r.status + " " + JSON.stringify(body) }); return; }
  }
  parentPort.postMessage({ samples: out });
});
`;

class Reader {
  #worker: Worker;
  constructor(url: string) {
    this.#worker = new Worker(CLIENT, { eval: true, workerData: { url } });
  }
  /** Starts reading; the returned function stops and gives each read's latency in ms. */
  start(): () => Promise<number[]> {
    const result = new Promise<number[]>((resolve, reject) =>
      this.#worker.once("message", (m: { samples?: number[]; error?: string }) =>
        m.samples ? resolve(m.samples) : reject(new Error(`news read failed: ${m.error}`)),
      ),
    );
    this.#worker.postMessage("start");
    return () => {
      this.#worker.postMessage("stop");
      return result;
    };
  }
  close() {
    return this.#worker.terminate();
  }
}

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

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
    let t0 = performance.now();
    const upload = await writeStudentsXlsx(db, join(dir, "students.xlsx"), ROWS);
    log(`生成 ${ROWS} 行 .xlsx：${seconds(t0)} s`);

    const app = await buildApp({ db, dialect: "sqlite", config, logger: false });
    await app.ready();
    const headers = await rootHeaders(app);

    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const reader = new Reader(`${address}${URL}`);
    let stop = reader.start(); // warm-up
    await sleep(500);
    await stop();
    stop = reader.start();
    await sleep(IDLE_SECONDS * 1000);
    const idle = stats(await stop());
    log(`空闲时读新闻列表：${idle.n} 次，p50 ${idle.p50} ms，p99 ${idle.p99} ms，最长 ${idle.max} ms`);

    t0 = performance.now();
    const jobId = await uploadUsers(app, headers, upload);
    const dry = await pollJob(app, headers, jobId);
    if (dry.status !== "ready" || dry.result.errors.length) throw new Error(`dry run failed: ${dry.message}`);
    log(`试运行：${seconds(t0)} s，${dry.message}`);

    t0 = performance.now();
    stop = reader.start();
    await confirmImport(app, headers, jobId);
    const done = await pollJob(app, headers, jobId);
    const importSeconds = seconds(t0);
    const during = stats(await stop());
    await reader.close();
    if (done.status !== "done") throw new Error(`import failed: ${done.message}`);
    log(`确认导入：${importSeconds} s，${done.message}`);
    log(`导入期间读新闻列表：${during.n} 次，p50 ${during.p50} ms，p99 ${during.p99} ms，最长 ${during.max} ms`);

    const imported = await db
      .selectFrom("app_user")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("username", "like", "s2026%")
      .executeTakeFirstOrThrow();
    if (Number(imported.n) !== ROWS) throw new Error(`expected ${ROWS} users, found ${imported.n}`);

    await app.close();
    await db.destroy();
    console.log(
      JSON.stringify({
        rows: ROWS,
        readsDuringImport: during.n,
        p50msDuringImport: during.p50,
        p99msDuringImport: during.p99,
        maxMsDuringImport: during.max,
        p50msIdle: idle.p50,
        p99msIdle: idle.p99,
        importSeconds,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
