/** Rows → the views of the API: list items, the full work, log entries. */
import { LOCKABLE_FIELD_NAMES, type LockableField } from "../../shared/contest/lockable-fields";
import { STAGE_NAMES, type StageKey } from "../../shared/contest/stages";
import { GROUP_NAMES, LOG_ACTION_NAMES, LOG_FIELD_NAMES } from "../../shared/work/fields";
import type {
  AiDeclaration,
  WorkAuthorView,
  WorkListItem,
  WorkLogEntry,
  WorkTeacherView,
  WorkView,
} from "../../shared/work/schema";
import { WORK_STATE_NAMES, type WorkAction } from "../../shared/work/states";
import { FORMAT_REASON_NAMES, type FormatReasonCode } from "../../shared/review/reasons";
import { maskPhone } from "../../shared/mask";
import type { ListRow } from "./list-columns";
import type { AuthorRow, TeacherRow, WorkRow } from "./repository";

export function toListItem(r: ListRow, me?: { rank: number; confirmed: number }): WorkListItem {
  return {
    id: r.id,
    year: r.year,
    name: r.name,
    status: r.status,
    statusName: WORK_STATE_NAMES[r.status],
    contest: { id: r.contest_id, name: r.contest_name, level: r.contest_level },
    category: { id: r.category_id, name: r.category_name },
    subcategory: r.subcategory_id !== null ? { id: r.subcategory_id, name: r.subcategory_name ?? "" } : null,
    group: r.group_type,
    school: { id: r.school_id, name: r.school_name },
    authorNames: r.author_names,
    teacherNames: r.teacher_names,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    submittedAt: r.submitted_at,
    myRank: me ? me.rank : null,
    myConfirmed: me ? !!me.confirmed : null,
  };
}

/**
 * Team members' phones are masked (138****5678) in the work view for every viewer except the
 * person themself (`viewerId`); the registration form (service/print.ts) shows them in full to
 * the team and its school, audited; admins reveal one number at a time (user/phone.ts).
 */
export const toAuthorView = (a: AuthorRow, viewerId?: number): WorkAuthorView => ({
  userId: a.user_id,
  username: a.username,
  name: a.name,
  rank: a.rank,
  confirmed: !!a.confirmed,
  memberNo: a.member_no,
  majorCode: a.major_code,
  majorName: a.major_name,
  phone: a.user_id === viewerId ? a.phone : maskPhone(a.phone),
  email: a.email,
});

export const toTeacherView = (t: TeacherRow, viewerId?: number): WorkTeacherView => ({
  userId: t.user_id,
  username: t.username,
  name: t.name,
  rank: t.rank,
  memberNo: t.member_no,
  phone: t.user_id === viewerId ? t.phone : maskPhone(t.phone),
  email: t.email,
});

export const parseAi = (s: string | null): AiDeclaration | null => (s ? (JSON.parse(s) as AiDeclaration) : null);

export interface ViewerInfo {
  relations: string[];
  actions: WorkAction[];
  canEdit: boolean;
  canEditTeacherReview: boolean;
  locks: Map<string, StageKey>;
}

/** The text fields and AI declaration of a work row, as the work view and the registration form show them. */
export function toTextView(w: WorkRow) {
  return {
    summary: w.summary,
    designIdea: w.design_idea,
    keyPoints: w.key_points,
    openSource: w.open_source,
    installGuide: w.install_guide,
    teacherReview: w.teacher_review,
    otherNotes: w.other_notes,
    deployLink1: w.deploy_link1,
    deployLink2: w.deploy_link2,
    aiDeclaration: parseAi(w.ai_declaration),
  };
}

export function toWorkView(
  w: WorkRow,
  authors: AuthorRow[],
  teachers: TeacherRow[],
  viewer: ViewerInfo,
  me?: AuthorRow,
): WorkView {
  return {
    ...toListItem(w, me),
    ...toTextView(w),
    returnReason: w.return_reason,
    disqualifyReason: w.disqualify_reason,
    formatReasons: (w.format_reasons ? (JSON.parse(w.format_reasons) as string[]) : []).map((code) => ({
      code,
      name: FORMAT_REASON_NAMES[code as FormatReasonCode] ?? code,
    })),
    formatDeadline: w.format_deadline,
    groupName: GROUP_NAMES[w.group_type],
    // The viewer is known here as an author (`me`); a teacher sees the own phone in the profile.
    authors: authors.map((a) => toAuthorView(a, me?.user_id)),
    teachers: teachers.map((t) => toTeacherView(t, me?.user_id)),
    rules: {
      minAuthors: w.min_authors,
      maxAuthors: w.max_authors,
      maxTeachers: w.max_teachers,
      hasProfessionalGroup: !!w.has_professional_group,
    },
    viewer: {
      relations: viewer.relations,
      actions: viewer.actions,
      canEdit: viewer.canEdit,
      canEditTeacherReview: viewer.canEditTeacherReview,
      lockedFields: [...viewer.locks].map(([field, stage]) => ({
        field,
        fieldName: LOCKABLE_FIELD_NAMES[field as LockableField] ?? field,
        stage,
        stageName: STAGE_NAMES[stage],
      })),
    },
  };
}

export interface LogRow {
  id: number;
  work_id: number;
  at: string;
  user_id: number | null;
  user_name: string | null;
  username: string | null;
  action: string;
  changes: string;
}

export function toLogEntry(r: LogRow): WorkLogEntry {
  const changes = JSON.parse(r.changes) as Record<string, [unknown, unknown]>;
  return {
    id: r.id,
    workId: r.work_id,
    at: r.at,
    user: r.user_id !== null ? { id: r.user_id, name: r.user_name ?? "", username: r.username ?? "" } : null,
    action: r.action,
    actionName: LOG_ACTION_NAMES[r.action] ?? r.action,
    changes: Object.entries(changes).map(([field, [o, n]]) => ({
      field,
      fieldName: LOG_FIELD_NAMES[field] ?? field,
      old: o,
      new: n,
    })),
  };
}
