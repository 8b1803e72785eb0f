/**
 * The ignored (very common) shingles: the list computed from a sample of indexed works
 * (computeIgnored, a rebuild's second phase), the samples of their characters (filled in
 * from texts being indexed), and the admin page's listing.
 */
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import type { DupIgnoredShingle, DupSettings } from "../../shared/dupcheck/schema";
import { CountTable } from "./count-table";
import { workText } from "./extract";
import { normalise } from "./normalise";
import { readSetting, writeSetting } from "./settings";
import { SHINGLE, decodeSet, shingleSequence } from "./shingles";
import { chunks, fromBytes, nowIso } from "./store";

/** Works sampled for document frequencies. */
export const FREQUENCY_SAMPLE = 20_000;

/** Samples for ignored shingles still without one, from a text being indexed. */
export async function fillSamples(db: Db, text: string): Promise<void> {
  const missing = await db.selectFrom("dup_ignored").select("hash").where("sample", "=", "").limit(10_000).execute();
  if (missing.length === 0) return;
  const want = new Set(missing.map((r) => Number(r.hash)));
  const n = normalise(text).text;
  const found = new Map<number, string>();
  const seq = shingleSequence(n);
  for (let i = 0; i < seq.length; i++) if (want.has(seq[i]) && !found.has(seq[i])) found.set(seq[i], n.slice(i, i + SHINGLE));
  if (found.size === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [hash, sample] of found)
      await trx.updateTable("dup_ignored").set({ sample }).where("hash", "=", hash).where("sample", "=", "").execute();
  });
}

/** A seeded choice of k of n indexes (Floyd's algorithm), ascending. */
function sampleIndexes(n: number, k: number, seed = 0x5eed): number[] {
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const chosen = new Set<number>();
  for (let j = n - k; j < n; j++) {
    const t = Math.floor(rand() * (j + 1));
    chosen.add(chosen.has(t) ? j : t);
  }
  return [...chosen].sort((x, y) => x - y);
}

/**
 * Recomputes the ignored list from a sample of indexed works: a shingle in at least
 * max(ignoreMinWorks, ignoreShare × sample) sampled works is ignored. Samples of its three
 * characters come from the texts of works it was first seen in (read again, at most 200).
 */
export async function computeIgnored(
  db: Db,
  store: BlobStore | null,
  settings: DupSettings,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
) {
  const idRows = await db.selectFrom("dup_set").select("work_id").orderBy("work_id").execute();
  const ids = idRows.map((r) => Number(r.work_id));
  const picked = sampleIndexes(ids.length, FREQUENCY_SAMPLE).map((i) => ids[i]);
  const table = new CountTable(1 << 22);
  let done = 0;
  for (const part of chunks(picked, 500)) {
    if (signal?.aborted) throw new Error("aborted");
    const rows = await db.selectFrom("dup_set").select(["work_id", "shingles"]).where("work_id", "in", part).execute();
    for (const r of rows) {
      const set = decodeSet(fromBytes(r.shingles));
      const wid = Number(r.work_id);
      for (let i = 0; i < set.length; i++) table.add(set[i], wid);
    }
    done += part.length;
    onProgress?.(done, picked.length);
  }
  const min = Math.max(settings.ignoreMinWorks, Math.ceil(settings.ignoreShare * picked.length));
  const frequent = [...table.atLeast(min)].sort((x, y) => y.count - x.count || x.key - y.key);
  // Samples: the previous list's, then from the texts of the works first holding the rest.
  const prev = new Map<number, string>();
  for (const r of await db.selectFrom("dup_ignored").select(["hash", "sample"]).where("sample", "<>", "").execute())
    prev.set(Number(r.hash), r.sample);
  const samples = new Map<number, string>();
  const byWork = new Map<number, Set<number>>();
  for (const f of frequent) {
    const s = prev.get(f.key);
    if (s) samples.set(f.key, s);
    else {
      const set = byWork.get(f.first) ?? new Set<number>();
      set.add(f.key);
      byWork.set(f.first, set);
    }
  }
  if (store) {
    const works = [...byWork.entries()].sort((x, y) => y[1].size - x[1].size).slice(0, 200);
    for (const [wid, want] of works) {
      if (signal?.aborted) throw new Error("aborted");
      const wt = await workText(db, store, wid).catch(() => null);
      if (!wt) continue;
      const n = normalise(wt.text).text;
      const seq = shingleSequence(n);
      for (let i = 0; i < seq.length; i++)
        if (want.has(seq[i]) && !samples.has(seq[i])) samples.set(seq[i], n.slice(i, i + SHINGLE));
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("dup_ignored").execute();
    for (const part of chunks(frequent, 2000))
      await trx
        .insertInto("dup_ignored")
        .values(part.map((f) => ({ hash: f.key, sample: samples.get(f.key) ?? "", works: f.count })))
        .execute();
  });
  await writeSetting(db, "ignoredInfo", { sampleWorks: picked.length, computedAt: nowIso(), threshold: min });
  return { sampleWorks: picked.length, ignored: frequent.length };
}

export async function ignoredShingles(
  db: Db,
  opts: { limit: number; offset: number },
): Promise<{ total: number; items: DupIgnoredShingle[] }> {
  const info = await readSetting<{ sampleWorks: number }>(db, "ignoredInfo");
  const total = Number(
    (
      await db
        .selectFrom("dup_ignored")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  const rows = await db
    .selectFrom("dup_ignored")
    .select(["sample", "works"])
    .orderBy("works", "desc")
    .orderBy("hash")
    .limit(Math.max(0, Math.min(opts.limit, 1000)))
    .offset(Math.max(0, opts.offset))
    .execute();
  const n = info?.sampleWorks || 1;
  return { total, items: rows.map((r) => ({ sample: r.sample, works: r.works, share: Math.min(1, r.works / n) })) };
}
