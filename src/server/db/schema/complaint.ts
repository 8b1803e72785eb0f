/** Complaint tables: 申诉/投诉, their history, evidence, settings and visitor access. */
import type { Generated } from "kysely";
import type { Timestamp } from "./common";

/** A 申诉/投诉 (0016); states and steps: src/shared/complaint/states.ts. */
export interface ComplaintTable {
  id: Generated<number>;
  contest_id: number;
  work_id: number;
  type: string;
  category: string;
  state: string;
  version: Generated<number>;
  text: string;
  filer_user_id: number | null;
  filer_name: string;
  filer_email: string | null;
  filer_phone: string | null;
  /** set while open: one open complaint per filer per work */
  open_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  state_at: Timestamp;
  due_at: Timestamp | null;
  reminded_at: Timestamp | null;
  arbitration_due_at: Timestamp | null;
  refusal: string | null;
  opinion_outcome: string | null;
  opinion_action: string | null;
  opinion_text: string | null;
  opinion_by: number | null;
  opinion_at: Timestamp | null;
  decision_outcome: string | null;
  decision_action: string | null;
  decision_award_level_id: number | null;
  decision_text: string | null;
  decision_by: number | null;
  decision_at: Timestamp | null;
  decision_effect: string | null;
  /** JSON: the result row's award before a change_award, for an arbitration that revises it */
  decision_undo: string | null;
  /** JSON: the judges a re-judge assigned; when their scores replaced the old ones */
  rejudge_judges: string | null;
  rejudge_applied_at: Timestamp | null;
  arb_requested_at: Timestamp | null;
  /** "filer" or "party" */
  arb_requested_by: string | null;
  arb_reason: string | null;
  arb_outcome: string | null;
  arb_revised_outcome: string | null;
  arb_revised_action: string | null;
  arb_award_level_id: number | null;
  arb_text: string | null;
  arbitrator_id: number | null;
  arb_at: Timestamp | null;
  arb_confirmed_at: Timestamp | null;
  arb_confirmed_by: number | null;
  arb_effect: string | null;
}

export interface ComplaintHistoryTable {
  id: Generated<number>;
  complaint_id: number;
  at: Timestamp;
  action: string;
  from_state: string | null;
  to_state: string;
  actor_id: number | null;
  /** filer, party, reviewer, admin, arbitrator, root, system */
  actor_kind: string;
  text: string | null;
}

export interface ComplaintEvidenceTable {
  id: Generated<number>;
  complaint_id: number | null;
  owner_user_id: number | null;
  owner_email: string | null;
  filename: string;
  size: number;
  mime: string;
  sha256: string;
  uploaded_at: Timestamp;
}

export interface ComplaintSettingTable {
  contest_id: number;
  /** JSON { accept, opinion, decide, arbitration, arbitrate, confirm } in days */
  due_days: string;
  remind_hours: Generated<number>;
  updated_at: Timestamp;
  updated_by: number | null;
}

export interface ComplaintVisitorCodeTable {
  id: Generated<number>;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface ComplaintVisitorTokenTable {
  id: Generated<number>;
  email: string;
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}
