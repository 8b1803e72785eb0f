/**
 * Reading users as views: one query with school and major, contests in one batch. Never the password hash.
 * Phones are masked (138****5678) except the viewer's own: an admin who needs a number in full
 * reveals it through GET /Backend/Admin/user/:id/phone (./phone.ts), which is audited. The Excel
 * export reads these views, so it is masked too (admins reveal the few numbers they must call), and
 * an exported file imported again leaves every phone as it is (a cell equal to the view is no change).
 */
import { sql } from "kysely";
import { ROLE_NAMES, type RoleCode } from "../../shared/roles";
import type { UserView } from "../../shared/user/schema";
import type { Db } from "../db";
import type { Ctx } from "../crud/resource";
import { scoped, type Actor } from "./scope";
import { maskPhone } from "../../shared/mask";

/** An unusable password hash: the account is claimed through the recovery link. */
export const UNCLAIMED = "!";

export const selectUsers = (db: Db) =>
  db
    .selectFrom("app_user")
    .leftJoin("school", "school.id", "app_user.school_id")
    .leftJoin("major", "major.code", "app_user.major_code")
    .select([
      "app_user.id",
      "app_user.username",
      "app_user.name",
      "app_user.user_type",
      "app_user.email",
      "app_user.email_verified",
      "app_user.phone",
      "app_user.school_id",
      "app_user.member_no",
      "app_user.major_code",
      "app_user.has_complaint_right",
      "app_user.is_school_contest_judge",
      "app_user.locked",
      "app_user.archived",
      "app_user.created_at",
      "app_user.updated_at",
      "school.name as school_name",
      "school.code as school_code",
      "major.name as major_name",
    ])
    .select(sql<number>`case when app_user.password_hash = ${UNCLAIMED} then 1 else 0 end`.as("needs_claim"));

export interface UserRow {
  id: number;
  username: string;
  name: string;
  user_type: number;
  email: string | null;
  email_verified: number;
  phone: string | null;
  school_id: number | null;
  member_no: string | null;
  major_code: string | null;
  has_complaint_right: number;
  is_school_contest_judge: number;
  locked: number;
  archived: number;
  created_at: string;
  updated_at: string;
  school_name: string | null;
  school_code: string | null;
  major_name: string | null;
  needs_claim: number;
}

export const roleName = (t: number) => ROLE_NAMES[t as RoleCode] ?? String(t);

/** The view of a user row; `viewerId`: the caller, who alone sees the own phone in full. */
export const toView = (r: UserRow, contests: UserView["contests"] = [], viewerId?: number): UserView => ({
  id: r.id,
  username: r.username,
  name: r.name,
  userType: r.user_type,
  roleName: roleName(r.user_type),
  email: r.email,
  emailVerified: !!r.email_verified,
  phone: r.id === viewerId ? r.phone : maskPhone(r.phone),
  school: r.school_id && r.school_name !== null ? { id: r.school_id, name: r.school_name, code: r.school_code ?? "" } : null,
  memberNo: r.member_no,
  majorCode: r.major_code,
  majorName: r.major_name,
  hasComplaintRight: !!r.has_complaint_right,
  isSchoolContestJudge: !!r.is_school_contest_judge,
  locked: !!r.locked,
  archived: !!r.archived,
  needsClaim: !!Number(r.needs_claim),
  contests,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const CHUNK = 500;

/** Contest memberships of these users; a contest admin sees only those in the own contests. */
export async function contestsOf(db: Db, a: Actor, userIds: number[]): Promise<Map<number, UserView["contests"]>> {
  const out = new Map<number, UserView["contests"]>();
  // School admins see no memberships: those are contest data.
  if (a.contestIds !== "all" && !a.contestIds.length) return out;
  for (let i = 0; i < userIds.length; i += CHUNK) {
    let q = db
      .selectFrom("contest_member")
      .innerJoin("contest", "contest.id", "contest_member.contest_id")
      .select(["contest_member.user_id", "contest.id", "contest.name", "contest_member.role"])
      .where("contest_member.user_id", "in", userIds.slice(i, i + CHUNK));
    if (a.contestIds !== "all") q = q.where("contest.id", "in", a.contestIds);
    for (const r of await q.orderBy("contest.id").execute()) {
      const list = out.get(r.user_id) ?? [];
      list.push({ id: r.id, name: r.name, role: r.role });
      out.set(r.user_id, list);
    }
  }
  return out;
}

export async function withContests(db: Db, a: Actor, rows: UserRow[]): Promise<UserView[]> {
  const contests = await contestsOf(
    db,
    a,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toView(r, contests.get(r.id) ?? [], a.user.id));
}

/** Users by id within the actor's scope, as views (missing: not there or out of scope). */
export async function loadUsers(ctx: Ctx, a: Actor, ids: number[]): Promise<UserView[]> {
  const rows: UserRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    rows.push(
      ...((await scoped(a, selectUsers(ctx.db))
        .where("app_user.id", "in", ids.slice(i, i + CHUNK))
        .execute()) as UserRow[]),
    );
  }
  return withContests(ctx.db, a, rows);
}
