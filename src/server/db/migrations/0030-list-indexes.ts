/**
 * Indexes for the first page of the user list sorted by a column (issue 15, heavy pages):
 * with 200k accounts, ORDER BY name / member_no / user_type / created_at (id as the tie-break)
 * sorted every row before LIMIT (1.5 s on SQLite); an index on (column, id) walks straight to
 * the page on both dialects.
 */
import type { Kysely } from "kysely";

const INDEXES: [string, string][] = [
  ["app_user_name", "name"],
  ["app_user_member_no", "member_no"],
  ["app_user_type", "user_type"],
  ["app_user_created", "created_at"],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of INDEXES) await db.schema.createIndex(name).on("app_user").columns([column, "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
