/**
 * Background jobs for imports and exports, durable and cross-process. The user-visible
 * state is the job row; the work is a queue task (queue.ts) naming the row, taken
 * by whichever process polls first. Files (the upload, the dry run's plan, the export) are
 * blobs in the blob store, so any process can read them.
 *
 * A process takes a job by a conditional update of its row (owner + heartbeat_at: a lease).
 * While it runs, on PostgreSQL it writes its progress and heartbeat through the pool about
 * once a second (never inside an import's transaction) and reads back the status, so a
 * cancel from another process stops it. A job whose lease ran out (its process died) is
 * handed to the queue again by any process's sweep, up to config.jobs.maxAttempts starts,
 * then it ends failed with a reason. On the embedded SQLite (one process) the progress of
 * a running job is kept in memory: an import's transaction holds the only writer.
 */
import { createReadStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { randomUUID } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Db, Dialect } from "../db";
import type { Config } from "../config";
import type { DB, Job, User } from "../db/schema";
import type { BlobStore } from "../storage";
import type { TaskQueue } from "./types";
import type { JobView } from "../../shared/crud/list";
import { badRequest, DomainError, notFound } from "../../shared/errors";

type Status = JobView["status"];
type Trx = Transaction<DB>;
export type JobKind = "import" | "export" | "task";
const ACTIVE = ["running", "applying"] as const;
export const JOB_TASK = "saiwu_job";

/** What a runner gets: the job row, its owner, progress and cancellation. */
export interface RunCtx {
  job: Job;
  user: User;
  params: any;
  signal: AbortSignal;
  progress(processed: number, total?: number): void;
}
export type Runner = (rc: RunCtx) => Promise<void>;

/** What an export's file is, for its download. */
export interface JobOutput {
  ext: string;
  contentType: string;
  /** the file name's start (the resource name when not given) */
  name?: string;
}
const XLSX: JobOutput = { ext: "xlsx", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" };

interface Live {
  processed: number;
  total: number;
  abort: AbortController;
}

/** Thrown inside a runner when the job is no longer its own (cancelled, or finished by another process). */
export class JobGone extends Error {}

export class Jobs {
  readonly #live = new Map<string, Live>();
  readonly #runners = new Map<string, Runner>();
  readonly #outputs = new Map<string, JobOutput>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly tmpDir: string;
  #stopping = false;

  constructor(
    private readonly db: Db,
    readonly dialect: Dialect,
    readonly store: BlobStore,
    private readonly queue: TaskQueue,
    private readonly config: Config,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {
    this.tmpDir = join(config.dataDir, "tmp");
  }

  /** Starts this process's workers and its sweep of abandoned jobs. */
  async start() {
    await this.queue.work(JOB_TASK, async (data) => this.#run(String(data.id)), { concurrency: 2 });
    const sweep = setInterval(
      () => void this.sweep().catch((err) => this.log("任务巡检失败", err)),
      (this.config.jobs.leaseSeconds * 1000) / 2,
    );
    sweep.unref();
    this.#timers.push(sweep);
    await this.sweep().catch((err) => this.log("任务巡检失败", err));
  }

  /**
   * Hands this process's jobs back on shutdown (serve.ts, after the requests in flight have
   * finished, before the queue stops): aborts them (an import's transaction rolls back, so
   * nothing of it stays; an export or dry run starts over), waits a little, gives up
   * their leases and queues them again, so another process takes each at once — or, with
   * none, this process's next start (its first sweep also finds them). Being stopped is not
   * the job's failure: the start is not counted towards config.jobs.maxAttempts.
   */
  async stop() {
    this.#stopping = true;
    for (const t of this.#timers) clearInterval(t);
    for (const l of this.#live.values()) l.abort.abort();
    const deadline = Date.now() + 3000;
    while (this.#live.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const released = await this.db
      .updateTable("job")
      .set({
        owner: null,
        heartbeat_at: new Date(0).toISOString(),
        attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`,
      })
      .where("owner", "=", this.owner)
      .where("status", "in", [...ACTIVE])
      .returning("id")
      .execute()
      .catch((err) => {
        this.log("释放任务失败", err);
        return [];
      });
    for (const { id } of released) {
      // If this process's own worker takes it before the queue stops, #run refuses it
      // ("shutting down") and the queue retries it a second later on whichever process.
      await this.enqueue(id).catch((err) => this.log(`任务 ${id} 重新排队失败，由其他进程的巡检接手`, err));
    }
  }

  get owner() {
    return this.queue.workerId;
  }

  /**
   * The runner of `kind` jobs of `resource` (a runner branches on job.status: running = dry
   * run/export, applying = apply); `output`: an export's file type when it is not .xlsx. "task": a
   * background operation with progress and a result but no file (e.g. rebuilding the duplicate-check index).
   */
  register(kind: JobKind, resource: string, runner: Runner, output?: JobOutput) {
    this.#runners.set(`${kind}:${resource}`, runner);
    if (output) this.#outputs.set(`${kind}:${resource}`, output);
  }

  /** The file type of an export of `resource` (.xlsx unless its runner said otherwise). */
  outputOf(resource: string): JobOutput {
    return this.#outputs.get(`export:${resource}`) ?? XLSX;
  }

  /** A temporary local path (an .xlsx being written or read); the caller removes it. */
  async tmpPath(ext: string) {
    await mkdir(this.tmpDir, { recursive: true });
    return join(this.tmpDir, `${randomUUID()}.${ext}`);
  }

  /** Stores a local file as a blob and removes the file. */
  async storeFile(path: string): Promise<string> {
    try {
      return (await this.store.put(createReadStream(path))).sha256;
    } finally {
      await rm(path, { force: true });
    }
  }

  async storeText(text: string): Promise<string> {
    return (await this.store.put(Readable.from([Buffer.from(text, "utf8")]))).sha256;
  }

  async readText(sha256: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of await this.store.get(sha256)) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  /** Copies a blob to a temporary local file (readers that need a path). */
  async blobToTmp(sha256: string, ext: string): Promise<string> {
    const path = await this.tmpPath(ext);
    const { pipeline } = await import("node:stream/promises");
    const { createWriteStream } = await import("node:fs");
    await pipeline(await this.store.get(sha256), createWriteStream(path));
    return path;
  }

  /** A new running job row; `enqueue` hands it to the queue once its input is in place. */
  async create(kind: JobKind, resource: string, userId: number, params?: unknown): Promise<string> {
    const id = randomUUID();
    const now = new Date().toISOString();
    await this.db
      .insertInto("job")
      .values({
        id,
        kind,
        resource,
        status: "running",
        processed: 0,
        total: 0,
        message: null,
        result: null,
        file: null,
        created_by: userId,
        created_at: now,
        updated_at: now,
        heartbeat_at: now,
        params: params === undefined ? null : JSON.stringify(params),
      })
      .execute();
    return id;
  }

  async setInput(id: string, sha256: string) {
    await this.db.updateTable("job").set({ input_sha256: sha256 }).where("id", "=", id).execute();
  }

  async enqueue(id: string) {
    await this.queue.send(JOB_TASK, { id });
  }

  /** Fails a job that has not started (e.g. its upload was refused). */
  async failNow(id: string, message: string) {
    await this.db
      .updateTable("job")
      .set({ status: "failed", message, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .where("status", "in", [...ACTIVE])
      .execute();
  }

  /**
   * Confirms a dry run: ready → applying in one conditional update, so of two confirms (on
   * any processes) exactly one wins; the other is refused with nothing changed.
   */
  async confirm(id: string, total: number): Promise<boolean> {
    const r = await this.db
      .updateTable("job")
      .set({
        status: "applying",
        processed: 0,
        total,
        message: null,
        owner: null,
        attempts: 0,
        heartbeat_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", id)
      .where("status", "=", "ready")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await this.enqueue(id);
    return true;
  }

  /**
   * Cancels a job of this user: a running export or dry run stops, an import not yet
   * applied is not applied; a finished one cannot be cancelled.
   */
  async cancel(id: string, userId: number): Promise<void> {
    const row = await this.db.selectFrom("job").select(["status", "kind", "created_by"]).where("id", "=", id).executeTakeFirst();
    if (!row || row.created_by !== userId) throw notFound("任务不存在");
    const r = await this.db
      .updateTable("job")
      .set({ status: "cancelled", message: "已取消", updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .where("status", "in", ["running", "ready", "applying"])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) {
      const now = await this.db.selectFrom("job").select("status").where("id", "=", id).executeTakeFirstOrThrow();
      if (now.status === "done")
        throw badRequest(
          row.kind === "import"
            ? "该导入已完成，不能取消"
            : row.kind === "export"
              ? "该导出已完成，不能取消"
              : "该任务已完成，不能取消",
        );
      throw badRequest(now.status === "cancelled" ? "该任务已取消" : "该任务已结束，不能取消");
    }
    this.#live.get(id)?.abort.abort();
  }

  /**
   * Ends a phase of a job this process runs: `from` → `to` with the fields, only if the row
   * is still in `from` and ours (a cancel or another process's takeover wins).
   */
  async finish(
    id: string,
    from: Status,
    to: Status,
    fields: Partial<Pick<Job, "message" | "processed" | "total" | "plan_sha256" | "output_sha256">> & { result?: unknown },
    trx?: Trx,
  ): Promise<boolean> {
    const { result, ...rest } = fields;
    const r = await (trx ?? this.db)
      .updateTable("job")
      .set({
        ...rest,
        ...(result !== undefined ? { result: JSON.stringify(result) } : {}),
        status: to,
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", id)
      .where("status", "=", from)
      .where("owner", "=", this.owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Serialises two appliers of one import (a takeover while the first still runs): the second waits, then sees `done`. */
  async lockForApply(trx: Trx, id: string) {
    if (this.dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${"job:" + id}))`.execute(trx);
  }

  /** A job of this user: its row, with this process's live progress when it runs here. */
  async get(id: string, userId: number): Promise<(JobView & { outputSha256: string | null }) | undefined> {
    const row = await this.db.selectFrom("job").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row || row.created_by !== userId) return undefined;
    const live = (ACTIVE as readonly string[]).includes(row.status) ? this.#live.get(id) : undefined;
    return {
      id,
      kind: row.kind,
      resource: row.resource,
      status: row.status as Status,
      processed: live?.processed ?? row.processed,
      total: live?.total ?? row.total,
      message: row.message,
      result: row.result ? JSON.parse(row.result) : null,
      outputSha256: row.output_sha256,
      downloadUrl: row.kind === "export" && row.status === "done" ? `/Backend/Common/job/${id}/download` : null,
    };
  }

  /** Takes a job from the queue: claims its row, runs its runner, keeps its lease. */
  async #run(id: string) {
    if (this.#stopping) throw new Error("shutting down");
    const row = await this.db.selectFrom("job").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row || !(ACTIVE as readonly string[]).includes(row.status) || this.#live.has(id)) return;
    const runner = this.#runners.get(`${row.kind}:${row.resource}`);
    const now = new Date();
    const stale = new Date(now.getTime() - this.config.jobs.leaseSeconds * 1000).toISOString();
    // Ours if nobody holds it, or its holder's lease ran out.
    const claimed = await this.db
      .updateTable("job")
      .set((eb) => ({ owner: this.owner, heartbeat_at: now.toISOString(), attempts: eb("attempts", "+", 1) }))
      .where("id", "=", id)
      .where("status", "=", row.status)
      .where((eb) =>
        eb.or([
          eb("owner", "is", null),
          eb("heartbeat_at", "<", stale),
          ...(this.dialect === "sqlite" ? [eb("owner", "<>", this.owner)] : []),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return;
    const status = claimed.status as Status;
    if (!runner) {
      await this.finish(id, status, "failed", { message: "服务器不支持该任务" });
      return;
    }
    if (claimed.attempts > this.config.jobs.maxAttempts) {
      await this.finish(id, status, "failed", {
        message: `${status === "applying" ? "导入失败，没有导入任何数据：" : ""}处理该任务的服务器进程多次中断（已尝试 ${claimed.attempts - 1} 次），请重新操作`,
      });
      return;
    }
    if (claimed.kind === "export" && !claimed.params) {
      // A row from before 0014 (its filters were only in that process's memory).
      await this.finish(id, status, "failed", { message: "服务器重启，任务已中断，请重新操作" });
      return;
    }
    const user = await this.db.selectFrom("app_user").selectAll().where("id", "=", claimed.created_by).executeTakeFirst();
    if (!user || user.locked) {
      await this.finish(id, status, "failed", { message: "发起该任务的账号已不可用" });
      return;
    }
    const live: Live = { processed: claimed.processed, total: claimed.total, abort: new AbortController() };
    this.#live.set(id, live);
    const beat = this.dialect === "postgres" ? this.#heartbeat(id, live) : undefined;
    try {
      await runner({
        job: claimed,
        user,
        params: claimed.params ? JSON.parse(claimed.params) : {},
        signal: live.abort.signal,
        progress: (processed, total) => {
          live.processed = processed;
          if (total !== undefined) live.total = total;
        },
      });
    } catch (err) {
      if (!(err instanceof JobGone) && !live.abort.signal.aborted) {
        this.log(`任务 ${id} 失败`, err);
        const prefix = status === "applying" ? "导入失败，没有导入任何数据：" : claimed.kind === "export" ? "导出失败：" : "";
        await this.finish(id, status, "failed", {
          message: `${prefix}${err instanceof DomainError ? err.info : "服务器错误，请重试"}`,
        });
      }
    } finally {
      if (beat) clearInterval(beat);
      this.#live.delete(id);
    }
  }

  /** PostgreSQL: progress + heartbeat through the pool about once a second; a cancel read back aborts the run. */
  #heartbeat(id: string, live: Live) {
    let busy = false;
    const t = setInterval(
      () => {
        if (busy) return;
        busy = true;
        void this.db
          .updateTable("job")
          .set({ heartbeat_at: new Date().toISOString(), processed: live.processed, total: live.total })
          .where("id", "=", id)
          .where("owner", "=", this.owner)
          .where("status", "in", [...ACTIVE])
          .executeTakeFirst()
          .then(async (r) => {
            if (Number(r.numUpdatedRows) === 1) return;
            const now = await this.db.selectFrom("job").select("status").where("id", "=", id).executeTakeFirst();
            if (!now || now.status === "cancelled") live.abort.abort();
          })
          .catch(() => {})
          .finally(() => (busy = false));
      },
      Math.min(1000, (this.config.jobs.leaseSeconds * 1000) / 3),
    );
    t.unref();
    return t;
  }

  /**
   * Hands abandoned jobs back to the queue: a running/applying job whose lease ran out (its
   * process died, or its task was lost) is reset by exactly one sweeper and sent again; the
   * next start counts as an attempt. On SQLite (one process) a job held by an earlier
   * process is abandoned at once.
   */
  async sweep() {
    const stale = new Date(Date.now() - this.config.jobs.leaseSeconds * 1000).toISOString();
    const rows = await this.db
      .selectFrom("job")
      .select(["id", "heartbeat_at", "owner"])
      .where("status", "in", [...ACTIVE])
      .where((eb) =>
        eb.or([
          eb("heartbeat_at", "<", stale),
          eb("heartbeat_at", "is", null),
          ...(this.dialect === "sqlite" ? [eb.and([eb("owner", "is not", null), eb("owner", "<>", this.owner)])] : []),
        ]),
      )
      .limit(100)
      .execute();
    for (const r of rows) {
      // Never from ourselves while we run it (a slow heartbeat is not a death).
      if (r.owner === this.owner && this.#live.has(r.id)) continue;
      const reset = await this.db
        .updateTable("job")
        .set({ owner: null, heartbeat_at: new Date().toISOString() })
        .where("id", "=", r.id)
        .where((eb) => (r.heartbeat_at === null ? eb("heartbeat_at", "is", null) : eb("heartbeat_at", "=", r.heartbeat_at)))
        .where((eb) => (r.owner === null ? eb("owner", "is", null) : eb("owner", "=", r.owner)))
        .executeTakeFirst();
      if (Number(reset.numUpdatedRows) === 1) {
        this.log(`任务 ${r.id} 的处理进程已中断，重新排队`);
        await this.enqueue(r.id);
      }
    }
  }
}
