/**
 * Who may touch which rows: a contest admin the own contests and their children, a
 * school admin the own school. Every read and write of scoped data goes through these.
 * And which works a contest holds (contestWorks: the one place that says so, read by the
 * format review, judging and the works list) with the keyword filter of their lists.
 */
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from "kysely";
import type { DB, User } from "./db/schema";
import { ROLE } from "../shared/roles";
import type { WorkState } from "../shared/work/states";
import { ENTRY_FORMAT_STATE } from "../shared/national/types";
import { readCache } from "./db/changes";

type Handle = Kysely<DB> | Transaction<DB>;

/** The contests a contest admin manages: those they are admin of, and all their descendants. */
export async function adminContestIds(db: Handle, user: User): Promise<number[] | "all"> {
  if (user.user_type === ROLE.root) return "all";
  if (user.user_type !== ROLE.contestAdmin) return [];
  // Every works list asks: kept in memory while contests and their members are unchanged.
  const ids = await readCache(db, "adminContestIds", { maxEntries: 5_000, maxAgeMs: 60_000 }).get(
    String(user.id),
    ["contest", "contest_member"],
    async () => {
      // One round trip: the own contests, then their children, recursively.
      const rows = await sql<{ id: number }>`
      with recursive managed(id) as (
        select contest_id from contest_member where user_id = ${user.id} and role = 'admin'
        union
        select contest.id from contest inner join managed on contest.parent_id = managed.id
      )
      select id from managed`.execute(db);
      return rows.rows.map((r) => Number(r.id));
    },
  );
  return [...ids];
}

/** Provinces whose schools a user may manage; "all" for root or a national contest admin. */
export async function adminProvinces(db: Handle, user: User): Promise<string[] | "all"> {
  const ids = await adminContestIds(db, user);
  if (ids === "all") return "all";
  if (!ids.length) return [];
  const contests = await db.selectFrom("contest").select(["level", "province"]).where("id", "in", ids).execute();
  if (contests.some((c) => c.level === "national")) return "all";
  return [...new Set(contests.map((c) => c.province).filter((p): p is string => !!p))];
}

/** The contests a contest reviewer (role 3) reviews: contest_member "reviewer" rows. */
export async function reviewerContestIds(db: Handle, user: User): Promise<number[]> {
  if (user.user_type !== ROLE.contestReviewer) return [];
  return (
    await db
      .selectFrom("contest_member")
      .select("contest_id")
      .where("user_id", "=", user.id)
      .where("role", "=", "reviewer")
      .execute()
  ).map((r) => r.contest_id);
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

const like = (s: string) => `%${s.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The keyword filter of review and judging lists: a 10-digit work id, or part of a name. */
export function keywordFilter(eb: ExpressionBuilder<DB, "work">, keyword: string) {
  const kw = keyword.trim();
  return /^\d{10}$/.test(kw)
    ? eb("work.id", "=", Number(kw))
    : sql<boolean>`${sql.ref("work.name")} like ${like(kw)} escape '\\'`;
}
