/**
 * Background jobs for imports and exports. Progress lives in memory while a job runs
 * (a running SQLite transaction must not wait on progress writes) and is written to the
 * job table when a phase ends. Files live under <data>/jobs/.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../db";
import type { JobView } from "../../shared/crud/list";

type Status = JobView["status"];

interface Live {
  kind: string;
  resource: string;
  createdBy: number;
  status: Status;
  processed: number;
  total: number;
  message: string | null;
  result: unknown;
  file: string | null;
}

export class Jobs {
  readonly #live = new Map<string, Live>();
  readonly dir: string;
  constructor(private readonly db: Db, dataDir: string) {
    this.dir = join(dataDir, "jobs");
  }

  filePath(id: string, ext: string) {
    mkdirSync(this.dir, { recursive: true });
    return join(this.dir, `${id}.${ext}`);
  }

  async create(kind: "import" | "export", resource: string, userId: number): Promise<string> {
    const id = randomUUID();
    const now = new Date().toISOString();
    await this.db.insertInto("job").values({ id, kind, resource, status: "running", processed: 0, total: 0, message: null, result: null, file: null, created_by: userId, created_at: now, updated_at: now }).execute();
    this.#live.set(id, { kind, resource, createdBy: userId, status: "running", processed: 0, total: 0, message: null, result: null, file: null });
    return id;
  }

  progress(id: string, processed: number, total?: number) {
    const l = this.#live.get(id);
    if (!l) return;
    l.processed = processed;
    if (total !== undefined) l.total = total;
  }

  /** Ends a phase: ready (dry run done), done, or failed. */
  async finish(id: string, status: Status, fields: { message?: string | null; result?: unknown; file?: string | null; processed?: number; total?: number }) {
    const l = this.#live.get(id);
    if (!l) throw new Error(`job ${id} is not running in this process`);
    Object.assign(l, { status }, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    this.#live.set(id, l);
    await this.db
      .updateTable("job")
      .set({ status, processed: l.processed, total: l.total, message: l.message, result: l.result === null ? null : JSON.stringify(l.result), file: l.file, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
  }

  setStatus(id: string, status: Status) {
    const l = this.#live.get(id);
    if (l) l.status = status;
  }

  /** A job of this user: from memory while this process runs it (never waiting on a transaction), else from the table. */
  async get(id: string, userId: number): Promise<(JobView & { file: string | null }) | undefined> {
    let l: Live | undefined = this.#live.get(id);
    if (!l) {
      const row = await this.db.selectFrom("job").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) return undefined;
      // A job left running by a stopped server will never finish.
      const status = (row.status === "running" || row.status === "applying" ? "failed" : row.status) as Status;
      l = { kind: row.kind, resource: row.resource, createdBy: row.created_by, status, processed: row.processed, total: row.total, message: status !== row.status ? "服务器重启，任务已中断，请重新操作" : row.message, result: row.result ? JSON.parse(row.result) : null, file: row.file };
    }
    if (l.createdBy !== userId) return undefined;
    return {
      id,
      kind: l.kind,
      resource: l.resource,
      status: l.status,
      processed: l.processed,
      total: l.total,
      message: l.message,
      result: l.result,
      file: l.file,
      downloadUrl: l.kind === "export" && l.status === "done" ? `/Backend/Common/job/${id}/download` : null,
    };
  }
}
