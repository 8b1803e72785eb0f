/**
 * Recomputing every entry's band keys into the rebuild's shadow (recomputeBands; the protocol
 * and its phases: ./rebuild-state.ts): 1. the shadow opened, 2. the entries read page by page
 * (keys into memory, or the load past the memory budget), 3. dup_band_next built in key order,
 * 4. the swap. Any failure drops the shadow.
 */
import { sql } from "kysely";
import type { Db } from "../db/index";
import type { DupReason, DupSettings } from "../../shared/dupcheck/schema";
import { KeyRows } from "./key-sort";
import { decodeKeys, encodeKeys } from "./minhash";
import { bandsOf, tooShortReason } from "./prepare";
import { expectPhase, lastSigns, type LoadRow } from "./rebuild-state";
import { readShadow, stepShadow } from "./shadow";
import { ignoredSet } from "./settings";
import { decodeSet, without } from "./shingles";
import {
  appendLoad,
  chunks,
  dupDb,
  fromBytes,
  insertRows,
  intLit,
  isPg,
  toBytes,
  withRebuildCache,
  type BandTable,
  type DupDb,
  type DupEntryNextTable,
} from "./store";

/**
 * Recomputes every stored entry's effective set, too-short flag, signature and band keys
 * under the current ignored list and settings, page by page in work id order, into a shadow
 * table swapped in at the end (see ./rebuild-state.ts). Returns the number of entries whose
 * columns changed. `beforeSwap` (tests) runs between the build and the swap.
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
      await dropShadow(dupDb(db)).catch(() => undefined);
      throw e;
    }
  });
}

const SHADOW_TABLES = ["dup_band_load", "dup_band_next", "dup_entry_next"];

/** Applies load rows (in id order) to a band table: per (key, work) the last row's sign says whether the row is there. */
async function applyLoadRows(trx: DupDb, table: BandTable, rows: LoadRow[]): Promise<void> {
  const { del, ins } = lastSigns(rows);
  for (const part of chunks(del, 400))
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
async function dropShadow(db: DupDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const st = await readShadow(trx, "update");
    for (const t of SHADOW_TABLES) await sql.raw(`drop table if exists ${t}`).execute(trx);
    await stepShadow(trx, st, { step: "drop" });
  });
}

/** 1. The shadow: a heap for the load, the staged entry columns; writers start writing to it. */
async function openShadow(db: DupDb): Promise<void> {
  const pg = isPg(db);
  await db.transaction().execute(async (trx) => {
    const st = await readShadow(trx, "update");
    for (const t of SHADOW_TABLES) await sql.raw(`drop table if exists ${t}`).execute(trx);
    await sql
      .raw(
        `create table dup_band_load (id ${pg ? "bigserial" : "integer"} primary key, band_key bigint not null, work_id bigint not null, sign integer not null)`,
      )
      .execute(trx);
    await sql
      .raw(
        `create table dup_entry_next (work_id bigint primary key, too_short integer not null, shingle_count integer not null, bands ${pg ? "bytea" : "blob"}, reasons text not null)`,
      )
      .execute(trx);
    await stepShadow(trx, st, { step: "open" });
  });
}

/**
 * Where the keys read go: into memory (KeyRows, sorted there for step 3) while they fit in
 * DUP_REBUILD_SORT_MB, else into the load. Too many rows for memory: the rows so far go to the
 * load too (spill), and step 3 sums the load up.
 */
class KeySink {
  readonly sortRows = Math.floor((Number(process.env.DUP_REBUILD_SORT_MB ?? 4096) * 2 ** 20) / 12);
  mem: KeyRows | null = this.sortRows > 0 ? new KeyRows() : null;

  async spill(trx: DupDb): Promise<void> {
    const rows = this.mem!.sorted(100_000);
    this.mem = null;
    for (const part of rows) {
      const rows3: number[] = [];
      for (let i = 0; i < part.length; i += 2) rows3.push(part[i], part[i + 1], 1);
      await appendLoad(trx, rows3);
    }
  }
}

/**
 * 2. One page of entries after work id `after` (its read and writes in one transaction, the
 * shadow locked): their keys into the sink, changed entry columns staged, the cursor moved.
 * Returns the page's last work id and the entries staged, or null when every entry is read
 * (the shadow then moves to building).
 */
async function readPage(
  db: DupDb,
  sink: KeySink,
  after: number,
  pageSize: number,
  settings: DupSettings,
  ignored: Uint32Array,
): Promise<{ last: number; rows: number; staged: number } | null> {
  return db.transaction().execute(async (trx) => {
    const st = await readShadow(trx, "update");
    const rows = await trx
      .selectFrom("dup_set as s")
      .innerJoin("dup_entry as e", "e.work_id", "s.work_id")
      .select(["s.work_id", "s.shingles", "e.bands", "e.too_short", "e.shingle_count", "e.reasons"])
      .where("s.work_id", ">", after)
      .orderBy("s.work_id")
      .limit(pageSize)
      .execute();
    if (rows.length === 0) {
      // Done reading: every later write goes to the load; rows up to buildMaxId are built.
      const max = await sql<{ m: number | string | null }>`select max(id) as m from dup_band_load`.execute(trx);
      await stepShadow(trx, st, { step: "finishReading", buildMaxId: Number(max.rows[0]?.m ?? 0) });
      return null;
    }
    const load: number[] = [];
    const staged: DupEntryNextTable[] = [];
    for (const r of rows) {
      const workId = Number(r.work_id);
      const eff = without(decodeSet(fromBytes(r.shingles)), ignored);
      const before = r.bands ? decodeKeys(fromBytes(r.bands)) : [];
      // Passage anchors come from the text (not stored): a work keeps its anchors.
      const lsh = bandsOf(eff, settings);
      const bands = lsh && [...lsh, ...before.filter((k) => k < 0)];
      const next = bands ?? [];
      if (sink.mem && workId > 0xffffffff) await sink.spill(trx); // (KeyRows holds 32-bit work ids)
      if (sink.mem) for (const k of next) sink.mem.push(k, workId);
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
    if (sink.mem && sink.mem.size > sink.sortRows) await sink.spill(trx);
    await appendLoad(trx, load);
    for (const part of chunks(staged, 200)) await trx.insertInto("dup_entry_next").values(part).execute();
    const last = Number(rows[rows.length - 1].work_id);
    await stepShadow(trx, st, { step: "advance", cursor: last });
    return { last, rows: rows.length, staged: staged.length };
  });
}

async function createNext(db: DupDb): Promise<void> {
  if (isPg(db)) await sql.raw(`create table dup_band_next (band_key bigint not null, work_id bigint not null)`).execute(db);
  else
    await sql
      .raw(
        `create table dup_band_next (band_key bigint not null, work_id bigint not null, primary key (band_key, work_id)) without rowid`,
      )
      .execute(db);
}

/**
 * 3. dup_band_next from the keys in memory: filled in key order, then the load's rows up to
 * buildMaxId applied in order (each writer's rows are -1 for every key the load held for the
 * work, then +1 for its new ones, so a (key, work)'s last row says whether it stays; the swap
 * does the same with the later rows). Short transactions: a writer waits at most one of them.
 */
async function buildNextFromMemory(db: DupDb, mem: KeyRows, buildMaxId: number): Promise<void> {
  const pg = isPg(db);
  await createNext(db);
  for (const part of mem.sorted(50_000))
    await db.transaction().execute((trx) => insertRows(trx, "dup_band_next", ["band_key", "work_id"], part));
  if (pg) await sql.raw(`alter table dup_band_next add constraint dup_band_next_pk primary key (band_key, work_id)`).execute(db);
  phaseEnd("build next (sorted in memory)");
  for (let from = 0; ;) {
    const done = await db.transaction().execute(async (trx) => {
      const rows = await sql<
        LoadRow & { id: number | string }
      >`select id, band_key, work_id, sign from dup_band_load where id > ${from} and id <= ${buildMaxId} order by id limit 10000`.execute(
        trx,
      );
      if (rows.rows.length === 0) return true;
      from = Number(rows.rows[rows.rows.length - 1].id);
      await applyLoadRows(trx, "dup_band_next", rows.rows);
      return false;
    });
    if (done) break;
  }
}

/** 3. dup_band_next summed up from the load by the database (its rows up to buildMaxId). */
async function buildNextFromLoad(db: DupDb, buildMaxId: number): Promise<void> {
  const sumUp = `select band_key, work_id from dup_band_load where id <= ${intLit(buildMaxId)} group by band_key, work_id having sum(sign) > 0`;
  await createNext(db);
  if (isPg(db)) {
    await sql.raw(`insert into dup_band_next (band_key, work_id) ${sumUp}`).execute(db);
    await sql.raw(`alter table dup_band_next add constraint dup_band_next_pk primary key (band_key, work_id)`).execute(db);
  } else await sql.raw(`insert into dup_band_next (band_key, work_id) ${sumUp} order by band_key, work_id`).execute(db);
}

/** 4. The swap, writers held off: the load's late rows, the staged entry columns, the renames. */
async function swapIn(db: DupDb, buildMaxId: number): Promise<void> {
  const pg = isPg(db);
  await db.transaction().execute(async (trx) => {
    const st = await readShadow(trx, "update");
    const late =
      await sql<LoadRow>`select band_key, work_id, sign from dup_band_load where id > ${buildMaxId} order by id`.execute(trx);
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
    await stepShadow(trx, st, { step: "swap" });
  });
}

async function recomputeBandsNow(
  plain: Db,
  settings: DupSettings,
  onProgress?: (done: number, total: number) => void | Promise<void>,
  signal?: AbortSignal,
  pageSize = 1000,
  beforeSwap?: () => Promise<void>,
): Promise<number> {
  const db = dupDb(plain);
  const ignored = await ignoredSet(plain);
  const total = Number(
    (
      await db
        .selectFrom("dup_set")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  await openShadow(db);
  // 2. Every entry's keys, page by page.
  phaseStart();
  const sink = new KeySink();
  let last = 0;
  let done = 0;
  let changed = 0;
  for (;;) {
    if (signal?.aborted) throw new Error("aborted");
    const page = await readPage(db, sink, last, pageSize, settings, ignored);
    if (!page) break;
    last = page.last;
    changed += page.staged;
    done += page.rows;
    await onProgress?.(done, total);
  }
  if (signal?.aborted) throw new Error("aborted");
  phaseEnd("read+load");
  // 3. dup_band_next in key order from the load (writers keep appending meanwhile), its index after the load.
  const { buildMaxId } = expectPhase(await readShadow(db, null), "building", "building dup_band_next");
  const mem = sink.mem;
  sink.mem = null;
  if (mem) await buildNextFromMemory(db, mem, buildMaxId);
  else await buildNextFromLoad(db, buildMaxId);
  phaseEnd("build next");
  await beforeSwap?.();
  if (signal?.aborted) throw new Error("aborted");
  phaseStart();
  await swapIn(db, buildMaxId);
  phaseEnd("swap");
  // PostgreSQL: the new dup_band has no statistics until autovacuum comes by (never, where it is
  // off); planned without them, a check's key lookups look like a million rows each (a parallel
  // scan, JIT compilation: ~100 ms instead of ~1).
  if (isPg(db)) await sql.raw(`analyze dup_band, dup_entry`).execute(db);
  return changed;
}
