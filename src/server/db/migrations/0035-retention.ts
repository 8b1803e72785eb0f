/**
 * Personal data retention (issue 28): root's retention period (days after a contest closed;
 * null: never purge) with what the last purge run did (one row, id 1), and each account's last
 * log-in (user_activity), kept apart from app_user so a log-in does not invalidate the session
 * caches, and kept beyond the sessions (expired sessions are deleted after SESSION_DAYS). It
 * starts from the sessions that exist now. The setting row is written when root first sets a
 * period (a new database stays empty for restore).
 */
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("retention_setting")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("days", "integer")
    .addColumn("updated_at", "text")
    .addColumn("updated_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("last_run_at", "text")
    /** JSON: the counts of the last run */
    .addColumn("last_report", "text")
    .execute();
  await db.schema
    .createTable("user_activity")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("app_user.id").onDelete("cascade"))
    .addColumn("last_login_at", "text", (c) => c.notNull())
    .execute();
  await sql`insert into user_activity (user_id, last_login_at)
    select user_id, max(last_seen_at) from user_session group by user_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("user_activity").execute();
  await db.schema.dropTable("retention_setting").execute();
}
