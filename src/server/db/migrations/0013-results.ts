/**
 * Results (issue 5): what the ranking screen needs beyond 0010.
 *
 * - result_setting: one row per contest with the options of its last computation — the
 *   disagreement threshold, which groups rank by the defence score instead of the online
 *   normalised score — and that computation's fit (per group: the model's parameters and
 *   the judges' effects), so the ranking screen shows them and publication can check that
 *   nothing changed since.
 * - contest_result: the defence mean and number of defence scores a work was ranked with
 *   (when its group ranks by the defence).
 * - result_publication: a publication can be withdrawn (unpublished) by the contest admin
 *   with a reason; the row stays, so every publication remains on record.
 * - On PostgreSQL the scores of contest_result become double precision ("real" is 4 bytes
 *   there, too coarse to reproduce a normalised score; SQLite's REAL is 8 bytes already).
 */
import { sql, type Kysely } from "kysely";
import { isPostgres } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("result_setting")
    .addColumn("contest_id", "integer", (c) => c.primaryKey().references("contest.id"))
    .addColumn("disagreement_threshold", "double precision", (c) => c.notNull().defaultTo(15))
    /** JSON { "<group key>": "defence" } for groups ranked by the defence mean */
    .addColumn("group_basis", "text", (c) => c.notNull().defaultTo("{}"))
    /** JSON: the last computation's fit per group (no scores) */
    .addColumn("fit", "text")
    .addColumn("computed_at", "text")
    .addColumn("computed_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("contest_result").addColumn("defence_mean", "double precision").execute();
  await db.schema
    .alterTable("contest_result")
    .addColumn("defence_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) {
    for (const col of ["raw_mean", "normalised", "spread"]) {
      await sql`alter table contest_result alter column ${sql.ref(col)} type double precision`.execute(db);
    }
  }
  await db.schema.createIndex("contest_result_group").on("contest_result").columns(["contest_id", "group_id"]).execute();
  // The public work lookup finds a work's published awards by work.
  await db.schema.createIndex("contest_result_work").on("contest_result").column("work_id").execute();

  await db.schema.alterTable("result_publication").addColumn("withdrawn_at", "text").execute();
  await db.schema
    .alterTable("result_publication")
    .addColumn("withdrawn_by", "integer", (c) => c.references("app_user.id"))
    .execute();
  await db.schema.alterTable("result_publication").addColumn("withdraw_reason", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("contest_result_work").execute();
  await db.schema.dropIndex("contest_result_group").execute();
  for (const col of ["withdraw_reason", "withdrawn_by", "withdrawn_at"])
    await db.schema.alterTable("result_publication").dropColumn(col).execute();
  for (const col of ["defence_count", "defence_mean"]) await db.schema.alterTable("contest_result").dropColumn(col).execute();
  await db.schema.dropTable("result_setting").execute();
}
