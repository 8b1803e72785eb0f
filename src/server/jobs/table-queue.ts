/**
 * The task queue on the embedded SQLite: rows of queue_task, claimed by this process's
 * worker loop (one conditional UPDATE per claim, so two instances on one file never take
 * the same row). A claim is a lease: a task whose holder is gone (a restart) is taken
 * again once its lease ends. Scheduled work claims its slot in schedule_slot the same way.
 */
import type { Config } from "../config";
import type { Db } from "../db";
import { newWorkerId, runScheduled, slotOf, tickEvery } from "./schedule";
import type { TaskHandler, TaskQueue } from "./types";

const POLL_MS = 250;
const MAX_ATTEMPTS = 3;

export class TableQueue implements TaskQueue {
  readonly workerId = newWorkerId();
  readonly dialect = "sqlite" as const;
  readonly #handlers = new Map<string, { handler: TaskHandler; concurrency: number; running: number }>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #running = new Set<Promise<void>>();
  #stopped = false;
  #polling = false;
  #again = false;

  private constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {}

  static async start(db: Db, config: Config, log: (msg: string, err?: unknown) => void): Promise<TableQueue> {
    const q = new TableQueue(db, config, log);
    const t = setInterval(() => q.poke(), POLL_MS);
    t.unref();
    q.#timers.push(t);
    return q;
  }

  get #leaseMs() {
    return this.config.jobs.leaseSeconds * 1000;
  }

  async work(name: string, handler: TaskHandler, opts: { concurrency?: number } = {}) {
    this.#handlers.set(name, { handler, concurrency: opts.concurrency ?? 1, running: 0 });
    this.poke();
  }

  async send(name: string, data: Record<string, unknown>) {
    const now = new Date().toISOString();
    await this.db
      .insertInto("queue_task")
      .values({ name, data: JSON.stringify(data), state: "queued", max_attempts: MAX_ATTEMPTS, run_after: now, created_at: now })
      .execute();
    this.poke();
  }

  /** Looks for due tasks now (also every POLL_MS). */
  poke() {
    if (this.#stopped) return;
    if (this.#polling) {
      this.#again = true;
      return;
    }
    this.#polling = true;
    void this.#poll()
      .catch((err) => this.log("任务队列读取失败", err))
      .finally(() => {
        this.#polling = false;
        if (this.#again) {
          this.#again = false;
          this.poke();
        }
      });
  }

  async #poll() {
    for (;;) {
      const free = [...this.#handlers].filter(([, h]) => h.running < h.concurrency).map(([n]) => n);
      if (!free.length || this.#stopped) return;
      const task = await this.#claim(free);
      if (!task) return;
      const h = this.#handlers.get(task.name)!;
      h.running++;
      const run = this.#run(task, h.handler).finally(() => {
        h.running--;
        this.#running.delete(run);
        this.poke();
      });
      this.#running.add(run);
    }
  }

  async #claim(names: string[]) {
    const now = new Date();
    const iso = now.toISOString();
    const due = await this.db
      .selectFrom("queue_task")
      .select(["id", "state", "locked_until"])
      .where("name", "in", names)
      .where((eb) =>
        eb.or([
          eb.and([eb("state", "=", "queued"), eb("run_after", "<=", iso)]),
          eb.and([eb("state", "=", "active"), eb("locked_until", "<", iso)]),
        ]),
      )
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
    if (!due) return undefined;
    // Taken only if nobody took it meanwhile (same state and lease as read).
    const claimed = await this.db
      .updateTable("queue_task")
      .set((eb) => ({
        state: "active",
        locked_by: this.workerId,
        locked_until: new Date(now.getTime() + this.#leaseMs).toISOString(),
        attempts: eb("attempts", "+", 1),
      }))
      .where("id", "=", due.id)
      .where("state", "=", due.state)
      .where((eb) => (due.locked_until === null ? eb("locked_until", "is", null) : eb("locked_until", "=", due.locked_until)))
      .returningAll()
      .executeTakeFirst();
    return claimed;
  }

  async #run(task: { id: number; name: string; data: string; attempts: number; max_attempts: number }, handler: TaskHandler) {
    // Keeps the lease while the handler runs (a write waits while an import holds the connection; that is fine, one process).
    let beating = false;
    const beat = setInterval(() => {
      if (beating) return;
      beating = true;
      void this.db
        .updateTable("queue_task")
        .set({ locked_until: new Date(Date.now() + this.#leaseMs).toISOString() })
        .where("id", "=", task.id)
        .where("locked_by", "=", this.workerId)
        .execute()
        .catch(() => {})
        .finally(() => (beating = false));
    }, this.#leaseMs / 3);
    beat.unref();
    try {
      await handler(JSON.parse(task.data));
      await this.db.deleteFrom("queue_task").where("id", "=", task.id).where("locked_by", "=", this.workerId).execute();
    } catch (err) {
      this.log(`任务 ${task.name} 失败（第 ${task.attempts} 次）`, err);
      const last = task.attempts >= task.max_attempts;
      await this.db
        .updateTable("queue_task")
        .set({
          state: last ? "failed" : "queued",
          locked_by: null,
          locked_until: null,
          run_after: new Date(Date.now() + 1000 * task.attempts).toISOString(),
          last_error: String(err instanceof Error ? err.message : err).slice(0, 2000),
        })
        .where("id", "=", task.id)
        .where("locked_by", "=", this.workerId)
        .execute()
        .catch((e) => this.log("任务状态写入失败", e));
    } finally {
      clearInterval(beat);
    }
  }

  async every(name: string, seconds: number, handler: () => Promise<void>) {
    await this.work(name, async (data) => runScheduled(this.db, name, String(data.slot), this.workerId, handler));
    await tickEvery(
      seconds,
      this.#timers,
      () => this.#stopped,
      async () => {
        const slot = await this.claimSlot(name, seconds);
        if (slot) await this.send(name, { slot });
      },
      this.log,
      name,
    );
  }

  /** Claims the current slot of a scheduled task: the slot for exactly one caller per slot, else null. */
  async claimSlot(name: string, seconds: number): Promise<string | null> {
    const slot = slotOf(Date.now(), seconds);
    await this.db
      .insertInto("schedule_slot")
      .values({ name, slot: "", ran_by: null })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const r = await this.db
      .updateTable("schedule_slot")
      .set({ slot, ran_by: this.workerId })
      .where("name", "=", name)
      .where("slot", "<", slot)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? slot : null;
  }

  async stop() {
    this.#stopped = true;
    for (const t of this.#timers) clearInterval(t);
    // Running handlers finish (or the lease hands their tasks to the next start).
    await Promise.race([Promise.allSettled([...this.#running]), new Promise((r) => setTimeout(r, 3000).unref())]);
  }
}
