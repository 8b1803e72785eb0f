/**
 * The stored results (contest_result): the rows the use cases check and change (storedRows)
 * and the rows the ranking shows (rowQuery → toRows, with the assignment counts and the
 * defence recommendations).
 */
import type { ResultRow } from "../../../../shared/judging/result-schema";
import type { Handle } from "../../../work/repository";
import { groupKeyOf } from "../../results";
import { settingsOf } from "../contest";
import { assignedCounts, defenceSummaries, isIncomplete, numOrNull } from "./load";

export interface StoredRow {
  work_id: number;
  group_id: number | null;
  category_id: number;
  rank: number | null;
  raw_mean: number | null;
  normalised: number | null;
  judge_count: number;
  flagged: number;
  defence_mean: number | null;
  defence_count: number;
  award_level_id: number | null;
  award_manual: number;
  promoted: number;
}

export async function storedRows(db: Handle, contestId: number): Promise<StoredRow[]> {
  const rows = await db
    .selectFrom("contest_result")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .select([
      "contest_result.work_id",
      "contest_result.group_id",
      "work.category_id",
      "contest_result.rank",
      "contest_result.raw_mean",
      "contest_result.normalised",
      "contest_result.judge_count",
      "contest_result.flagged",
      "contest_result.defence_mean",
      "contest_result.defence_count",
      "contest_result.award_level_id",
      "contest_result.award_manual",
      "contest_result.promoted",
    ])
    .where("contest_result.contest_id", "=", contestId)
    .execute();
  return rows.map((r) => ({
    ...r,
    work_id: Number(r.work_id),
    rank: numOrNull(r.rank),
    raw_mean: numOrNull(r.raw_mean),
    normalised: numOrNull(r.normalised),
    judge_count: Number(r.judge_count),
    flagged: Number(r.flagged),
    defence_mean: numOrNull(r.defence_mean),
    defence_count: Number(r.defence_count),
    award_manual: Number(r.award_manual),
    promoted: Number(r.promoted),
  }));
}

/** The result group key of a stored row. */
export const keyOfRow = (r: { group_id: number | null; category_id: number }) => groupKeyOf(r.group_id, r.category_id);

/** Parses a group key; the rows of that group are filtered by it. */
export function parseKey(key: string): { groupId: number } | { categoryId: number } {
  const n = Number(key.slice(1));
  return key.startsWith("g") ? { groupId: n } : { categoryId: n };
}

export const rowQuery = (db: Handle, contestId: number) =>
  db
    .selectFrom("contest_result")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .leftJoin("judge_group", "judge_group.id", "contest_result.group_id")
    .select([
      "contest_result.work_id",
      "work.name as work_name",
      "school.name as school_name",
      "cat.name as category_name",
      "work.category_id",
      "contest_result.group_id",
      "judge_group.name as group_name",
      "contest_result.rank",
      "contest_result.judge_count",
      "contest_result.raw_mean",
      "contest_result.normalised",
      "contest_result.spread",
      "contest_result.flagged",
      "contest_result.defence_mean",
      "contest_result.defence_count",
      "contest_result.award_level_id",
      "award_level.name as award_name",
      "contest_result.award_manual",
      "contest_result.promoted",
    ])
    .where("contest_result.contest_id", "=", contestId);

type RowRecord = Awaited<ReturnType<ReturnType<typeof rowQuery>["execute"]>>[number];

export async function toRows(db: Handle, contestId: number, list: RowRecord[]): Promise<ResultRow[]> {
  const ids = list.map((r) => Number(r.work_id));
  const needed = (await settingsOf(db, contestId)).reviewsPerWork;
  const assigned = await assignedCounts(db, contestId, ids);
  const defence = await defenceSummaries(db, contestId, ids);
  return list.map((r) => {
    const id = Number(r.work_id);
    const judgeCount = Number(r.judge_count);
    const a = assigned.get(id) ?? 0;
    const d = defence.get(id);
    return {
      workId: id,
      workName: r.work_name,
      schoolName: r.school_name,
      categoryName: r.category_name,
      rank: numOrNull(r.rank),
      judgeCount,
      assigned: a,
      rawMean: numOrNull(r.raw_mean),
      normalised: numOrNull(r.normalised),
      spread: numOrNull(r.spread),
      flagged: !!Number(r.flagged),
      incomplete: isIncomplete(judgeCount, needed, a),
      defenceMean: numOrNull(r.defence_mean),
      defenceCount: Number(r.defence_count),
      recommendations: d ? { strong: d.strong, recommend: d.recommend, not: d.not } : { strong: 0, recommend: 0, not: 0 },
      award: r.award_level_id !== null ? { id: r.award_level_id, name: r.award_name ?? "" } : null,
      awardManual: !!Number(r.award_manual),
      promoted: !!Number(r.promoted),
    };
  });
}
