/**
 * The national entry's own format review record (issue 14): a national format review outcome
 * goes through the works' one transition function (work/service/transition.ts) but writes
 * here, not on the work row, so the provincial record (work.status, its reasons and deadline)
 * stays as it was. format_status gains "resubmitted" (the authors fixed a returned entry);
 * format_reasons (JSON reason codes), format_deadline and format_note (the reviewer's text)
 * mirror the work's columns of the same meaning.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("national_entry").addColumn("format_reasons", "text").execute();
  await db.schema.alterTable("national_entry").addColumn("format_deadline", "text").execute();
  await db.schema.alterTable("national_entry").addColumn("format_note", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("national_entry").dropColumn("format_note").execute();
  await db.schema.alterTable("national_entry").dropColumn("format_deadline").execute();
  await db.schema.alterTable("national_entry").dropColumn("format_reasons").execute();
}
