/** What both queue drivers share: the worker's name, scheduled slots and their task_run log. */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Db } from "../db";

export const newWorkerId = () => `${process.pid}@${hostname()}/${randomUUID().slice(0, 8)}`;

/** The start of the `seconds`-long slot that `now` falls in, as an ISO string. */
export function slotOf(now: number, seconds: number): string {
  const ms = seconds * 1000;
  return new Date(Math.floor(now / ms) * ms).toISOString();
}

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

/** Runs one slot of a scheduled task, logged in task_run (its end, or its error, which is rethrown for a retry). */
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
