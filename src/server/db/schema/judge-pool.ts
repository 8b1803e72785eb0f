/** Judge pool tables: judge persons across years and judging invitations. */
import type { Generated } from "kysely";
import type { Timestamp } from "./common";

/** A judge person in the pool, across years (0020); see src/server/judge-pool/. */
export interface JudgePersonTable {
  id: Generated<number>;
  name: string;
  school_id: number | null;
  /** the school's name for a person outside the school list (school_id null) */
  school_name: string | null;
  province: string | null;
  /** 职称 */
  title: string | null;
  email: string | null;
  phone: string | null;
  user_id: number | null;
  note: Generated<string>;
  /** set on a duplicate merged into another record */
  merged_into: number | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JudgePersonCategoryTable {
  person_id: number;
  category_id: number;
}

export interface JudgePersonTagTable {
  person_id: number;
  tag: string;
}

export interface JudgePersonYearTable {
  person_id: number;
  year: number;
  available: number;
  note: Generated<string>;
  updated_at: Timestamp;
}

/** An invitation to judge a contest (0020); the link's code is stored only as its SHA-256. */
export interface JudgeInvitationTable {
  id: Generated<number>;
  contest_id: number;
  person_id: number | null;
  email: string;
  name: string;
  /** JSON array of work_category ids */
  categories: string;
  message: Generated<string>;
  /** ISO time: the link expires after it */
  answer_by: Timestamp;
  code_hash: string;
  status: "sent" | "accepted" | "declined" | "withdrawn";
  status_reason: string | null;
  sent_at: Timestamp;
  opened_at: Timestamp | null;
  answered_at: Timestamp | null;
  reminded_at: Timestamp | null;
  accepted_user_id: number | null;
  invited_by: number;
  created_at: Timestamp;
}
