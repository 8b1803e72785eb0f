/**
 * Teacher and school honours (issue 11): 优秀指导教师 and 优秀组织奖 of a contest.
 *
 * - contest_honour: one row per honour a contest's result gives, under one of the contest
 *   level's award levels of kind teacher or organisation. holder_kind teacher: the advising
 *   teacher (teacher_user_id), their school and the awarded work they advised that earned it
 *   (work_id); holder_kind school: the school (teacher_user_id and work_id null). manual = 1:
 *   set by hand, kept when the award's rule proposes its holders again. Certificates are
 *   issued from these rows while the contest's result is published (certificate/issue.ts).
 *   Unique per (contest, award level, teacher) and, for schools, per (contest, award level,
 *   school).
 */
import { sql, type Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("contest_honour"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("award_level_id", "integer", (c) => c.notNull().references("award_level.id"))
    /** teacher | school */
    .addColumn("holder_kind", "text", (c) => c.notNull())
    .addColumn("teacher_user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("school_id", "integer", (c) => c.notNull().references("school.id"))
    .addColumn("work_id", "integer", (c) => c.references("work.id"))
    .addColumn("manual", "integer", flag)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("app_user.id"))
    .execute();
  await db.schema
    .createIndex("contest_honour_teacher")
    .on("contest_honour")
    .columns(["contest_id", "award_level_id", "teacher_user_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("contest_honour_school")
    .on("contest_honour")
    .columns(["contest_id", "award_level_id", "school_id"])
    .unique()
    .where(sql.ref("holder_kind"), "=", "school")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contest_honour").execute();
}
