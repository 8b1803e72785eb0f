/**
 * The rules of creating and changing users, shared by the API and the import: which roles
 * an actor may give, the school a user must have, who may grant the complaint right and
 * the school-contest-judge flag, unique usernames and email addresses.
 */
import type { Kysely, Transaction, Updateable } from "kysely";
import { ROLE, ROLE_NAMES, type RoleCode } from "../../shared/roles";
import { badRequest, forbidden, invalid } from "../../shared/errors";
import type { UserCreate, UserUpdate, UserView } from "../../shared/user/schema";
import type { ContestRole, DB, UserTable } from "../db/schema";
import { assignableRoles, isRoot, isSchoolAdmin, roleRefusal, type Actor } from "./scope";
import { UNCLAIMED } from "./view";
import { normEmailOrNull } from "../common/email";
import { isMaskedPhone, maskPhone } from "../../shared/mask";

type Handle = Kysely<DB> | Transaction<DB>;

/** The contest-member role of a user type that belongs to contests. */
export const MEMBER_ROLE: Partial<Record<number, ContestRole>> = {
  [ROLE.contestAdmin]: "admin",
  [ROLE.contestReviewer]: "reviewer",
  [ROLE.judge]: "judge",
};
/** Roles that belong to a school. */
const NEEDS_SCHOOL: readonly number[] = [ROLE.schoolAdmin, ROLE.teacher, ROLE.author];

const blankToNull = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

export type UserPatch = Updateable<UserTable>;
export type NewUserValues = Omit<UserTable, "id" | "archived" | "created_at" | "updated_at">;

function checkJudgeFlag(a: Actor, role: number, on: boolean) {
  if (!isRoot(a) && !isSchoolAdmin(a)) throw forbidden("只有超级管理员和学校管理员可以设置校赛评委");
  if (on && isSchoolAdmin(a) && role !== ROLE.teacher) throw invalid("isSchoolContestJudge", "只有教师可以设为校赛评委");
}

function needSchool(role: number, schoolId: number | null) {
  if (NEEDS_SCHOOL.includes(role) && schoolId === null)
    throw invalid("schoolId", `${ROLE_NAMES[role as RoleCode]}须选择所属学校`);
}

/** The row of a new user, or a clear refusal. Admin-created users claim their account by email. */
export function checkNew(a: Actor, input: UserCreate): NewUserValues {
  const role = input.role;
  if (!assignableRoles(a).includes(role)) throw roleRefusal(a, role);
  let schoolId = input.schoolId ?? null;
  if (isSchoolAdmin(a)) {
    if (schoolId !== null && schoolId !== a.user.school_id) throw forbidden("学校管理员只能管理本校的用户");
    schoolId = a.user.school_id;
  }
  needSchool(role, schoolId);
  if (input.hasComplaintRight && !isRoot(a)) throw forbidden("只有超级管理员可以授予申诉权");
  if (input.isSchoolContestJudge) checkJudgeFlag(a, role, true);
  return {
    username: input.username.trim(),
    password_hash: UNCLAIMED,
    name: input.name.trim(),
    user_type: role,
    email: normEmailOrNull(input.email),
    email_verified: 0,
    phone: blankToNull(input.phone),
    school_id: schoolId,
    member_no: blankToNull(input.memberNo),
    major_code: blankToNull(input.majorCode),
    has_complaint_right: input.hasComplaintRight ? 1 : 0,
    is_school_contest_judge: input.isSchoolContestJudge ? 1 : 0,
    locked: 0,
  };
}

/** The columns to set for a change, or a clear refusal. */
export function checkChange(a: Actor, before: UserView, input: UserUpdate): UserPatch {
  const set: UserPatch = {};
  const role = input.role ?? before.userType;
  if (role !== before.userType) {
    if (before.id === a.user.id) throw badRequest("不能修改自己的身份");
    if (!assignableRoles(a).includes(role)) throw roleRefusal(a, role);
    set.user_type = role;
  }
  let schoolId = before.school?.id ?? null;
  if (input.schoolId !== undefined && input.schoolId !== schoolId) {
    if (isSchoolAdmin(a)) throw forbidden("学校管理员只能管理本校的用户，不能把用户移到其他学校");
    schoolId = input.schoolId;
    set.school_id = schoolId;
  }
  needSchool(role, schoolId);
  if (input.hasComplaintRight !== undefined && input.hasComplaintRight !== before.hasComplaintRight) {
    if (!isRoot(a)) throw forbidden("只有超级管理员可以授予或收回申诉权");
    set.has_complaint_right = input.hasComplaintRight ? 1 : 0;
  }
  if (input.isSchoolContestJudge !== undefined && input.isSchoolContestJudge !== before.isSchoolContestJudge) {
    checkJudgeFlag(a, role, input.isSchoolContestJudge);
    set.is_school_contest_judge = input.isSchoolContestJudge ? 1 : 0;
  } else if (isSchoolAdmin(a) && before.isSchoolContestJudge && role !== ROLE.teacher) {
    // A teacher who becomes a student no longer judges school contests.
    set.is_school_contest_judge = 0;
  }
  if (input.name !== undefined && input.name.trim() !== before.name) set.name = input.name.trim();
  if (input.phone !== undefined) {
    const phone = blankToNull(input.phone);
    // Views show others' phones masked: a form or an exported sheet that sends back the masked
    // number it was shown changes nothing; any other masked text is not a number.
    if (isMaskedPhone(phone)) {
      if (phone !== maskPhone(before.phone))
        throw invalid("phone", "请填写完整的 11 位手机号，脱敏显示的号码（如 138****5678）不能保存");
    } else if (phone !== before.phone) set.phone = phone;
  }
  if (input.memberNo !== undefined && blankToNull(input.memberNo) !== before.memberNo)
    set.member_no = blankToNull(input.memberNo);
  if (input.majorCode !== undefined && blankToNull(input.majorCode) !== before.majorCode)
    set.major_code = blankToNull(input.majorCode);
  if (input.email !== undefined && normEmailOrNull(input.email) !== before.email) {
    set.email = normEmailOrNull(input.email);
    // A new address is proven again through the verification or recovery link.
    set.email_verified = 0;
  }
  return set;
}

export async function assertUsernameFree(db: Handle, username: string) {
  if (await db.selectFrom("app_user").select("id").where("username", "=", username).executeTakeFirst())
    throw invalid("username", `用户名 ${username} 已被使用`);
}

export async function assertEmailFree(db: Handle, email: string | null | undefined, selfId?: number) {
  if (!email) return;
  let q = db.selectFrom("app_user").select("id").where("email", "=", email);
  if (selfId) q = q.where("id", "!=", selfId);
  if (await q.executeTakeFirst()) throw invalid("email", "该邮箱已被其他账号使用");
}

export async function assertSchool(db: Handle, schoolId: number | null | undefined) {
  if (!schoolId) return;
  const s = await db.selectFrom("school").select(["id", "archived"]).where("id", "=", schoolId).executeTakeFirst();
  if (!s) throw invalid("schoolId", "所选学校不存在");
  if (s.archived) throw invalid("schoolId", "所选学校已归档，不能再添加用户");
}

export async function assertMajor(db: Handle, code: string | null | undefined) {
  if (!code) return;
  const m = await db.selectFrom("major").select(["code", "archived"]).where("code", "=", code).executeTakeFirst();
  if (!m) throw invalid("majorCode", `专业代码 ${code} 不存在`);
  if (m.archived) throw invalid("majorCode", `专业代码 ${code} 已停用`);
}

/** After a role change, memberships follow: judge ↔ reviewer switch, other roles leave their contests. */
export async function followRoleChange(db: Handle, userId: number, from: number, to: number) {
  const old = MEMBER_ROLE[from];
  const now = MEMBER_ROLE[to];
  if (!old || old === now) return;
  if (now && now !== "admin" && old !== "admin") {
    await db.updateTable("contest_member").set({ role: now }).where("user_id", "=", userId).where("role", "=", old).execute();
  } else {
    await db.deleteFrom("contest_member").where("user_id", "=", userId).where("role", "=", old).execute();
  }
}
