/** Row types of every table, one interface per table, combined into DB. */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** ISO 8601 timestamps are stored as text on both dialects. */
type Timestamp = string;
/** Booleans are 0/1 integers on both dialects. */
type Flag = number;

export interface SchoolTable {
  id: Generated<number>;
  name: string;
  code: string;
  province: string;
  /** JSON array of earlier names (曾用名). */
  former_names: string;
  contact: string | null;
  archived: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MajorTable {
  id: Generated<number>;
  /** national major code, unique: 080906, 080904K */
  code: string;
  name: string;
  discipline: string | null;
  archived: Generated<Flag>;
}

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

export interface NewsTable {
  id: Generated<number>;
  contest_id: number | null;
  title: string;
  body: string;
  cover: string | null;
  status: "draft" | "published";
  publish_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EntryLockTable {
  id: Generated<number>;
  contest_id: number | null;
  field: string;
  from_stage: Stage;
  created_at: Timestamp;
}

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

/** A personal access token (migration 0023). */
export interface ApiTokenTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  name: string;
  token_hash: string;
  read_only: number;
  /** JSON array of casbin objects */
  resources: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  last_used_addr: string | null;
}
export type ApiToken = Selectable<ApiTokenTable>;

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

export interface WorkCategoryTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  sort: number;
  min_authors: number;
  max_authors: number;
  max_teachers: number;
  /** 1 when the category splits into 普通组 and 专业组. */
  has_professional_group: Flag;
  /** JSON array of major codes that make an author 专业组. */
  professional_majors: string;
  archived: Generated<Flag>;
  description: string | null;
  /** JSON array of { key, name, required, maxSizeMB, types } */
  required_attachments: Generated<string>;
  /** JSON array of { name, points } */
  deductions: Generated<string>;
  /** 1: submit needs the advising teacher's 指导老师自评 (0027) */
  teacher_review_required: Generated<Flag>;
}

export interface AwardLevelTable {
  id: Generated<number>;
  contest_level: ContestLevel;
  name: string;
  /** work | teacher | organisation */
  kind: string;
  ratio: number | null;
  max_count: number | null;
  sort: number;
  archived: Generated<Flag>;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  user_type: number;
  email: string | null;
  email_verified: Flag;
  phone: string | null;
  school_id: number | null;
  /** student or staff number */
  member_no: string | null;
  has_complaint_right: Flag;
  is_school_contest_judge: Flag;
  locked: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  major_code: string | null;
  archived: Generated<Flag>;
  /** a judge's fields of expertise, kept on /judge/Info (0012) */
  expertise?: string | null;
  /** 1: the daily digest of new to-do items is mailed (0027) */
  todo_digest?: Flag;
}

/** What the last to-do digest covered, per user (0027). */
export interface TodoDigestStateTable {
  user_id: number;
  sent_at: Timestamp;
  /** JSON { "<item key>": count } */
  seen: string;
}

export interface SessionTable {
  /** sha256 of the cookie token, hex: the token itself is never stored. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export type TokenPurpose = "verify_email" | "recovery";

export interface AccountTokenTable {
  id: Generated<number>;
  user_id: number;
  purpose: TokenPurpose;
  /** sha256 of the link token, hex */
  token_hash: string;
  /** sha256 of the short code, hex (recovery only) */
  code_hash: string | null;
  /** the address being verified */
  email: string | null;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface NoticeTable {
  id: Generated<number>;
  contest_id: number | null;
  /** role_<code> for the announcement of a user type, or an explanation-text key */
  section: string;
  title: string;
  content: string;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** Per-year counter of work ids; updated atomically inside the creating transaction. */
export interface WorkSequenceTable {
  year: number;
  last: number;
}

/** the states of src/shared/work/states.ts */
export type WorkStatus = import("../../shared/work/states").WorkState;
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

/** The append-only, hash-chained score log, one chain per contest (0010). */
export interface ScoreLogTable {
  id: Generated<number>;
  contest_id: number;
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
  log_head: string;
  log_seq: number;
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

/** A work chosen for the public 优秀作品 gallery (0026). */
export interface BestWorkTable {
  id: Generated<number>;
  work_id: number;
  contest_id: number;
  sort: Generated<number>;
  cover_sha256: string | null;
  cover_mime: string | null;
  text: Generated<string>;
  video_url: string | null;
  published: Generated<Flag>;
  published_at: Timestamp | null;
  updated_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  best_work: BestWorkTable;
  judge_person: JudgePersonTable;
  judge_person_category: JudgePersonCategoryTable;
  judge_person_tag: JudgePersonTagTable;
  judge_person_year: JudgePersonYearTable;
  judge_invitation: JudgeInvitationTable;
  work_invitation: WorkInvitationTable;
  school: SchoolTable;
  major: MajorTable;
  contest: ContestTable;
  work_category: WorkCategoryTable;
  award_level: AwardLevelTable;
  app_user: UserTable;
  todo_digest_state: TodoDigestStateTable;
  user_session: SessionTable;
  account_token: AccountTokenTable;
  notice: NoticeTable;
  contest_stage: ContestStageTable;
  contest_member: ContestMemberTable;
  rubric_item: RubricItemTable;
  news: NewsTable;
  entry_lock: EntryLockTable;
  audit_log: AuditLogTable;
  api_token: ApiTokenTable;
  job: JobTable;
  queue_task: QueueTaskTable;
  schedule_slot: ScheduleSlotTable;
  task_run: TaskRunTable;
  work_sequence: WorkSequenceTable;
  work: WorkTable;
  work_author: WorkAuthorTable;
  work_teacher: WorkTeacherTable;
  work_log: WorkLogTable;
  work_file: WorkFileTable;
  review_position: ReviewPositionTable;
  judging_setting: JudgingSettingTable;
  judge_group: JudgeGroupTable;
  judge_group_member: JudgeGroupMemberTable;
  judge_group_work: JudgeGroupWorkTable;
  judge_assignment: JudgeAssignmentTable;
  declared_conflict: DeclaredConflictTable;
  judge_score: JudgeScoreTable;
  score_log: ScoreLogTable;
  defence_session: DefenceSessionTable;
  defence_slot: DefenceSlotTable;
  defence_score: DefenceScoreTable;
  contest_result: ContestResultTable;
  national_entry: NationalEntryTable;
  result_publication: ResultPublicationTable;
  result_setting: ResultSettingTable;
  rate_limit: RateLimitTable;
  complaint: ComplaintTable;
  complaint_history: ComplaintHistoryTable;
  complaint_evidence: ComplaintEvidenceTable;
  complaint_setting: ComplaintSettingTable;
  complaint_visitor_code: ComplaintVisitorCodeTable;
  complaint_visitor_token: ComplaintVisitorTokenTable;
  result_version: ResultVersionTable;
  certificate: CertificateTable;
  certificate_key: CertificateKeyTable;
  certificate_sequence: CertificateSequenceTable;
  contest_honour: ContestHonourTable;
  certificate_template: CertificateTemplateTable;
  certificate_background: CertificateBackgroundTable;
  certificate_print: CertificatePrintTable;
  dup_entry: DupEntryTable;
  dup_set: DupSetTable;
  dup_band: DupBandTable;
  dup_ignored: DupIgnoredTable;
  dup_setting: DupSettingTable;
}

/** A rate-limit bucket (plugins/limits.ts): hashed key, hits in the window, its end. */
export interface RateLimitTable {
  key: string;
  hits: number;
  expires_at: string;
}

export type User = Selectable<UserTable>;
export type Job = Selectable<JobTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Session = Selectable<SessionTable>;
export type AccountToken = Selectable<AccountTokenTable>;
export type Work = Selectable<WorkTable>;

/** One version of an issued certificate (0017); see src/server/certificate/. */
export interface CertificateTable {
  id: Generated<number>;
  number: string;
  version: number;
  holder_kind: "author" | "teacher" | "school";
  holder_user_id: number | null;
  holder_school_id: number | null;
  contest_id: number;
  work_id: number | null;
  award_level_id: number | null;
  holder_name: string;
  school_name: string;
  work_title: string | null;
  category_name: string | null;
  award_name: string;
  contest_name: string;
  /** YYYY-MM-DD: the publication's date */
  contest_date: string;
  status: "valid" | "revoked" | "replaced";
  status_at: Timestamp | null;
  status_reason: string | null;
  signature: string;
  key_id: string;
  issued_at: Timestamp;
}

/** An Ed25519 key pair that signs certificates (0017); private_key null when given in env. */
export interface CertificateKeyTable {
  id: string;
  public_key: string;
  private_key: string | null;
  /** 1: the signing key; null otherwise */
  active: number | null;
  valid_from: Timestamp;
  valid_to: Timestamp | null;
}

export interface CertificateSequenceTable {
  prefix: string;
  last: number;
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

/** A contest's saved certificate layout for one award kind (0018); fields: JSON TemplateField[]. */
export interface CertificateTemplateTable {
  id: Generated<number>;
  contest_id: number;
  award_kind: "work" | "teacher" | "school";
  orientation: "landscape" | "portrait";
  background_sha256: string | null;
  fields: string;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** A background image uploaded for a template (0018): a checked PNG or JPEG in the blob store. */
export interface CertificateBackgroundTable {
  id: Generated<number>;
  sha256: string;
  mime: "image/png" | "image/jpeg";
  width: number;
  height: number;
  size: number;
  uploaded_by: number;
  uploaded_at: Timestamp;
}

/** One print or download of a certificate version (0018). */
export interface CertificatePrintTable {
  id: Generated<number>;
  certificate_id: number;
  user_id: number;
  mode: "browser" | "pdf" | "download";
  /** 1: printed before */
  reprint: Generated<Flag>;
  job_id: string | null;
  printed_at: Timestamp;
}

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
/** Duplicate-check index entry of one work (0021); see src/server/dupcheck/. */
export interface DupEntryTable {
  work_id: number;
  year: number;
  contest_id: number;
  /** indexed | pending | failed */
  status: "indexed" | "pending" | "failed";
  too_short: Generated<number>;
  /** JSON array of DupReason */
  reasons: Generated<string>;
  /** sha256 of the normalised text and the parameters; null before the first indexing */
  text_hash: string | null;
  /** shingles not in the ignored list, at indexing */
  shingle_count: Generated<number>;
  /** the work's band keys in dup_band, float64 little-endian */
  bands: Uint8Array | null;
  updated_at: Timestamp;
}

/** A work's full sorted shingle set (0034; a row for each entry indexed at least once). */
export interface DupSetTable {
  work_id: number;
  /** delta-varint encoded (dupcheck/shingles.ts encodeSet) */
  shingles: Uint8Array;
}

/** LSH band key → work (0021). */
export interface DupBandTable {
  band_key: number;
  work_id: number;
}

/** A very common shingle, ignored by the duplicate check (0021). */
export interface DupIgnoredTable {
  /** the 32-bit shingle hash */
  hash: number;
  sample: string;
  works: number;
}

/** Duplicate-check settings and bookkeeping: key → JSON (0021). */
export interface DupSettingTable {
  key: string;
  value: string;
}
