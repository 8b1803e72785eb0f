/**
 * Row types of every table, one interface per table in a file per domain (this folder),
 * combined here into DB, the type Kysely is opened with.
 */
import type { AwardLevelTable, MajorTable, SchoolTable, WorkCategoryTable } from "./master-data";
import type { ContestMemberTable, ContestStageTable, ContestTable, EntryLockTable, RubricItemTable } from "./contest";
import type { AccountTokenTable, ApiTokenTable, SessionTable, UserTable } from "./account";
import type {
  AuditLogTable,
  JobTable,
  QueueTaskTable,
  RateLimitTable,
  ScheduleSlotTable,
  TaskRunTable,
  TodoDigestStateTable,
} from "./system";
import type { BestWorkTable, NewsTable, NoticeTable } from "./content";
import type {
  WorkAuthorTable,
  WorkFileTable,
  WorkInvitationTable,
  WorkLogTable,
  WorkSequenceTable,
  WorkTable,
  WorkTeacherTable,
} from "./work";
import type {
  DeclaredConflictTable,
  DefenceScoreTable,
  DefenceSessionTable,
  DefenceSlotTable,
  JudgeAssignmentTable,
  JudgeGroupMemberTable,
  JudgeGroupTable,
  JudgeGroupWorkTable,
  JudgeScoreTable,
  JudgingSettingTable,
  ReviewPositionTable,
  ScoreLogTable,
} from "./judging";
import type {
  ContestHonourTable,
  ContestResultTable,
  ResultPublicationTable,
  ResultSettingTable,
  ResultVersionTable,
} from "./results";
import type { NationalEntryTable, PromotionTodoDoneTable } from "./national";
import type {
  ComplaintEvidenceTable,
  ComplaintHistoryTable,
  ComplaintSettingTable,
  ComplaintTable,
  ComplaintVisitorCodeTable,
  ComplaintVisitorTokenTable,
} from "./complaint";
import type {
  JudgeInvitationTable,
  JudgePersonCategoryTable,
  JudgePersonTable,
  JudgePersonTagTable,
  JudgePersonYearTable,
} from "./judge-pool";
import type {
  CertificateBackgroundTable,
  CertificateKeyTable,
  CertificatePrintTable,
  CertificateSequenceTable,
  CertificateTable,
  CertificateTemplateTable,
} from "./certificate";
import type { RetentionSettingTable, UserActivityTable } from "./retention";
import type { DupBandTable, DupEntryTable, DupIgnoredTable, DupSetTable, DupSettingTable } from "./dupcheck";

export * from "./master-data";
export * from "./contest";
export * from "./account";
export * from "./system";
export * from "./content";
export * from "./work";
export * from "./judging";
export * from "./results";
export * from "./national";
export * from "./complaint";
export * from "./judge-pool";
export * from "./certificate";
export * from "./dupcheck";
export * from "./retention";

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
  promotion_todo_done: PromotionTodoDoneTable;
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
  retention_setting: RetentionSettingTable;
  user_activity: UserActivityTable;
}
