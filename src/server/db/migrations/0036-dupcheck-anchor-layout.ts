/**
 * Duplicate check (issue 29): the passage anchors changed (dupcheck/layout.ts). An index that
 * holds entries gets the tag of the layout they were prepared under, so the sweep and the
 * rebuild prepare its works again; an empty one gets nothing (no tag means the current layout),
 * so a new database stays empty for a restore.
 */
import { sql, type Kysely } from "kysely";

/** The layout before this change (no tag was recorded then). */
const OLD_LAYOUT = "dupcheck-v2;anchors=12/48";

export async function up(db: Kysely<unknown>): Promise<void> {
  const any = await sql<{ n: number }>`select 1 as n from dup_entry limit 1`.execute(db);
  if (!any.rows.length) return;
  await sql`insert into dup_setting (key, value) values ('layout', ${JSON.stringify(OLD_LAYOUT)}) on conflict (key) do nothing`.execute(
    db,
  );
}

export async function down(): Promise<void> {}
