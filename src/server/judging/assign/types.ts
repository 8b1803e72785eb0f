/**
 * The plain snapshot an assignment algorithm reads and the proposal it returns. No database,
 * no clock: the service loads the snapshot, an algorithm proposes rows, and the one gate that
 * writes assignment rows re-checks them (see check.ts) before anything is stored.
 */
import type { ConflictOptions, ConflictReason, JudgeFacts, WorkFacts } from "../conflict";

/** Reviews per work when the snapshot does not say. */
export const DEFAULT_REVIEWS_PER_WORK = 3;

export type GroupId = number | string;

export interface AssignWork extends WorkFacts {
  /** Independent reviews the work needs in total, existing ones included (default 3). */
  needed?: number;
  /** The judge group (category / 小类 / 普通-专业组) the work is judged in; none: any judge. */
  groupId?: GroupId;
  /** Judges already assigned to this work; they are kept, count towards `needed` and the judges' loads. */
  existingJudgeIds?: readonly number[];
}

export interface AssignJudge extends JudgeFacts {
  /** Most works this judge may have in total (existing ones and `load` included). */
  capacity: number;
  /** Assignments the judge carries outside this snapshot (e.g. other groups or contests); default 0. */
  load?: number;
}

export interface AssignGroup {
  id: GroupId;
  name?: string;
  judgeIds: readonly number[];
}

export interface AssignInput {
  works: readonly AssignWork[];
  judges: readonly AssignJudge[];
  /** Judge groups; a work with a groupId only gets judges of that group. */
  groups?: readonly AssignGroup[];
  conflictOptions?: ConflictOptions;
  /**
   * Further forbidden pairs (e.g. conflicts an admin entered by hand), on top of the rules of
   * conflict.ts that are evaluated from the facts of works and judges.
   */
  extraConflicts?: readonly { workId: number; judgeId: number }[];
  /**
   * Further conflicts as a predicate (true = must not judge). It is evaluated on the proposed
   * rows and on the candidates of works it affects, never on all pairs, so it suits rare
   * exceptions; rules that hold for whole schools belong in conflict.ts.
   */
  isConflict?: (work: AssignWork, judge: AssignJudge) => boolean;
}

/** One proposed row. An algorithm proposes; it never writes. */
export interface Proposal {
  workId: number;
  judgeId: number;
}

export type AssignIssue =
  /** A work has fewer eligible judges (no conflict, in its group, capacity left) than it needs. */
  | { kind: "work_too_few_judges"; workId: number; eligible: number; full: number; needed: number; message: string }
  /** A group has fewer judges than a work of it needs reviews. */
  | { kind: "group_too_few_judges"; groupId: GroupId; judges: number; needed: number; workIds: number[]; message: string }
  /** The remaining capacity of all judges (of a group, if groupId is set) is below the demand. */
  | { kind: "capacity"; groupId?: GroupId; capacity: number; demand: number; message: string }
  /**
   * The binding constraint found by the minimum cut: these works need `demand` more reviews,
   * but the judges who may take them can give at most `limit`: `saturatedJudgeIds` have no
   * capacity left (`capacityLimit` in total), and every other eligible judge is already used
   * once for each of these works (`distinctLimit` in total).
   */
  | {
      kind: "cut";
      workIds: number[];
      demand: number;
      limit: number;
      capacityLimit: number;
      distinctLimit: number;
      saturatedJudgeIds: number[];
      message: string;
    };

export type AssignWarning =
  | { kind: "existing_conflict"; workId: number; judgeId: number; reasons: ConflictReason[]; message: string }
  | { kind: "existing_unknown_judge"; workId: number; judgeId: number; message: string }
  | { kind: "existing_over_needed"; workId: number; existing: number; needed: number; message: string }
  | { kind: "over_capacity"; judgeId: number; load: number; capacity: number; message: string }
  | { kind: "judge_not_in_group"; workId: number; judgeId: number; message: string };

export interface JudgeLoad {
  judgeId: number;
  /** Load before this proposal: `load` + existing assignments in the snapshot. */
  before: number;
  /** Load if the proposal is applied. */
  after: number;
  capacity: number;
}

export interface Shortfall {
  workId: number;
  /** Reviews still needed after existing ones. */
  needed: number;
  /** Reviews this proposal gives. */
  proposed: number;
}

export interface AssignResult {
  algorithm: string;
  /** true when every work gets its `needed` reviews. */
  complete: boolean;
  /** New rows only (existing assignments are kept and not repeated), sorted by work, then judge. */
  rows: Proposal[];
  /** Why the proposal is incomplete (empty when complete). */
  issues: AssignIssue[];
  /** Works that get fewer reviews than they need. */
  shortfalls: Shortfall[];
  warnings: AssignWarning[];
  loads: JudgeLoad[];
  /** Over all judges of the snapshot, after the proposal. */
  maxLoad: number;
  minLoad: number;
  loadSpread: number;
  /** Algorithm-specific figures (graph size, iterations…), for the log and the benchmark. */
  stats: Record<string, number>;
}

export interface Assigner<P> {
  /** Stable name, e.g. "min-cost-flow". */
  name: string;
  /** Chinese description for the admin's options form. */
  description: string;
  defaults: P;
  propose(input: AssignInput, params: P): AssignResult;
}
