/** Judging tables: review positions, judge groups and assignments, conflicts, online scores and the offline defence. */
import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./common";
import type { WorkGroup } from "./work";

/** Where a reviewer stopped in a contest's fast review (0009). */
export interface ReviewPositionTable {
  user_id: number;
  contest_id: number;
  work_id: number;
  updated_at: Timestamp;
}

/** Judging settings of a contest (0009): reviews per work, capacity, the national province option. */
export interface JudgingSettingTable {
  contest_id: number;
  reviews_per_work: Generated<number>;
  /** most works per judge in the contest; null: no limit */
  judge_capacity: number | null;
  avoid_province: Generated<Flag>;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** A judge group of a contest: one 大类, optionally one 小类 and 普通/专业组 (0009). */
export interface JudgeGroupTable {
  id: Generated<number>;
  contest_id: number;
  name: string;
  category_id: number;
  subcategory_id: number | null;
  group_type: WorkGroup | null;
  /** 专家组长, for the offline defence */
  leader_id: number | null;
  note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JudgeGroupMemberTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  created_at: Timestamp;
}

/** The group a work is judged in, one per contest (0009). */
export interface JudgeGroupWorkTable {
  id: Generated<number>;
  contest_id: number;
  group_id: number;
  work_id: number;
  created_at: Timestamp;
}

/** One judge on one work in one contest; written only by applyAssignments (0009). */
export interface JudgeAssignmentTable {
  id: Generated<number>;
  contest_id: number;
  work_id: number;
  judge_id: number;
  group_id: number | null;
  created_at: Timestamp;
  created_by: number | null;
}

/** A judge's declared conflict with a work or a school (0009). */
export interface DeclaredConflictTable {
  id: Generated<number>;
  judge_id: number;
  work_id: number | null;
  school_id: number | null;
  /** student conflict (0020): target "u:<user id>" */
  user_id: number | null;
  /** "w:<work id>", "s:<school id>" or "u:<student user id>", unique per judge */
  target: string;
  note: Generated<string>;
  created_by: number | null;
  created_at: Timestamp;
}

/** One judge's online score of one assigned work (0010). */
export interface JudgeScoreTable {
  id: Generated<number>;
  assignment_id: number;
  contest_id: number;
  work_id: number;
  judge_id: number;
  /** JSON { "<rubric item id>": points } */
  items: Generated<string>;
  /** JSON array of the names of the deductions taken */
  deductions: Generated<string>;
  total: number | null;
  comment: Generated<string>;
  status: Generated<"draft" | "submitted">;
  version: Generated<number>;
  submitted_at: Timestamp | null;
  reopened_at: Timestamp | null;
  reopened_by: number | null;
  reopen_reason: string | null;
  /** replaced by a re-judge after a complaint (0016): kept, no longer counted */
  superseded_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The append-only, hash-chained score log (0010), one chain per (contest, judge) since 0038. */
export interface ScoreLogTable {
  id: Generated<number>;
  contest_id: number;
  /** the judge (user id) whose chain holds the entry; 0: the contest's one chain of the entries from before 0038 */
  chain: Generated<number>;
  /** 1-based position in its chain */
  seq: number;
  /** canonical JSON of the entry without prevHash and hash */
  body: string;
  prev_hash: string;
  hash: string;
  created_at: Timestamp;
}

/** The offline defence of one judge group (0010). */
export interface DefenceSessionTable {
  id: Generated<number>;
  contest_id: number;
  group_id: number;
  starts_at: Timestamp | null;
  place: string | null;
  meeting_link: string | null;
  prepare_note: string | null;
  minutes_per_work: Generated<number>;
  draw_seed: string | null;
  drawn_at: Timestamp | null;
  drawn_by: number | null;
  signed_off_at: Timestamp | null;
  signed_off_by: number | null;
  sign_off_note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** the contest admin reopened the sign-off: the last time, by whom, why (0012) */
  reopened_at?: Timestamp | null;
  reopened_by?: number | null;
  reopen_reason?: string | null;
}

/** One work in a defence session, with its drawn position and the authors' link code (0010). */
export interface DefenceSlotTable {
  id: Generated<number>;
  session_id: number;
  work_id: number;
  position: number | null;
  slot_time: Timestamp | null;
  code: string;
  created_at: Timestamp;
}

export type Recommendation = "strong" | "recommend" | "not";

/** One judge's defence score of one work (0010). */
export interface DefenceScoreTable {
  id: Generated<number>;
  slot_id: number;
  judge_id: number;
  score: number;
  recommendation: Recommendation;
  comment: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
