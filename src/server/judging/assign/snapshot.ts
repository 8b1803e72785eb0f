/**
 * Indexes an AssignInput for the algorithms: judges and works by position, remaining capacity,
 * remaining demand, group membership, and the conflict rules of conflict.ts split in their
 * school-level half (one eligibility row per distinct (group, school, province)) and their
 * personal half (a sparse set of forbidden (work, judge) pairs). Also collects the warnings
 * about the existing assignments. Pure.
 */
import { conflictsFor, formatConflictReasons, personalConflicts, schoolLevelConflicts, type ConflictOptions } from "../conflict";
import {
  DEFAULT_REVIEWS_PER_WORK,
  type AssignInput,
  type AssignJudge,
  type AssignWarning,
  type AssignWork,
  type GroupId,
} from "./types";

export interface Snapshot {
  works: readonly AssignWork[];
  judges: readonly AssignJudge[];
  W: number;
  J: number;
  opts: ConflictOptions;
  judgeIndex: Map<number, number>;
  /** Per group index: id, display name, member flags over judges, member count. */
  groups: { id: GroupId; name: string; member: Uint8Array; size: number }[];
  /** Group index of each work, −1 when unrestricted. */
  workGroup: Int32Array;
  /** Reviews each work still needs (needed − existing, ≥ 0). */
  demand: Int32Array;
  /** Total reviews each work needs (existing included). */
  needed: Int32Array;
  /** Load before the proposal: `load` + existing assignments of the snapshot. */
  preLoad: Int32Array;
  /** Capacity left for new assignments (≥ 0). */
  remaining: Int32Array;
  /** Structural key of each work: index into `eligible`. */
  skey: Int32Array;
  /** Per structural key (group, school, province): 1 where the judge is in the group and has no school-level conflict. */
  eligible: Uint8Array[];
  /** Per work: judge indices it must not get as a new judge (personal conflicts, extra pairs, its existing judges). */
  forbidden: Map<number, Set<number>>;
  /** The input's conflict predicate, by indices, if any. */
  predicate: ((wi: number, ji: number) => boolean) | null;
  warnings: AssignWarning[];
}

const isCount = (x: number) => Number.isInteger(x) && x >= 0;

type Forbid = (wi: number, ji: number) => void;

/** Judge and work indices by id; refuses duplicates and counts that are not non-negative integers. */
function indexIds({ works, judges }: AssignInput) {
  const judgeIndex = new Map<number, number>();
  judges.forEach((j, i) => {
    if (judgeIndex.has(j.id)) throw new RangeError(`评委 ${j.id} 重复出现`);
    if (!isCount(j.capacity) || !isCount(j.load ?? 0)) throw new RangeError(`评委 ${j.id} 的容量或负载不是非负整数`);
    judgeIndex.set(j.id, i);
  });
  const workIndex = new Map<number, number>();
  works.forEach((w, i) => {
    if (workIndex.has(w.id)) throw new RangeError(`作品 ${w.id} 重复出现`);
    if (!isCount(w.needed ?? DEFAULT_REVIEWS_PER_WORK)) throw new RangeError(`作品 ${w.id} 的评审次数不是非负整数`);
    workIndex.set(w.id, i);
  });
  return { judgeIndex, workIndex };
}

/** Groups by index; a work naming an unknown group gets an empty one (reported as too few judges). */
function indexGroups(input: AssignInput, judgeIndex: Map<number, number>) {
  const J = input.judges.length;
  const { works } = input;
  const groups: Snapshot["groups"] = [];
  const groupIndex = new Map<GroupId, number>();
  for (const g of input.groups ?? []) {
    if (groupIndex.has(g.id)) throw new RangeError(`评审组 ${g.id} 重复出现`);
    const member = new Uint8Array(J);
    for (const id of g.judgeIds) {
      const j = judgeIndex.get(id);
      if (j !== undefined) member[j] = 1;
    }
    groupIndex.set(g.id, groups.length);
    groups.push({ id: g.id, name: g.name ?? String(g.id), member, size: member.reduce((a, b) => a + b, 0) });
  }
  const workGroup = new Int32Array(works.length).fill(-1);
  works.forEach((w, i) => {
    if (w.groupId === undefined) return;
    let g = groupIndex.get(w.groupId);
    if (g === undefined) {
      g = groups.length;
      groupIndex.set(w.groupId, g);
      groups.push({ id: w.groupId, name: String(w.groupId), member: new Uint8Array(J), size: 0 });
    }
    workGroup[i] = g;
  });
  return { groups, workGroup };
}

/**
 * Existing assignments: kept; they count towards the work's reviews and the judge's load,
 * and the work may not get the same judge again. Warns about the ones over the need, with an
 * unknown judge, with a conflict or outside the work's group, and about judges over capacity.
 */
function existingAssignments(
  { works, judges }: AssignInput,
  judgeIndex: Map<number, number>,
  g: ReturnType<typeof indexGroups>,
  opts: ConflictOptions,
  forbid: Forbid,
  warnings: AssignWarning[],
) {
  const { groups, workGroup } = g;
  const W = works.length;
  const J = judges.length;
  const preLoad = new Int32Array(J);
  judges.forEach((j, i) => (preLoad[i] = j.load ?? 0));
  const demand = new Int32Array(W);
  const needed = new Int32Array(W);
  works.forEach((w, wi) => {
    const existing = [...new Set(w.existingJudgeIds ?? [])];
    needed[wi] = w.needed ?? DEFAULT_REVIEWS_PER_WORK;
    demand[wi] = Math.max(0, needed[wi] - existing.length);
    if (existing.length > needed[wi]) {
      warnings.push({
        kind: "existing_over_needed",
        workId: w.id,
        existing: existing.length,
        needed: needed[wi],
        message: `作品 ${w.id} 已有 ${existing.length} 位评委，超过所需的 ${needed[wi]} 位`,
      });
    }
    for (const id of existing) {
      const ji = judgeIndex.get(id);
      if (ji === undefined) {
        warnings.push({
          kind: "existing_unknown_judge",
          workId: w.id,
          judgeId: id,
          message: `作品 ${w.id} 的已有评委 ${id} 不在本次评委名单中，保留该分配`,
        });
        continue;
      }
      preLoad[ji]++;
      forbid(wi, ji);
      const reasons = conflictsFor(judges[ji], w, opts);
      if (reasons.length) {
        warnings.push({
          kind: "existing_conflict",
          workId: w.id,
          judgeId: id,
          reasons,
          message: `已有分配：评委 ${id} 与作品 ${w.id} 存在回避关系（${formatConflictReasons(reasons)}）`,
        });
      }
      const g = workGroup[wi];
      if (g >= 0 && !groups[g].member[ji]) {
        warnings.push({
          kind: "judge_not_in_group",
          workId: w.id,
          judgeId: id,
          message: `已有分配：评委 ${id} 不在作品 ${w.id} 所属的评审组“${groups[g].name}”中`,
        });
      }
    }
  });
  const remaining = new Int32Array(J);
  judges.forEach((j, i) => {
    remaining[i] = Math.max(0, j.capacity - preLoad[i]);
    if (preLoad[i] > j.capacity) {
      warnings.push({
        kind: "over_capacity",
        judgeId: j.id,
        load: preLoad[i],
        capacity: j.capacity,
        message: `评委 ${j.id} 现有负载 ${preLoad[i]} 已超过容量 ${j.capacity}`,
      });
    }
  });
  return { preLoad, demand, needed, remaining };
}

/**
 * Personal conflicts: only pairs that the facts point at (advisor/author ids, declared works and students),
 * each confirmed by conflict.ts's personalConflicts so the rule stays in one place; and the input's extra pairs.
 */
function forbidPersonal(input: AssignInput, judgeIndex: Map<number, number>, workIndex: Map<number, number>, forbid: Forbid) {
  const { works, judges } = input;
  works.forEach((w, wi) => {
    for (const id of [...w.advisorIds, ...(w.authorIds ?? [])]) {
      const ji = judgeIndex.get(id);
      if (ji !== undefined && personalConflicts(judges[ji], w).length) forbid(wi, ji);
    }
  });
  judges.forEach((j, ji) => {
    for (const id of j.declared?.workIds ?? []) {
      const wi = workIndex.get(id);
      if (wi !== undefined && personalConflicts(j, works[wi]).length) forbid(wi, ji);
    }
  });
  // Declared students: the works they author (an index built only when some judge declared one).
  if (judges.some((j) => j.declared?.userIds?.length)) {
    const byAuthor = new Map<number, number[]>();
    works.forEach((w, wi) => {
      for (const a of w.authorIds ?? []) byAuthor.set(a, [...(byAuthor.get(a) ?? []), wi]);
    });
    judges.forEach((j, ji) => {
      for (const id of j.declared?.userIds ?? [])
        for (const wi of byAuthor.get(id) ?? []) if (personalConflicts(j, works[wi]).length) forbid(wi, ji);
    });
  }
  for (const { workId, judgeId } of input.extraConflicts ?? []) {
    const wi = workIndex.get(workId);
    const ji = judgeIndex.get(judgeId);
    if (wi !== undefined && ji !== undefined) forbid(wi, ji);
  }
}

/** School-level half: one eligibility row per distinct (group, school, province), and each work's row. */
function eligibility(
  { works, judges }: AssignInput,
  { groups, workGroup }: ReturnType<typeof indexGroups>,
  opts: ConflictOptions,
) {
  const W = works.length;
  const J = judges.length;
  const skey = new Int32Array(W);
  const keyOf = new Map<string, number>();
  const eligible: Uint8Array[] = [];
  works.forEach((w, wi) => {
    const g = workGroup[wi];
    const k = `${g}\u0000${w.schoolId}\u0000${w.province ?? ""}\u0000${w.province === null ? 0 : 1}`;
    let s = keyOf.get(k);
    if (s === undefined) {
      s = eligible.length;
      keyOf.set(k, s);
      const row = new Uint8Array(J);
      const school = { schoolId: w.schoolId, province: w.province };
      for (let ji = 0; ji < J; ji++) {
        if (g >= 0 && !groups[g].member[ji]) continue;
        if (schoolLevelConflicts(judges[ji], school, opts).length === 0) row[ji] = 1;
      }
      eligible.push(row);
    }
    skey[wi] = s;
  });
  return { skey, eligible };
}

export function buildSnapshot(input: AssignInput): Snapshot {
  const { works, judges } = input;
  const opts: ConflictOptions = input.conflictOptions ?? { avoidProvince: false };
  const W = works.length;
  const J = judges.length;
  const warnings: AssignWarning[] = [];
  const { judgeIndex, workIndex } = indexIds(input);
  const g = indexGroups(input, judgeIndex);
  const { groups, workGroup } = g;
  const forbidden = new Map<number, Set<number>>();
  const forbid = (w: number, j: number) => {
    let s = forbidden.get(w);
    if (!s) forbidden.set(w, (s = new Set()));
    s.add(j);
  };
  const { preLoad, demand, needed, remaining } = existingAssignments(input, judgeIndex, g, opts, forbid, warnings);
  forbidPersonal(input, judgeIndex, workIndex, forbid);
  const { skey, eligible } = eligibility(input, g, opts);

  const fn = input.isConflict;
  const predicate = fn ? (wi: number, ji: number) => fn(works[wi], judges[ji]) : null;
  return {
    works,
    judges,
    W,
    J,
    opts,
    judgeIndex,
    groups,
    workGroup,
    demand,
    needed,
    preLoad,
    remaining,
    skey,
    eligible,
    forbidden,
    predicate,
    warnings,
  };
}

/** May judge `ji` be given work `wi` as a new judge (ignoring capacity and what is already proposed)? */
export const mayJudge = (s: Snapshot, wi: number, ji: number): boolean =>
  s.eligible[s.skey[wi]][ji] === 1 && !(s.forbidden.get(wi)?.has(ji) ?? false) && !(s.predicate?.(wi, ji) ?? false);
