/**
 * Work types, majors and awards: majors get an integer id (the generic resource router
 * addresses rows by id; the national major code stays unique) and an archived flag; award
 * levels are unique per contest level and name; lookups by parent category, rubric owner
 * and a user's major get indexes.
 */
import { sql, type Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite cannot add an auto-increment key to an existing table: rebuild it on both dialects.
  await withId(db, db.schema.createTable("major_new"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("discipline", "text")
    .addColumn("archived", "integer", flag)
    .addUniqueConstraint("major_code_unique", ["code"])
    .execute();
  await sql`INSERT INTO major_new (code, name, discipline) SELECT code, name, discipline FROM major ORDER BY code`.execute(db);
  await db.schema.dropTable("major").execute();
  await db.schema.alterTable("major_new").renameTo("major").execute();

  await db.schema.createIndex("award_level_unique").on("award_level").columns(["contest_level", "name"]).unique().execute();
  await db.schema.createIndex("work_category_parent").on("work_category").columns(["parent_id", "sort"]).execute();
  await db.schema.createIndex("rubric_item_category").on("rubric_item").columns(["category_id", "sort"]).execute();
  await db.schema.createIndex("app_user_major").on("app_user").column("major_code").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ["app_user_major", "rubric_item_category", "work_category_parent", "award_level_unique"])
    await db.schema.dropIndex(i).execute();
  await db.schema
    .createTable("major_old")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("discipline", "text")
    .execute();
  await sql`INSERT INTO major_old (code, name, discipline) SELECT code, name, discipline FROM major`.execute(db);
  await db.schema.dropTable("major").execute();
  await db.schema.alterTable("major_old").renameTo("major").execute();
}
