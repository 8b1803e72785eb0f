/**
 * A contest admin's promotion to-do marked 已处理 (issue 29, todo/promotion.ts): one row per
 * (contest, work) with the decision it answered — the kind of mismatch and the award then — and
 * who marked it when. The item stays hidden while the work's promotion state is the same; a
 * later change of it drops the row (national/promotion.ts) and the item shows again. Both dialects.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("promotion_todo_done")
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("work_id", "integer", (c) => c.notNull().references("work.id"))
    /** "candidate" (qualifies, not promoted) or "loose" (promoted, no longer qualifies) */
    .addColumn("kind", "text", (c) => c.notNull())
    /** the work's award when it was marked (null: none) */
    .addColumn("award", "text")
    .addColumn("done_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("done_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("promotion_todo_done_pk", ["contest_id", "work_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("promotion_todo_done").execute();
}
