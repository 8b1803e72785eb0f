/**
 * Judge pool and invitations (issue 12).
 *
 * - judge_person: one record per judge person across years (评委库): name, school (a school
 *   record, or only its name for people from outside the school list), province, title (职称),
 *   contact (email, phone: shown only to those allowed, see src/server/judge-pool/), the
 *   account once there is one (unique), a note. A merged duplicate keeps its row with
 *   merged_into set (its history and invitations move to the kept record; nothing deleted).
 * - judge_person_category: the categories (大类 or 小类 ids of work_category) a person can judge.
 * - judge_person_tag: expertise tags (free text, one row per tag).
 * - judge_person_year: availability per year (available 1/0, note), set by the judge or an admin.
 * - judge_invitation: an invitation of a pool person or a new email to a contest for given
 *   categories (JSON array of category ids) with a message and an answer-by date. The link's
 *   code is random and stored only as its SHA-256 (code_hash); single use; bound to the email.
 *   status: sent | accepted | declined | withdrawn (expired is computed from answer_by);
 *   opened_at/answered_at/reminded_at track the dashboard and the reminders; accepted_user_id
 *   is the account that accepted.
 * - declared_conflict gains user_id: a judge's conflict with a student (advised students),
 *   target "u:<user id>", besides works ("w:") and schools ("s:", also relatives' schools).
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("judge_person"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("school_id", "integer", (c) => c.references("school.id"))
    .addColumn("school_name", "text")
    .addColumn("province", "text")
    .addColumn("title", "text")
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("user_id", "integer", (c) => c.references("app_user.id").unique())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("merged_into", "integer", (c) => c.references("judge_person.id"))
    .addColumn("created_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("judge_person_email").on("judge_person").column("email").execute();
  await db.schema.createIndex("judge_person_name").on("judge_person").column("name").execute();

  await db.schema
    .createTable("judge_person_category")
    .addColumn("person_id", "integer", (c) => c.notNull().references("judge_person.id").onDelete("cascade"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("work_category.id"))
    .addPrimaryKeyConstraint("judge_person_category_pk", ["person_id", "category_id"])
    .execute();
  await db.schema
    .createTable("judge_person_tag")
    .addColumn("person_id", "integer", (c) => c.notNull().references("judge_person.id").onDelete("cascade"))
    .addColumn("tag", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("judge_person_tag_pk", ["person_id", "tag"])
    .execute();
  await db.schema.createIndex("judge_person_tag_tag").on("judge_person_tag").column("tag").execute();
  await db.schema
    .createTable("judge_person_year")
    .addColumn("person_id", "integer", (c) => c.notNull().references("judge_person.id").onDelete("cascade"))
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("available", "integer", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("judge_person_year_pk", ["person_id", "year"])
    .execute();

  await withId(db, db.schema.createTable("judge_invitation"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("person_id", "integer", (c) => c.references("judge_person.id"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("categories", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("answer_by", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_reason", "text")
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addColumn("opened_at", "text")
    .addColumn("answered_at", "text")
    .addColumn("reminded_at", "text")
    .addColumn("accepted_user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("invited_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("judge_invitation_contest").on("judge_invitation").columns(["contest_id", "status"]).execute();
  await db.schema.createIndex("judge_invitation_person").on("judge_invitation").column("person_id").execute();
  await db.schema.createIndex("judge_invitation_email").on("judge_invitation").column("email").execute();

  await db.schema
    .alterTable("declared_conflict")
    .addColumn("user_id", "integer", (c) => c.references("app_user.id"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("declared_conflict").dropColumn("user_id").execute();
  for (const t of ["judge_invitation", "judge_person_year", "judge_person_tag", "judge_person_category", "judge_person"])
    await db.schema.dropTable(t).execute();
}
