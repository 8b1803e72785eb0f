/**
 * Row, state and stage rules of works as small named predicates: who the caller is to a
 * work, which actor a transition needs, whether a stage window is open, what submit
 * requires, which fields are locked. The services combine them.
 */
import { STAGE_NAMES, type StageKey } from "../../shared/contest/stages";
import { LOCKABLE_FIELD_NAMES, type LockableField } from "../../shared/contest/lockable-fields";
import { ROLE } from "../../shared/roles";
import { FIELDS, type WorkField } from "../../shared/work/fields";
import {
  FORMAT_REVIEW_STATES,
  stageWindow,
  TRANSITIONS,
  type Actor,
  type WorkAction,
  type WorkState,
} from "../../shared/work/states";
import type { User } from "../db/schema";
import { loadLockInputs } from "../contest/lock-store";
import { lockedFields } from "../contest/locks";
import type { AuthorRow, ContestRow, Handle, TeacherRow, WorkRow } from "./repository";
import { currentKinds, requirementsOf } from "./files/repository";
import { EDITABLE_STATES } from "../../shared/work/states";
import { beijingTime } from "../../shared/time";
import { groupProblem } from "../../shared/work/group-rule";

/** What the caller is to a work. */
export type Relation =
  "author" | "pending_author" | "first_author" | "teacher" | "school" | "contest" | "receiving_contest" | "reviewer" | "root";

export interface Facts {
  work: WorkRow;
  authors: AuthorRow[];
  teachers: TeacherRow[];
}

export const isRoot = (u: User) => u.user_type === ROLE.root;
export const isAuthor = (f: Facts, u: User) => f.authors.some((a) => a.user_id === u.id);
export const isConfirmedAuthor = (f: Facts, u: User) => f.authors.some((a) => a.user_id === u.id && a.confirmed);
export const isFirstAuthor = (f: Facts, u: User) => f.authors.some((a) => a.user_id === u.id && a.rank === 1);
export const advises = (f: Facts, u: User) => u.user_type === ROLE.teacher && f.teachers.some((t) => t.user_id === u.id);
export const isOwnSchool = (u: User, schoolId: number) => u.user_type === ROLE.schoolAdmin && u.school_id === schoolId;
export const inScope = (scope: number[] | "all", contestId: number | null) =>
  contestId !== null && (scope === "all" || scope.includes(contestId));

/** The contest deciding on a recommendation: the parent of a school contest, else the contest itself. */
export const receivingContestId = (c: { level: string; id: number; parent_id: number | null }) =>
  c.level === "school" && c.parent_id ? c.parent_id : c.id;

/**
 * A contest reviewer (role 3) of the contest receiving the work, once the work has reached
 * format review: `reviewScope` holds the contests the user reviews (contest_member "reviewer").
 */
export const reviewsWork = (u: User, w: WorkRow, reviewScope: readonly number[]) =>
  u.user_type === ROLE.contestReviewer &&
  FORMAT_REVIEW_STATES.includes(w.status) &&
  reviewScope.includes(receivingContestId({ level: w.contest_level, id: w.contest_id, parent_id: w.contest_parent_id }));

export function relationsOf(
  u: User,
  f: Facts,
  contestScope: number[] | "all",
  reviewScope: readonly number[] = [],
): Set<Relation> {
  const r = new Set<Relation>();
  if (isRoot(u)) r.add("root");
  if (isConfirmedAuthor(f, u)) r.add("author");
  else if (isAuthor(f, u)) r.add("pending_author");
  if (isFirstAuthor(f, u)) r.add("first_author");
  if (advises(f, u)) r.add("teacher");
  if (isOwnSchool(u, f.work.school_id)) r.add("school");
  if (u.user_type === ROLE.contestAdmin) {
    if (inScope(contestScope, f.work.contest_id)) r.add("contest");
    if (
      inScope(
        contestScope,
        receivingContestId({ level: f.work.contest_level, id: f.work.contest_id, parent_id: f.work.contest_parent_id }),
      )
    )
      r.add("receiving_contest");
  }
  if (reviewsWork(u, f.work, reviewScope)) r.add("reviewer");
  return r;
}

/** Anyone related to the work may read it; everyone else is told it does not exist. */
export const mayView = (r: Set<Relation>) => r.size > 0;
/** The work log: its authors, its school admin, contest admins in scope and root. */
export const mayReadLog = (r: Set<Relation>) =>
  ["author", "pending_author", "school", "contest", "root"].some((x) => r.has(x as Relation));

/** The actor the caller acts as for a transition, or null. */
export function actorFor(action: WorkAction, r: Set<Relation>): Actor | null {
  const by = TRANSITIONS[action].by;
  if (by.includes("author") && r.has("first_author")) return "author";
  if (by.includes("school") && r.has("school")) return "school";
  if (by.includes("contest") && r.has(action === "disqualify" ? "contest" : "receiving_contest")) return "contest";
  if (by.includes("reviewer") && r.has("reviewer")) return "reviewer";
  if (by.includes("root") && r.has("root")) return "root";
  return null;
}

export interface StageTimes {
  stage: string;
  startsAt: string;
  endsAt: string;
}

export const stageOpen = (stages: readonly StageTimes[], key: StageKey, now: Date) => {
  const s = stages.find((x) => x.stage === key);
  return !!s && Date.parse(s.startsAt) <= now.getTime() && now.getTime() < Date.parse(s.endsAt);
};

/** Why an action is outside its stage window now, or null when a window is open (root is not bound). */
export function windowRefusal(
  action: WorkAction,
  from: WorkState,
  actor: Actor,
  stages: readonly StageTimes[],
  contestName: string,
  now: Date,
): string | null {
  if (actor === "root") return null;
  const keys = stageWindow(action, from);
  if (!keys.length || keys.some((k) => stageOpen(stages, k, now))) return null;
  const times = keys.map((k) => {
    const s = stages.find((x) => x.stage === k);
    return s
      ? `${STAGE_NAMES[k]}阶段（${beijingTime(s.startsAt)} 至 ${beijingTime(s.endsAt)}）`
      : `${STAGE_NAMES[k]}阶段（未设置时间）`;
  });
  return `「${contestName}」当前不在${times.join("或")}内，不能「${TRANSITIONS[action].name}」`;
}

/** Registration is open now in the contest. */
export const registrationRefusal = (stages: readonly StageTimes[], contestName: string, now: Date): string | null => {
  if (stageOpen(stages, "registration", now)) return null;
  const s = stages.find((x) => x.stage === "registration");
  return s
    ? `「${contestName}」的报名时间为 ${beijingTime(s.startsAt)} 至 ${beijingTime(s.endsAt)}，当前不在报名时间内`
    : `「${contestName}」尚未设置报名时间，暂不能报名`;
};

/** A contest's area holds the school: its own school contest, or its province's provincial contest. */
export function contestAcceptsSchool(c: ContestRow, school: { id: number; province: string }): boolean {
  if (c.level === "school") return c.school_id === school.id;
  if (c.level === "provincial") return c.province === school.province;
  return false;
}

/**
 * Why the school's students cannot enter the contest, or null. A school that runs its own
 * school contest under a provincial contest enters through it, so its works reach the
 * province only by recommendation within the school contest's quota.
 */
export async function entryRefusal(
  db: Handle,
  c: ContestRow,
  school: { id: number; name: string; province: string },
): Promise<string | null> {
  if (!contestAcceptsSchool(c, school)) return `「${c.name}」不接受${school.name}的作品报名`;
  if (c.level !== "provincial") return null;
  const own = await db
    .selectFrom("contest")
    .select("name")
    .where("parent_id", "=", c.id)
    .where("level", "=", "school")
    .where("school_id", "=", school.id)
    .where("archived", "=", 0)
    .executeTakeFirst();
  return own ? `${school.name}设有校级赛「${own.name}」，请在校级赛中报名，作品经学校推荐进入「${c.name}」` : null;
}

export const contestOpensCategory = (c: { categories: string }, categoryId: number) =>
  (JSON.parse(c.categories) as number[]).map(Number).includes(categoryId);

export interface LockInfo {
  field: LockableField;
  stage: StageKey;
}

/** The locked work fields of a contest now, each with the stage that locked it. */
export async function locksOf(db: Handle, contestId: number, now = new Date()): Promise<Map<string, StageKey>> {
  const { locks, stages } = await loadLockInputs(db, contestId);
  const locked = lockedFields(locks, stages, now);
  const out = new Map<string, StageKey>();
  for (const field of locked) {
    const rule = locks.find((l) => l.field === field && l.contestId !== null) ?? locks.find((l) => l.field === field);
    out.set(field, rule!.fromStage as StageKey);
  }
  return out;
}

/**
 * The locked fields of a work: those of the national contest while the work is entered there
 * (issue 14: the national round follows the national contest's field locks), otherwise those
 * of the contest it registered in. The provincial result rows and certificates keep their own
 * facts, so a field changed for the national round leaves the provincial record as it was.
 */
export async function workLocksOf(
  db: Handle,
  work: { id: number; contest_id: number },
  now = new Date(),
): Promise<Map<string, StageKey>> {
  return (await workLocksOfMany(db, [work], now)).get(work.id)!;
}

/** workLocksOf for many works: one national_entry query, then each contest's locks once. */
export async function workLocksOfMany(
  db: Handle,
  works: readonly { id: number; contest_id: number }[],
  now = new Date(),
): Promise<Map<number, Map<string, StageKey>>> {
  const out = new Map<number, Map<string, StageKey>>();
  if (!works.length) return out;
  const entered = new Map<number, number>();
  for (let i = 0; i < works.length; i += 500) {
    const ids = works.slice(i, i + 500).map((w) => w.id);
    for (const r of await db
      .selectFrom("national_entry")
      .select(["work_id", "contest_id"])
      .where("work_id", "in", ids)
      .where("status", "=", "entered")
      .execute())
      entered.set(Number(r.work_id), r.contest_id);
  }
  const byContest = new Map<number, Promise<Map<string, StageKey>>>();
  for (const w of works) {
    const c = entered.get(w.id) ?? w.contest_id;
    if (!byContest.has(c)) byContest.set(c, locksOf(db, c, now));
    out.set(w.id, await byContest.get(c)!);
  }
  return out;
}

export const lockMessage = (label: string, stage: StageKey) => `「${label}」已于${STAGE_NAMES[stage]}阶段锁定，不能修改`;

/** Refuses the first changed field that is locked. */
export function refuseLocked(changed: readonly WorkField[], locks: Map<string, StageKey>): string | null {
  for (const f of changed) {
    const stage = locks.get(FIELDS[f].lock);
    if (stage) return lockMessage(FIELDS[f].label, stage);
  }
  return null;
}
export const refuseLockedPart = (part: "authors" | "teachers" | "teacherReview", locks: Map<string, StageKey>) => {
  const stage = locks.get(part);
  return stage ? lockMessage(LOCKABLE_FIELD_NAMES[part], stage) : null;
};

/** What submit checks: facts of the work with its team and its 大类's rules. */
export interface SubmitFacts extends Facts {
  hasSubcategories: boolean;
  db: Handle;
}

type SubmitCheck = (f: SubmitFacts) => string | null | Promise<string | null>;

const majorsOf = (w: WorkRow) => JSON.parse(w.professional_majors) as string[];

export const allAuthorsConfirmed: SubmitCheck = (f) => {
  const pending = f.authors.filter((a) => !a.confirmed).map((a) => a.name);
  return pending.length ? `作者「${pending.join("、")}」尚未确认参赛，全部作者确认后才能提交` : null;
};
/** An email invitation not yet used holds a place in the team: wait for it or withdraw it. */
export const noPendingInvitations: SubmitCheck = async ({ work, db }) => {
  const rows = await db
    .selectFrom("work_invitation")
    .select(["name"])
    .where("work_id", "=", work.id)
    .where("status", "=", "sent")
    .where("expires_at", ">", new Date().toISOString())
    .execute();
  return rows.length
    ? `已邀请的「${rows.map((r) => r.name).join("、")}」尚未通过邮件链接注册；请等待对方注册并确认，或撤回邀请后再提交`
    : null;
};
export const teamSizeWithin: SubmitCheck = ({ work, authors }) =>
  authors.length < work.min_authors || authors.length > work.max_authors
    ? `「${work.category_name}」每件作品须有 ${work.min_authors}–${work.max_authors} 名作者，当前 ${authors.length} 名`
    : null;
export const teachersWithin: SubmitCheck = ({ work, teachers }) =>
  teachers.length > work.max_teachers
    ? `「${work.category_name}」每件作品最多 ${work.max_teachers} 名指导教师，当前 ${teachers.length} 名`
    : null;
export const teamFromSchool: SubmitCheck = ({ work, authors, teachers }) => {
  const other = [...authors, ...teachers].filter((m) => m.school_id !== work.school_id).map((m) => m.name);
  return other.length ? `「${other.join("、")}」已不属于${work.school_name}，作者和指导教师须与作品属于同一学校` : null;
};
export const requiredFieldsFilled: SubmitCheck = ({ work, hasSubcategories }) => {
  if (hasSubcategories && work.subcategory_id === null) return "请选择作品小类";
  const values: Partial<Record<WorkField, unknown>> = {
    name: work.name,
    summary: work.summary,
    designIdea: work.design_idea,
    keyPoints: work.key_points,
    aiDeclaration: work.ai_declaration,
  };
  const empty = (Object.keys(FIELDS) as WorkField[]).filter((k) => FIELDS[k].requiredAtSubmit && !String(values[k] ?? "").trim());
  return empty.length ? `请填写${empty.map((k) => `「${FIELDS[k].label}」`).join("、")}后再提交` : null;
};
/** 专业组: the shared rule (src/shared/work/group-rule.ts) over the work's 大类 and its authors. */
export const groupMatchesMajors: SubmitCheck = ({ work, authors }) =>
  groupProblem(
    { name: work.category_name, hasProfessionalGroup: !!work.has_professional_group, professionalMajors: majorsOf(work) },
    work.group_type,
    authors.map((a) => ({ name: a.name, majorCode: a.major_code, majorName: a.major_name })),
  );

/**
 * Every attachment the 大类 marks required has a current file. Checked when the authors
 * submit (the work is editable then); a work a contest admin enters from the school's
 * paper forms (/ContestAdmin/AddWork) starts accepted and its files are not asked for here.
 */
export const requiredFilesPresent: SubmitCheck = async ({ work, db }) => {
  if (!EDITABLE_STATES.includes(work.status)) return null;
  const have = new Set(await currentKinds(db, work.id));
  const missing = (await requirementsOf(db, work.category_id)).filter((r) => r.required && !have.has(r.key));
  return missing.length ? `请上传${missing.map((r) => `「${r.name}」`).join("、")}后再提交` : null;
};

/**
 * 指导老师自评: a 大类 flagged teacher_review_required (work-type admin page) needs it before
 * the authors submit; the advising teacher writes it while the work is editable. A work
 * without a teacher has nobody to write it and is not asked.
 */
export const teacherReviewFilled: SubmitCheck = ({ work, teachers }) => {
  if (!work.teacher_review_required || !teachers.length || !EDITABLE_STATES.includes(work.status)) return null;
  if (String(work.teacher_review ?? "").trim()) return null;
  return `「${work.category_name}」要求提交前填写指导老师自评，请提醒指导教师「${teachers.map((t) => t.name).join("、")}」填写（指导教师在「指导作品」中填写）`;
};

/**
 * Everything submit requires, in the order the author fixes them. Other modules add
 * their own checks here.
 */
export const SUBMIT_CHECKS: SubmitCheck[] = [
  requiredFieldsFilled,
  allAuthorsConfirmed,
  noPendingInvitations,
  teamSizeWithin,
  teachersWithin,
  teamFromSchool,
  groupMatchesMajors,
  requiredFilesPresent,
  teacherReviewFilled,
];

export async function submitRefusal(f: SubmitFacts): Promise<string | null> {
  for (const check of SUBMIT_CHECKS) {
    const why = await check(f);
    if (why) return why;
  }
  return null;
}
