/**
 * Reads and writes of the duplicate check's tables, typed against the project's DB: the
 * rebuild's shadow tables (created and dropped by ./rebuild-bands.ts, so not in the DB
 * interface) are typed here (DupTables); batched integer-row inserts with bound parameters;
 * upserts of dup_entry and dup_set; deletes of band rows; byte and chunk helpers.
 */
import { CompiledQuery, PostgresAdapter, sql, type Generated, type Kysely, type QueryCreator } from "kysely";
import type { Db } from "../db/index";
import type { DB } from "../db/schema";
import type { DupEntryStatus } from "../../shared/dupcheck/schema";

/** The rebuild's load (a heap): band rows appended with +1 (the key is there) or -1 (it is gone), in id order. */
export interface DupBandLoadTable {
  id: Generated<number>;
  band_key: number;
  work_id: number;
  sign: number;
}

/** The rebuild's new dup_band, renamed to dup_band at the swap. */
export interface DupBandNextTable {
  band_key: number;
  work_id: number;
}

/** The rebuild's staged entry columns, copied into dup_entry at the swap. */
export interface DupEntryNextTable {
  work_id: number;
  too_short: number;
  shingle_count: number;
  bands: Uint8Array | null;
  reasons: string;
}

/** The project's tables and the rebuild's shadow tables (which exist only while a rebuild runs). */
export type DupTables = DB & {
  dup_band_load: DupBandLoadTable;
  dup_band_next: DupBandNextTable;
  dup_entry_next: DupEntryNextTable;
};
export type DupDb = Kysely<DupTables>;

/** The same handle, seen with the shadow tables (a query on one of them fails when no rebuild runs). */
export const dupDb = (db: Kysely<DB>): DupDb => db as unknown as DupDb;

/** The band tables written with insertRows / applyLoadRows. */
export type BandTable = "dup_band" | "dup_band_next" | "dup_band_load";

/** Whether a handle (of any table set) talks to PostgreSQL. */
export const isPg = (db: { getExecutor(): { readonly adapter: object } }) => db.getExecutor().adapter instanceof PostgresAdapter;
export const nowIso = () => new Date().toISOString();
export const toBytes = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
export const fromBytes = (v: unknown): Uint8Array =>
  v instanceof Uint8Array ? v : v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(0);

export function chunks<T>(a: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}

export const intLit = (v: number) => {
  if (!Number.isSafeInteger(v)) throw new Error(`not an integer key: ${v}`);
  return String(v);
};

/** A PostgreSQL array literal of integer keys, for one `cast(… as bigint[])` parameter. */
export const idArray = (keys: number[]) => `{${keys.map(intLit).join(",")}}`;

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

/** Rows per multi-row insert of insertRows: one statement text per table and width, prepared once. */
const INSERT_ROWS = 500;

/**
 * Inserts rows of integers with bound parameters, INSERT_ROWS rows a statement (the same text
 * each time, so SQLite prepares it once per connection; about 4× faster than literal
 * multi-row inserts that are parsed anew each time). `values` holds the rows one after the
 * other (columns.length values a row: no array per row, a rebuild writes ~100 rows a work).
 * `tail` is appended (e.g. on conflict do nothing).
 */
export async function insertRows(trx: DupDb, table: BandTable, columns: string[], values: number[], tail = ""): Promise<void> {
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

/** Appends (band_key, work_id, sign) rows to dup_band_load (`rows`: the three values of each row in turn). */
export async function appendLoad(trx: DupDb, rows: number[]): Promise<void> {
  await insertRows(trx, "dup_band_load", ["band_key", "work_id", "sign"], rows);
}

/** Deletes (band_key, work_id) rows of dup_band, 400 a statement. */
export async function deleteBandRows(trx: DupDb, rows: Array<[number, number]>): Promise<void> {
  for (const part of chunks(rows, 400))
    await sql`delete from dup_band where (band_key, work_id) in (values ${sql.join(part.map(([k, w]) => sql`(cast(${k} as bigint), cast(${w} as bigint))`))})`.execute(
      trx,
    );
}

export type EntryRow = {
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
export async function upsertEntries(q: QueryCreator<DupTables>, rows: EntryRow[]): Promise<void> {
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
export const upsertSets = (q: QueryCreator<DupTables>, rows: Array<{ work_id: number; shingles: Buffer }>) =>
  q
    .insertInto("dup_set")
    .values(rows)
    .onConflict((oc) => oc.column("work_id").doUpdateSet((eb) => ({ shingles: eb.ref("excluded.shingles") })));
