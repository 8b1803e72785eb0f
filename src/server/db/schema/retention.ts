/** Personal data retention (0035): root's period and the last purge run; each account's last log-in. */
import type { Timestamp } from "./common";

/** One row, id 1. */
export interface RetentionSettingTable {
  id: number;
  /** days after a contest closed before its contact data is purged; null: never */
  days: number | null;
  updated_at: Timestamp | null;
  updated_by: number | null;
  last_run_at: Timestamp | null;
  /** JSON: the counts of the last run (retention/purge.ts) */
  last_report: string | null;
}

/** Written at every log-in (plugins/auth.ts startSession); read by the retention purge. */
export interface UserActivityTable {
  user_id: number;
  last_login_at: Timestamp;
}
