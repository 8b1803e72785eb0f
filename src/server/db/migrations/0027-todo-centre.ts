/**
 * The to-do centre (issue 15): a user's preference for the daily digest of new to-do items
 * (on by default), what the last digest told each user (the item keys and counts, so the
 * next one names only new items), and the work type's flag that its works need the advising
 * teacher's self-evaluation (指导老师自评) before submit.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("app_user")
    .addColumn("todo_digest", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("work_category")
    .addColumn("teacher_review_required", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("todo_digest_state")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("app_user.id"))
    .addColumn("sent_at", "text", (c) => c.notNull())
    /** JSON { "<item key>": count } of the items the last digest covered */
    .addColumn("seen", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("todo_digest_state").execute();
  await db.schema.alterTable("work_category").dropColumn("teacher_review_required").execute();
  await db.schema.alterTable("app_user").dropColumn("todo_digest").execute();
}
