/**
 * The task queue on PostgreSQL: pg-boss 12 (Node 22.12 or later). Every process polls; a
 * task sent by a process is also announced to its own workers at once. Scheduled work uses
 * pg-boss's throttling: each process sends the task of the current slot with a singleton
 * key, the unique index lets only the first one in, so a slot runs once.
 */
import { PgBoss, type QueueOptions, type QueueResult } from "pg-boss";
import { sql } from "kysely";
import type { Config } from "../config";
import type { Db } from "../db";
import { newWorkerId, runScheduled, slotOf, tickEvery } from "./schedule";
import type { TaskHandler, TaskQueue } from "./types";

const POLL_SECONDS = 0.5;
/** The oldest pg-boss schema version pg-boss 12 migrates from (pg-boss 11's); pg-boss 10 left 24. */
const OLDEST_MIGRATABLE = 25;

export class PgBossQueue implements TaskQueue {
  readonly workerId = newWorkerId();
  readonly dialect = "postgres" as const;
  /** This process's workers by queue, for waking them on a send. */
  readonly #workers = new Map<string, string[]>();
  readonly #queues = new Map<string, Promise<void>>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #settings: QueueOptions;
  #stopped = false;

  private constructor(
    private readonly db: Db,
    private readonly boss: PgBoss,
    config: Config,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {
    this.#settings = {
      retryLimit: 3,
      retryDelay: 1,
      retryBackoff: false,
      // A task whose process died is handed out again after its expiry; the job row's own
      // lease (jobs.ts) usually notices first.
      expireInSeconds: Math.min(86400, Math.max(60, Math.round(config.jobs.leaseSeconds * 2))),
      // Completed and failed tasks are deleted after this (pg-boss 10 archived them); a
      // scheduled task's row must outlive its throttle slot, see every().
      deleteAfterSeconds: Math.max(2 * config.jobs.cleanupSeconds, 3600),
    };
  }

  static async start(db: Db, config: Config, log: (msg: string, err?: unknown) => void): Promise<PgBossQueue> {
    await upgradeOldQueueSchema(db, (m) => log(m));
    // Expiry is checked by the monitor pass and deletion by the maintenance pass, both run from
    // the supervisor: all as often as pg-boss 10's maintenance ran (about once per lease).
    const interval = Math.max(1, Math.min(120, Math.round(config.jobs.leaseSeconds)));
    const boss = new PgBoss({
      connectionString: config.databaseUrl,
      max: 4,
      application_name: "saiwu-queue",
      schedule: false,
      superviseIntervalSeconds: interval,
      monitorIntervalSeconds: interval,
      maintenanceIntervalSeconds: interval,
    });
    boss.on("error", (err) => log("任务队列出错", err));
    await boss.start();
    return new PgBossQueue(db, boss, config, log);
  }

  /**
   * Creates a queue once per process, or brings an existing one to the current settings.
   * pg-boss 12's createQueue is safe against itself (an advisory lock of its own around an
   * insert that ignores a queue already there, and no partition to attach), so two processes
   * starting together may both create.
   */
  #queue(name: string): Promise<void> {
    let ready = this.#queues.get(name);
    if (!ready) {
      ready = (async () => {
        const existing = await this.boss.getQueue(name);
        if (!existing) await this.boss.createQueue(name, { policy: "standard", ...this.#settings });
        else if (differs(existing, this.#settings)) await this.boss.updateQueue(name, this.#settings);
      })();
      this.#queues.set(name, ready);
      ready.catch(() => this.#queues.delete(name));
    }
    return ready;
  }

  #addWorker(name: string, id: string) {
    const ids = this.#workers.get(name) ?? [];
    ids.push(id);
    this.#workers.set(name, ids);
  }

  async work(name: string, handler: TaskHandler, opts: { concurrency?: number } = {}) {
    await this.#queue(name);
    // One work() per concurrent worker rather than localConcurrency, so send() can wake each.
    for (let i = 0; i < (opts.concurrency ?? 1); i++) {
      this.#addWorker(
        name,
        await this.boss.work<Record<string, unknown>>(name, { pollingIntervalSeconds: POLL_SECONDS }, async ([task]) => {
          await handler(task!.data);
        }),
      );
    }
  }

  async send(name: string, data: Record<string, unknown>) {
    await this.#queue(name);
    await this.boss.send(name, data);
    for (const w of this.#workers.get(name) ?? []) this.boss.notifyWorker(w);
  }

  async every(name: string, seconds: number, handler: () => Promise<void>) {
    await this.#queue(name);
    this.#addWorker(
      name,
      await this.boss.work(name, { pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true }, async ([task]) => {
        // The slot is pg-boss's throttle slot, which it computes from the same instant as
        // createdOn. Its singletonOn is a timestamp without time zone that node-postgres reads
        // in the process's zone, so the slot is taken from createdOn: one string for every
        // process, whatever its zone.
        await runScheduled(this.db, name, slotOf(task!.createdOn.getTime(), seconds), this.workerId, handler);
      }),
    );
    // One task per slot and key across all processes (pg-boss's throttle index). The index
    // only sees rows still in the table, so a slot's row is kept for two slots at least.
    const options = {
      singletonKey: name,
      singletonSeconds: seconds,
      deleteAfterSeconds: Math.max(this.#settings.deleteAfterSeconds!, 2 * seconds),
    };
    await tickEvery(
      seconds,
      this.#timers,
      () => this.#stopped,
      async () => void (await this.boss.send(name, {}, options)),
      this.log,
      name,
    );
  }

  async stop() {
    this.#stopped = true;
    for (const t of this.#timers) clearInterval(t);
    // Running handlers get 3 s; what is still running then is failed, to be retried.
    await this.boss.stop({ graceful: true, timeout: 3000, close: true });
  }
}

/** Whether a queue's stored settings differ from `want` (e.g. after JOB_LEASE_SECONDS changed). */
function differs(queue: QueueResult, want: QueueOptions): boolean {
  return (Object.keys(want) as (keyof QueueOptions)[]).some((k) => queue[k] !== want[k]);
}

/**
 * pg-boss 12 cannot migrate the schema pg-boss 10 left (version 24; no release migrates it to
 * 25), and its own error suggests an older release that does not exist. Stops the start with
 * the way out instead.
 */
/**
 * pg-boss 12 cannot migrate the schema pg-boss 10 left (version 24; no release migrates from
 * it). Its tables hold only queue state that the platform rebuilds (interrupted imports and
 * exports are queued again by the job sweep, scheduled tasks at their next slot), except
 * tasks not yet done — mostly mails waiting for a retry. So an old schema with no unfinished
 * task is dropped here, once (an advisory lock against other starting processes), for
 * pg-boss to create anew; one that still holds some stops the start with what to do.
 */
export async function upgradeOldQueueSchema(db: Db, log: (msg: string) => void = () => {}) {
  const table = await sql<{ present: boolean }>`select to_regclass('pgboss.version') is not null as present`.execute(db);
  if (!table.rows[0]?.present) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('saiwu:pgboss:upgrade'))`.execute(trx);
    const still = await sql<{ present: boolean }>`select to_regclass('pgboss.version') is not null as present`.execute(trx);
    if (!still.rows[0]?.present) return; // another process dropped it meanwhile
    const row = await sql<{ version: number }>`select version from pgboss.version`.execute(trx);
    const version = Number(row.rows[0]?.version);
    if (!(version < OLDEST_MIGRATABLE)) return;
    const open = await sql<{
      n: number;
    }>`select count(*)::int as n from pgboss.job where state::text in ('created', 'retry', 'active')`.execute(trx);
    const n = Number(open.rows[0]?.n ?? 0);
    if (n > 0) {
      throw new Error(
        `任务队列的 pgboss 模式由 pg-boss 10 建立（表结构版本 ${version}），pg-boss 12 不能原地升级，而其中还有 ${n} 个未完成的任务（主要是待重试的邮件）。` +
          "请先用旧版本运行到这些任务完成（或确认可以放弃它们后执行 DROP SCHEMA pgboss CASCADE），再启动新版本。",
      );
    }
    await sql`drop schema pgboss cascade`.execute(trx);
    log(`任务队列：已删除 pg-boss 10 的队列表（表结构版本 ${version}，没有未完成的任务），由 pg-boss 12 重新建立`);
  });
}
