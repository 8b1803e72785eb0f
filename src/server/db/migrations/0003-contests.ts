/**
 * Contests: a stable natural key (code, e.g. "2026-ZJ") for Excel import and export,
 * filled in for contests that exist already; indexes for contest lists and field locks.
 */
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contest").addColumn("code", "text").execute();
  await sql`UPDATE contest SET code = CAST(year AS TEXT) || '-' || CAST(id AS TEXT) WHERE code IS NULL`.execute(db);
  await db.schema.createIndex("contest_code").on("contest").column("code").unique().execute();
  await db.schema.createIndex("contest_year_level").on("contest").columns(["year", "level"]).execute();
  await db.schema.createIndex("entry_lock_contest_field").on("entry_lock").columns(["contest_id", "field"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("entry_lock_contest_field").execute();
  await db.schema.dropIndex("contest_year_level").execute();
  await db.schema.dropIndex("contest_code").execute();
  await db.schema.alterTable("contest").dropColumn("code").execute();
}
