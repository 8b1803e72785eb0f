/**
 * `npm run start:cluster -- --workers N [--port P]`: N server processes on one PostgreSQL
 * database, sharing one port through node:cluster (the primary accepts connections and
 * hands them to the workers in turn), so operators run one command and point their reverse
 * proxy or load balancer at one address. (The alternative, N `npm start` on ports
 * P..P+N-1 behind a proxy, works too and is what several machines do; see README.)
 *
 * The primary migrates once (`npm run start:cluster` has built what was stale before it), then forks the workers; it
 * serves nothing itself. A worker that dies is restarted after a backoff that doubles with
 * each quick death (0.5 s … 30 s), and the reason (exit code or signal) is logged.
 * SIGTERM/SIGINT stop every worker gracefully (in-flight requests finish), then the primary
 * exits; workers still running after their own shutdown deadline (SHUTDOWN_GRACE_SECONDS
 * and the rest of closing, serve.ts) and 5 s more are killed.
 *
 * SQLite is refused: an embedded database file is written by one process.
 */
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { loadConfig } from "./config";
import { isPostgresUrl, openDb } from "./db";
import { precompressFrontEnd, prepareDatabase, serve, shutdownDeadlineMs } from "./serve";

/** A worker that lived shorter than this died "quickly": its restart waits longer each time. */
const QUICK_DEATH_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

const USAGE = "用法：npm run start:cluster -- --workers <进程数> [--port <端口>]";

export function parseClusterArgs(argv: string[]): { workers: number; port?: number } {
  const { values } = parseArgs({ args: argv, options: { workers: { type: "string" }, port: { type: "string" } } });
  const int = (name: string, v: string, min: number, max: number) => {
    if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max)
      throw new Error(`${name} 应为 ${min} 到 ${max} 之间的整数：${v}`);
    return Number(v);
  };
  return {
    workers: values.workers === undefined ? availableParallelism() : int("--workers", values.workers, 1, 64),
    port: values.port === undefined ? undefined : int("--port", values.port, 1, 65535),
  };
}

/** The delay before restarting a worker after `quickDeaths` quick deaths in a row (1, 2, …). */
export const restartDelay = (quickDeaths: number) => Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.max(0, quickDeaths - 1));

async function primary() {
  let args: ReturnType<typeof parseClusterArgs>;
  try {
    args = parseClusterArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`参数错误：${(e as Error).message}。${USAGE}`);
    process.exit(2);
  }
  const env = { ...process.env, ...(args.port !== undefined ? { PORT: String(args.port) } : {}) };
  const config = loadConfig(env);
  if (!isPostgresUrl(config.databaseUrl)) {
    console.error(
      "多进程运行需要 PostgreSQL：请把 DATABASE_URL 设为 postgres://用户@主机:端口/库。" +
        `当前为内嵌 SQLite（${config.databaseUrl}），一个数据库文件只能由一个进程写入，请改用 npm start 单进程运行。`,
    );
    process.exit(2);
  }

  precompressFrontEnd(config);
  // Migrate once, here, before any worker starts (the workers never migrate).
  const opened = openDb(config.databaseUrl);
  try {
    await prepareDatabase(config, opened);
  } finally {
    await opened.db.destroy();
  }

  /** Per slot (0..N-1): its worker, when it started, and its quick deaths in a row. */
  const slots = Array.from({ length: args.workers }, () => ({
    worker: null as Worker | null,
    startedAt: 0,
    quickDeaths: 0,
    timer: null as NodeJS.Timeout | null,
  }));
  let stopping = false;
  let listening = 0;

  const fork = (i: number) => {
    const slot = slots[i];
    slot.timer = null;
    slot.startedAt = Date.now();
    const w = cluster.fork({ PORT: String(config.port), SAIWU_WORKER: String(i + 1) });
    slot.worker = w;
    w.once("listening", () => {
      if (listening >= args.workers) console.log(`工作进程 ${i + 1} 已重启（pid ${w.process.pid}）`);
      if (++listening === args.workers)
        console.log(`赛务平台已启动：${args.workers} 个进程共用 http://localhost:${config.port}  （API 文档：/Backend/docs）`);
    });
    w.once("exit", (code, signal) => {
      slot.worker = null;
      if (stopping) {
        if (slots.every((s) => !s.worker)) process.exit(0);
        return;
      }
      const lived = Date.now() - slot.startedAt;
      slot.quickDeaths = lived < QUICK_DEATH_MS ? slot.quickDeaths + 1 : 1;
      const delay = restartDelay(slot.quickDeaths);
      const why = signal ? `被信号 ${signal} 终止` : `退出码 ${code}`;
      console.error(
        `工作进程 ${i + 1}（pid ${w.process.pid}）运行 ${Math.round(lived / 1000)} 秒后意外退出（${why}），${(delay / 1000).toFixed(1)} 秒后重启`,
      );
      slot.timer = setTimeout(() => fork(i), delay);
    });
  };

  // A worker gets its own shutdown deadline (serve.ts) and a little more before it is killed.
  const stopTimeoutMs = shutdownDeadlineMs(config) + 5_000;
  const stop = (sig: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`收到 ${sig}，正在停止 ${slots.filter((s) => s.worker).length} 个工作进程…`);
    for (const s of slots) if (s.timer) clearTimeout(s.timer);
    if (slots.every((s) => !s.worker)) process.exit(0);
    for (const s of slots) s.worker?.process.kill("SIGTERM");
    setTimeout(() => {
      for (const s of slots) s.worker?.process.kill("SIGKILL");
      console.error(`工作进程 ${stopTimeoutMs / 1000} 秒内未停止，已强制结束`);
      process.exit(1);
    }, stopTimeoutMs).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  for (let i = 0; i < args.workers; i++) fork(i);
}

async function worker() {
  const config = loadConfig();
  await serve(config, openDb(config.databaseUrl));
}

(cluster.isPrimary ? primary() : worker()).catch((err) => {
  console.error(err);
  process.exit(1);
});
