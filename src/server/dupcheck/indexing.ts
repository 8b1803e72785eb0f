/**
 * Background indexing of works for the duplicate check. When a work's text may have changed
 * (triggers.ts: submit, resubmission, a document uploaded or deleted, an edit after submit,
 * an admin's entry) the request marks the work pending in the index — visible at once — and
 * queues a task (saiwu_dupcheck_index) that whichever process takes it runs: indexWork, which
 * is idempotent (an unchanged text writes nothing; a task run twice does no harm). A sweep
 * every 10 minutes (once across processes) indexes pending works whose task was lost.
 * Drafts are never indexed. After an upgrade that changed the index's layout the sweep first
 * marks every entry pending (./layout.ts), so the works are prepared again.
 */
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import type { TaskQueue } from "../jobs/queue";
import { indexPending, indexWork, isIndexable, markPending } from "./index";
import { migrateLayout } from "./layout";
import { onWorksChanged } from "./triggers";

export const INDEX_TASK = "saiwu_dupcheck_index";
export const SWEEP_TASK = "saiwu_dupcheck_sweep";
export const SWEEP_SECONDS = 600;

/** Marks the indexable ones of `workIds` pending and queues their indexing. */
export async function queueIndexing(db: Db, queue: TaskQueue, workIds: number[]): Promise<number[]> {
  if (!workIds.length) return [];
  const rows = await db
    .selectFrom("work")
    .select(["id", "status"])
    .where("id", "in", [...new Set(workIds)])
    .execute();
  const ids = rows.filter((r) => isIndexable(r.status)).map((r) => Number(r.id));
  if (!ids.length) return [];
  await markPending(db, ids);
  for (const id of ids) await queue.send(INDEX_TASK, { workId: id });
  return ids;
}

export async function startIndexing(deps: {
  db: Db;
  store: BlobStore;
  queue: TaskQueue;
  log: (msg: string, err?: unknown) => void;
}) {
  const { db, store, queue, log } = deps;
  await queue.work(INDEX_TASK, async (data) => {
    const workId = Number(data.workId);
    if (!Number.isInteger(workId) || workId < 1) return;
    await indexWork(db, store, workId);
  });
  await queue.every(SWEEP_TASK, SWEEP_SECONDS, async () => {
    const stale = await migrateLayout(db);
    if (stale) log(`查重索引：索引格式已更新，${stale} 件作品将重新建立索引（也可在查重引擎页面「重新提取并重建」一次完成）`);
    const n = await indexPending(db, store, { limit: 500 });
    if (n) log(`查重索引：补建了 ${n} 件等待索引的作品`);
  });
  const off = onWorksChanged(db, async (ids) => {
    try {
      await queueIndexing(db, queue, ids);
    } catch (err) {
      log(`作品 ${ids.join("、")} 的查重索引排队失败（定期补建会处理）`, err);
      throw err;
    }
  });
  return off;
}
