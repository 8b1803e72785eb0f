/**
 * The task queue on PostgreSQL: pg-boss 10 (the last release for Node 20). Every process
 * polls; a task sent by a process is also announced to its own workers at once. Scheduled
 * work uses pg-boss's throttling: each process sends the task of the current slot with a
 * singleton key, the unique index lets only the first one in, so a slot runs once.
 */
import PgBoss from "pg-boss";
import { sql } from "kysely";
import type { Config } from "../config";
import type { Db } from "../db";
import { newWorkerId, runScheduled, tickEvery, type TaskHandler, type TaskQueue } from "./queue";

const POLL_SECONDS = 0.5;

export class PgBossQueue implements TaskQueue {
  readonly workerId = newWorkerId();
  readonly dialect = "postgres" as const;
  readonly #workers: string[] = [];
  readonly #created = new Set<string>();
  readonly #timers: NodeJS.Timeout[] = [];
  #stopped = false;

  private constructor(private readonly db: Db, private readonly boss: PgBoss, private readonly config: Config, private readonly log: (msg: string, err?: unknown) => void) {}

  static async start(db: Db, config: Config, log: (msg: string, err?: unknown) => void): Promise<PgBossQueue> {
    const lease = config.jobs.leaseSeconds;
    const boss = new PgBoss({
      connectionString: config.databaseUrl,
      max: 4,
      application_name: "saiwu-queue",
      schedule: false,
      // A task whose process died is handed out again after its expiry; the job row's own
      // lease (jobs.ts) usually notices first. Throttle slots may be as long as a day.
      archiveCompletedAfterSeconds: Math.max(2 * config.jobs.cleanupSeconds, 3600),
      maintenanceIntervalSeconds: Math.max(1, Math.min(120, Math.round(lease))),
    });
    boss.on("error", (err) => log("任务队列出错", err));
    await boss.start();
    return new PgBossQueue(db, boss, config, log);
  }

  /**
   * Creates a queue once. pg-boss's create_queue is not safe against itself (two processes
   * starting together deadlock attaching the partition), so creations are serialised by an
   * advisory lock in one transaction.
   */
  async #queue(name: string) {
    if (this.#created.has(name)) return;
    const options = { policy: "standard", retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: Math.max(60, Math.round(this.config.jobs.leaseSeconds * 2)) };
    await this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('saiwu:pgboss:create_queue'))`.execute(trx);
      await sql`select pgboss.create_queue(${name}, ${JSON.stringify(options)}::json)`.execute(trx);
    });
    this.#created.add(name);
  }

  async work(name: string, handler: TaskHandler, opts: { concurrency?: number } = {}) {
    await this.#queue(name);
    for (let i = 0; i < (opts.concurrency ?? 1); i++) {
      this.#workers.push(
        await this.boss.work<Record<string, unknown>>(name, { pollingIntervalSeconds: POLL_SECONDS }, async ([task]) => {
          await handler(task.data);
        }),
      );
    }
  }

  async send(name: string, data: Record<string, unknown>) {
    await this.#queue(name);
    await this.boss.send(name, data);
    for (const w of this.#workers) this.boss.notifyWorker(w);
  }

  async every(name: string, seconds: number, handler: () => Promise<void>) {
    await this.#queue(name);
    this.#workers.push(
      await this.boss.work(name, { pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true }, async ([task]) => {
        // The slot is pg-boss's throttle slot: one task per slot and key.
        await runScheduled(this.db, name, (task.singletonOn ?? task.createdOn).toISOString(), this.workerId, handler);
      }),
    );
    // One task per slot and key across all processes (pg-boss's throttle index).
    await tickEvery(seconds, this.#timers, () => this.#stopped, async () => void (await this.boss.send(name, {}, { singletonKey: name, singletonSeconds: seconds })), this.log, name);
  }

  async stop() {
    this.#stopped = true;
    for (const t of this.#timers) clearInterval(t);
    await this.boss.stop({ graceful: true, wait: true, timeout: 3000, close: true });
  }
}
