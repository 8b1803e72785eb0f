/**
 * Jobs in a durable queue (issue 9).
 *
 * - job: the user-visible import/export row gains what a crash-safe, cross-process run
 *   needs: how often a process took it (attempts), which process holds it and when it last
 *   said so (owner, heartbeat_at: a lease), its parameters (params: JSON, e.g. an export's
 *   filters) and the blobs of its files (input/plan/output sha256 in the blob store; the
 *   old `file` path column is no longer written).
 * - queue_task: the embedded SQLite's task queue (on PostgreSQL pg-boss keeps its own
 *   tables in the `pgboss` schema); one worker loop claims rows.
 * - schedule_slot: the last time slot each scheduled task ran in (SQLite scheduler), so a
 *   slot runs once whichever instance claims it first.
 * - task_run: a log of scheduled runs (task, slot, process, start, end, error) on both
 *   databases, for operators ("when did the clean-up last run") and the once-only test.
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("job")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  for (const col of ["owner", "heartbeat_at", "params", "input_sha256", "plan_sha256", "output_sha256"]) {
    await db.schema.alterTable("job").addColumn(col, "text").execute();
  }
  await db.schema.createIndex("job_status").on("job").columns(["status", "heartbeat_at"]).execute();
  await db.schema.createIndex("job_updated").on("job").column("updated_at").execute();
  for (const col of ["input_sha256", "plan_sha256", "output_sha256"])
    await db.schema.createIndex(`job_${col}`).on("job").column(col).execute();

  await withId(db, db.schema.createTable("queue_task"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    /** queued | active | failed */
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("run_after", "text", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("queue_task_due").on("queue_task").columns(["state", "run_after"]).execute();

  await db.schema
    .createTable("schedule_slot")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("slot", "text", (c) => c.notNull())
    .addColumn("ran_by", "text")
    .execute();

  await withId(db, db.schema.createTable("task_run"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slot", "text", (c) => c.notNull())
    .addColumn("ran_by", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("task_run_name").on("task_run").columns(["name", "slot"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("task_run").execute();
  await db.schema.dropTable("schedule_slot").execute();
  await db.schema.dropTable("queue_task").execute();
  for (const col of ["input_sha256", "plan_sha256", "output_sha256"]) await db.schema.dropIndex(`job_${col}`).execute();
  await db.schema.dropIndex("job_updated").execute();
  await db.schema.dropIndex("job_status").execute();
  for (const col of ["output_sha256", "plan_sha256", "input_sha256", "params", "heartbeat_at", "owner", "attempts"])
    await db.schema.alterTable("job").dropColumn(col).execute();
}
