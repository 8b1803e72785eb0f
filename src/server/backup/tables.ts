/**
 * What a backup says about each table, computed the same way on SQLite and PostgreSQL:
 * its row count and a checksum of its rows.
 *
 * Canonical form of a row: the JSON of { column: value } with the keys sorted
 * (canonicalJson of the score log), values normalised so both drivers give the same text:
 * integers and reals as JSON numbers (-0 as 0), text as strings, NULL as null, booleans as
 * 0/1, bigints outside the safe range as decimal strings, dates as ISO strings, bytes as
 * { "$bytes": base64 }. A table's checksum is sha256 over the sorted sha256 digests of its
 * rows: independent of row order (text keys sort differently under PostgreSQL collations)
 * and of duplicate rows cancelling out, and streamed in primary-key pages.
 */
import { createHash } from "node:crypto";
import { sql, type Kysely, type QueryResult, type RawBuilder } from "kysely";
import type { Dialect } from "../db";
import { canonicalJson } from "../judging/score-log";

/** Bookkeeping tables of the migrator: not user data. */
export const MIGRATION_TABLES = ["kysely_migration", "kysely_migration_lock"];

/**
 * Tables a server writes on its own as soon as it starts (queue, schedule, rate-limit
 * buckets): not user data, so a target holding only these still counts as empty, and a
 * restore replaces their rows.
 */
export const OPERATIONAL_TABLES = ["task_run", "queue_task", "schedule_slot", "rate_limit"];

export interface TableSummary {
  rows: number;
  checksum: string;
}

// The checks read tables whose names come from the catalogue, so they run on an untyped handle.
export type AnyDb = Kysely<any>;

/** Every table of the application's schema (the current schema on PostgreSQL), sorted by name. */
export async function listTables(db: AnyDb, dialect: Dialect): Promise<string[]> {
  const r =
    dialect === "sqlite"
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(
          db,
        )
      : await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
          db,
        );
  return r.rows.map((x) => x.name).sort();
}

async function primaryKey(db: AnyDb, dialect: Dialect, table: string): Promise<string[]> {
  const r =
    dialect === "sqlite"
      ? await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db)
      : await sql<{ name: string }>`select kcu.column_name as name from information_schema.table_constraints tc
          join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema and kcu.table_name = tc.table_name
          where tc.table_schema = current_schema() and tc.table_name = ${table} and tc.constraint_type = 'PRIMARY KEY' order by kcu.ordinal_position`.execute(
          db,
        );
  return r.rows.map((x) => x.name);
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function canonicalValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v.toString();
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return Object.is(v, -0) ? 0 : v;
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString("base64") };
  return v;
}

export function rowDigest(row: Record<string, unknown>): Buffer {
  const canon: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) canon[k] = canonicalValue(v);
  return createHash("sha256").update(canonicalJson(canon)).digest();
}

const PAGE = 2000;

/** Row digests packed in one buffer (32 bytes each): a million rows take 32 MB, not a million objects. */
class Digests {
  #buf = Buffer.alloc(32 * 1024);
  length = 0;
  push(d: Buffer) {
    if ((this.length + 1) * 32 > this.#buf.length) {
      const bigger = Buffer.alloc(this.#buf.length * 2);
      this.#buf.copy(bigger);
      this.#buf = bigger;
    }
    d.copy(this.#buf, this.length++ * 32);
  }
  /** sha256 over the digests in ascending byte order */
  checksum(): string {
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[i] = i;
    const b = this.#buf;
    order.sort((x, y) => b.compare(b, y * 32, y * 32 + 32, x * 32, x * 32 + 32));
    const h = createHash("sha256");
    for (const i of order) h.update(b.subarray(i * 32, i * 32 + 32));
    return h.digest("hex");
  }
}

/** A table's rows in primary-key pages (keyset, so big tables stay cheap). */
export async function* tableRows(db: AnyDb, dialect: Dialect, table: string): AsyncIterable<Record<string, unknown>[]> {
  const pk = await primaryKey(db, dialect, table);
  if (!pk.length) {
    // Every table of the schema has a primary key; one added without is read in one go.
    yield (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    return;
  }
  const cols = sql.join(pk.map((c) => sql.ref(c)));
  let last: unknown[] | null = null;
  for (;;) {
    const after: RawBuilder<unknown> = last ? sql`where (${cols}) > (${sql.join(last.map((v) => sql`${v}`))})` : sql``;
    const r: QueryResult<Record<string, unknown>> = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} ${after} order by ${cols} limit ${PAGE}`.execute(db);
    if (r.rows.length) yield r.rows;
    if (r.rows.length < PAGE) return;
    const tail: Record<string, unknown> = r.rows[r.rows.length - 1];
    last = pk.map((c) => tail[c]);
  }
}

/** Row count and checksum of one table. */
export async function summariseTable(db: AnyDb, dialect: Dialect, table: string): Promise<TableSummary> {
  const digests = new Digests();
  for await (const rows of tableRows(db, dialect, table)) for (const row of rows) digests.push(rowDigest(row));
  return { rows: digests.length, checksum: digests.checksum() };
}

/** Every table's summary, by table name. */
export async function summariseTables(db: AnyDb, dialect: Dialect): Promise<Record<string, TableSummary>> {
  const out: Record<string, TableSummary> = {};
  for (const t of await listTables(db, dialect)) out[t] = await summariseTable(db, dialect, t);
  return out;
}

/** The tables holding rows, other than the migrator's: a restore target must have none. */
export async function tablesWithData(db: AnyDb, dialect: Dialect): Promise<string[]> {
  const found: string[] = [];
  for (const t of await listTables(db, dialect)) {
    if (MIGRATION_TABLES.includes(t) || OPERATIONAL_TABLES.includes(t)) continue;
    const r = await sql<{ one: number }>`select 1 as one from ${sql.table(t)} limit 1`.execute(db);
    if (r.rows.length) found.push(t);
  }
  return found;
}

/** The applied migrations, in the order they ran (empty when the schema was never migrated). */
export async function appliedMigrations(db: AnyDb, dialect: Dialect): Promise<string[]> {
  if (!(await listTables(db, dialect)).includes("kysely_migration")) return [];
  const r = await sql<{ name: string }>`select name from kysely_migration order by timestamp, name`.execute(db);
  return r.rows.map((x) => x.name);
}
