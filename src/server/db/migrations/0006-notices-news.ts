/**
 * Notices: one per (section, contest) — a unique index over the section and the contest,
 * where a platform-wide notice (contest null) counts as contest 0, since both SQLite and
 * PostgreSQL treat NULLs as distinct in unique indexes. Earlier duplicates keep the newest
 * row (the one the announcement route already showed). News: indexes for the public
 * list and the per-contest list. Change log: an index for "changes by this user".
 */
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM notice WHERE id NOT IN (SELECT max_id FROM (SELECT MAX(id) AS max_id FROM notice GROUP BY section, COALESCE(contest_id, 0)) AS keep)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX notice_slot ON notice (section, (COALESCE(contest_id, 0)))`.execute(db);
  await db.schema.createIndex("news_public").on("news").columns(["status", "contest_id", "publish_at"]).execute();
  await db.schema.createIndex("news_contest").on("news").columns(["contest_id", "updated_at"]).execute();
  await db.schema.createIndex("audit_log_user").on("audit_log").columns(["user_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ["audit_log_user", "news_contest", "news_public", "notice_slot"]) await db.schema.dropIndex(i).execute();
}
