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
  await sql`insert into dup_set (work_id, shingles) select work_id, shingles from dup_entry where shingles is not null order by work_id`.execute(
    db,
  );
  if (pg) {
    await db.schema.alterTable("dup_entry").dropColumn("shingles").execute();
    return;
  }
  // SQLite: the table is copied rather than its column dropped. DROP COLUMN rewrites each row
  // in place, and the pages that held the sets' local parts stay a third full (100,000 works:
  // 291 MB of pages for 93 MB of rows); a rebuild's swap updates every entry, so it would
  // write all those pages to the WAL. Copied in work id order, the rows are packed.
  await db.schema
    .createTable("dup_entry_packed")
    .addColumn("work_id", "bigint", (c) => c.primaryKey())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("contest_id", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("too_short", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reasons", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("text_hash", "text")
    .addColumn("shingle_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("bands", "blob")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  const columns = sql.raw("work_id, year, contest_id, status, too_short, reasons, text_hash, shingle_count, bands, updated_at");
  await sql`insert into dup_entry_packed (${columns}) select ${columns} from dup_entry order by work_id`.execute(db);
  await db.schema.dropTable("dup_entry").execute();
  await db.schema.alterTable("dup_entry_packed").renameTo("dup_entry").execute();
  await db.schema.createIndex("dup_entry_status").on("dup_entry").columns(["status", "updated_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("dup_entry")
    .addColumn("shingles", sql.raw(isPostgres(db) ? "bytea" : "blob"))
    .execute();
  await sql`update dup_entry set shingles = (select s.shingles from dup_set as s where s.work_id = dup_entry.work_id)`.execute(
    db,
  );
  await db.schema.dropTable("dup_set").execute();
}
