/**
 * The daily clean-up, a scheduled task that runs once across all processes: expired
 * sessions, finished job rows older than the retention (config.jobs.retentionDays) and the
 * blobs only they named (an upload, a plan, an export), and failed queue tasks.
 */
import type { Config } from "../config";
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import { isBlobReferenced } from "../storage/references";
import type { TaskQueue } from "./types";

export const CLEANUP_TASK = "saiwu_cleanup";

export interface CleanupReport {
  sessions: number;
  jobs: number;
  blobs: number;
}

export async function cleanup(deps: { db: Db; store: BlobStore; config: Config }, now = new Date()): Promise<CleanupReport> {
  const { db, store, config } = deps;
  const iso = now.toISOString();
  const sessions = await db.deleteFrom("user_session").where("expires_at", "<", iso).executeTakeFirst();
  const before = new Date(now.getTime() - config.jobs.retentionDays * 86400_000).toISOString();
  const old = await db
    .selectFrom("job")
    .select(["id", "input_sha256", "plan_sha256", "output_sha256"])
    .where("updated_at", "<", before)
    .where("status", "not in", ["running", "applying"])
    .execute();
  let blobs = 0;
  for (const job of old) {
    await db.deleteFrom("job").where("id", "=", job.id).execute();
    for (const sha of [job.input_sha256, job.plan_sha256, job.output_sha256]) {
      if (sha && !(await isBlobReferenced(db, sha))) {
        await store.delete(sha);
        blobs++;
      }
    }
  }
  await db.deleteFrom("queue_task").where("state", "=", "failed").where("created_at", "<", before).execute();
  return { sessions: Number(sessions.numDeletedRows), jobs: old.length, blobs };
}

export async function scheduleCleanup(
  queue: TaskQueue,
  deps: { db: Db; store: BlobStore; config: Config; log: (msg: string) => void },
) {
  await queue.every(CLEANUP_TASK, deps.config.jobs.cleanupSeconds, async () => {
    const r = await cleanup(deps);
    deps.log(`定期清理：过期会话 ${r.sessions} 个，旧任务 ${r.jobs} 个，其文件 ${r.blobs} 个`);
  });
}
