/**
 * National entries (issue 14, "the national round").
 *
 * How a work belongs to a contest today: work.contest_id is the contest the work registered in
 * (a school or provincial contest); a provincial contest receives the works of its school
 * contests through that column (review/scope.ts, receivingContestId). The provincial result
 * (contest_result: award, promoted) and the certificates store their own facts per contest.
 *
 * Decision: the work row stays where it is (work.contest_id unchanged, same work id, team and
 * files), and a promoted work enters the national contest through a new row here, one per
 * (work, national contest) — unique, so publishing twice or withdrawing and republishing
 * never duplicates. Moving work.contest_id would have rewritten the provincial history every
 * query reads (review scope, groups, results of the provincial contest); an entry row leaves
 * all of it as it was.
 *
 * - national_entry: work_id, contest_id (the national contest), from_contest_id (the
 *   provincial contest whose published result promoted it), province and category_id (copied
 *   at entry: the quota is counted per province and 大类), status: entered | withdrawn,
 *   format_status (the entry's own format review: pending | passed | returned | rejected),
 *   withdraw_kind: admin (the provincial admin withdrew it, with a reason: never re-entered by
 *   a later publication) | sync (the promotion was taken back or the provincial publication
 *   withdrawn: re-entered when promoted again), withdraw_reason, withdrawn_by, withdrawn_at.
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("national_entry"))
    .addColumn("work_id", "integer", (c) => c.notNull().references("work.id"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("from_contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("province", "text")
    .addColumn("category_id", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("entered"))
    .addColumn("format_status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("withdraw_kind", "text")
    .addColumn("withdraw_reason", "text")
    .addColumn("withdrawn_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("withdrawn_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("national_entry_work_contest", ["work_id", "contest_id"])
    .execute();
  await db.schema.createIndex("national_entry_contest").on("national_entry").columns(["contest_id", "status"]).execute();
  await db.schema.createIndex("national_entry_from").on("national_entry").column("from_contest_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("national_entry").execute();
}
