/**
 * The whole index's rebuild (an admin's job): stale entries removed, missing, pending and
 * failed works extracted (all with reextract), the ignored list computed anew, then every
 * signature and band key (./rebuild-bands.ts). One at a time per database; progress and a
 * heartbeat in dup_setting "rebuild".
 */
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import { conflict } from "../../shared/errors";
import type { DupRebuildInfo, DupRebuildProgress } from "../../shared/dupcheck/schema";
import { computeIgnored } from "./ignored";
import { layoutCurrent, recordLayout } from "./layout";
import { gather } from "./indexer";
import { recomputeBands } from "./rebuild-bands";
import { getSettings, ignoredSet, readSetting, writeSetting } from "./settings";
import { chunks, nowIso, withRebuildCache } from "./store";
import { insertBandRows, removeWorks, writeEntries, type EntryWrite } from "./write";

/**
 * 1. Entries of works that are gone or back to draft go; returns the works to extract: missing,
 * pending and failed ones (all with reextract).
 */
async function worksToExtract(db: Db, reextract: boolean): Promise<number[]> {
  const eligible = await db.selectFrom("work").select(["id"]).where("status", "<>", "draft").orderBy("id").execute();
  const eligibleIds = new Set(eligible.map((r) => Number(r.id)));
  const entries = await db.selectFrom("dup_entry").select(["work_id", "status"]).execute();
  const stale = entries.filter((e) => !eligibleIds.has(Number(e.work_id))).map((e) => Number(e.work_id));
  await removeWorks(db, stale);
  const indexed = new Set(entries.filter((e) => e.status === "indexed").map((e) => Number(e.work_id)));
  return [...eligibleIds].filter((id) => reextract || !indexed.has(id));
}

/** A work's write for the extraction: its text, or (failed) a failed entry with the reason; no write: gone or a draft. */
async function extractOne(
  db: Db,
  store: BlobStore,
  id: number,
  ignored: Uint32Array,
): Promise<{ write: EntryWrite | null; failed: boolean }> {
  try {
    const g = await gather(db, store, id, ignored);
    return { write: g ? g.write : null, failed: false };
  } catch (e) {
    const w = await db.selectFrom("work").select(["year", "contest_id"]).where("id", "=", id).executeTakeFirst();
    const write: EntryWrite | null = w
      ? {
          workId: id,
          year: w.year,
          contestId: w.contest_id,
          status: "failed",
          reasons: [
            { code: "error", fileId: null, filename: null, message: `提取作品文字时出错：${(e as Error)?.message ?? e}` },
          ],
          prepared: null,
        }
      : null;
    return { write, failed: true };
  }
}

let rebuilding = false;
const HEARTBEAT_STALE_MS = 5 * 60_000;

export async function rebuild(
  db: Db,
  store: BlobStore,
  onProgress?: (p: DupRebuildProgress) => void,
  signal?: AbortSignal,
  opts: { reextract?: boolean } = {},
): Promise<DupRebuildInfo> {
  if (rebuilding) throw conflict("查重索引正在重建");
  const running = await readSetting<DupRebuildInfo & { heartbeat?: number }>(db, "rebuild");
  if (running && running.finishedAt === null && Date.now() - (running.heartbeat ?? 0) < HEARTBEAT_STALE_MS)
    throw conflict("查重索引正在重建");
  rebuilding = true;
  const started = Date.now();
  const info: DupRebuildInfo & { heartbeat?: number } = {
    startedAt: new Date(started).toISOString(),
    finishedAt: null,
    seconds: null,
    works: 0,
    failed: 0,
    reextract: !!opts.reextract,
    error: null,
    heartbeat: started,
  };
  let lastBeat = started;
  const deferred: number[] = [];
  let swapped = true;
  const beat = async () => {
    if (Date.now() - lastBeat < 10_000) return;
    lastBeat = Date.now();
    info.heartbeat = lastBeat;
    await writeSetting(db, "rebuild", info);
  };
  const report = (phase: DupRebuildProgress["phase"], done: number, total: number) => onProgress?.({ phase, done, total });
  try {
    await writeSetting(db, "rebuild", info);
    const settings = await getSettings(db);
    // An index of another layout (./layout.ts) is extracted anew whatever was asked.
    const reextract = !!opts.reextract || !(await layoutCurrent(db));
    info.reextract = reextract;
    const todo = await worksToExtract(db, reextract);
    const ignored = await ignoredSet(db);
    let done = 0;
    report("extract", 0, todo.length);
    // Works extracted for the first time get their dup_band rows from the band phase's swap (or, if the rebuild fails before it, from insertBandRows).
    swapped = false;
    await withRebuildCache(db, async () => {
      for (const part of chunks(todo, 50)) {
        if (signal?.aborted) throw new Error("aborted");
        const writes: EntryWrite[] = [];
        for (const id of part) {
          const one = await extractOne(db, store, id, ignored);
          if (one.failed) info.failed++;
          if (one.write) writes.push(one.write);
        }
        deferred.push(...(await writeEntries(db, writes, settings, { deferBands: true })));
        done += part.length;
        report("extract", done, todo.length);
        await beat();
      }
    });
    // 2. The ignored list from a sample; 3. every signature and band key under it.
    await computeIgnored(db, store, settings, (d, t) => report("frequencies", d, t), signal);
    await recomputeBands(
      db,
      settings,
      (d, t) => {
        report("bands", d, t);
        // A heartbeat that fails (the database went away) is reported by the rebuild's next write.
        void beat().catch(() => undefined);
      },
      signal,
    );
    swapped = true;
    if (reextract) await recordLayout(db);
    const counts = await db
      .selectFrom("dup_entry")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", "indexed")
      .executeTakeFirst();
    info.works = Number(counts?.n ?? 0);
    report("done", info.works, info.works);
  } catch (e) {
    info.error = signal?.aborted ? "重建已取消" : `重建失败：${(e as Error)?.message ?? e}`;
    if (!swapped) await insertBandRows(db, deferred).catch(() => undefined);
  } finally {
    rebuilding = false;
    info.finishedAt = nowIso();
    info.seconds = Math.round((Date.now() - started) / 100) / 10;
    delete info.heartbeat;
    await writeSetting(db, "rebuild", info).catch(() => undefined);
  }
  return info;
}
