/** Foundation: schools, majors, contests, work categories, award levels, users, sessions, tokens, notices. */
import type { Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("school"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("province", "text", (c) => c.notNull())
    .addColumn("former_names", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("contact", "text")
    .addColumn("archived", "integer", flag)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("school_province").on("school").columns(["province", "name"]).execute();

  await db.schema
    .createTable("major")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("discipline", "text")
    .execute();

  await withId(db, db.schema.createTable("contest"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("parent_id", "integer", (c) => c.references("contest.id"))
    .addColumn("province", "text")
    .addColumn("school_id", "integer", (c) => c.references("school.id"))
    .addColumn("archived", "integer", flag)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("contest_parent").on("contest").column("parent_id").execute();

  await withId(db, db.schema.createTable("work_category"))
    .addColumn("parent_id", "integer", (c) => c.references("work_category.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("min_authors", "integer", (c) => c.notNull().defaultTo(2))
    .addColumn("max_authors", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("max_teachers", "integer", (c) => c.notNull().defaultTo(2))
    .addColumn("has_professional_group", "integer", flag)
    .addColumn("professional_majors", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("archived", "integer", flag)
    .execute();

  await withId(db, db.schema.createTable("award_level"))
    .addColumn("contest_level", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("ratio", "real")
    .addColumn("max_count", "integer")
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable("app_user"))
    .addColumn("username", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("user_type", "integer", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("email_verified", "integer", flag)
    .addColumn("phone", "text")
    .addColumn("school_id", "integer", (c) => c.references("school.id"))
    .addColumn("member_no", "text")
    .addColumn("has_complaint_right", "integer", flag)
    .addColumn("is_school_contest_judge", "integer", flag)
    .addColumn("locked", "integer", flag)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("app_user_email").on("app_user").column("email").execute();
  await db.schema.createIndex("app_user_school").on("app_user").columns(["school_id", "user_type"]).execute();

  await db.schema
    .createTable("user_session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("user_session_user").on("user_session").column("user_id").execute();

  await withId(db, db.schema.createTable("account_token"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("code_hash", "text")
    .addColumn("email", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_token_user").on("account_token").columns(["user_id", "purpose"]).execute();

  await withId(db, db.schema.createTable("notice"))
    .addColumn("contest_id", "integer", (c) => c.references("contest.id"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "integer")
    .execute();
  await db.schema.createIndex("notice_section").on("notice").columns(["section", "contest_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "notice",
    "account_token",
    "user_session",
    "app_user",
    "award_level",
    "work_category",
    "contest",
    "major",
    "school",
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
