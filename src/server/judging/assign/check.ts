/**
 * The gate's check of proposed rows against a snapshot, written directly on conflict.ts (not
 * on the assigner's indexes): every row names a known work and judge, has no conflict of
 * interest, respects the work's group, repeats no existing or proposed pair, and no judge goes
 * over capacity nor any work over the reviews it needs. Algorithms, CSV import and manual
 * edits can all be checked with it before anything is written. Pure.
 */
import { conflictsFor, formatConflictReasons, type ConflictReason } from "../conflict";
import { DEFAULT_REVIEWS_PER_WORK, type AssignInput, type Proposal } from "./types";

export type ProposalProblem =
  | { kind: "unknown_work"; workId: number; judgeId: number; message: string }
  | { kind: "unknown_judge"; workId: number; judgeId: number; message: string }
  | { kind: "conflict"; workId: number; judgeId: number; reasons: ConflictReason[]; message: string }
  | { kind: "not_in_group"; workId: number; judgeId: number; message: string }
  | { kind: "duplicate"; workId: number; judgeId: number; message: string }
  | { kind: "over_capacity"; judgeId: number; load: number; capacity: number; message: string }
  | { kind: "over_needed"; workId: number; reviews: number; needed: number; message: string };

export function checkProposal(input: AssignInput, rows: readonly Proposal[]): ProposalProblem[] {
  const opts = input.conflictOptions ?? { avoidProvince: false };
  const works = new Map(input.works.map((w) => [w.id, w]));
  const judges = new Map(input.judges.map((j) => [j.id, j]));
  const groups = new Map((input.groups ?? []).map((g) => [g.id, new Set(g.judgeIds)]));
  const extra = new Set((input.extraConflicts ?? []).map((p) => `${p.workId}:${p.judgeId}`));
  const problems: ProposalProblem[] = [];

  const pairs = new Set<string>();
  const load = new Map<number, number>(input.judges.map((j) => [j.id, j.load ?? 0]));
  const reviews = new Map<number, number>();
  for (const w of input.works) {
    const existing = new Set(w.existingJudgeIds ?? []);
    reviews.set(w.id, existing.size);
    for (const j of existing) {
      pairs.add(`${w.id}:${j}`);
      if (load.has(j)) load.set(j, load.get(j)! + 1);
    }
  }
  const before = new Map(load);
  const reviewsBefore = new Map(reviews);

  for (const { workId, judgeId } of rows) {
    const w = works.get(workId);
    const j = judges.get(judgeId);
    if (!w) {
      problems.push({ kind: "unknown_work", workId, judgeId, message: `作品 ${workId} 不在本次分配范围内` });
      continue;
    }
    if (!j) {
      problems.push({ kind: "unknown_judge", workId, judgeId, message: `评委 ${judgeId} 不在本次评委名单中` });
      continue;
    }
    const key = `${workId}:${judgeId}`;
    if (pairs.has(key)) {
      problems.push({ kind: "duplicate", workId, judgeId, message: `评委 ${judgeId} 已分配过作品 ${workId}` });
      continue;
    }
    pairs.add(key);
    const reasons = conflictsFor(j, w, opts);
    if (reasons.length)
      problems.push({
        kind: "conflict",
        workId,
        judgeId,
        reasons,
        message: `评委 ${judgeId} 与作品 ${workId} 存在回避关系（${formatConflictReasons(reasons)}）`,
      });
    else if (extra.has(key) || (input.isConflict?.(w, j) ?? false))
      problems.push({
        kind: "conflict",
        workId,
        judgeId,
        reasons: ["declared"],
        message: `评委 ${judgeId} 与作品 ${workId} 存在回避关系（${formatConflictReasons(["declared"])}）`,
      });
    if (w.groupId !== undefined && !(groups.get(w.groupId)?.has(judgeId) ?? false)) {
      problems.push({ kind: "not_in_group", workId, judgeId, message: `评委 ${judgeId} 不在作品 ${workId} 所属的评审组中` });
    }
    load.set(judgeId, load.get(judgeId)! + 1);
    reviews.set(workId, reviews.get(workId)! + 1);
  }
  for (const j of input.judges) {
    const l = load.get(j.id)!;
    if (l > j.capacity && l > before.get(j.id)!) {
      problems.push({
        kind: "over_capacity",
        judgeId: j.id,
        load: l,
        capacity: j.capacity,
        message: `评委 ${j.id} 的工作量 ${l} 超过容量 ${j.capacity}`,
      });
    }
  }
  for (const w of input.works) {
    const n = reviews.get(w.id)!;
    const needed = w.needed ?? DEFAULT_REVIEWS_PER_WORK;
    if (n > needed && n > reviewsBefore.get(w.id)!) {
      problems.push({
        kind: "over_needed",
        workId: w.id,
        reviews: n,
        needed,
        message: `作品 ${w.id} 将有 ${n} 位评委，超过所需的 ${needed} 位`,
      });
    }
  }
  return problems;
}
