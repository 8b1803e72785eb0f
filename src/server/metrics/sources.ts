/**
 * What the metrics read from the database when scraped, one aggregate query each:
 * - background jobs, the user-visible rows of the job table (jobs/user-jobs.ts) by kind and state;
 * - queue tasks by queue and state: queue_task on the embedded SQLite (jobs/table-queue.ts),
 *   pg-boss's pgboss.job on PostgreSQL. pg-boss owns that table and changes it between major
 *   versions, so only its long-standing `name` and `state` columns are read and the state is
 *   compared as text: a schema we do not know fails this one read, not the scrape.
 * Each read is bounded in time, so a database that hangs still lets the scrape answer.
 */
import { sql } from "kysely";
import type { Db, Dialect } from "../db";
import type { JobKind } from "../jobs/user-jobs";

export const JOB_KINDS: readonly JobKind[] = ["import", "export", "task"];

/**
 * queued: waiting for a process to take it (running or applying, no holder); running: held
 * by a process; ready: a dry run waiting for the user to confirm; failed: ended failed and
 * not yet cleaned up (JOB_RETENTION_DAYS).
 */
export const JOB_STATES = ["queued", "running", "ready", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export const QUEUE_STATES = ["queued", "active", "failed"] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export interface JobCount {
  kind: string;
  state: JobState;
  n: number;
}
export interface QueueCount {
  queue: string;
  state: QueueState;
  n: number;
}

/** Background jobs by kind and state; every known kind and state is present (0 when none). */
export async function readJobCounts(db: Db): Promise<JobCount[]> {
  const { rows } = await sql<{ kind: string; status: string; unowned: number; n: number }>`
    select kind, status, case when owner is null then 1 else 0 end as unowned, count(*) as n
    from job
    where status in ('running', 'applying', 'ready', 'failed')
    group by kind, status, case when owner is null then 1 else 0 end`.execute(db);
  const counts = new Map<string, JobCount>();
  const add = (kind: string, state: JobState, n: number) => {
    const key = `${kind}\n${state}`;
    const c = counts.get(key);
    if (c) c.n += n;
    else counts.set(key, { kind, state, n });
  };
  for (const kind of JOB_KINDS) for (const state of JOB_STATES) add(kind, state, 0);
  for (const r of rows) {
    const state: JobState =
      r.status === "ready" || r.status === "failed" ? r.status : Number(r.unowned) === 1 ? "queued" : "running";
    add(r.kind, state, Number(r.n));
  }
  return [...counts.values()];
}

const PG_BOSS_STATE: Record<string, QueueState> = { created: "queued", retry: "queued", active: "active", failed: "failed" };

/** Queue tasks not yet done (and failed ones still kept) by queue name and state. */
export async function readQueueCounts(db: Db, dialect: Dialect): Promise<QueueCount[]> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ name: string; state: string; n: number }>`
      select name, state::text as state, count(*) as n
      from pgboss.job
      where state::text in ('created', 'retry', 'active', 'failed')
      group by name, state`.execute(db);
    const counts = new Map<string, QueueCount>();
    for (const r of rows) {
      const state = PG_BOSS_STATE[r.state];
      if (!state) continue;
      const key = `${r.name}\n${state}`;
      const c = counts.get(key);
      if (c) c.n += Number(r.n);
      else counts.set(key, { queue: r.name, state, n: Number(r.n) });
    }
    return [...counts.values()];
  }
  const { rows } = await sql<{ name: string; state: string; n: number }>`
    select name, state, count(*) as n from queue_task group by name, state`.execute(db);
  return rows
    .filter((r): r is typeof r & { state: QueueState } => (QUEUE_STATES as readonly string[]).includes(r.state))
    .map((r) => ({ queue: r.name, state: r.state, n: Number(r.n) }));
}

/** `p`, or a rejection once `ms` have passed (the work itself goes on; its result is dropped). */
export function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
