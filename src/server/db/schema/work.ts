/** Work tables: works, their authors, teachers, log, files and team invitations. */
import type { Generated, Selectable } from "kysely";
import type { Flag, Timestamp } from "./common";

/** Per-year counter of work ids; updated atomically inside the creating transaction. */
export interface WorkSequenceTable {
  year: number;
  last: number;
}

/** the states of src/shared/work/states.ts */
export type WorkStatus = import("../../../shared/work/states").WorkState;

export type WorkGroup = "normal" | "professional";

export interface WorkTable {
  /** 4-digit year + 6-digit sequence, e.g. 2026049861 */
  id: number;
  /** the contest's year (also the first 4 digits of the id) */
  year: number;
  contest_id: number;
  /** 大类 */
  category_id: number;
  /** 小类 */
  subcategory_id: number | null;
  group_type: WorkGroup;
  name: string;
  status: WorkStatus;
  school_id: number;
  created_by: number;
  summary: string | null;
  design_idea: string | null;
  key_points: string | null;
  open_source: string | null;
  install_guide: string | null;
  teacher_review: string | null;
  other_notes: string | null;
  deploy_link1: string | null;
  deploy_link2: string | null;
  /** JSON: { used, tools: [{ tool, version, access, purpose, prompts, output, edits, adoption }] } */
  ai_declaration: string | null;
  return_reason: string | null;
  disqualify_reason: string | null;
  /** JSON array of format-review reason codes of the current return or rejection (0009) */
  format_reasons: string | null;
  /** the correction deadline of the current format-review return (0009) */
  format_deadline: Timestamp | null;
  /** authors' names in rank order, joined by "、" (denormalised for lists and search) */
  author_names: Generated<string>;
  teacher_names: Generated<string>;
  /** optimistic concurrency: every change increments it */
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  submitted_at: Timestamp | null;
}

export type Work = Selectable<WorkTable>;

export interface WorkAuthorTable {
  id: Generated<number>;
  work_id: number;
  user_id: number;
  /** 1–5; 1 is the first author */
  rank: number;
  confirmed: Flag;
  /** the work's 大类 and year, for the one-work-per-大类 unique index */
  category_id: number;
  year: number;
  created_at: Timestamp;
}

export interface WorkTeacherTable {
  id: Generated<number>;
  work_id: number;
  user_id: number;
  rank: number;
  created_at: Timestamp;
}

/** Append-only: inserted by the works service, never updated or deleted. */
export interface WorkLogTable {
  id: Generated<number>;
  work_id: number;
  at: Timestamp;
  user_id: number | null;
  action: string;
  /** JSON: { field: [old, new] } */
  changes: string;
}

/** Attachments of works: never deleted; replaced/deleted rows keep the history (0008). */
export interface WorkFileTable {
  id: Generated<number>;
  work_id: number;
  /** the key of the category's required attachment */
  kind: string;
  filename: string;
  size: number;
  mime: string;
  /** the content's name in the blob store */
  sha256: string;
  uploaded_by: number;
  created_at: Timestamp;
  replaced_at: Timestamp | null;
  deleted_at: Timestamp | null;
  deleted_by: number | null;
}

/** An email invitation into a work's team (0028). */
export interface WorkInvitationTable {
  id: Generated<number>;
  work_id: number;
  role: "author" | "teacher";
  email: string;
  name: string;
  code_hash: string;
  status: "sent" | "accepted" | "withdrawn";
  expires_at: string;
  invited_by: number;
  accepted_user_id: number | null;
  created_at: string;
  answered_at: string | null;
}
