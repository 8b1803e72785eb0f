/**
 * Indexing works one by one: extracting a work's text and writing its entry (indexWork, an
 * unchanged text writes nothing), marking works pending, and the pending sweep.
 */
import { sql } from "kysely";
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import type { DupEntryStatus, DupReason } from "../../shared/dupcheck/schema";
import { workText, type WorkText } from "./extract";
import { fillSamples } from "./ignored";
import { isIndexable, prepareText, tooShortReason } from "./prepare";
import { getSettings, ignoredSet } from "./settings";
import { chunks, nowIso } from "./store";
import { removeWorks, writeEntries, type EntryWrite } from "./write";

export interface IndexOutcome {
  workId: number;
  status: DupEntryStatus;
  tooShort: boolean;
  shingles: number;
  reasons: DupReason[];
  changed: boolean;
}

/** Extracts a work's text and prepares its write (null: the work is gone or a draft). */
export async function gather(
  db: Db,
  store: BlobStore,
  workId: number,
  ignored: Uint32Array,
): Promise<{ write: EntryWrite; text: WorkText } | null> {
  const wt = await workText(db, store, workId);
  if (!wt || !isIndexable(wt.status)) return null;
  return {
    write: {
      workId,
      year: wt.year,
      contestId: wt.contestId,
      status: "indexed",
      reasons: wt.skipped,
      prepared: prepareText(wt.text, ignored),
    },
    text: wt,
  };
}

export async function indexWork(db: Db, store: BlobStore, workId: number): Promise<IndexOutcome> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  let g: Awaited<ReturnType<typeof gather>>;
  try {
    g = await gather(db, store, workId, ignored);
  } catch (e) {
    const work = await db.selectFrom("work").select(["year", "contest_id"]).where("id", "=", workId).executeTakeFirst();
    const reasons: DupReason[] = [
      { code: "error", fileId: null, filename: null, message: `提取作品文字时出错：${(e as Error)?.message ?? e}` },
    ];
    if (work)
      await writeEntries(
        db,
        [{ workId, year: work.year, contestId: work.contest_id, status: "failed", reasons, prepared: null }],
        settings,
      );
    return { workId, status: "failed", tooShort: false, shingles: 0, reasons, changed: true };
  }
  if (!g) {
    const existed = await db.selectFrom("dup_entry").select("work_id").where("work_id", "=", workId).executeTakeFirst();
    await removeWorks(db, [workId]);
    return {
      workId,
      status: "failed",
      tooShort: false,
      shingles: 0,
      reasons: [{ code: "error", fileId: null, filename: null, message: "作品不存在或尚未提交，不建立查重索引" }],
      changed: !!existed,
    };
  }
  const { write } = g;
  const prepared = write.prepared!;
  const eff = prepared.eff.length;
  const tooShort = eff < settings.minShingles;
  const reasons = tooShort ? [...write.reasons, tooShortReason()] : write.reasons;
  const cur = await db
    .selectFrom("dup_entry")
    .select(["status", "text_hash", "reasons", "year", "contest_id", "shingle_count"])
    .where("work_id", "=", workId)
    .executeTakeFirst();
  if (
    cur &&
    cur.status === "indexed" &&
    cur.text_hash === prepared.textHash &&
    cur.reasons === JSON.stringify(reasons) &&
    cur.year === write.year &&
    cur.contest_id === write.contestId &&
    cur.shingle_count === eff
  )
    return { workId, status: "indexed", tooShort, shingles: eff, reasons, changed: false };
  await writeEntries(db, [write], settings);
  await fillSamples(db, g.text.text);
  return { workId, status: "indexed", tooShort, shingles: eff, reasons, changed: true };
}

export async function markPending(db: Db, workIds: number[]): Promise<void> {
  if (workIds.length === 0) return;
  const at = nowIso();
  for (const part of chunks(workIds, 500)) {
    await db
      .insertInto("dup_entry")
      .columns(["work_id", "year", "contest_id", "status", "updated_at"])
      .expression(
        db
          .selectFrom("work")
          .select(["id", "year", "contest_id", sql.lit("pending").as("status"), sql.val(at).as("updated_at")])
          .where("id", "in", part),
      )
      .onConflict((oc) => oc.column("work_id").doUpdateSet({ status: "pending", updated_at: at }))
      .execute();
  }
}

export async function indexPending(
  db: Db,
  store: BlobStore,
  opts: { limit?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const rows = await db
    .selectFrom("dup_entry")
    .select("work_id")
    .where("status", "=", "pending")
    .orderBy("updated_at")
    .orderBy("work_id")
    .limit(Math.min(opts.limit ?? 100, 10_000))
    .execute();
  let n = 0;
  for (const r of rows) {
    if (opts.signal?.aborted) break;
    await indexWork(db, store, Number(r.work_id));
    n++;
  }
  return n;
}
