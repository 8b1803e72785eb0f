/** Result tables: computed results, publications and their versions, settings and honours. */
import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./common";

/** The computed result of one work in one contest (0010). */
export interface ContestResultTable {
  id: Generated<number>;
  contest_id: number;
  work_id: number;
  group_id: number | null;
  raw_mean: number | null;
  normalised: number | null;
  judge_count: Generated<number>;
  spread: number | null;
  flagged: Generated<Flag>;
  rank: number | null;
  award_level_id: number | null;
  award_manual: Generated<Flag>;
  promoted: Generated<Flag>;
  updated_at: Timestamp;
  /** the defence mean and number of defence scores the work was ranked with (0013) */
  defence_mean: number | null;
  defence_count: Generated<number>;
}

/** One publication of a contest's results, reproducible from its stored parameters (0010). */
export interface ResultPublicationTable {
  id: Generated<number>;
  contest_id: number;
  published_at: Timestamp;
  published_by: number;
  model: string;
  model_version: number;
  /** JSON: the fit's parameters */
  params: string;
  /** the score log's head at publication: the digest of log_heads (0038; before: the contest chain's last hash) */
  log_head: string;
  /** the entries log_head covers */
  log_seq: number;
  /** every chain's head, canonical JSON of [chain, seq, hash] (0038); null before */
  log_heads: string | null;
  note: string | null;
  /** withdrawn (unpublished) by the contest admin: when, by whom, why (0013) */
  withdrawn_at: Timestamp | null;
  withdrawn_by: number | null;
  withdraw_reason: string | null;
}

/** The options and fit of a contest's last results computation (0013). */
export interface ResultSettingTable {
  contest_id: number;
  disagreement_threshold: Generated<number>;
  /** JSON { "<group key>": "defence" } */
  group_basis: Generated<string>;
  /** JSON: the fit per group (model parameters, judge effects) */
  fit: string | null;
  computed_at: Timestamp | null;
  computed_by: number | null;
  /** JSON array of the group keys whose awards were allocated with the incomplete works included (0031) */
  include_incomplete: Generated<string>;
  updated_at: Timestamp;
}

/** A published version of one result group changed after publication (0016). */
export interface ResultVersionTable {
  id: Generated<number>;
  contest_id: number;
  group_key: string;
  group_name: string;
  version: number;
  publication_id: number;
  reason: string;
  complaint_id: number | null;
  /** JSON rows of the group in this version */
  rows: string;
  created_at: Timestamp;
  created_by: number | null;
}

/** A 优秀指导教师 (teacher) or 优秀组织奖 (school) honour of a contest (0019); see judging/service/results/honours.ts. */
export interface ContestHonourTable {
  id: Generated<number>;
  contest_id: number;
  award_level_id: number;
  holder_kind: "teacher" | "school";
  teacher_user_id: number | null;
  school_id: number;
  /** teacher: the awarded work they advised */
  work_id: number | null;
  /** 1: set by hand (kept when the rule proposes again) */
  manual: Generated<Flag>;
  created_at: Timestamp;
  created_by: number | null;
}
