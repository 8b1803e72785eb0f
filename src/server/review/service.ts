/**
 * Format review use cases: the reviewer's contests with progress, the works to review
 * (filters, stable order by work id), fast review's neighbours and saved position, and
 * the outcomes — which go through the works' one transition function (and its log) in
 * the same transaction as the reviewer's new position.
 */
import type { PageOf } from "../../shared/crud/list";
import { badRequest, notFound } from "../../shared/errors";
import { FORMAT_REASON_NAMES, type FormatReasonCode } from "../../shared/review/reasons";
import type {
  Neighbours,
  OutcomeBody,
  OutcomeResult,
  Position,
  ReviewContest,
  ReviewFilters,
  ReviewListItem,
} from "../../shared/review/schema";
import {
  FORMAT_FILTERS,
  FORMAT_PENDING_STATES,
  FORMAT_REVIEW_STATES,
  WORK_STATE_NAMES,
  type FormatOutcome,
  type WorkState,
} from "../../shared/work/states";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { receivingContestId } from "../work/rules";
import * as repo from "../work/repository";
import { applyTransition } from "../work/service/transition";
import { inTransaction, type WorkCtx } from "../work/service/context";
import { nationalStateName } from "../../shared/national/types";
import { keywordFilter } from "../scope";
import { requireReviewContest, reviewContests, reviewWorks } from "./scope";

type Handle = repo.Handle;

const statesOf = (f: ReviewFilters): readonly WorkState[] => (f.status ? FORMAT_FILTERS[f.status].states : FORMAT_REVIEW_STATES);

/** The filtered works of a contest's format review, no columns selected. */
function filtered(db: Handle, contestId: number, f: ReviewFilters) {
  let q = reviewWorks(db, contestId, statesOf(f));
  if (f.categoryId !== undefined) q = q.where("work.category_id", "=", f.categoryId);
  if (f.keyword?.trim()) q = q.where((eb) => keywordFilter(eb, f.keyword!));
  return q;
}

const count = async (q: ReturnType<typeof filtered>) =>
  Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

export async function myReviewContests(db: Db, user: User): Promise<ReviewContest[]> {
  const out: ReviewContest[] = [];
  for (const c of await reviewContests(db, user)) {
    const byState = await reviewWorks(db, c.id)
      .select(["cw.status", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("cw.status")
      .execute();
    const n = (states: readonly WorkState[]) =>
      byState.filter((r) => states.includes(r.status)).reduce((s, r) => s + Number(r.n), 0);
    const total = n(FORMAT_REVIEW_STATES);
    const pending = n(FORMAT_PENDING_STATES);
    const pos = await db
      .selectFrom("review_position")
      .select("work_id")
      .where("user_id", "=", user.id)
      .where("contest_id", "=", c.id)
      .executeTakeFirst();
    out.push({
      ...c,
      total,
      reviewed: total - pending,
      pending,
      passed: n(FORMAT_FILTERS.passed.states),
      returned: n(FORMAT_FILTERS.returned.states),
      rejected: n(FORMAT_FILTERS.rejected.states),
      lastWorkId: pos ? Number(pos.work_id) : null,
    });
  }
  return out;
}

export const reasonsOf = (json: string | null) =>
  (json ? (JSON.parse(json) as string[]) : []).map((code) => ({
    code,
    name: FORMAT_REASON_NAMES[code as FormatReasonCode] ?? code,
  }));

export async function listReviewWorks(
  db: Db,
  user: User,
  contestId: number,
  f: ReviewFilters,
  offset: number,
  limit: number,
): Promise<PageOf<ReviewListItem>> {
  const contest = await requireReviewContest(db, user, contestId);
  const q = filtered(db, contestId, f);
  const total = await count(q);
  const rows = await q
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .select([
      "work.id",
      "work.name",
      "cw.status",
      "work.category_id",
      "cat.name as category_name",
      "work.subcategory_id",
      "sub.name as subcategory_name",
      "work.group_type",
      "work.school_id",
      "school.name as school_name",
      "cw.format_reasons",
      "cw.format_deadline",
      "work.updated_at",
    ])
    .orderBy("work.id")
    .offset(offset)
    .limit(limit)
    .execute();
  // A national entry's own name, when changed in the national round (migration 0029).
  const own =
    contest.level === "national"
      ? await repo.nationalFieldsOf(
          db,
          contestId,
          rows.map((r) => Number(r.id)),
        )
      : new Map();
  return {
    total,
    list: rows.map((r) => ({
      id: Number(r.id),
      name: own.get(Number(r.id))?.name ?? r.name,
      status: r.status,
      statusName: contest.level === "national" ? nationalStateName(r.status) : WORK_STATE_NAMES[r.status],
      category: { id: r.category_id, name: r.category_name },
      subcategory: r.subcategory_id !== null ? { id: r.subcategory_id, name: r.subcategory_name ?? "" } : null,
      group: r.group_type,
      school: { id: r.school_id, name: r.school_name },
      formatReasons: reasonsOf(r.format_reasons),
      formatDeadline: r.format_deadline,
      updatedAt: r.updated_at,
    })),
  };
}

/** The works before and after `workId` in the stable order of the filtered list. */
export async function neighbours(db: Db, user: User, contestId: number, workId: number, f: ReviewFilters): Promise<Neighbours> {
  await requireReviewContest(db, user, contestId);
  const prev = await filtered(db, contestId, f)
    .select("work.id")
    .where("work.id", "<", workId)
    .orderBy("work.id", "desc")
    .limit(1)
    .executeTakeFirst();
  const next = await filtered(db, contestId, f)
    .select("work.id")
    .where("work.id", ">", workId)
    .orderBy("work.id")
    .limit(1)
    .executeTakeFirst();
  const here = await filtered(db, contestId, f).select("work.id").where("work.id", "=", workId).executeTakeFirst();
  return {
    prev: prev ? Number(prev.id) : null,
    next: next ? Number(next.id) : null,
    index: here ? await count(filtered(db, contestId, f).where("work.id", "<=", workId)) : 0,
    total: await count(filtered(db, contestId, f)),
  };
}

async function savePosition(db: Handle, userId: number, contestId: number, workId: number, at: string) {
  await db
    .insertInto("review_position")
    .values({ user_id: userId, contest_id: contestId, work_id: workId, updated_at: at })
    .onConflict((oc) => oc.columns(["user_id", "contest_id"]).doUpdateSet({ work_id: workId, updated_at: at }))
    .execute();
}

export async function getPosition(db: Db, user: User, contestId: number): Promise<Position> {
  await requireReviewContest(db, user, contestId);
  const row = await db
    .selectFrom("review_position")
    .select(["work_id", "updated_at"])
    .where("user_id", "=", user.id)
    .where("contest_id", "=", contestId)
    .executeTakeFirst();
  return { workId: row ? Number(row.work_id) : null, updatedAt: row?.updated_at ?? null };
}

export async function setPosition(db: Db, user: User, contestId: number, workId: number): Promise<Position> {
  await requireReviewContest(db, user, contestId);
  if (!(await reviewWorks(db, contestId).select("work.id").where("work.id", "=", workId).executeTakeFirst()))
    throw notFound("该作品不在本赛事的形式审查中");
  const at = new Date().toISOString();
  await savePosition(db, user.id, contestId, workId, at);
  return { workId, updatedAt: at };
}

/**
 * Gives a format review outcome through the one transition function; the caller's fast
 * review position moves to the work. Replies with the next work waiting for review.
 */
export async function giveOutcome(
  ctx: WorkCtx,
  workId: number,
  outcome: FormatOutcome,
  body: OutcomeBody,
): Promise<OutcomeResult> {
  return inTransaction(ctx, async (t) => {
    const w = await repo.findWork(t.db, workId);
    const moved = await applyTransition(t, workId, outcome, body);
    if (!w) throw badRequest("作品不存在");
    // A national entry's step belongs to the national contest's review.
    const contestId =
      moved.nationalContestId ?? receivingContestId({ level: w.contest_level, id: w.contest_id, parent_id: w.contest_parent_id });
    await savePosition(t.db, t.user.id, contestId, workId, t.now.toISOString());
    const next = await reviewWorks(t.db, contestId, FORMAT_PENDING_STATES)
      .select("work.id")
      .where("work.id", ">", workId)
      .orderBy("work.id")
      .limit(1)
      .executeTakeFirst();
    return {
      id: moved.id,
      status: moved.status,
      statusName: WORK_STATE_NAMES[moved.status],
      next: next ? Number(next.id) : null,
    };
  });
}
