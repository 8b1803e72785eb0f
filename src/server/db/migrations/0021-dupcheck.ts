/**
 * Duplicate check (issue 13): the index of src/server/dupcheck, derived data rebuilt from the
 * works at any time.
 *
 * - dup_entry: one row per indexed work — year and contest (copied, for filtering without a
 *   join), status indexed | pending | failed, reasons (JSON array of parts not checked), the
 *   hash of the normalised text (an unchanged text is not written again), the non-ignored
 *   shingle count, too_short, the full sorted shingle set (delta-varint bytes: exact
 *   similarity for every candidate, and a rebuild without reading documents again) and the
 *   work's band keys (float64 bytes: removing a work deletes exactly its dup_band rows).
 * - dup_band: LSH band key → work, the primary key (band_key, work_id) serves the lookup by
 *   key; WITHOUT ROWID on SQLite (the key is the row: half the size).
 * - dup_ignored: the very common shingles (hash, a sample of its 3 characters, works).
 * - dup_setting: key → JSON (thresholds, last rebuild, the ignored list's computation).
 */
import { sql, type Kysely } from "kysely";
import { isPostgres } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const bytes = pg ? "bytea" : "blob";
  await db.schema
    .createTable("dup_entry")
    .addColumn("work_id", "bigint", (c) => c.primaryKey())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("contest_id", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("too_short", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reasons", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("text_hash", "text")
    .addColumn("shingle_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("shingles", sql.raw(bytes))
    .addColumn("bands", sql.raw(bytes))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("dup_entry_status").on("dup_entry").columns(["status", "updated_at"]).execute();

  const band = db.schema
    .createTable("dup_band")
    .addColumn("band_key", "bigint", (c) => c.notNull())
    .addColumn("work_id", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("dup_band_pk", ["band_key", "work_id"]);
  await (pg ? band : band.modifyEnd(sql`without rowid`)).execute();

  await db.schema
    .createTable("dup_ignored")
    .addColumn("hash", "bigint", (c) => c.primaryKey())
    .addColumn("sample", "text", (c) => c.notNull())
    .addColumn("works", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("dup_ignored_works").on("dup_ignored").columns(["works", "hash"]).execute();

  await db.schema
    .createTable("dup_setting")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["dup_setting", "dup_ignored", "dup_band", "dup_entry"]) await db.schema.dropTable(t).execute();
}
