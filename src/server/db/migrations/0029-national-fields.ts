/**
 * The national entry's own field values (issue 14): while a national entry is returned by the
 * national format review, its authors may change the fields the national contest's field
 * locks allow. Those values are the national entry's, kept here as JSON ({ work column: value },
 * only the fields changed for the national round); the work row — the provincial record the
 * provincial contest reviewed, judged and awarded — stays as it was. The national contest's
 * reads (format review, the author's page in the national round, the judges' view, the works
 * lists under the national contest) lay these values over the work's (repo.asNationalEntry).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("national_entry").addColumn("fields", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("national_entry").dropColumn("fields").execute();
}
