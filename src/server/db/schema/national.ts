/** National contest table: promoted works entered in the national contest. */
import type { Generated } from "kysely";
import type { Timestamp } from "./common";

/** A promoted work entered in the national contest (0022). */
export type NationalFormatStatus = "pending" | "resubmitted" | "passed" | "returned" | "rejected";

export interface NationalEntryTable {
  id: Generated<number>;
  work_id: number;
  contest_id: number;
  from_contest_id: number;
  province: string | null;
  category_id: number;
  status: "entered" | "withdrawn";
  format_status: Generated<NationalFormatStatus>;
  format_reasons: string | null;
  format_deadline: Timestamp | null;
  format_note: string | null;
  /** the entry's own values of fields changed in the national round, JSON { work column: value } (0029) */
  fields: string | null;
  withdraw_kind: "admin" | "sync" | null;
  withdraw_reason: string | null;
  withdrawn_by: number | null;
  withdrawn_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A promotion to-do the contest admin marked 已处理 (0040): hidden while the work's mismatch is this one. */
export interface PromotionTodoDoneTable {
  contest_id: number;
  work_id: number;
  kind: "candidate" | "loose";
  award: string | null;
  done_by: number;
  done_at: Timestamp;
}
