/**
 * Duplicate check (issue 13): the shingle sets move out of dup_entry into their own table.
 *
 * A full rebuild rewrites every changed entry's too_short, shingle_count, bands and reasons.
 * On SQLite an update rewrites the whole record, so with the ~10 KB set in the same row a
 * rebuild at 1,000,000 works wrote ~10 GB to the WAL (and its checkpoint took ~106 s) for a
 * few hundred bytes of changed columns a row. The set is written only when a work's text
 * changes; the rebuild only reads it.
 *
 * - dup_set: work id → the full sorted shingle set (delta-varint bytes, dupcheck/shingles.ts
 *   encodeSet). A row exists exactly for the entries that have a set (indexed at least once);
 *   pending and never-extracted works have none. On SQLite the key is an `integer primary
 *   key`, the rowid itself: one B-tree, looked up without a separate key index.
 */
import { sql, type Kysely } from "kysely";
import { isPostgres } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable("dup_set")
    .addColumn("work_id", pg ? "bigint" : "integer", (c) => c.primaryKey())
    .addColumn("shingles", sql.raw(pg ? "bytea" : "blob"), (c) => c.notNull())
    .execute();
  await sql`insert into dup_set (work_id, shingles) select work_id, shingles from dup_entry where shingles is not null order by work_id`.execute(db);
  await db.schema.alterTable("dup_entry").dropColumn("shingles").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("dup_entry").addColumn("shingles", sql.raw(isPostgres(db) ? "bytea" : "blob")).execute();
  await sql`update dup_entry set shingles = (select s.shingles from dup_set as s where s.work_id = dup_entry.work_id)`.execute(db);
  await db.schema.dropTable("dup_set").execute();
}
