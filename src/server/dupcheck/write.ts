/**
 * Writing the index: entries, shingle sets and band keys (writeEntries, one transaction per
 * call: per work, the band keys it no longer has are deleted and the new ones inserted), the
 * deferred band rows of a rebuild's extraction (insertBandRows), and removing works. Every
 * writer follows the rebuild's shadow (./shadow.ts).
 */
import { sql, type QueryCreator } from "kysely";
import type { Db } from "../db/index";
import type { DupEntryStatus, DupReason, DupSettings } from "../../shared/dupcheck/schema";
import { decodeKeys, encodeKeys } from "./minhash";
import { bandsOf, tooShortReason, type Prepared } from "./prepare";
import type { ShadowPhase } from "./rebuild-state";
import { decodeShadow } from "./rebuild-state";
import { SHADOW_KEY, SHADOW_LOCK, readShadow, shadowWrite } from "./shadow";
import { encodeSet } from "./shingles";
import {
  chunks,
  deleteBandRows,
  dupDb,
  fromBytes,
  idArray,
  insertRows,
  isPg,
  nowIso,
  toBytes,
  upsertEntries,
  upsertSets,
  type DupDb,
  type DupTables,
  type EntryRow,
} from "./store";

export interface EntryWrite {
  workId: number;
  year: number;
  contestId: number;
  status: DupEntryStatus;
  reasons: DupReason[];
  /** null: keep the stored set and bands (a failed extraction keeps the work findable by its last text) */
  prepared: Prepared | null;
}

interface ComputedWrite {
  w: EntryWrite;
  tooShort: boolean;
  shingleCount: number;
  shingles: Uint8Array | null;
  bands: number[] | null;
}

/** writeEntries on PostgreSQL with at most this many works: the one-statement write (see there). */
const SMALL_WRITE = 20;

type OldEntries = Map<number, { bands: number[]; textHash: string | null }>;

/** What a write changes: band rows to delete and insert, sets and entries to store. */
interface WritePlan {
  del: Array<[number, number]>;
  /** band_key, work_id of each row in turn */
  ins: number[];
  sets: Array<{ work_id: number; shingles: Buffer }>;
  /** entries written in full */
  written: EntryRow[];
  /** entries of failed extractions: status and reasons change, the last set and bands stay */
  kept: EntryRow[];
}

function computeWrites(items: EntryWrite[], settings: DupSettings): ComputedWrite[] {
  return items
    .slice()
    .sort((a, b) => a.workId - b.workId)
    .map((w) => {
      if (!w.prepared) return { w, tooShort: false, shingleCount: 0, shingles: null, bands: null };
      const bands = bandsOf(w.prepared.eff, settings);
      // The entry's keys: its LSH band keys, then its passage anchors (none for a too-short text).
      return {
        w,
        tooShort: bands === null,
        shingleCount: w.prepared.eff.length,
        shingles: encodeSet(w.prepared.full),
        bands: bands && [...bands, ...w.prepared.anchors],
      };
    });
}

/** PostgreSQL, a few works: one statement reads the shadow and the entries (locked). */
async function readOldSmall(trx: DupDb, ids: number[]): Promise<{ old: OldEntries; st: ShadowPhase }> {
  // The index is derived data: a commit lost in a crash leaves the work pending (markPending
  // committed that before), and the sweep indexes it again. So no wait for the WAL flush.
  await sql`select pg_advisory_xact_lock_shared(${sql.lit(SHADOW_LOCK)}), set_config('synchronous_commit', 'off', true)`.execute(
    trx,
  );
  const r = await sql<{
    work_id: number | string | null;
    bands: Uint8Array | null;
    text_hash: string | null;
    value: string | null;
  }>`with e as (select work_id, bands, text_hash from dup_entry where work_id = any(cast(${idArray(ids)} as bigint[])) for update) select work_id, bands, text_hash, null as value from e union all select null, null, null, value from dup_setting where key = ${SHADOW_KEY}`.execute(
    trx,
  );
  const old: OldEntries = new Map();
  let st = decodeShadow(null);
  for (const row of r.rows) {
    if (row.work_id === null) st = decodeShadow(row.value);
    else old.set(Number(row.work_id), { bands: row.bands ? decodeKeys(fromBytes(row.bands)) : [], textHash: row.text_hash });
  }
  return { old, st };
}

/** The shadow (lock shared) and the entries (PostgreSQL: locked), 500 ids a statement. */
async function readOldBatched(trx: DupDb, ids: number[]): Promise<{ old: OldEntries; st: ShadowPhase }> {
  const st = await readShadow(trx, "share");
  const old: OldEntries = new Map();
  for (const part of chunks(ids, 500)) {
    let q = trx.selectFrom("dup_entry").select(["work_id", "bands", "text_hash"]).where("work_id", "in", part);
    if (isPg(trx)) q = q.forUpdate();
    for (const r of await q.execute())
      old.set(Number(r.work_id), { bands: r.bands ? decodeKeys(fromBytes(r.bands)) : [], textHash: r.text_hash });
  }
  return { old, st };
}

/** The rows a write changes; works whose band rows are deferred (see writeEntries) go to `deferred`. */
function planWrites(computed: ComputedWrite[], old: OldEntries, deferBands: boolean, deferred: number[]): WritePlan {
  const del: Array<[number, number]> = [];
  const ins: number[] = [];
  const at = nowIso();
  // The sets to write: the text changed (the text hash covers the shingling parameters; a
  // text_hash is stored only together with a set). An unchanged text keeps its stored set.
  const sets = computed
    .filter((c) => c.shingles && old.get(c.w.workId)?.textHash !== c.w.prepared!.textHash)
    .map((c) => ({ work_id: c.w.workId, shingles: toBytes(c.shingles!) }));
  const written: EntryRow[] = [];
  const kept: EntryRow[] = [];
  for (const c of computed) {
    const prev = old.get(c.w.workId);
    const keep = c.w.prepared === null;
    if (!keep && deferBands && !prev?.bands.length) {
      if (c.bands?.length) deferred.push(c.w.workId);
    } else if (!keep) {
      const next = new Set(c.bands ?? []);
      const before = new Set(prev?.bands ?? []);
      for (const k of before) if (!next.has(k)) del.push([k, c.w.workId]);
      for (const k of next) if (!before.has(k)) ins.push(k, c.w.workId);
    }
    (keep ? kept : written).push({
      work_id: c.w.workId,
      year: c.w.year,
      contest_id: c.w.contestId,
      status: c.w.status,
      too_short: c.tooShort ? 1 : 0,
      reasons: JSON.stringify(c.tooShort ? [...c.w.reasons, tooShortReason()] : c.w.reasons),
      text_hash: c.w.prepared?.textHash ?? null,
      shingle_count: c.shingleCount,
      bands: c.bands ? toBytes(encodeKeys(c.bands)) : null,
      updated_at: at,
    });
  }
  return { del, ins, sets, written, kept };
}

/**
 * PostgreSQL, a few works: one statement, the entries' upsert with the band keys' deletes and
 * inserts and the sets as data-modifying CTEs (arrays, not rows of parameters). Empties the
 * plan's del, ins and sets (written here).
 */
async function writeSmall(trx: DupDb, plan: WritePlan): Promise<void> {
  const { del, ins, sets, written } = plan;
  // Each CTE adds its name as a table; the statement never reads them, so the chain stays typed
  // as the plain tables (`as Chain`: Kysely's types are invariant in the table set).
  type Chain = QueryCreator<DupTables>;
  let q: Chain = trx;
  if (del.length)
    q = q.with("gone", (qc) =>
      qc
        .deleteFrom("dup_band")
        .where(
          sql<boolean>`(band_key, work_id) in (select k, w from unnest(cast(${idArray(del.map((d) => d[0]))} as bigint[]), cast(${idArray(del.map((d) => d[1]))} as bigint[])) as u(k, w))`,
        ),
    ) as unknown as Chain;
  if (ins.length)
    q = q.with("added", (qc) =>
      qc
        .insertInto("dup_band")
        .columns(["band_key", "work_id"])
        .expression(
          sql`select k, w from unnest(cast(${idArray(ins.filter((_, i) => i % 2 === 0))} as bigint[]), cast(${idArray(ins.filter((_, i) => i % 2 === 1))} as bigint[])) as u(k, w)`,
        )
        .onConflict((oc) => oc.doNothing()),
    ) as unknown as Chain;
  if (sets.length) q = q.with("stored", (qc) => upsertSets(qc, sets)) as unknown as Chain;
  if (written.length) await upsertEntries(q, written);
  else if (del.length || ins.length || sets.length) throw new Error("band keys without an entry");
  del.length = 0;
  ins.length = 0;
  sets.length = 0;
}

/** Writes the rest of a plan in batches (`entriesDone`: writeSmall has upserted the entries). */
async function writePlan(trx: DupDb, plan: WritePlan, entriesDone: boolean): Promise<void> {
  await deleteBandRows(trx, plan.del);
  for (const part of chunks(entriesDone ? [] : plan.written, 200)) await upsertEntries(trx, part);
  for (const part of chunks(plan.sets, 100)) await upsertSets(trx, part).execute();
  // A failed extraction: status and reasons change, the last set and bands stay.
  for (const r of plan.kept) {
    await trx
      .insertInto("dup_entry")
      .values({
        work_id: r.work_id,
        year: r.year,
        contest_id: r.contest_id,
        status: r.status,
        reasons: r.reasons,
        updated_at: r.updated_at,
      })
      .onConflict((oc) => oc.column("work_id").doUpdateSet({ status: r.status, reasons: r.reasons, updated_at: r.updated_at }))
      .execute();
  }
  await insertRows(trx, "dup_band", ["band_key", "work_id"], plan.ins, "on conflict do nothing");
}

/**
 * Writes entries and their band keys in one transaction: per work, deletes the band keys it
 * no longer has and inserts the new ones (an unchanged key is left alone).
 *
 * `deferBands` (a rebuild's extraction phase, followed by recomputeBands, which builds
 * dup_band anew from every entry): a work that holds no band keys yet gets its entry (with
 * the keys in its `bands` blob) but no dup_band rows — random B-tree writes that the rebuild
 * would throw away. Returns the ids so deferred; a rebuild that fails before its swap gives
 * them their rows with insertBandRows. A work that already has keys is written as usual.
 */
export async function writeEntries(
  db: Db,
  items: EntryWrite[],
  settings: DupSettings,
  opts: { deferBands?: boolean } = {},
): Promise<number[]> {
  const deferred: number[] = [];
  if (items.length === 0) return deferred;
  const computed = computeWrites(items, settings);
  // PostgreSQL, a few works (adding one): one statement reads the shadow and the entries, one writes.
  const small = isPg(db) && computed.length <= SMALL_WRITE;
  await dupDb(db)
    .transaction()
    .execute(async (trx) => {
      const ids = computed.map((c) => c.w.workId);
      const { old, st } = small ? await readOldSmall(trx, ids) : await readOldBatched(trx, ids);
      const plan = planWrites(computed, old, !!opts.deferBands, deferred);
      if (small) await writeSmall(trx, plan);
      await writePlan(trx, plan, small);
      await shadowWrite(
        trx,
        st,
        computed.map((c) => {
          const stored = old.get(c.w.workId)?.bands ?? [];
          return { workId: c.w.workId, stored, next: c.w.prepared === null ? stored : (c.bands ?? []) };
        }),
      );
    });
  return deferred;
}

/** Gives works their entry's band keys in dup_band (those missing; see writeEntries' deferBands). */
export async function insertBandRows(db: Db, workIds: number[]): Promise<void> {
  for (const ids of chunks(workIds, 1000)) {
    await dupDb(db)
      .transaction()
      .execute(async (trx) => {
        // (A running rebuild loads every entry's keys from its blob: the old dup_band it replaces needs no -1/+1 rows.)
        await readShadow(trx, "share");
        const rows = await trx
          .selectFrom("dup_entry")
          .select(["work_id", "bands"])
          .where("work_id", "in", ids)
          .where("bands", "is not", null)
          .execute();
        const ins: number[] = [];
        for (const r of rows) for (const k of new Set(decodeKeys(fromBytes(r.bands)))) ins.push(k, Number(r.work_id));
        await insertRows(trx, "dup_band", ["band_key", "work_id"], ins, "on conflict do nothing");
      });
  }
}

/** Removes works' entries and band keys. */
export async function removeWorks(db: Db, workIds: number[]): Promise<void> {
  if (workIds.length === 0) return;
  await dupDb(db)
    .transaction()
    .execute(async (trx) => {
      const st = await readShadow(trx, "share");
      for (const part of chunks(workIds, 500)) {
        const rows = await trx.selectFrom("dup_entry").select(["work_id", "bands"]).where("work_id", "in", part).execute();
        const del: Array<[number, number]> = [];
        for (const r of rows) if (r.bands) for (const k of decodeKeys(fromBytes(r.bands))) del.push([k, Number(r.work_id)]);
        await shadowWrite(
          trx,
          st,
          rows.map((r) => ({ workId: Number(r.work_id), stored: r.bands ? decodeKeys(fromBytes(r.bands)) : [], next: null })),
        );
        await deleteBandRows(trx, del);
        await trx.deleteFrom("dup_entry").where("work_id", "in", part).execute();
        await trx.deleteFrom("dup_set").where("work_id", "in", part).execute();
      }
    });
}
