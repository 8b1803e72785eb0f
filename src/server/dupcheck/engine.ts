/**
 * The duplicate-check engine's database side: writing index entries and band keys (batched,
 * one short transaction per batch), finding candidates by band keys and comparing them
 * exactly, explaining a pair, the ignored-shingle computation and the rebuild. The public
 * API with its documentation is ./index.ts.
 */
import { createHash } from "node:crypto";
import { CompiledQuery, PostgresAdapter, sql, type Kysely, type QueryCreator } from "kysely";
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import { conflict, notFound } from "../../shared/errors";
import type {
  DupCheckResult,
  DupEntryStatus,
  DupEntryView,
  DupExplain,
  DupExplainSide,
  DupIgnoredShingle,
  DupIndexStats,
  DupMatch,
  DupPassage,
  DupReason,
  DupRebuildInfo,
  DupRebuildProgress,
  DupSettings,
} from "../../shared/dupcheck/schema";
import { CountTable } from "./count-table";
import { KeyRows } from "./key-sort";
import { joinSections, workText, type WorkText } from "./extract";
import { BANDS, HASHES, MIN_BAND_MATCHES, ROWS, bandKeys, decodeKeys, encodeKeys, signature } from "./minhash";
import { normalise, toOriginalRange } from "./normalise";
import {
  SHINGLE,
  U32Set,
  anchorKeys,
  compareStored,
  decodeSet,
  encodeSet,
  intersectionSize,
  shingleSequence,
  shingleSet,
  similarityOf,
  sortedUnique,
  without,
} from "./shingles";
import { getSettings, ignoredSet, levelOf, readSetting, writeSetting } from "./settings";
import { mergeRanges, sharedPassages } from "./winnow";

/** Changes whenever normalisation, shingling or signatures change: every text_hash then differs. */
export const PARAMS_TAG = "dupcheck-v2;shingle=3;oph=192;bands=64x3;min=2;anchors=12/48";
export const DUP_PARAMS = { hashes: HASHES, bands: BANDS, rows: ROWS, minBandMatches: MIN_BAND_MATCHES, shingle: SHINGLE };
/** A work sharing at least this many passage anchors is a candidate (a copied passage of ~150+ characters). */
export const MIN_ANCHOR_MATCHES = 3;
/** An anchor held by more works than this is boilerplate, not a sign of copying: skipped in a check. */
export const ANCHOR_MAX_WORKS = 200;

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const nowIso = () => new Date().toISOString();
const toBytes = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
const fromBytes = (v: unknown): Uint8Array =>
  v instanceof Uint8Array ? v : v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(0);

export function isIndexable(status: string): boolean {
  return status !== "draft";
}

/**
 * SQLite: runs `fn` with a large page cache on the writer connection (restored after). A
 * rebuild rewrites band keys all over dup_band's B-tree; with the default 2 MB cache nearly
 * every row written reads and writes a page back. DUP_REBUILD_CACHE_MB (default 512) sets
 * the size; 0 leaves the cache alone.
 */
export async function withRebuildCache<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const mb = Number(process.env.DUP_REBUILD_CACHE_MB ?? 512);
  if (isPg(db) || !(mb > 0)) return fn();
  const before = (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]?.cache_size ?? -2000;
  await sql.raw(`pragma cache_size = ${-Math.round(mb * 1024)}`).execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`pragma cache_size = ${Number(before)}`).execute(db);
  }
}

function chunks<T>(a: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}

// ───────────────────────────── preparing a text ─────────────────────────────

export interface Prepared {
  /** the full sorted shingle set (stored) */
  full: Uint32Array;
  /** without the ignored shingles (compared and signed) */
  eff: Uint32Array;
  /** passage anchors (negative keys, see anchorKeys) */
  anchors: number[];
  textHash: string;
}

export function prepareText(text: string, ignored: Uint32Array): Prepared {
  const n = normalise(text);
  const seq = shingleSequence(n.text);
  const full = sortedUnique(seq);
  return {
    full,
    eff: without(full, ignored),
    anchors: anchorKeys(n.text, ignored, seq),
    textHash: createHash("sha256").update(PARAMS_TAG).update("\0").update(n.text).digest("hex"),
  };
}

/** Band keys of an effective set, or null when it is too short to check. */
function bandsOf(eff: Uint32Array, settings: DupSettings): number[] | null {
  if (eff.length < settings.minShingles) return null;
  const sig = signature(eff);
  return sig ? bandKeys(sig) : null;
}

const TOO_SHORT_MESSAGE = "文本过短（去掉标点、空格和常见套话后不足以比对），无法可靠查重";
const tooShortReason = (): DupReason => ({ code: "too_short", fileId: null, filename: null, message: TOO_SHORT_MESSAGE });

// ───────────────────────────── the rebuild's shadow table ─────────────────────────────
//
// A full rebuild (recomputeBands) does not rewrite dup_band in place: it gathers every work's
// new keys in memory (KeyRows, ./key-sort.ts), writes dup_band_next from them in key order
// (SQLite: WITHOUT ROWID, PostgreSQL: the primary key after the load), applies the rows
// writers appended meanwhile to dup_band_load (a heap: no index), and swaps it in with a
// rename in one transaction, with the entries' staged columns (dup_entry_next). Past its
// memory budget (DUP_REBUILD_SORT_MB) the keys go to dup_band_load too, and dup_band_next is
// built from the load by the database (group by band_key, work_id having sum(sign) > 0).
// The row "bandShadow" of dup_setting (written by the first rebuild; none = no rebuild runs)
// says whether a rebuild runs and how far it has read (cursor: the keys of work ids up to it
// are read). Every writer of dup_band reads it first in its transaction, on PostgreSQL after
// taking the shadow's advisory lock shared (a rebuild's page holds it exclusively, so pages
// and writers never interleave; an advisory lock needs no row, so a migrated database holds
// no data rows and restores into it stay possible). A writer changing a work the rebuild has
// already read appends to the load the work's keys there with sign -1 and its new keys with
// +1 (and drops its staged columns): the keys read plus the load's rows, taken in order (the
// last sign of a (band_key, work_id) wins; summed, where the database sums the load), are then
// the work's current keys. Works above the cursor are read later.

const SHADOW_KEY = "bandShadow";
/** The advisory lock key of the shadow (PostgreSQL): writers take it shared, a rebuild page exclusively. */
const SHADOW_LOCK = 7_301_024;
interface ShadowState {
  active: boolean;
  cursor: number;
  /** load rows up to this id are in dup_band_next; later ones are applied at the swap */
  buildMaxId: number;
}

async function shadowState(trx: Kysely<any>, lock: "share" | "update" | null): Promise<ShadowState> {
  if (lock && isPg(trx)) {
    if (lock === "share") await sql`select pg_advisory_xact_lock_shared(${sql.lit(SHADOW_LOCK)})`.execute(trx);
    else await sql`select pg_advisory_xact_lock(${sql.lit(SHADOW_LOCK)})`.execute(trx);
  }
  const r = await trx.selectFrom("dup_setting").select("value").where("key", "=", SHADOW_KEY).executeTakeFirst();
  return r ? { active: false, cursor: 0, buildMaxId: 0, ...JSON.parse(r.value) } : { active: false, cursor: 0, buildMaxId: 0 };
}

async function setShadowState(trx: Kysely<any>, st: ShadowState): Promise<void> {
  const value = JSON.stringify(st);
  await trx
    .insertInto("dup_setting")
    .values({ key: SHADOW_KEY, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}

const intLit = (v: number) => {
  if (!Number.isSafeInteger(v)) throw new Error(`not an integer key: ${v}`);
  return String(v);
};

/** Rows per multi-row insert of insertRows: one statement text per table and width, prepared once. */
const INSERT_ROWS = 500;

/**
 * Inserts rows of integers with bound parameters, INSERT_ROWS rows a statement (the same text
 * each time, so SQLite prepares it once per connection; about 4× faster than literal
 * multi-row inserts that are parsed anew each time). `values` holds the rows one after the
 * other (columns.length values a row: no array per row, a rebuild writes ~100 rows a work).
 * `tail` is appended (e.g. on conflict do nothing).
 */
async function insertRows(trx: Kysely<any>, table: string, columns: string[], values: number[], tail = ""): Promise<void> {
  const width = columns.length;
  const textOf = (n: number) => {
    let ph = 0;
    const one = () => `(${columns.map(() => (isPg(trx) ? `$${++ph}` : "?")).join(",")})`;
    return `insert into ${table} (${columns.join(", ")}) values ${Array.from({ length: n }, one).join(",")}${tail ? ` ${tail}` : ""}`;
  };
  let full: string | null = null;
  const rows = Math.floor(values.length / width);
  for (let i = 0; i < rows; i += INSERT_ROWS) {
    const n = Math.min(INSERT_ROWS, rows - i);
    const params = values.slice(i * width, (i + n) * width);
    for (const v of params) if (!Number.isSafeInteger(v)) throw new Error(`not an integer key: ${v}`);
    const text = n === INSERT_ROWS ? (full ??= textOf(n)) : textOf(n);
    await trx.executeQuery(CompiledQuery.raw(text, params));
  }
}

/** A PostgreSQL array literal of integer keys, for one `cast(… as bigint[])` parameter. */
const idArray = (keys: number[]) => `{${keys.map(intLit).join(",")}}`;

/** writeEntries on PostgreSQL with at most this many works: the one-statement write (see there). */
const SMALL_WRITE = 20;

type EntryRow = {
  work_id: number;
  year: number;
  contest_id: number;
  status: DupEntryStatus;
  too_short: number;
  reasons: string;
  text_hash: string | null;
  shingle_count: number;
  bands: Buffer | null;
  updated_at: string;
};

/** Inserts or replaces dup_entry rows (through `q`, which may carry CTEs). */
async function upsertEntries(q: QueryCreator<any>, rows: EntryRow[]): Promise<void> {
  await q
    .insertInto("dup_entry")
    .values(rows)
    .onConflict((oc) =>
      oc.column("work_id").doUpdateSet((eb) => ({
        year: eb.ref("excluded.year"),
        contest_id: eb.ref("excluded.contest_id"),
        status: eb.ref("excluded.status"),
        too_short: eb.ref("excluded.too_short"),
        reasons: eb.ref("excluded.reasons"),
        text_hash: eb.ref("excluded.text_hash"),
        shingle_count: eb.ref("excluded.shingle_count"),
        bands: eb.ref("excluded.bands"),
        updated_at: eb.ref("excluded.updated_at"),
      })),
    )
    .execute();
}

/** The statement inserting or replacing dup_set rows (run on its own, or as a CTE). */
const upsertSets = (q: QueryCreator<any>, rows: Array<{ work_id: number; shingles: Buffer }>) =>
  q
    .insertInto("dup_set")
    .values(rows)
    .onConflict((oc) => oc.column("work_id").doUpdateSet((eb) => ({ shingles: eb.ref("excluded.shingles") })));

/** Appends (band_key, work_id, sign) rows to dup_band_load (`rows`: the three values of each row in turn). */
async function appendLoad(trx: Kysely<any>, rows: number[]): Promise<void> {
  await insertRows(trx, "dup_band_load", ["band_key", "work_id", "sign"], rows);
}

/**
 * A writer's part of a running rebuild (inside the writer's transaction, after shadowState):
 * for works the rebuild has read, the load gets -1 for the keys it holds for the work (the
 * staged ones, else the entry's stored ones) and +1 for `next` (null: the work is removed).
 */
async function shadowWrite(
  trx: Kysely<any>,
  st: ShadowState,
  changes: Array<{ workId: number; stored: number[]; next: number[] | null }>,
): Promise<void> {
  if (!st.active) return;
  const touched = changes.filter((c) => c.workId <= st.cursor);
  if (touched.length === 0) return;
  const staged = new Map<number, number[]>();
  const ids = touched.map((c) => c.workId);
  for (const part of chunks(ids, 500)) {
    const rows = await trx.selectFrom("dup_entry_next").select(["work_id", "bands"]).where("work_id", "in", part).execute();
    for (const r of rows) staged.set(Number(r.work_id), r.bands ? decodeKeys(fromBytes(r.bands)) : []);
  }
  const load: number[] = [];
  for (const c of touched) {
    for (const k of new Set(staged.get(c.workId) ?? c.stored)) load.push(k, c.workId, -1);
    for (const k of new Set(c.next ?? [])) load.push(k, c.workId, 1);
  }
  await appendLoad(trx, load);
  for (const part of chunks(ids, 500)) await trx.deleteFrom("dup_entry_next").where("work_id", "in", part).execute();
}

// ───────────────────────────── writing entries ─────────────────────────────

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
  const computed: ComputedWrite[] = items
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
  const pg = isPg(db);
  // PostgreSQL, a few works (adding one): one statement reads the shadow and the entries, one writes.
  const small = pg && computed.length <= SMALL_WRITE;
  await db.transaction().execute(async (trx) => {
    const ids = computed.map((c) => c.w.workId);
    const old = new Map<number, { bands: number[]; textHash: string | null }>();
    let st: ShadowState;
    if (small) {
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
      st = { active: false, cursor: 0, buildMaxId: 0 };
      for (const row of r.rows) {
        if (row.work_id === null) st = { ...st, ...JSON.parse(row.value!) };
        else old.set(Number(row.work_id), { bands: row.bands ? decodeKeys(fromBytes(row.bands)) : [], textHash: row.text_hash });
      }
    } else {
      st = await shadowState(trx, "share");
      for (const part of chunks(ids, 500)) {
        let q = trx.selectFrom("dup_entry").select(["work_id", "bands", "text_hash"]).where("work_id", "in", part);
        if (pg) q = q.forUpdate();
        for (const r of await q.execute())
          old.set(Number(r.work_id), { bands: r.bands ? decodeKeys(fromBytes(r.bands)) : [], textHash: r.text_hash });
      }
    }
    const del: Array<[number, number]> = [];
    const ins: number[] = []; // band_key, work_id of each row in turn
    const at = nowIso();
    // The sets to write: the text changed (the text hash covers the shingling parameters; a
    // text_hash is stored only together with a set). An unchanged text keeps its stored set.
    const sets = computed
      .filter((c) => c.shingles && old.get(c.w.workId)?.textHash !== c.w.prepared!.textHash)
      .map((c) => ({ work_id: c.w.workId, shingles: toBytes(c.shingles!) }));
    const rows = computed.map((c) => {
      const prev = old.get(c.w.workId);
      const keep = c.w.prepared === null;
      if (!keep && opts.deferBands && !prev?.bands.length) {
        if (c.bands?.length) deferred.push(c.w.workId);
      } else if (!keep) {
        const next = new Set(c.bands ?? []);
        const before = new Set(prev?.bands ?? []);
        for (const k of before) if (!next.has(k)) del.push([k, c.w.workId]);
        for (const k of next) if (!before.has(k)) ins.push(k, c.w.workId);
      }
      return {
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
        keep,
      };
    });
    const written = rows.filter((r) => !r.keep);
    if (small) {
      // One statement: the entries' upsert, with the band keys' deletes and inserts as data-modifying CTEs (arrays, not rows of parameters).
      let q: QueryCreator<any> = trx;
      if (del.length)
        q = q.with("gone", (qc) =>
          qc
            .deleteFrom("dup_band")
            .where(
              sql<boolean>`(band_key, work_id) in (select k, w from unnest(cast(${idArray(del.map((d) => d[0]))} as bigint[]), cast(${idArray(del.map((d) => d[1]))} as bigint[])) as u(k, w))`,
            ),
        );
      if (ins.length)
        q = q.with("added", (qc) =>
          qc
            .insertInto("dup_band")
            .columns(["band_key", "work_id"])
            .expression(
              sql`select k, w from unnest(cast(${idArray(ins.filter((_, i) => i % 2 === 0))} as bigint[]), cast(${idArray(ins.filter((_, i) => i % 2 === 1))} as bigint[])) as u(k, w)`,
            )
            .onConflict((oc) => oc.doNothing()),
        );
      if (sets.length) q = q.with("stored", (qc) => upsertSets(qc, sets));
      if (written.length)
        await upsertEntries(
          q,
          written.map(({ keep: _keep, ...r }) => r),
        );
      else if (del.length || ins.length || sets.length) throw new Error("band keys without an entry");
      del.length = 0;
      ins.length = 0;
      sets.length = 0;
    }
    for (const part of chunks(del, 400)) {
      await sql`delete from dup_band where (band_key, work_id) in (values ${sql.join(part.map(([k, w]) => sql`(cast(${k} as bigint), cast(${w} as bigint))`))})`.execute(
        trx,
      );
    }
    for (const part of chunks(small ? [] : written, 200))
      await upsertEntries(
        trx,
        part.map(({ keep: _keep, ...r }) => r),
      );
    for (const part of chunks(sets, 100)) await upsertSets(trx, part).execute();
    // A failed extraction: status and reasons change, the last set and bands stay.
    for (const r of rows.filter((r) => r.keep)) {
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
    await insertRows(trx, "dup_band", ["band_key", "work_id"], ins, "on conflict do nothing");
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
    await db.transaction().execute(async (trx) => {
      // (A running rebuild loads every entry's keys from its blob: the old dup_band it replaces needs no -1/+1 rows.)
      await shadowState(trx, "share");
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
  await db.transaction().execute(async (trx) => {
    const st = await shadowState(trx, "share");
    for (const part of chunks(workIds, 500)) {
      const rows = await trx.selectFrom("dup_entry").select(["work_id", "bands"]).where("work_id", "in", part).execute();
      const del: Array<[number, number]> = [];
      for (const r of rows) if (r.bands) for (const k of decodeKeys(fromBytes(r.bands))) del.push([k, Number(r.work_id)]);
      await shadowWrite(
        trx,
        st,
        rows.map((r) => ({ workId: Number(r.work_id), stored: r.bands ? decodeKeys(fromBytes(r.bands)) : [], next: null })),
      );
      for (const d of chunks(del, 400))
        await sql`delete from dup_band where (band_key, work_id) in (values ${sql.join(d.map(([k, w]) => sql`(cast(${k} as bigint), cast(${w} as bigint))`))})`.execute(
          trx,
        );
      await trx.deleteFrom("dup_entry").where("work_id", "in", part).execute();
      await trx.deleteFrom("dup_set").where("work_id", "in", part).execute();
    }
  });
}

// ───────────────────────────── indexing works ─────────────────────────────

export interface IndexOutcome {
  workId: number;
  status: DupEntryStatus;
  tooShort: boolean;
  shingles: number;
  reasons: DupReason[];
  changed: boolean;
}

/** Extracts a work's text and prepares its write (null: the work is gone or a draft). */
async function gather(
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

// ───────────────────────────── checking ─────────────────────────────

export interface CheckOptions {
  maxYear?: number;
  allYears?: boolean;
  excludeWorkIds?: number[];
  minSimilarity?: number;
  limit?: number;
}

const emptyResult = (
  status: DupCheckResult["status"],
  reasons: DupReason[],
  tooShort: boolean,
  reason: string | null,
  shingles = 0,
): DupCheckResult => ({
  tooShort,
  reason,
  status,
  reasons,
  shingles,
  candidates: 0,
  matches: [],
  more: 0,
});

/** A check's anchor statement has a multiple of this many arms (padded). */
const ANCHOR_ARMS = 32;
/** A key no anchor has (anchors are negative): pads a check's anchor list (its band keys are always BANDS). */
const PAD_KEY = Number.MAX_SAFE_INTEGER;
const ID_LIST_SIZES = [8, 32, 128, 500];

const ignoredLookups = new WeakMap<Uint32Array, U32Set>();
/** The ignored list as a hash set (one per list: ignoredSet gives the same array until the list changes). */
function ignoredLookup(ignored: Uint32Array): U32Set {
  let u = ignoredLookups.get(ignored);
  if (!u) ignoredLookups.set(ignored, (u = new U32Set(ignored)));
  return u;
}

/** Compares an effective set with every work sharing enough band keys or passage anchors (negative keys). */
async function matchSet(
  db: Db,
  eff: Uint32Array,
  keys: number[],
  opts: CheckOptions & { selfId?: number },
  settings: DupSettings,
  ignored: Uint32Array,
): Promise<{ candidates: number; matches: DupMatch[]; more: number }> {
  const exclude = new Set(opts.excludeWorkIds ?? []);
  if (opts.selfId !== undefined) exclude.add(opts.selfId);
  // Works sharing at least MIN_BAND_MATCHES band keys (one row per shared key).
  const bandKeyList = keys.filter((k) => k >= 0);
  const anchorList = keys.filter((k) => k < 0);
  let effSet: U32Set | undefined;
  const compare = (r: { work_id: number | string; year: number; contest_id: number; shingles: unknown }, all: DupMatch[]) => {
    // eff holds no ignored shingle, so |eff ∩ b| = |eff ∩ (b − ignored)|.
    const { shared, size: sizeB } = compareStored(fromBytes(r.shingles), (effSet ??= new U32Set(eff)), ignoredLookup(ignored));
    const s = similarityOf(shared, eff.length, sizeB);
    if (s.similarity < minSimilarity || shared === 0) return;
    all.push({
      workId: Number(r.work_id),
      year: r.year,
      contestId: r.contest_id,
      jaccard: s.jaccard,
      containmentAB: s.containmentAB,
      containmentBA: s.containmentBA,
      similarity: s.similarity,
      level: levelOf(s.similarity, settings),
      shared,
    });
  };
  const minSimilarity = opts.minSimilarity ?? 0.1;
  const limit = Math.max(1, Math.min(opts.limit ?? 50, 1000));
  const finish = (all: DupMatch[], candidates: number) => {
    all.sort((a, b) => b.similarity - a.similarity || b.jaccard - a.jaccard || a.workId - b.workId);
    return { candidates, matches: all.slice(0, limit), more: Math.max(0, all.length - limit) };
  };
  if (isPg(db)) {
    // PostgreSQL: one statement finds the candidates (the same rules as below, counted by the
    // database) and returns their sets: one round trip instead of one per step. Each key is
    // looked up on its own (lateral), so the plan is index lookups whatever the statistics say.
    const yearCut = !opts.allYears && opts.maxYear !== undefined ? sql`and e.year <= ${opts.maxYear}` : sql``;
    const rows = (
      await sql<{ work_id: number | string; year: number; contest_id: number; shingles: Uint8Array }>`with
        bh as (select b.work_id from unnest(cast(${idArray(bandKeyList)} as bigint[])) as a(k) cross join lateral (select work_id from dup_band where band_key = a.k offset 0) as b group by b.work_id having count(*) >= ${sql.lit(MIN_BAND_MATCHES)}),
        ak as (select a.k, b.work_id, count(*) over (partition by a.k) as n from unnest(cast(${idArray(anchorList)} as bigint[])) as a(k) cross join lateral (select work_id from dup_band where band_key = a.k limit ${sql.lit(ANCHOR_MAX_WORKS + 1)}) as b),
        ah as (select work_id from ak where n <= ${sql.lit(ANCHOR_MAX_WORKS)} group by work_id having count(*) >= ${sql.lit(MIN_ANCHOR_MATCHES)})
      select e.work_id, e.year, e.contest_id, s.shingles from dup_entry as e join dup_set as s on s.work_id = e.work_id
      where e.work_id in (select work_id from bh union select work_id from ah) and e.work_id <> all(cast(${idArray([...exclude])} as bigint[])) ${yearCut}`.execute(
        db,
      )
    ).rows;
    const all: DupMatch[] = [];
    for (const r of rows) compare(r, all);
    return finish(all, rows.length);
  }
  // SQLite: the database counts (only candidates come back, not every posting row): works
  // sharing ≥ MIN_BAND_MATCHES band keys, and works sharing ≥ MIN_ANCHOR_MATCHES anchors of
  // at most ANCHOR_MAX_WORKS works each (each anchor read to at most that many + 1 rows).
  // Few statement shapes (prepared once per connection): BANDS band keys, the anchors padded
  // to a multiple of ANCHOR_ARMS arms.
  const anchorPadded = anchorList.concat(
    new Array<number>((ANCHOR_ARMS - (anchorList.length % ANCHOR_ARMS)) % ANCHOR_ARMS).fill(PAD_KEY),
  );
  const arms = anchorPadded.map(
    (k, i) =>
      sql`select * from (select band_key, work_id from dup_band where band_key = ${k} limit ${sql.lit(ANCHOR_MAX_WORKS + 1)}) as a${sql.raw(String(i))}`,
  );
  const anchorPart = arms.length ? sql` union select work_id from ah` : sql``;
  const anchorCtes = arms.length
    ? sql`, a as materialized (${sql.join(arms, sql` union all `)}),
      ah as (select work_id from a where band_key in (select band_key from a group by band_key having count(*) <= ${sql.lit(ANCHOR_MAX_WORKS)}) group by work_id having count(*) >= ${sql.lit(MIN_ANCHOR_MATCHES)})`
    : sql``;
  const found = await sql<{
    work_id: number | string;
  }>`with bh as (select work_id from dup_band where band_key in (${sql.join(bandKeyList)}) group by work_id having count(*) >= ${sql.lit(MIN_BAND_MATCHES)})${anchorCtes}
    select work_id from bh${anchorPart}`.execute(db);
  const ids: number[] = [];
  for (const r of found.rows) {
    const id = Number(r.work_id);
    if (!exclude.has(id)) ids.push(id);
  }
  const all: DupMatch[] = [];
  let candidates = 0;
  for (const part of chunks(ids, 500)) {
    // The id list padded to a few fixed lengths (with -1, no work's id): few statement texts to prepare.
    const size = ID_LIST_SIZES.find((n) => n >= part.length) ?? part.length;
    const padded = part.concat(new Array<number>(size - part.length).fill(-1));
    let q = db
      .selectFrom("dup_set as s")
      .innerJoin("dup_entry as e", "e.work_id", "s.work_id")
      .select(["s.work_id", "e.year", "e.contest_id", "s.shingles"])
      .where("s.work_id", "in", padded);
    if (!opts.allYears && opts.maxYear !== undefined) q = q.where("e.year", "<=", opts.maxYear);
    for (const r of await q.execute()) {
      candidates++;
      compare(r, all);
    }
  }
  return finish(all, candidates);
}

export async function checkWork(db: Db, workId: number, opts: CheckOptions = {}): Promise<DupCheckResult> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  const e = await db
    .selectFrom("dup_entry as e")
    .leftJoin("dup_set as s", "s.work_id", "e.work_id")
    .select(["e.year", "e.status", "e.reasons", "s.shingles", "e.bands"])
    .where("e.work_id", "=", workId)
    .executeTakeFirst();
  if (!e) return emptyResult("missing", [], true, "作品尚未建立查重索引，请稍后再查");
  const reasons = JSON.parse(e.reasons) as DupReason[];
  const visible = reasons.filter((r) => r.code !== "too_short");
  if (!e.shingles)
    return emptyResult(
      e.status,
      visible,
      true,
      e.status === "failed" ? (reasons[0]?.message ?? "查重索引失败") : "作品正在建立查重索引，请稍后再查",
    );
  const eff = without(decodeSet(fromBytes(e.shingles)), ignored);
  const keys = bandsOf(eff, settings);
  if (!keys) return emptyResult(e.status, visible, true, TOO_SHORT_MESSAGE, eff.length);
  const anchors = e.bands ? decodeKeys(fromBytes(e.bands)).filter((k) => k < 0) : [];
  const r = await matchSet(
    db,
    eff,
    [...keys, ...anchors],
    { ...opts, maxYear: opts.maxYear ?? e.year, selfId: workId },
    settings,
    ignored,
  );
  return { tooShort: false, reason: null, status: e.status, reasons: visible, shingles: eff.length, ...r };
}

export async function checkText(db: Db, text: string, opts: CheckOptions = {}): Promise<DupCheckResult> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  const p = prepareText(text, ignored);
  const keys = bandsOf(p.eff, settings);
  if (!keys) return emptyResult("text", [], true, TOO_SHORT_MESSAGE, p.eff.length);
  const r = await matchSet(db, p.eff, [...keys, ...p.anchors], opts, settings, ignored);
  return { tooShort: false, reason: null, status: "text", reasons: [], shingles: p.eff.length, ...r };
}

// ───────────────────────────── explaining a pair ─────────────────────────────

export type ExplainSideInput = number | { text: string; title?: string };

async function sideOf(db: Db, store: BlobStore, x: ExplainSideInput): Promise<Omit<DupExplainSide, "ranges">> {
  if (typeof x === "number") {
    const wt = await workText(db, store, x);
    if (!wt) throw notFound("作品不存在");
    return {
      workId: wt.workId,
      year: wt.year,
      contestId: wt.contestId,
      title: wt.title,
      text: wt.text,
      sections: wt.sections,
      skipped: wt.skipped,
    };
  }
  const { text, sections } = joinSections([{ key: "text", label: x.title ?? "待查文本", text: x.text }]);
  return { workId: null, year: null, contestId: null, title: x.title ?? null, text, sections, skipped: [] };
}

const ignoredHas = (ignored: Uint32Array, v: number) => {
  let lo = 0;
  let hi = ignored.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (ignored[m] === v) return true;
    if (ignored[m] < v) lo = m + 1;
    else hi = m - 1;
  }
  return false;
};

export async function explainPair(db: Db, store: BlobStore, a: ExplainSideInput, b: ExplainSideInput): Promise<DupExplain> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  const [sa, sb] = await Promise.all([sideOf(db, store, a), sideOf(db, store, b)]);
  const na = normalise(sa.text);
  const nb = normalise(sb.text);
  const ea = without(shingleSet(na.text), ignored);
  const eb = without(shingleSet(nb.text), ignored);
  const tooShort = ea.length < settings.minShingles || eb.length < settings.minShingles;
  const s = similarityOf(intersectionSize(ea, eb), ea.length, eb.length);
  const passages: DupPassage[] = sharedPassages(na.text, nb.text).map((p) => {
    const seq = shingleSequence(na.text.slice(p.aStart, p.aEnd));
    let common = 0;
    for (const h of seq) if (ignoredHas(ignored, h)) common++;
    const ra = toOriginalRange(na, p.aStart, p.aEnd);
    const rb = toOriginalRange(nb, p.bStart, p.bEnd);
    return {
      aStart: ra.start,
      aEnd: ra.end,
      bStart: rb.start,
      bEnd: rb.end,
      length: p.aEnd - p.aStart,
      common: seq.length > 0 && common * 2 >= seq.length,
    };
  });
  return {
    a: { ...sa, ranges: mergeRanges(passages.map((p) => ({ start: p.aStart, end: p.aEnd }))) },
    b: { ...sb, ranges: mergeRanges(passages.map((p) => ({ start: p.bStart, end: p.bEnd }))) },
    passages,
    jaccard: tooShort ? 0 : s.jaccard,
    containmentAB: tooShort ? 0 : s.containmentAB,
    containmentBA: tooShort ? 0 : s.containmentBA,
    similarity: tooShort ? 0 : s.similarity,
    level: tooShort ? "none" : levelOf(s.similarity, settings),
    tooShort,
  };
}

export function clusterPairs(pairs: Array<{ a: number; b: number }>): number[][] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    while (parent.get(x) !== r) {
      const n = parent.get(x)!;
      parent.set(x, r);
      x = n;
    }
    return r;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  const groups = new Map<number, number[]>();
  for (const x of parent.keys()) {
    const r = find(x);
    const g = groups.get(r);
    if (g) g.push(x);
    else groups.set(r, [x]);
  }
  return [...groups.values()].map((g) => g.sort((x, y) => x - y)).sort((x, y) => y.length - x.length || x[0] - y[0]);
}

// ───────────────────────────── ignored shingles ─────────────────────────────

/** Works sampled for document frequencies. */
export const FREQUENCY_SAMPLE = 20_000;

/** Samples for ignored shingles still without one, from a text being indexed. */
async function fillSamples(db: Db, text: string): Promise<void> {
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

// ───────────────────────────── rebuild ─────────────────────────────

/**
 * Recomputes every stored entry's effective set, too-short flag, signature and band keys
 * under the current ignored list and settings, page by page in work id order, into a shadow
 * table swapped in at the end (see "the rebuild's shadow table" above). Returns the number of
 * entries whose columns changed. `beforeSwap` (tests) runs between the build and the swap.
 */
export function recomputeBands(
  db: Db,
  settings: DupSettings,
  onProgress?: (done: number, total: number) => void | Promise<void>,
  signal?: AbortSignal,
  pageSize = 1000,
  beforeSwap?: () => Promise<void>,
): Promise<number> {
  return withRebuildCache(db, async () => {
    try {
      return await recomputeBandsNow(db, settings, onProgress, signal, pageSize, beforeSwap);
    } catch (e) {
      await dropShadow(db).catch(() => undefined);
      throw e;
    }
  });
}

const SHADOW_TABLES = ["dup_band_load", "dup_band_next", "dup_entry_next"];

/** Applies load rows (in id order) to a band table: per (key, work) the last row's sign says whether the row is there. */
async function applyLoadRows(
  trx: Kysely<any>,
  table: string,
  rows: Array<{ band_key: number | string; work_id: number | string; sign: number | string }>,
): Promise<void> {
  const final = new Map<string, { k: number; w: number; s: number }>();
  for (const r of rows)
    final.set(`${r.band_key}:${r.work_id}`, { k: Number(r.band_key), w: Number(r.work_id), s: Number(r.sign) });
  const dels = [...final.values()].filter((x) => x.s < 0);
  const ins = [...final.values()].filter((x) => x.s > 0);
  for (const part of chunks(dels, 400))
    await sql
      .raw(
        `delete from ${table} where (band_key, work_id) in (values ${part.map((x) => `(${intLit(x.k)},${intLit(x.w)})`).join(",")})`,
      )
      .execute(trx);
  await insertRows(
    trx,
    table,
    ["band_key", "work_id"],
    ins.flatMap((x) => [x.k, x.w]),
    "on conflict do nothing",
  );
}

/** Benches: `log` gets each phase of a full rebuild with its milliseconds. */
export const rebuildPhases: { log?: (phase: string, ms: number) => void } = {};
let phaseAt = 0;
const phaseStart = () => (phaseAt = performance.now());
const phaseEnd = (phase: string) => {
  const now = performance.now();
  rebuildPhases.log?.(phase, now - phaseAt);
  phaseAt = now;
};

/** Ends a rebuild's shadow: its tables go and writers stop writing to them (one transaction). */
async function dropShadow(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await shadowState(trx, "update");
    for (const t of SHADOW_TABLES) await sql.raw(`drop table if exists ${t}`).execute(trx);
    await setShadowState(trx, { active: false, cursor: 0, buildMaxId: 0 });
  });
}

async function recomputeBandsNow(
  db: Db,
  settings: DupSettings,
  onProgress?: (done: number, total: number) => void | Promise<void>,
  signal?: AbortSignal,
  pageSize = 1000,
  beforeSwap?: () => Promise<void>,
): Promise<number> {
  const ignored = await ignoredSet(db);
  const pg = isPg(db);
  const bytes = pg ? "bytea" : "blob";
  const total = Number(
    (
      await db
        .selectFrom("dup_set")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  // 1. The shadow: a heap for the load, the staged entry columns; writers start writing to it.
  await db.transaction().execute(async (trx) => {
    await shadowState(trx, "update");
    for (const t of SHADOW_TABLES) await sql.raw(`drop table if exists ${t}`).execute(trx);
    await sql
      .raw(
        `create table dup_band_load (id ${pg ? "bigserial" : "integer"} primary key, band_key bigint not null, work_id bigint not null, sign integer not null)`,
      )
      .execute(trx);
    await sql
      .raw(
        `create table dup_entry_next (work_id bigint primary key, too_short integer not null, shingle_count integer not null, bands ${bytes}, reasons text not null)`,
      )
      .execute(trx);
    await setShadowState(trx, { active: true, cursor: 0, buildMaxId: 0 });
  });
  // 2. Every entry's keys, page by page (a page's read and writes in one transaction): into
  // memory (sorted there, step 3) while they fit in DUP_REBUILD_SORT_MB, else into the load.
  phaseStart();
  const sortRows = Math.floor((Number(process.env.DUP_REBUILD_SORT_MB ?? 4096) * 2 ** 20) / 12);
  let mem: KeyRows | null = sortRows > 0 ? new KeyRows() : null;
  // Too many rows for memory: the rows so far go to the load too, and step 3 sums the load up.
  const spill = async (trx: Kysely<any>) => {
    const rows = mem!.sorted(100_000);
    mem = null;
    for (const part of rows) {
      const rows3: number[] = [];
      for (let i = 0; i < part.length; i += 2) rows3.push(part[i], part[i + 1], 1);
      await appendLoad(trx, rows3);
    }
  };
  let last = 0;
  let done = 0;
  let changed = 0;
  for (;;) {
    if (signal?.aborted) throw new Error("aborted");
    const n = await db.transaction().execute(async (trx) => {
      const st = await shadowState(trx, "update");
      const rows = await trx
        .selectFrom("dup_set as s")
        .innerJoin("dup_entry as e", "e.work_id", "s.work_id")
        .select(["s.work_id", "s.shingles", "e.bands", "e.too_short", "e.shingle_count", "e.reasons"])
        .where("s.work_id", ">", last)
        .orderBy("s.work_id")
        .limit(pageSize)
        .execute();
      if (rows.length === 0) {
        // Done reading: every later write goes to the load; rows up to buildMaxId are built.
        const max = await sql<{ m: number | string | null }>`select max(id) as m from dup_band_load`.execute(trx);
        await setShadowState(trx, { active: true, cursor: Number.MAX_SAFE_INTEGER, buildMaxId: Number(max.rows[0]?.m ?? 0) });
        return 0;
      }
      const load: number[] = [];
      const staged: Array<{ work_id: number; too_short: number; shingle_count: number; bands: Buffer | null; reasons: string }> =
        [];
      for (const r of rows) {
        const workId = Number(r.work_id);
        const eff = without(decodeSet(fromBytes(r.shingles)), ignored);
        const before = r.bands ? decodeKeys(fromBytes(r.bands)) : [];
        // Passage anchors come from the text (not stored): a work keeps its anchors.
        const lsh = bandsOf(eff, settings);
        const bands = lsh && [...lsh, ...before.filter((k) => k < 0)];
        const next = bands ?? [];
        if (mem && workId > 0xffffffff) await spill(trx); // (KeyRows holds 32-bit work ids)
        if (mem) for (const k of next) mem.push(k, workId);
        else for (const k of new Set(next)) load.push(k, workId, 1);
        const tooShort = bands === null;
        const same = next.length === before.length && next.every((k, i) => k === before[i]);
        if (same && (r.too_short === 1) === tooShort && r.shingle_count === eff.length) continue;
        const reasons = (JSON.parse(r.reasons) as DupReason[]).filter((x) => x.code !== "too_short");
        if (tooShort) reasons.push(tooShortReason());
        staged.push({
          work_id: workId,
          too_short: tooShort ? 1 : 0,
          shingle_count: eff.length,
          bands: bands ? toBytes(encodeKeys(bands)) : null,
          reasons: JSON.stringify(reasons),
        });
      }
      if (mem && mem.size > sortRows) await spill(trx);
      await appendLoad(trx, load);
      for (const part of chunks(staged, 200)) await (trx as Kysely<any>).insertInto("dup_entry_next").values(part).execute();
      last = Number(rows[rows.length - 1].work_id);
      await setShadowState(trx, { ...st, cursor: last });
      changed += staged.length;
      return rows.length;
    });
    if (n === 0) break;
    done += n;
    await onProgress?.(done, total);
  }
  if (signal?.aborted) throw new Error("aborted");
  phaseEnd("read+load");
  // 3. dup_band_next in key order from the load (writers keep appending meanwhile), its index after the load.
  const { buildMaxId } = await shadowState(db, null);
  const sumUp = `select band_key, work_id from dup_band_load where id <= ${intLit(buildMaxId)} group by band_key, work_id having sum(sign) > 0`;
  if (mem) {
    // The keys read are in memory (the load holds only writers' rows): dup_band_next filled in
    // key order from them, then the load's rows up to buildMaxId applied in order (each
    // writer's rows are -1 for every key the load held for the work, then +1 for its new
    // ones, so a (key, work)'s last row says whether it stays; the swap does the same with the later rows).
    if (pg) await sql.raw(`create table dup_band_next (band_key bigint not null, work_id bigint not null)`).execute(db);
    else
      await sql
        .raw(
          `create table dup_band_next (band_key bigint not null, work_id bigint not null, primary key (band_key, work_id)) without rowid`,
        )
        .execute(db);
    const batches = mem.sorted(50_000);
    mem = null;
    // Short transactions: a writer waits at most one of them.
    for (const part of batches)
      await db.transaction().execute((trx) => insertRows(trx, "dup_band_next", ["band_key", "work_id"], part));
    if (pg)
      await sql.raw(`alter table dup_band_next add constraint dup_band_next_pk primary key (band_key, work_id)`).execute(db);
    phaseEnd("build next (sorted in memory)");
    for (let from = 0; ;) {
      const done = await db.transaction().execute(async (trx) => {
        const rows = await sql<{
          id: number | string;
          band_key: number | string;
          work_id: number | string;
          sign: number | string;
        }>`select id, band_key, work_id, sign from dup_band_load where id > ${from} and id <= ${buildMaxId} order by id limit 10000`.execute(
          trx,
        );
        if (rows.rows.length === 0) return true;
        from = Number(rows.rows[rows.rows.length - 1].id);
        await applyLoadRows(trx, "dup_band_next", rows.rows);
        return false;
      });
      if (done) break;
    }
  } else if (pg) {
    await sql.raw(`create table dup_band_next (band_key bigint not null, work_id bigint not null)`).execute(db);
    await sql.raw(`insert into dup_band_next (band_key, work_id) ${sumUp}`).execute(db);
    await sql.raw(`alter table dup_band_next add constraint dup_band_next_pk primary key (band_key, work_id)`).execute(db);
  } else {
    await sql
      .raw(
        `create table dup_band_next (band_key bigint not null, work_id bigint not null, primary key (band_key, work_id)) without rowid`,
      )
      .execute(db);
    await sql.raw(`insert into dup_band_next (band_key, work_id) ${sumUp} order by band_key, work_id`).execute(db);
  }
  phaseEnd("build next");
  await beforeSwap?.();
  if (signal?.aborted) throw new Error("aborted");
  phaseStart();
  // 4. The swap, writers held off: the load's late rows, the staged entry columns, the renames.
  await db.transaction().execute(async (trx) => {
    await shadowState(trx, "update");
    const late = await sql<{
      band_key: number | string;
      work_id: number | string;
      sign: number | string;
    }>`select band_key, work_id, sign from dup_band_load where id > ${buildMaxId} order by id`.execute(trx);
    await applyLoadRows(trx, "dup_band_next", late.rows);
    // (Small rows: the ~10 KB shingle sets are in dup_set, which a rebuild only reads.)
    await sql
      .raw(
        `update dup_entry set too_short = n.too_short, shingle_count = n.shingle_count, bands = n.bands, reasons = n.reasons from dup_entry_next as n where dup_entry.work_id = n.work_id`,
      )
      .execute(trx);
    await sql.raw(`drop table dup_band`).execute(trx);
    await sql.raw(`alter table dup_band_next rename to dup_band`).execute(trx);
    if (pg) await sql.raw(`alter table dup_band rename constraint dup_band_next_pk to dup_band_pk`).execute(trx);
    await sql.raw(`drop table dup_band_load`).execute(trx);
    await sql.raw(`drop table dup_entry_next`).execute(trx);
    await setShadowState(trx, { active: false, cursor: 0, buildMaxId: 0 });
  });
  phaseEnd("swap");
  // PostgreSQL: the new dup_band has no statistics until autovacuum comes by (never, where it is
  // off); planned without them, a check's key lookups look like a million rows each (a parallel
  // scan, JIT compilation: ~100 ms instead of ~1).
  if (pg) await sql.raw(`analyze dup_band, dup_entry`).execute(db);
  return changed;
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
    // 1. Entries of works that are gone or back to draft go; missing, pending and failed works (all with reextract) are extracted.
    const eligible = await db.selectFrom("work").select(["id"]).where("status", "<>", "draft").orderBy("id").execute();
    const eligibleIds = new Set(eligible.map((r) => Number(r.id)));
    const entries = await db.selectFrom("dup_entry").select(["work_id", "status"]).execute();
    const stale = entries.filter((e) => !eligibleIds.has(Number(e.work_id))).map((e) => Number(e.work_id));
    await removeWorks(db, stale);
    const indexed = new Set(entries.filter((e) => e.status === "indexed").map((e) => Number(e.work_id)));
    const todo = [...eligibleIds].filter((id) => opts.reextract || !indexed.has(id));
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
          try {
            const g = await gather(db, store, id, ignored);
            if (g) writes.push(g.write);
          } catch (e) {
            const w = await db.selectFrom("work").select(["year", "contest_id"]).where("id", "=", id).executeTakeFirst();
            info.failed++;
            if (w)
              writes.push({
                workId: id,
                year: w.year,
                contestId: w.contest_id,
                status: "failed",
                reasons: [
                  { code: "error", fileId: null, filename: null, message: `提取作品文字时出错：${(e as Error)?.message ?? e}` },
                ],
                prepared: null,
              });
          }
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

// ───────────────────────────── statistics ─────────────────────────────

export async function indexStats(db: Db): Promise<DupIndexStats> {
  const settings = await getSettings(db);
  const count = (n: unknown) => Number(n ?? 0);
  const byStatus = await db
    .selectFrom("dup_entry")
    .select(["status", (eb) => eb.fn.countAll().as("n")])
    .groupBy("status")
    .execute();
  const of = (s: string) => count(byStatus.find((r) => r.status === s)?.n);
  const tooShort = await db
    .selectFrom("dup_entry")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("too_short", "=", 1)
    .where("status", "=", "indexed")
    .executeTakeFirst();
  const withSkipped = await db
    .selectFrom("dup_entry")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "=", "indexed")
    .where("reasons", "<>", "[]")
    .where("too_short", "=", 0)
    .executeTakeFirst();
  const eligible = await db
    .selectFrom("work")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "<>", "draft")
    .executeTakeFirst();
  const missing = await db
    .selectFrom("work")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "<>", "draft")
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("dup_entry").select("work_id").whereRef("dup_entry.work_id", "=", "work.id"))),
    )
    .executeTakeFirst();
  const ignored = await db
    .selectFrom("dup_ignored")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirst();
  const info = await readSetting<{ sampleWorks: number; computedAt: string }>(db, "ignoredInfo");
  const last = await readSetting<DupRebuildInfo & { heartbeat?: number }>(db, "rebuild");
  if (last) delete last.heartbeat;
  return {
    eligible: count(eligible?.n),
    indexed: of("indexed"),
    pending: of("pending"),
    failed: of("failed"),
    tooShort: count(tooShort?.n),
    withSkipped: count(withSkipped?.n),
    missing: count(missing?.n),
    ignoredShingles: count(ignored?.n),
    ignoredComputedFrom: info?.sampleWorks ?? 0,
    ignoredComputedAt: info?.computedAt ?? null,
    lastRebuild: last,
    settings,
    params: DUP_PARAMS,
  };
}

export async function listEntries(
  db: Db,
  opts: { status?: DupEntryStatus; withReasons?: boolean; limit: number; offset: number },
): Promise<{ total: number; items: DupEntryView[] }> {
  let q = db.selectFrom("dup_entry");
  if (opts.status) q = q.where("status", "=", opts.status);
  if (opts.withReasons) q = q.where("reasons", "<>", "[]");
  const total = Number((await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirst())?.n ?? 0);
  const rows = await q
    .select(["work_id", "year", "contest_id", "status", "too_short", "shingle_count", "reasons", "updated_at"])
    .orderBy("updated_at", "desc")
    .orderBy("work_id", "desc")
    .limit(Math.max(0, Math.min(opts.limit, 1000)))
    .offset(Math.max(0, opts.offset))
    .execute();
  return {
    total,
    items: rows.map((r) => ({
      workId: Number(r.work_id),
      year: r.year,
      contestId: r.contest_id,
      status: r.status,
      tooShort: r.too_short === 1,
      shingles: r.shingle_count,
      reasons: JSON.parse(r.reasons) as DupReason[],
      updatedAt: r.updated_at,
    })),
  };
}
