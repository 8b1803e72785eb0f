/**
 * Set-up of the results tests: judge groups with their judges and works, and submitted
 * online scores written straight into the database — each with its assignment row and its
 * score log entry, as the scoring service would leave them (the scoring endpoints have
 * their own tests) — and defence scores of a group.
 */
import type { TestApp } from "../helpers/app";
import { appendScoreLog } from "../../src/server/judging/service/score-log-store";

const now = () => new Date().toISOString();

/** A judge group of the contest with these judges (members) and works (placed in it). */
export async function makeGroup(
  t: TestApp,
  contest: number,
  name: string,
  categoryId: number,
  judgeIds: number[],
  workIds: number[],
) {
  const g = await t.db
    .insertInto("judge_group")
    .values({
      contest_id: contest,
      name,
      category_id: categoryId,
      subcategory_id: null,
      group_type: null,
      leader_id: judgeIds[0] ?? null,
      note: null,
      created_at: now(),
      updated_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (judgeIds.length)
    await t.db
      .insertInto("judge_group_member")
      .values(judgeIds.map((user_id) => ({ group_id: g.id, user_id, created_at: now() })))
      .execute();
  if (workIds.length)
    await t.db
      .insertInto("judge_group_work")
      .values(workIds.map((work_id) => ({ contest_id: contest, group_id: g.id, work_id, created_at: now() })))
      .execute();
  return g.id;
}

/** Reviews per work of the contest (its judging settings). */
export async function setReviewsPerWork(t: TestApp, contest: number, n: number) {
  await t.db.deleteFrom("judging_setting").where("contest_id", "=", contest).execute();
  await t.db
    .insertInto("judging_setting")
    .values({
      contest_id: contest,
      reviews_per_work: n,
      judge_capacity: null,
      avoid_province: 0,
      updated_at: now(),
      updated_by: null,
    })
    .execute();
}

/** An assignment of a judge to a work (in the work's group), without a score. */
export async function assign(t: TestApp, contest: number, workId: number, judgeId: number) {
  const placed = await t.db
    .selectFrom("judge_group_work")
    .select("group_id")
    .where("contest_id", "=", contest)
    .where("work_id", "=", workId)
    .executeTakeFirst();
  const row = await t.db
    .insertInto("judge_assignment")
    .values({
      contest_id: contest,
      work_id: workId,
      judge_id: judgeId,
      group_id: placed?.group_id ?? null,
      created_at: now(),
      created_by: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Submitted scores [workId, judgeId, total]: the assignment row (created when missing), the
 * judge_score row and a "submit" entry in the contest's score log, in one transaction each.
 */
export async function submitScores(t: TestApp, contest: number, scores: [number, number, number][]) {
  for (const [workId, judgeId, total] of scores) {
    const existing = await t.db
      .selectFrom("judge_assignment")
      .select("id")
      .where("contest_id", "=", contest)
      .where("work_id", "=", workId)
      .where("judge_id", "=", judgeId)
      .executeTakeFirst();
    const assignmentId = existing?.id ?? (await assign(t, contest, workId, judgeId));
    await t.db.transaction().execute(async (trx) => {
      const at = now();
      await trx
        .insertInto("judge_score")
        .values({
          assignment_id: assignmentId,
          contest_id: contest,
          work_id: workId,
          judge_id: judgeId,
          items: "{}",
          deductions: "[]",
          total,
          comment: "",
          status: "submitted",
          version: 1,
          submitted_at: at,
          reopened_at: null,
          reopened_by: null,
          reopen_reason: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await appendScoreLog(trx, { actorId: judgeId, contestId: contest, workId, judgeId, action: "submit", score: total });
    });
  }
}

/** Changes a submitted score (as a reopen and resubmission would), with its log entry. */
export async function changeScore(t: TestApp, contest: number, workId: number, judgeId: number, total: number) {
  await t.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("judge_score")
      .set({ total, updated_at: now() })
      .where("contest_id", "=", contest)
      .where("work_id", "=", workId)
      .where("judge_id", "=", judgeId)
      .execute();
    await appendScoreLog(trx, { actorId: judgeId, contestId: contest, workId, judgeId, action: "submit", score: total });
  });
}

/** A defence session of the group with one slot per work and these scores [workId, judgeId, score, recommendation]. */
export async function defenceScores(
  t: TestApp,
  contest: number,
  groupId: number,
  scores: [number, number, number, "strong" | "recommend" | "not"][],
) {
  const s = await t.db
    .insertInto("defence_session")
    .values({
      contest_id: contest,
      group_id: groupId,
      starts_at: now(),
      place: "答辩室 101",
      meeting_link: null,
      prepare_note: null,
      created_at: now(),
      updated_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const slots = new Map<number, number>();
  for (const workId of [...new Set(scores.map((x) => x[0]))]) {
    const slot = await t.db
      .insertInto("defence_slot")
      .values({
        session_id: s.id,
        work_id: workId,
        position: slots.size + 1,
        slot_time: null,
        code: `code-${groupId}-${workId}`,
        created_at: now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    slots.set(workId, slot.id);
  }
  await t.db
    .insertInto("defence_score")
    .values(
      scores.map(([workId, judge_id, score, recommendation]) => ({
        slot_id: slots.get(workId)!,
        judge_id,
        score,
        recommendation,
        comment: "",
        created_at: now(),
        updated_at: now(),
      })),
    )
    .execute();
  return s.id;
}
