/** Contest tables: contests, their stages, members, rubric and entry locks. */
import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./common";

export type ContestLevel = "national" | "provincial" | "school";

export interface ContestTable {
  id: Generated<number>;
  name: string;
  level: ContestLevel;
  year: number;
  parent_id: number | null;
  province: string | null;
  school_id: number | null;
  archived: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
  description: string | null;
  /** JSON array of open 大类 ids */
  categories: Generated<string>;
  /** how many works this contest may recommend to its parent */
  recommend_quota: number | null;
  /** JSON object: 大类 id → quota */
  category_quotas: Generated<string>;
  /** stable natural key for import/export, unique (e.g. "2026-ZJ"); filled for every contest */
  code: string | null;
}

export const STAGES = [
  "registration",
  "school_review",
  "format_review",
  "online_judging",
  "offline_judging",
  "publicity",
  "complaint",
] as const;

export type Stage = (typeof STAGES)[number];

export interface ContestStageTable {
  id: Generated<number>;
  contest_id: number;
  stage: Stage;
  starts_at: Timestamp;
  ends_at: Timestamp;
}

/** complaint: handles the contest's complaints; arbitrator: arbitrates them (0016). */
export type ContestRole = "admin" | "reviewer" | "judge" | "complaint" | "arbitrator";

export interface ContestMemberTable {
  id: Generated<number>;
  contest_id: number;
  user_id: number;
  role: ContestRole;
  created_at: Timestamp;
}

export interface RubricItemTable {
  id: Generated<number>;
  category_id: number;
  name: string;
  max_points: number;
  description: string | null;
  sort: number;
}

export interface EntryLockTable {
  id: Generated<number>;
  contest_id: number | null;
  field: string;
  from_stage: Stage;
  created_at: Timestamp;
}
