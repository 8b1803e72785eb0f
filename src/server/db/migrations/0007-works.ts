/**
 * Works: the work itself (id = 4-digit year + 6-digit sequence, allocated from
 * work_sequence inside the creating transaction), its authors and teachers, and the
 * append-only work log.
 *
 * - work_author carries the work's 大类 and year so that one UNIQUE index enforces
 *   "one work per author per 大类 per year" under concurrency on both dialects.
 * - author_names / teacher_names on work are denormalised for the busy list and its
 *   author search; the repository rewrites them whenever the team changes.
 * - work_log has no foreign key to work: the log of a deleted draft stays.
 */
import type { Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("work_sequence")
    .addColumn("year", "integer", (c) => c.primaryKey())
    .addColumn("last", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("work")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("work_category.id"))
    .addColumn("subcategory_id", "integer", (c) => c.references("work_category.id"))
    .addColumn("group_type", "text", (c) => c.notNull().defaultTo("normal"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("school_id", "integer", (c) => c.notNull().references("school.id"))
    .addColumn("created_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("summary", "text")
    .addColumn("design_idea", "text")
    .addColumn("key_points", "text")
    .addColumn("open_source", "text")
    .addColumn("install_guide", "text")
    .addColumn("teacher_review", "text")
    .addColumn("other_notes", "text")
    .addColumn("deploy_link1", "text")
    .addColumn("deploy_link2", "text")
    .addColumn("ai_declaration", "text")
    .addColumn("return_reason", "text")
    .addColumn("disqualify_reason", "text")
    .addColumn("author_names", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("teacher_names", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("submitted_at", "text")
    .execute();
  // The lists: by contest scope, by school, by status, by category; newest first; recently changed.
  await db.schema.createIndex("work_by_contest_status").on("work").columns(["contest_id", "status", "id"]).execute();
  await db.schema.createIndex("work_by_school_status").on("work").columns(["school_id", "status", "id"]).execute();
  await db.schema.createIndex("work_by_status").on("work").columns(["status", "id"]).execute();
  await db.schema.createIndex("work_by_category").on("work").columns(["category_id", "id"]).execute();
  await db.schema.createIndex("work_by_subcategory").on("work").column("subcategory_id").execute();
  await db.schema.createIndex("work_by_updated").on("work").columns(["updated_at", "id"]).execute();

  await withId(db, db.schema.createTable("work_author"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("rank", "integer", (c) => c.notNull())
    .addColumn("confirmed", "integer", flag)
    .addColumn("category_id", "integer", (c) => c.notNull())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("work_author_unique", ["work_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("work_author_one_per_category")
    .on("work_author")
    .columns(["user_id", "category_id", "year"])
    .unique()
    .execute();

  await withId(db, db.schema.createTable("work_teacher"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("rank", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("work_teacher_unique", ["work_id", "user_id"])
    .execute();
  await db.schema.createIndex("work_teacher_user").on("work_teacher").columns(["user_id", "work_id"]).execute();

  await withId(db, db.schema.createTable("work_log"))
    .addColumn("work_id", "bigint", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("changes", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("work_log_work").on("work_log").columns(["work_id", "id"]).execute();
  await db.schema.createIndex("work_log_user").on("work_log").columns(["user_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["work_log", "work_teacher", "work_author", "work", "work_sequence"]) await db.schema.dropTable(t).execute();
}
