/**
 * The task queue behind background work, one interface on both databases: on PostgreSQL
 * pg-boss (its tables in the `pgboss` schema, any process may take any task); on the
 * embedded SQLite a table (queue_task) claimed by one worker loop of the single process.
 *
 * A task is at-least-once: a handler may run again after a crash or an expired lease, so
 * handlers are idempotent (jobs.ts keeps the user-visible state in the job row and applies
 * an import and its `done` state in one transaction).
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Config } from "../config";
import type { Db, Dialect } from "../db";

export type TaskHandler = (data: Record<string, unknown>) => Promise<void>;

export interface TaskQueue {
  /** This process's name as a worker: `<pid>@<host>/<random>`. */
  readonly workerId: string;
  readonly dialect: Dialect;
  /** Handles the tasks of `name` in this process, up to `concurrency` at a time. A thrown error retries the task (a few times). */
  work(name: string, handler: TaskHandler, opts?: { concurrency?: number }): Promise<void>;
  /** Queues a task for whichever process takes it first. */
  send(name: string, data: Record<string, unknown>): Promise<void>;
  /** Runs `handler` once every `seconds` across all processes (each slot once, whichever process claims it). */
  every(name: string, seconds: number, handler: () => Promise<void>): Promise<void>;
  /** Stops taking tasks; waits a little for running ones. */
  stop(): Promise<void>;
}

export const newWorkerId = () => `${process.pid}@${hostname()}/${randomUUID().slice(0, 8)}`;

/** The start of the `seconds`-long slot that `now` falls in, as an ISO string. */
export function slotOf(now: number, seconds: number): string {
  const ms = seconds * 1000;
  return new Date(Math.floor(now / ms) * ms).toISOString();
}

/** Runs one slot of a scheduled task, logged in task_run (its end, or its error, which is rethrown for a retry). */
/**
 * Enqueues a scheduled task's current slot now and then twice per slot (at most every
 * 30 s, so short slots in tests start soon after they begin); `enqueue` must be safe to
 * call many times per slot (each driver lets one enqueue per slot through). The timer is
 * added to `timers` for the driver's stop().
 */
export async function tickEvery(
  seconds: number,
  timers: NodeJS.Timeout[],
  stopped: () => boolean,
  enqueue: () => Promise<void>,
  log: (msg: string, err?: unknown) => void,
  name: string,
) {
  const tick = async () => {
    if (stopped()) return;
    try {
      await enqueue();
    } catch (err) {
      log(`定时任务 ${name} 排队失败`, err);
    }
  };
  await tick();
  const t = setInterval(() => void tick(), Math.min(seconds * 1000, 60_000) / 2);
  t.unref();
  timers.push(t);
}

export async function runScheduled(db: Db, name: string, slot: string, workerId: string, handler: () => Promise<void>) {
  const run = await db
    .insertInto("task_run")
    .values({ name, slot, ran_by: workerId, started_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  try {
    await handler();
    await db.updateTable("task_run").set({ finished_at: new Date().toISOString() }).where("id", "=", run.id).execute();
  } catch (err) {
    await db
      .updateTable("task_run")
      .set({ finished_at: new Date().toISOString(), error: String(err instanceof Error ? err.message : err).slice(0, 2000) })
      .where("id", "=", run.id)
      .execute();
    throw err;
  }
}

export async function startQueue(
  db: Db,
  dialect: Dialect,
  config: Config,
  log: (msg: string, err?: unknown) => void,
): Promise<TaskQueue> {
  if (dialect === "postgres") {
    const { PgBossQueue } = await import("./pg-queue");
    return PgBossQueue.start(db, config, log);
  }
  const { TableQueue } = await import("./table-queue");
  return TableQueue.start(db, config, log);
}
