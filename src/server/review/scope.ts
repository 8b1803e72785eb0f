/**
 * Who reviews which contest's works, and which works a contest's format review holds.
 *
 * - A contest reviewer (role 3) reviews the contests they are a contest_member "reviewer"
 *   of; a contest admin the non-school contests in their scope (own and descendants); root
 *   every non-school contest. Any other contest answers 404, whoever asks.
 * - A contest's format review holds the works it received (its own entries, and the works
 *   of its school-level children once accepted) that are in a format review state (which works
 *   a contest holds is ../scope.ts contestWorks, shared with judging and the works list).
 */
import { notFound } from "../../shared/errors";
import { ROLE } from "../../shared/roles";
import { FORMAT_REVIEW_STATES, type WorkState } from "../../shared/work/states";
import type { User } from "../db/schema";
import { adminContestIds, reviewerContestIds, worksOfContest } from "../scope";
import type { Handle } from "../work/repository";

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

/** The works of a contest's format review (or of the given states), no columns selected. */
export const reviewWorks = (db: Handle, contestId: number, states: readonly WorkState[] = FORMAT_REVIEW_STATES) =>
  worksOfContest(db, contestId, states);
