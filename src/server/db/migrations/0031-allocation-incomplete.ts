/**
 * Issue 15: the award allocation counts only the works whose online scores are complete,
 * unless the admin explicitly includes the incomplete ones. result_setting.include_incomplete
 * keeps that choice per result group (JSON array of group keys allocated with the incomplete
 * works included); a publication copies it into its params.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("result_setting")
    .addColumn("include_incomplete", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("result_setting").dropColumn("include_incomplete").execute();
}
