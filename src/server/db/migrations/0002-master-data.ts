/**
 * Master data: contest stages, members and quotas; category rubrics and attachments;
 * news; field locks; an append-only change log; background jobs (imports, exports).
 */
import type { Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contest").addColumn("description", "text").execute();
  await db.schema
    .alterTable("contest")
    .addColumn("categories", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema.alterTable("contest").addColumn("recommend_quota", "integer").execute();
  await db.schema
    .alterTable("contest")
    .addColumn("category_quotas", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();

  await withId(db, db.schema.createTable("contest_stage"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id").onDelete("cascade"))
    .addColumn("stage", "text", (c) => c.notNull())
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addUniqueConstraint("contest_stage_unique", ["contest_id", "stage"])
    .execute();

  await withId(db, db.schema.createTable("contest_member"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("contest_member_unique", ["contest_id", "user_id", "role"])
    .execute();
  await db.schema.createIndex("contest_member_user").on("contest_member").columns(["user_id", "role"]).execute();

  await db.schema.alterTable("work_category").addColumn("description", "text").execute();
  await db.schema
    .alterTable("work_category")
    .addColumn("required_attachments", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema
    .alterTable("work_category")
    .addColumn("deductions", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();

  await withId(db, db.schema.createTable("rubric_item"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("work_category.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("max_points", "integer", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable("award_level").addColumn("archived", "integer", flag).execute();
  await db.schema.alterTable("app_user").addColumn("major_code", "text").execute();
  await db.schema.alterTable("app_user").addColumn("archived", "integer", flag).execute();

  await withId(db, db.schema.createTable("news"))
    .addColumn("contest_id", "integer", (c) => c.references("contest.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("cover", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
    .addColumn("publish_at", "text")
    .addColumn("created_by", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("entry_lock"))
    .addColumn("contest_id", "integer", (c) => c.references("contest.id"))
    .addColumn("field", "text", (c) => c.notNull())
    .addColumn("from_stage", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("audit_log"))
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("user_id", "integer")
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("changes", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_entity").on("audit_log").columns(["entity", "entity_id"]).execute();

  await db.schema
    .createTable("job")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("processed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("message", "text")
    .addColumn("result", "text")
    .addColumn("file", "text")
    .addColumn("created_by", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["job", "audit_log", "entry_lock", "news", "rubric_item", "contest_member", "contest_stage"])
    await db.schema.dropTable(t).execute();
}
