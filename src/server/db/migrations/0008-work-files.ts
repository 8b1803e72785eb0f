/**
 * Work attachments: one row per uploaded file, never deleted. A new upload of the same
 * kind marks the previous row replaced; a deletion marks it deleted — the bytes stay in the
 * content-addressed blob store (sha256) and the history stays in this table and the work
 * log. At most one current file per work and kind (a partial unique index, so two uploads
 * at once cannot both become current). No foreign key to work: the rows of a deleted
 * draft stay, like its log.
 */
import { sql, type Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("work_file"))
    .addColumn("work_id", "bigint", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("uploaded_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("replaced_at", "text")
    .addColumn("deleted_at", "text")
    .addColumn("deleted_by", "integer", (c) => c.references("app_user.id"))
    .execute();
  await db.schema.createIndex("work_file_work").on("work_file").columns(["work_id", "kind", "id"]).execute();
  await db.schema
    .createIndex("work_file_current")
    .on("work_file")
    .columns(["work_id", "kind"])
    .unique()
    .where(sql<boolean>`replaced_at is null and deleted_at is null`)
    .execute();
  await db.schema.createIndex("work_file_sha256").on("work_file").column("sha256").execute();

  // The busy works list (src/server/work/list-page.ts) reads each (contest, status) or status
  // branch from an index already in the requested order: these serve the sorts by
  // submission time, last change and name (by id and status: 0007's indexes).
  for (const [key, column] of [
    ["submitted", "submitted_at"],
    ["updated", "updated_at"],
    ["name", "name"],
  ]) {
    await db.schema
      .createIndex(`work_by_contest_status_${key}`)
      .on("work")
      .columns(["contest_id", "status", column, "id"])
      .execute();
    await db.schema.createIndex(`work_by_status_${key}`).on("work").columns(["status", column, "id"]).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const key of ["submitted", "updated", "name"]) {
    await db.schema.dropIndex(`work_by_contest_status_${key}`).execute();
    await db.schema.dropIndex(`work_by_status_${key}`).execute();
  }
  await db.schema.dropTable("work_file").execute();
}
