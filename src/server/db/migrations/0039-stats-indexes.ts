/**
 * Indexes for the statistics dashboards (issue 32, src/server/stats/), both dialects:
 * - work_stats (year, contest_id, status, school_id): every dashboard counts the works of a
 *   year in a set of contests by state (the pipeline, format review, summaries) — read from
 *   the index alone instead of the table;
 * - work_stats_created (year, created_at): the timeline's works created per hour, from the index;
 * - work_log_stats (action, work_id, at): the timeline's and the reviewers' first/last step
 *   of each work per action (submit, approve, recommend, accept, format_*) without reading
 *   every log row of every work.
 */
import type { Kysely } from "kysely";

const INDEXES: [string, string, string[]][] = [
  ["work_stats", "work", ["year", "contest_id", "status", "school_id"]],
  ["work_stats_created", "work", ["year", "created_at"]],
  ["work_log_stats", "work_log", ["action", "work_id", "at"]],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
