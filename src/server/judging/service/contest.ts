/**
 * What judging knows of a contest: who manages it (scope), its settings, its judges and the
 * works it judges (the pool). Queries only; the rules that use them live beside.
 *
 * - The pool of a provincial or national contest: its works (src/server/scope.ts worksOfContest:
 *   the works it received, and a national contest's entered national entries) that passed
 *   format review there (format_passed). Of a school-level contest: its own works once submitted and not
 *   yet accepted elsewhere (submitted, school_approved, recommended) — schools judge their
 *   contest before recommending.
 * - The judges of a contest: role-4 users who are contest_member "judge" of it; of a
 *   school-level contest also the school's teachers flagged as school-contest judges.
 *   A judge's province is the province of the judge's school (none without a school).
 * - In a school-level contest every judge and work share the school, so the same-school
 *   rule cannot apply there: its judges are given to conflict.ts without a school (advisor
 *   and declared conflicts still apply).
 */
import { DomainError, notFound } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import type { JudgingSettings } from "../../../shared/judging/schema";
import type { WorkState } from "../../../shared/work/states";
import type { User } from "../../db/schema";
import { DEFAULT_REVIEWS_PER_WORK } from "../assign";
import { adminContestIds, worksOfContest } from "../../scope";
import type { Handle } from "../../work/repository";

export const NOT_MANAGED = "赛事不存在或不在您的管理范围内";

/** For .catch: a "not found" becomes this one (the same reply whatever was missing); other errors pass. */
export const as404 =
  (info: string) =>
  (e: unknown): never => {
    if (e instanceof DomainError && e.status === 404) throw notFound(info);
    throw e;
  };

export const POOL_STATES: Record<"school" | "other", readonly WorkState[]> = {
  school: ["submitted", "school_approved", "recommended"],
  other: ["format_passed"],
};

export interface ContestInfo {
  id: number;
  name: string;
  level: "national" | "provincial" | "school";
  school_id: number | null;
}

const findContest = (db: Handle, id: number) =>
  db.selectFrom("contest").select(["id", "name", "level", "school_id"]).where("id", "=", id).executeTakeFirst();

/** The contest, when the user (root or a contest admin) manages it; 404 otherwise. */
export async function requireManagedContest(db: Handle, user: User, contestId: number): Promise<ContestInfo> {
  const scope = await adminContestIds(db, user);
  if (scope !== "all" && !scope.includes(contestId)) throw notFound(NOT_MANAGED);
  const c = await findContest(db, contestId);
  if (!c) throw notFound(NOT_MANAGED);
  return c;
}

export async function settingsOf(db: Handle, contestId: number): Promise<JudgingSettings> {
  const s = await db.selectFrom("judging_setting").selectAll().where("contest_id", "=", contestId).executeTakeFirst();
  return s
    ? { reviewsPerWork: s.reviews_per_work, judgeCapacity: s.judge_capacity, avoidProvince: !!s.avoid_province }
    : { reviewsPerWork: DEFAULT_REVIEWS_PER_WORK, judgeCapacity: null, avoidProvince: false };
}

export async function saveSettings(db: Handle, contestId: number, s: JudgingSettings, userId: number) {
  const row = {
    reviews_per_work: s.reviewsPerWork,
    judge_capacity: s.judgeCapacity,
    avoid_province: s.avoidProvince ? 1 : 0,
    updated_at: new Date().toISOString(),
    updated_by: userId,
  };
  await db
    .insertInto("judging_setting")
    .values({ contest_id: contestId, ...row })
    .onConflict((oc) => oc.column("contest_id").doUpdateSet(row))
    .execute();
}

/** The pool: works the contest judges, no columns selected. */
export function poolWorks(db: Handle, c: ContestInfo) {
  const q = db.selectFrom("work");
  return c.level === "school"
    ? q.where("work.contest_id", "=", c.id).where("work.status", "in", [...POOL_STATES.school])
    : q.where("work.id", "in", worksOfContest(db, c.id, POOL_STATES.other).select("work.id"));
}

export interface JudgeRow {
  id: number;
  name: string;
  username: string;
  school_id: number | null;
  school_name: string | null;
  province: string | null;
}

/** The judges of the contest (see the module comment), by name. */
export async function contestJudges(db: Handle, c: ContestInfo): Promise<JudgeRow[]> {
  const base = db
    .selectFrom("app_user")
    .leftJoin("school", "school.id", "app_user.school_id")
    .select([
      "app_user.id",
      "app_user.name",
      "app_user.username",
      "app_user.school_id",
      "school.name as school_name",
      "school.province",
    ])
    .where("app_user.archived", "=", 0);
  const members = await base
    .where("app_user.user_type", "=", ROLE.judge)
    .where(
      "app_user.id",
      "in",
      db
        .selectFrom("contest_member")
        .select("contest_member.user_id")
        .where("contest_member.contest_id", "=", c.id)
        .where("contest_member.role", "=", "judge"),
    )
    .execute();
  const teachers =
    c.level === "school" && c.school_id !== null
      ? await base
          .where("app_user.user_type", "=", ROLE.teacher)
          .where("app_user.is_school_contest_judge", "=", 1)
          .where("app_user.school_id", "=", c.school_id)
          .execute()
      : [];
  return [...members, ...teachers].sort((a, b) => a.name.localeCompare(b.name, "zh-CN") || a.id - b.id);
}

/** Is the user a judge of the contest? */
export async function isContestJudge(db: Handle, c: ContestInfo, userId: number): Promise<boolean> {
  return (await contestJudges(db, c)).some((j) => j.id === userId);
}

/** The facts conflict.ts needs of a judge in this contest (no school in a school-level contest). */
export const judgeSchoolFacts = (c: ContestInfo, j: Pick<JudgeRow, "school_id" | "province">) =>
  c.level === "school" ? { schoolId: null, province: null } : { schoolId: j.school_id, province: j.province };

/** Declared conflicts of these judges: work ids, school ids and student user ids per judge. */
export async function declaredOf(db: Handle, judgeIds: number[]) {
  const out = new Map<number, { workIds: number[]; schoolIds: number[]; userIds: number[] }>();
  for (let i = 0; i < judgeIds.length; i += 500) {
    const rows = await db
      .selectFrom("declared_conflict")
      .select(["judge_id", "work_id", "school_id", "user_id"])
      .where("judge_id", "in", judgeIds.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const d = out.get(r.judge_id) ?? { workIds: [], schoolIds: [], userIds: [] };
      if (r.work_id !== null) d.workIds.push(Number(r.work_id));
      if (r.school_id !== null) d.schoolIds.push(r.school_id);
      if (r.user_id !== null) d.userIds.push(r.user_id);
      out.set(r.judge_id, d);
    }
  }
  return out;
}
