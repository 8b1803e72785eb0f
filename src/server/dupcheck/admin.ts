/**
 * /admin/ElasticSearch (查重引擎, root): the index's status (works indexed, pending, failed
 * with reasons), the rebuild as a job with progress (kind "task": no file), the thresholds
 * and common-shingle settings, the ignored-shingle list and the last benchmark's figures.
 */
import type { DupAdminStats, DupEntriesQuery, DupEntryRow, DupSettingsBody } from "../../shared/dupcheck/api";
import { DUP_ENTRY_STATUS_NAMES, type DupRebuildProgress } from "../../shared/dupcheck/schema";
import { badRequest, invalid, notFound } from "../../shared/errors";
import type { Jobs } from "../jobs/user-jobs";
import type { Db } from "../db";
import type { User } from "../db/schema";
import type { BlobStore } from "../storage";
import type { TaskQueue } from "../jobs/queue";
import { getSettings, indexStats, isIndexable, listEntries, rebuild, saveSettings } from "./index";
import { lastBenchmark } from "./settings";
import { queueIndexing } from "./indexing";

export const REBUILD_RESOURCE = "dupcheck-rebuild";
const PHASES: DupRebuildProgress["phase"][] = ["extract", "frequencies", "bands"];
/** The progress bar's scale: each phase a slice of 1000. */
const SCALE = 1000;

async function activeRebuild(db: Db) {
  return db
    .selectFrom("job")
    .select(["id", "created_by"])
    .where("resource", "=", REBUILD_RESOURCE)
    .where("status", "=", "running")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

export async function adminStats(db: Db, jobs: Jobs, user: User): Promise<DupAdminStats> {
  const stats = await indexStats(db);
  const active = await activeRebuild(db);
  const job = active ? await jobs.get(active.id, active.created_by) : undefined;
  return {
    stats,
    benchmark: await lastBenchmark(db),
    rebuild:
      job && job.status === "running"
        ? { jobId: job.id, processed: job.processed, total: job.total, mine: active!.created_by === user.id }
        : null,
  };
}

export async function adminEntries(db: Db, q: DupEntriesQuery): Promise<{ list: DupEntryRow[]; total: number }> {
  const size = q.pageSize ?? 20;
  const { total, items } = await listEntries(db, {
    status: q.status,
    withReasons: q.withReasons,
    limit: size,
    offset: ((q.current ?? 1) - 1) * size,
  });
  const ids = items.map((e) => e.workId);
  const names = ids.length ? await db.selectFrom("work").select(["id", "name"]).where("id", "in", ids).execute() : [];
  const nameOf = new Map(names.map((n) => [Number(n.id), n.name]));
  return {
    total,
    list: items.map((e) => ({ ...e, name: nameOf.get(e.workId) ?? null, statusName: DUP_ENTRY_STATUS_NAMES[e.status] })),
  };
}

export async function updateSettings(db: Db, body: DupSettingsBody) {
  const current = await getSettings(db);
  const next = { ...current, ...body };
  // Checked here too, so the refusal names the field (the engine checks again).
  if (next.likely < next.suspect)
    throw invalid(
      "likely",
      `「高度疑似重复」的阈值（${Math.round(next.likely * 100)}%）不能低于「疑似重复」的阈值（${Math.round(next.suspect * 100)}%）`,
    );
  return saveSettings(db, body);
}

export async function startRebuild(db: Db, jobs: Jobs, user: User, reextract: boolean): Promise<string> {
  if (await activeRebuild(db)) throw badRequest("查重索引正在重建，请等待当前重建完成");
  const jobId = await jobs.create("task", REBUILD_RESOURCE, user.id, { reextract });
  await jobs.enqueue(jobId);
  return jobId;
}

export function registerRebuild(db: Db, store: BlobStore, jobs: Jobs) {
  jobs.register("task", REBUILD_RESOURCE, async (rc) => {
    const reextract = !!(rc.params as { reextract?: boolean }).reextract;
    const phases = reextract ? PHASES : PHASES.slice(1);
    rc.progress(0, SCALE);
    const info = await rebuild(
      db,
      store,
      (p) => {
        const i = phases.indexOf(p.phase);
        if (p.phase === "done") rc.progress(SCALE);
        else if (i >= 0) rc.progress(Math.floor(((i + (p.total ? p.done / p.total : 0)) / phases.length) * SCALE));
      },
      rc.signal,
      { reextract },
    );
    const message = `查重索引已重建：${info.works} 件作品${info.failed ? `，${info.failed} 件失败` : ""}，用时 ${info.seconds ?? 0} 秒`;
    await jobs.finish(rc.job.id, "running", "done", { processed: SCALE, total: SCALE, message, result: info });
  });
}

/** Queues one work's indexing again (e.g. after its failed extraction was fixed). */
export async function reindexWork(db: Db, queue: TaskQueue, workId: number) {
  const w = await db.selectFrom("work").select(["id", "status"]).where("id", "=", workId).executeTakeFirst();
  if (!w) throw notFound("作品不存在");
  if (!isIndexable(w.status)) throw badRequest("草稿不参与查重，提交后才会建立索引");
  await queueIndexing(db, queue, [workId]);
}
