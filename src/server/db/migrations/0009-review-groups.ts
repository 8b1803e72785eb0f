/**
 * Format review and judge groups (issue 5, first half).
 *
 * - work.format_reasons / work.format_deadline: the reason codes and the correction deadline
 *   of the work's current format-review return or rejection (the text is work.return_reason,
 *   the history is the work log).
 * - review_position: where a reviewer stopped in a contest's fast review, per reviewer and
 *   contest, so it survives a reload.
 * - judging_setting: per contest, the reviews each work needs (N), the per-judge capacity and
 *   the national option to avoid the judge's own province.
 * - judge_group (+ _member, _work): judge groups per contest per 大类 (optionally 小类 and
 *   普通/专业组), their judges, and the group each work is judged in (one per contest).
 * - judge_assignment: one row per (contest, work, judge), with the group it was made in.
 *   Written only by applyAssignments (src/server/judging/apply.ts); scores of the judging
 *   task hang off it.
 * - declared_conflict: a judge's declared conflict with one work or one school (target
 *   "w:<work id>" or "s:<school id>", unique per judge), with a note.
 */
import type { Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("work").addColumn("format_reasons", "text").execute();
  await db.schema.alterTable("work").addColumn("format_deadline", "text").execute();

  await db.schema
    .createTable("review_position")
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id").onDelete("cascade"))
    .addColumn("work_id", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("review_position_pk", ["user_id", "contest_id"])
    .execute();

  await db.schema
    .createTable("judging_setting")
    .addColumn("contest_id", "integer", (c) => c.primaryKey().references("contest.id").onDelete("cascade"))
    .addColumn("reviews_per_work", "integer", (c) => c.notNull().defaultTo(3))
    .addColumn("judge_capacity", "integer")
    .addColumn("avoid_province", "integer", flag)
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.references("app_user.id"))
    .execute();

  await withId(db, db.schema.createTable("judge_group"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("category_id", "integer", (c) => c.notNull().references("work_category.id"))
    .addColumn("subcategory_id", "integer", (c) => c.references("work_category.id"))
    .addColumn("group_type", "text")
    .addColumn("leader_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("note", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("judge_group_name_unique", ["contest_id", "name"])
    .execute();

  await withId(db, db.schema.createTable("judge_group_member"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("judge_group.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("judge_group_member_unique", ["group_id", "user_id"])
    .execute();
  await db.schema.createIndex("judge_group_member_user").on("judge_group_member").columns(["user_id", "group_id"]).execute();

  await withId(db, db.schema.createTable("judge_group_work"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id").onDelete("cascade"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("judge_group.id").onDelete("cascade"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("judge_group_work_unique", ["contest_id", "work_id"])
    .execute();
  await db.schema.createIndex("judge_group_work_group").on("judge_group_work").columns(["group_id", "work_id"]).execute();

  await withId(db, db.schema.createTable("judge_assignment"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id").onDelete("cascade"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id").onDelete("cascade"))
    .addColumn("judge_id", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("group_id", "integer", (c) => c.references("judge_group.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("app_user.id"))
    .addUniqueConstraint("judge_assignment_unique", ["contest_id", "work_id", "judge_id"])
    .execute();
  await db.schema
    .createIndex("judge_assignment_judge")
    .on("judge_assignment")
    .columns(["judge_id", "contest_id", "work_id"])
    .execute();
  await db.schema.createIndex("judge_assignment_group").on("judge_assignment").columns(["group_id"]).execute();

  await withId(db, db.schema.createTable("declared_conflict"))
    .addColumn("judge_id", "integer", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("work_id", "bigint", (c) => c.references("work.id").onDelete("cascade"))
    .addColumn("school_id", "integer", (c) => c.references("school.id"))
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("declared_conflict_unique", ["judge_id", "target"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "declared_conflict",
    "judge_assignment",
    "judge_group_work",
    "judge_group_member",
    "judge_group",
    "judging_setting",
    "review_position",
  ]) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.alterTable("work").dropColumn("format_deadline").execute();
  await db.schema.alterTable("work").dropColumn("format_reasons").execute();
}
