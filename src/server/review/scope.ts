/**
 * Who reviews which contest's works, and which works a contest's format review holds.
 *
 * - A contest reviewer (role 3) reviews the contests they are a contest_member "reviewer"
 *   of; a contest admin the non-school contests in their scope (own and descendants); root
 *   every non-school contest. Any other contest answers 404, whoever asks.
 * - A contest's format review holds the works it received (its own entries, and the works
 *   of its school-level children once accepted) that are in a format review state.
 */
import { sql, type ExpressionBuilder } from "kysely";
import { notFound } from "../../shared/errors";
import { ROLE } from "../../shared/roles";
import { FORMAT_REVIEW_STATES, type WorkState } from "../../shared/work/states";
import type { DB, User } from "../db/schema";
import { adminContestIds, reviewerContestIds } from "../scope";
import type { Handle } from "../work/repository";
import { ENTRY_FORMAT_STATE } from "../../shared/national/types";

export const NOT_REVIEWED = "赛事不存在或您不负责该赛事的形式审查";

/** Contest ids the user may review; "all" for root. */
export async function reviewScope(db: Handle, user: User): Promise<number[] | "all"> {
  if (user.user_type === ROLE.root) return "all";
  if (user.user_type === ROLE.contestReviewer) return reviewerContestIds(db, user);
  if (user.user_type === ROLE.contestAdmin) return adminContestIds(db, user);
  return [];
}

export interface ReviewContestRow {
  id: number;
  name: string;
  level: string;
  year: number;
}

/** The contests the user reviews (not archived, not school-level), newest year first. */
export async function reviewContests(db: Handle, user: User): Promise<ReviewContestRow[]> {
  const scope = await reviewScope(db, user);
  if (scope !== "all" && !scope.length) return [];
  let q = db
    .selectFrom("contest")
    .select(["id", "name", "level", "year"])
    .where("archived", "=", 0)
    .where("level", "!=", "school");
  if (scope !== "all") q = q.where("id", "in", scope);
  return q.orderBy("year", "desc").orderBy("id").execute();
}

/** The contest, when the user reviews it; 404 otherwise. */
export async function requireReviewContest(db: Handle, user: User, contestId: number): Promise<ReviewContestRow> {
  const scope = await reviewScope(db, user);
  if (scope !== "all" && !scope.includes(contestId)) throw notFound(NOT_REVIEWED);
  const c = await db
    .selectFrom("contest")
    .select(["id", "name", "level", "year"])
    .where("id", "=", contestId)
    .where("level", "!=", "school")
    .executeTakeFirst();
  if (!c) throw notFound(NOT_REVIEWED);
  return c;
}

/** The contests whose works contest `contestId` receives: itself (unless school-level) and its school-level children. */
export const receivingFrom = (db: Handle, contestId: number) =>
  db
    .selectFrom("contest")
    .select("contest.id")
    .where((eb) =>
      eb.or([
        eb.and([eb("contest.id", "=", contestId), eb("contest.level", "!=", "school")]),
        eb.and([eb("contest.parent_id", "=", contestId), eb("contest.level", "=", "school")]),
      ]),
    );

/** A national entry's format_status as the work state the pipeline reads (ENTRY_FORMAT_STATE). */
const entryState = sql<WorkState>`case ${sql.ref("national_entry.format_status")} ${sql.join(
  Object.entries(ENTRY_FORMAT_STATE).map(([k, v]) => sql`when ${sql.lit(k)} then ${sql.lit(v)}`),
  sql` `,
)} end`;

/** The work ids promoted into (national) contest `contestId` and entered there (not withdrawn). */
export const enteredWorkIds = (db: Handle, contestId: number) =>
  db
    .selectFrom("national_entry")
    .select("national_entry.work_id")
    .where("national_entry.contest_id", "=", contestId)
    .where("national_entry.status", "=", "entered");

/**
 * The works of contest `contestId`, with the state each has IN that contest — the one place
 * that says which works a contest holds (format review lists and counts, the judging pool,
 * groups, assignment, scoring, results): the works it received (receivingFrom: its own
 * entries and its school-level children's), and for a national contest the works promoted
 * into it through an entered national_entry (issue 14), whose state is the entry's own format
 * review (the provincial work row is not read for it). A withdrawn entry is not a member.
 * Columns: work_id, status, format_reasons, format_deadline, return_reason. Join it as "cw".
 */
export const contestWorks = (db: Handle, contestId: number) =>
  db
    .selectFrom("work")
    .select([
      "work.id as work_id",
      "work.status as status",
      "work.format_reasons as format_reasons",
      "work.format_deadline as format_deadline",
      "work.return_reason as return_reason",
    ])
    .where("work.contest_id", "in", receivingFrom(db, contestId))
    .unionAll(
      db
        .selectFrom("national_entry")
        .select([
          "national_entry.work_id as work_id",
          entryState.as("status"),
          "national_entry.format_reasons as format_reasons",
          "national_entry.format_deadline as format_deadline",
          "national_entry.format_note as return_reason",
        ])
        .where("national_entry.contest_id", "=", contestId)
        .where("national_entry.status", "=", "entered"),
    );

/** The works of contest `contestId` in the given states (their state in that contest: cw.status), no columns selected. */
export const worksOfContest = (db: Handle, contestId: number, states: readonly WorkState[]) =>
  db
    .selectFrom("work")
    .innerJoin(contestWorks(db, contestId).as("cw"), (j) => j.onRef("cw.work_id", "=", "work.id"))
    .where("cw.status", "in", [...states]);

/** The works of a contest's format review (or of the given states), no columns selected. */
export const reviewWorks = (db: Handle, contestId: number, states: readonly WorkState[] = FORMAT_REVIEW_STATES) =>
  worksOfContest(db, contestId, states);

const like = (s: string) => `%${s.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The keyword filter of review and judging lists: a 10-digit work id, or part of a name. */
export function keywordFilter(eb: ExpressionBuilder<DB, "work">, keyword: string) {
  const kw = keyword.trim();
  return /^\d{10}$/.test(kw)
    ? eb("work.id", "=", Number(kw))
    : sql<boolean>`${sql.ref("work.name")} like ${like(kw)} escape '\\'`;
}
