/**
 * What the demo seeds (and the judging test fixtures) share: demo accounts (password
 * Demo@2026, mail at demo.saiwu.local), demo works with their authors, teachers, names and
 * log, and judge groups with their members and works. The row builders also serve the
 * bulk generator (works.ts).
 */
import type { Insertable } from "kysely";
import type { DB, WorkGroup, WorkStatus } from "../db/schema";
import { appendLog, nextWorkIds, refreshNames, type Handle, type LogEntry } from "../work/repository";
import { requiredGroup } from "../../shared/work/group-rule";

export interface DemoUser {
  username: string;
  name: string;
  /** user_type: 100 student, 99 teacher, 4 judge … */
  type: number;
  schoolId: number | null;
  memberNo?: string | null;
  major?: string | null;
  complaintRight?: boolean;
  schoolContestJudge?: boolean;
  /** default `<username>@demo.saiwu.local` */
  email?: string;
}

/** The app_user row of a demo account (for inserting many at once). */
export function demoUserRow(u: DemoUser, password_hash: string, at: string): Insertable<DB["app_user"]> {
  return {
    username: u.username,
    password_hash,
    name: u.name,
    user_type: u.type,
    email: u.email ?? `${u.username}@demo.saiwu.local`,
    email_verified: 1,
    phone: null,
    school_id: u.schoolId,
    member_no: u.memberNo ?? null,
    major_code: u.major ?? null,
    has_complaint_right: u.complaintRight ? 1 : 0,
    is_school_contest_judge: u.schoolContestJudge ? 1 : 0,
    locked: 0,
    created_at: at,
    updated_at: at,
  };
}

/** Inserts a demo account; its id. */
export async function insertDemoUser(db: Handle, u: DemoUser, password_hash: string, at: string): Promise<number> {
  return (
    await db
      .insertInto("app_user")
      .values(demoUserRow(u, password_hash, at))
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

export interface DemoPeopleOptions {
  password_hash: string;
  at: string;
  /** a new student's member number from the serial of new accounts (1, 2, …) */
  memberNo: (serial: number) => string;
  /** a new student's major */
  major: string;
  /** what moves the serial on: every new account (default) or new students only */
  serialOf?: "all" | "students";
  /** accounts known by username (read and extended); others are looked up, then created */
  known?: Map<string, number>;
}

/**
 * person(username, name, type, schoolId): the id of the account with that username, created
 * as a student (100, with member number and major) or teacher (99) of the school when missing.
 */
export function demoPeople(db: Handle, o: DemoPeopleOptions) {
  const known = o.known ?? new Map<string, number>();
  let serial = 0;
  return async (username: string, name: string, type: 99 | 100, schoolId: number): Promise<number> => {
    const id =
      known.get(username) ??
      (await db.selectFrom("app_user").select("id").where("username", "=", username).executeTakeFirst())?.id;
    if (id !== undefined) {
      known.set(username, id);
      return id;
    }
    if (type === 100 || o.serialOf !== "students") serial++;
    const student = type === 100;
    const created = await insertDemoUser(
      db,
      { username, name, type, schoolId, memberNo: student ? o.memberNo(serial) : null, major: student ? o.major : null },
      o.password_hash,
      o.at,
    );
    known.set(username, created);
    return created;
  };
}

/** A step of a demo work's log: the action, who took it, and changes beside the status. */
export type DemoStep = [action: string, userId: number | null, extra?: Record<string, [unknown, unknown]>];

/** The state each logged action leads to. */
const STEP_TO: Record<string, WorkStatus> = {
  create: "draft",
  submit: "submitted",
  return: "returned",
  approve: "school_approved",
  recommend: "recommended",
  accept: "accepted",
  format_pass: "format_passed",
};

type WorkText = Partial<
  Pick<Insertable<DB["work"]>, "summary" | "design_idea" | "key_points" | "open_source" | "install_guide" | "teacher_review">
>;

export interface NewDemoWork {
  year: number;
  contestId: number;
  categoryId: number;
  subcategoryId: number | null;
  name: string;
  status: WorkStatus;
  schoolId: number;
  /** author ids in rank order; [id, 0] for one who has not confirmed yet */
  authors: (number | [number, 0 | 1])[];
  /** teacher ids in rank order */
  teachers?: number[];
  /** text fields (null when left out) */
  text?: WorkText;
  /** the AI declaration; default none used */
  ai?: object | null;
  groupType?: WorkGroup;
  returnReason?: string | null;
  disqualifyReason?: string | null;
  version: number;
  /** created, updated and (unless a draft) submitted at */
  at: string;
  /**
   * The log from the start: each step moves the status on from the one before ("create"
   * to draft, and records the name). Left out: no log.
   */
  log?: DemoStep[];
}

/** The work row of a demo work (for inserting many at once). */
export function demoWorkRow(
  id: number,
  w: Omit<NewDemoWork, "authors" | "teachers" | "log">,
  createdBy: number,
): Insertable<DB["work"]> {
  return {
    id,
    year: w.year,
    contest_id: w.contestId,
    category_id: w.categoryId,
    subcategory_id: w.subcategoryId,
    group_type: w.groupType ?? "normal",
    name: w.name,
    status: w.status,
    school_id: w.schoolId,
    created_by: createdBy,
    summary: null,
    design_idea: null,
    key_points: null,
    open_source: null,
    install_guide: null,
    teacher_review: null,
    ...w.text,
    other_notes: null,
    deploy_link1: null,
    deploy_link2: null,
    ai_declaration: w.ai === null ? null : JSON.stringify(w.ai ?? { used: false, tools: [] }),
    return_reason: w.returnReason ?? null,
    disqualify_reason: w.disqualifyReason ?? null,
    version: w.version,
    created_at: w.at,
    updated_at: w.at,
    submitted_at: w.status === "draft" ? null : w.at,
  };
}

/** Inserts a demo work (the next id of its year) with its authors, teachers, names and log; its id. */
/** The group the 专业组 rule asks for (src/shared/work/group-rule.ts): 专业组 when any author's major is in the 大类's list. */
async function demoGroupOf(db: Handle, categoryId: number, userIds: number[]): Promise<WorkGroup> {
  const cat = await db
    .selectFrom("work_category")
    .select(["name", "has_professional_group", "professional_majors"])
    .where("id", "=", categoryId)
    .executeTakeFirstOrThrow();
  const people = await db.selectFrom("app_user").select(["name", "major_code"]).where("id", "in", userIds).execute();
  return requiredGroup(
    {
      name: cat.name,
      hasProfessionalGroup: !!cat.has_professional_group,
      professionalMajors: JSON.parse(cat.professional_majors) as string[],
    },
    people.map((p) => ({ name: p.name, majorCode: p.major_code })),
  );
}

export async function insertDemoWork(db: Handle, w: NewDemoWork): Promise<number> {
  const [id] = await nextWorkIds(db, w.year, 1);
  const authors = w.authors.map((a): [number, 0 | 1] => (typeof a === "number" ? [a, 1] : a));
  const groupType =
    w.groupType ??
    (await demoGroupOf(
      db,
      w.categoryId,
      authors.map(([u]) => u),
    ));
  await db
    .insertInto("work")
    .values(demoWorkRow(id, { ...w, groupType }, authors[0][0]))
    .execute();
  await db
    .insertInto("work_author")
    .values(
      authors.map(([user_id, confirmed], k) => ({
        work_id: id,
        user_id,
        rank: k + 1,
        confirmed,
        category_id: w.categoryId,
        year: w.year,
        created_at: w.at,
      })),
    )
    .execute();
  if (w.teachers?.length)
    await db
      .insertInto("work_teacher")
      .values(w.teachers.map((user_id, k) => ({ work_id: id, user_id, rank: k + 1, created_at: w.at })))
      .execute();
  await refreshNames(db, id);
  if (w.log) {
    const entries: LogEntry[] = [];
    let from: WorkStatus | null = null;
    for (const [action, userId, extra] of w.log) {
      if (!STEP_TO[action]) throw new Error(`演示作品的日志里有未知的操作：${action}`);
      const status: [unknown, unknown] = [from, STEP_TO[action]];
      entries.push({
        workId: id,
        userId,
        action,
        changes: action === "create" ? { status, name: [null, w.name], ...extra } : { status, ...extra },
      });
      from = STEP_TO[action];
    }
    await appendLog(db, entries);
  }
  return id;
}

/** Inserts a judge group of a contest with its members and works; its id. */
export async function insertDemoGroup(
  db: Handle,
  g: {
    contestId: number;
    name: string;
    categoryId: number;
    leaderId: number;
    note: string;
    members: number[];
    works?: number[];
    at: string;
  },
): Promise<number> {
  const { id } = await db
    .insertInto("judge_group")
    .values({
      contest_id: g.contestId,
      name: g.name,
      category_id: g.categoryId,
      subcategory_id: null,
      group_type: null,
      leader_id: g.leaderId,
      note: g.note,
      created_at: g.at,
      updated_at: g.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("judge_group_member")
    .values(g.members.map((user_id) => ({ group_id: id, user_id, created_at: g.at })))
    .execute();
  if (g.works?.length)
    await db
      .insertInto("judge_group_work")
      .values(g.works.map((work_id) => ({ contest_id: g.contestId, group_id: id, work_id, created_at: g.at })))
      .execute();
  return id;
}
