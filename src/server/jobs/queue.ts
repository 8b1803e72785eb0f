/**
 * The task queue behind background work, one interface on both databases: on PostgreSQL
 * pg-boss (its tables in the `pgboss` schema, any process may take any task); on the
 * embedded SQLite a table (queue_task) claimed by one worker loop of the single process.
 *
 * A task is at-least-once: a handler may run again after a crash or an expired lease, so
 * handlers are idempotent (user-jobs.ts keeps the user-visible state in the job row and applies
 * an import and its `done` state in one transaction).
 */
import type { Config } from "../config";
import type { Db, Dialect } from "../db";
import type { TaskQueue } from "./types";

export type { TaskHandler, TaskQueue } from "./types";
export { newWorkerId, runScheduled, slotOf, tickEvery } from "./schedule";

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
