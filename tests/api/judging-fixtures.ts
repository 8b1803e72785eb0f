/**
 * Set-up of the review and judging API tests: people and works that have reached the
 * provincial contest, written straight into the database (the works lifecycle that gets
 * them there has its own tests), and judges who are members of a contest.
 */
import type { TestApp } from "../helpers/app";
import { insertDemoUser, insertDemoWork } from "../../src/server/seed/demo-helpers";
import type { WorkStatus } from "../../src/server/db/schema";
import { catId, schoolId } from "./works-fixtures";

const now = () => new Date().toISOString();

async function passwordHash(t: TestApp) {
  return (await t.db.selectFrom("app_user").select("password_hash").where("username", "=", "student").executeTakeFirstOrThrow())
    .password_hash;
}

/** A user (password Demo@2026): role 100 student, 99 teacher, 4 judge, 3 reviewer. */
export async function insertUser(
  t: TestApp,
  o: { username: string; name: string; role: number; school?: string | null; schoolContestJudge?: boolean },
) {
  const school = o.school ? await schoolId(t, o.school) : null;
  const user = {
    username: o.username,
    name: o.name,
    type: o.role,
    schoolId: school,
    major: o.role === 100 ? "080901" : null,
    schoolContestJudge: o.schoolContestJudge,
    email: `${o.username}@test.local`,
  };
  return insertDemoUser(t.db, user, await passwordHash(t), now());
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
  const sub = await t.db
    .selectFrom("work_category")
    .select("id")
    .where("parent_id", "=", category)
    .orderBy("sort")
    .executeTakeFirstOrThrow();
  const authors = [
    await insertUser(t, { username: `fa${n}a`, name: `作者甲${n}`, role: 100, school: spec.school }),
    await insertUser(t, { username: `fa${n}b`, name: `作者乙${n}`, role: 100, school: spec.school }),
  ];
  const teachers = spec.teachers ?? [
    await insertUser(t, { username: `ft${n}`, name: `教师${n}`, role: 99, school: spec.school }),
  ];
  const filled = spec.incomplete
    ? {}
    : { summary: "作品简介：面向校园的应用。", design_idea: "设计思路：分层设计。", key_points: "重点和难点：性能。" };
  const text = { ...filled, teacher_review: "指导老师自评：团队认真。" };
  const name = spec.name ?? `测试作品${n}`;
  return insertDemoWork(t.db, {
    year: 2026,
    contestId: spec.contest,
    categoryId: category,
    subcategoryId: sub.id,
    name,
    status: spec.status,
    schoolId: school,
    authors,
    teachers,
    text,
    version: 5,
    at: now(),
  });
}

export const countAssignments = async (t: TestApp, contest: number) =>
  Number(
    (
      await t.db
        .selectFrom("judge_assignment")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("contest_id", "=", contest)
        .executeTakeFirstOrThrow()
    ).n,
  );
