/**
 * Set-up of the review and judging API tests: people and works that have reached the
 * provincial contest, written straight into the database (the works lifecycle that gets
 * them there has its own tests), and judges who are members of a contest.
 */
import type { TestApp } from "../helpers/app";
import { nextWorkIds, refreshNames } from "../../src/server/work/repository";
import type { WorkStatus } from "../../src/server/db/schema";
import { catId, schoolId } from "./works-fixtures";

const now = () => new Date().toISOString();

async function passwordHash(t: TestApp) {
  return (await t.db.selectFrom("app_user").select("password_hash").where("username", "=", "student").executeTakeFirstOrThrow()).password_hash;
}

/** A user (password Demo@2026): role 100 student, 99 teacher, 4 judge, 3 reviewer. */
export async function insertUser(t: TestApp, o: { username: string; name: string; role: number; school?: string | null; schoolContestJudge?: boolean }) {
  const school = o.school ? await schoolId(t, o.school) : null;
  const row = await t.db
    .insertInto("app_user")
    .values({
      username: o.username,
      password_hash: await passwordHash(t),
      name: o.name,
      user_type: o.role,
      email: `${o.username}@test.local`,
      email_verified: 1,
      phone: null,
      school_id: school,
      member_no: null,
      major_code: o.role === 100 ? "080901" : null,
      has_complaint_right: 0,
      is_school_contest_judge: o.schoolContestJudge ? 1 : 0,
      locked: 0,
      created_at: now(),
      updated_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function joinContest(t: TestApp, userId: number, contest: number, role: "judge" | "reviewer" | "admin") {
  await t.db.insertInto("contest_member").values({ contest_id: contest, user_id: userId, role, created_at: now() }).execute();
}

/** A judge (role 4) of a school (or none), member of the contest. */
export async function makeJudge(t: TestApp, username: string, name: string, school: string | null, contest: number) {
  const id = await insertUser(t, { username, name, role: 4, school });
  await joinContest(t, id, contest, "judge");
  return id;
}

let serial = 0;

export interface WorkSpec {
  contest: number;
  school: string;
  category: string;
  status: WorkStatus;
  name?: string;
  /** teacher user ids (advisors); default a new teacher of the school */
  teachers?: number[];
  /** leave required fields empty */
  incomplete?: boolean;
}

/** A work of a school with two confirmed authors and a teacher, in the given state. */
export async function insertWork(t: TestApp, spec: WorkSpec): Promise<number> {
  const n = ++serial;
  const school = await schoolId(t, spec.school);
  const category = await catId(t, spec.category);
  const sub = await t.db.selectFrom("work_category").select("id").where("parent_id", "=", category).orderBy("sort").executeTakeFirstOrThrow();
  const [id] = await nextWorkIds(t.db, 2026, 1);
  const authors = [await insertUser(t, { username: `fa${n}a`, name: `作者甲${n}`, role: 100, school: spec.school }), await insertUser(t, { username: `fa${n}b`, name: `作者乙${n}`, role: 100, school: spec.school })];
  const teachers = spec.teachers ?? [await insertUser(t, { username: `ft${n}`, name: `教师${n}`, role: 99, school: spec.school })];
  await t.db
    .insertInto("work")
    .values({
      id,
      year: 2026,
      contest_id: spec.contest,
      category_id: category,
      subcategory_id: sub.id,
      group_type: "normal",
      name: spec.name ?? `测试作品${n}`,
      status: spec.status,
      school_id: school,
      created_by: authors[0],
      summary: spec.incomplete ? null : "作品简介：面向校园的应用。",
      design_idea: spec.incomplete ? null : "设计思路：分层设计。",
      key_points: spec.incomplete ? null : "重点和难点：性能。",
      open_source: null,
      install_guide: null,
      teacher_review: "指导老师自评：团队认真。",
      other_notes: null,
      deploy_link1: null,
      deploy_link2: null,
      ai_declaration: JSON.stringify({ used: false, tools: [] }),
      return_reason: null,
      disqualify_reason: null,
      version: 5,
      created_at: now(),
      updated_at: now(),
      submitted_at: now(),
    })
    .execute();
  await t.db.insertInto("work_author").values(authors.map((user_id, k) => ({ work_id: id, user_id, rank: k + 1, confirmed: 1, category_id: category, year: 2026, created_at: now() }))).execute();
  await t.db.insertInto("work_teacher").values(teachers.map((user_id, k) => ({ work_id: id, user_id, rank: k + 1, created_at: now() }))).execute();
  await refreshNames(t.db, id);
  return id;
}

export const countAssignments = async (t: TestApp, contest: number) =>
  Number((await t.db.selectFrom("judge_assignment").select((eb) => eb.fn.countAll<number>().as("n")).where("contest_id", "=", contest).executeTakeFirstOrThrow()).n);
