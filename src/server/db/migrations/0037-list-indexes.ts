/**
 * Indexes for the uncached lists of a deadline day (issue 30):
 * - root's works list (every work, no status filter) sorted by 提交时间, 创建时间 or 名称:
 *   without an index in that order every page sorted all 100k works (~0.5 s on SQLite for a
 *   middle page); with (column, id) a page walks the index (list-page.ts reads the nearer
 *   end of a long list, so no page walks more than half of it).
 * - the to-do centre's complaints waiting for a role (todo/items.ts: by state, due first):
 *   the planner drove the query from the work table; (state, due_at, id) starts from the few
 *   complaints in those states, already in order.
 * Both dialects.
 */
import type { Kysely } from "kysely";

const INDEXES: [string, string, string[]][] = [
  ["work_by_submitted", "work", ["submitted_at", "id"]],
  ["work_by_created", "work", ["created_at", "id"]],
  ["work_by_name", "work", ["name", "id"]],
  ["complaint_state_due", "complaint", ["state", "due_at", "id"]],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
