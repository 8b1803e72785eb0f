/** System tables: the audit log, background jobs and the task queue, scheduled runs, rate limits, digest state. */
import type { Generated, Selectable } from "kysely";
import type { Timestamp } from "./common";

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  user_id: number | null;
  entity: string;
  entity_id: string;
  /** create | update | delete | archive | restore | import */
  action: string;
  /** JSON: { field: [old, new] } */
  changes: string;
  /** the API token's name when the write was made with one */
  token_name?: string | null;
}

export interface JobTable {
  id: string;
  /** import | export */
  kind: string;
  resource: string;
  /** running (dry run or export) | ready (dry run done) | applying (confirmed) | done | failed | cancelled */
  status: string;
  processed: number;
  total: number;
  message: string | null;
  /** JSON result (dry-run report) */
  result: string | null;
  /** unused since 0014 (files live in the blob store) */
  file: string | null;
  created_by: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** how many times a process took the job (a retry after a crash counts) */
  attempts: Generated<number>;
  /** the process running it, and when it last said so (a lease) */
  owner: string | null;
  heartbeat_at: string | null;
  /** JSON parameters (an export's filters and scope) */
  params: string | null;
  /** blobs: the uploaded file, the dry run's plan, the export's output */
  input_sha256: string | null;
  plan_sha256: string | null;
  output_sha256: string | null;
}

export type Job = Selectable<JobTable>;

/** The embedded SQLite's task queue (PostgreSQL uses pg-boss). */
export interface QueueTaskTable {
  id: Generated<number>;
  name: string;
  /** JSON */
  data: string;
  /** queued | active | failed */
  state: string;
  attempts: Generated<number>;
  max_attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
}

/** A log of scheduled runs. */
export interface TaskRunTable {
  id: Generated<number>;
  name: string;
  /** the start of the slot (ISO) */
  slot: string;
  ran_by: string;
  started_at: string;
  finished_at: string | null;
  error: string | null;
}

/** The slot each scheduled task last ran in (SQLite scheduler). */
export interface ScheduleSlotTable {
  name: string;
  slot: string;
  ran_by: string | null;
}

/** A rate-limit bucket (plugins/limits.ts): hashed key, hits in the window, its end. */
export interface RateLimitTable {
  key: string;
  hits: number;
  expires_at: string;
}

/** What the last to-do digest covered, per user (0027). */
export interface TodoDigestStateTable {
  user_id: number;
  sent_at: Timestamp;
  /** JSON { "<item key>": count } */
  seen: string;
}
