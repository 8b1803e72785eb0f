/**
 * The four user pages as settings of one list: which roles, filters, columns and form
 * fields each shows. The server decides the scope (root all; a contest admin the judges
 * and reviewers of the own contests; a school admin the own school's students and teachers).
 */
import { ROLE, ROLE_CODES, ROLE_NAMES, type RoleCode } from "../../shared/roles";

export interface UserVariant {
  key: "all" | "contest" | "students" | "teachers";
  /** the user type the list is fixed to (a permanent filter) */
  fixedType?: RoleCode;
  /** roles offered in the role filter and the form */
  roles: readonly RoleCode[];
  /** the role a new user gets unless changed */
  defaultRole: RoleCode;
  /** school: a searchable select (required for school roles), or the admin's own school shown read-only */
  school: "select" | "own";
  /** contest choice on create: any contest (optional) or one of the admin's own (required) */
  contest: "any" | "mine";
  complaintRight: boolean;
  judgeFlag: boolean;
  major: boolean;
  memberNoLabel: string;
  /** "学生", "教师", "用户" … in buttons and titles */
  noun: string;
}

export const VARIANTS = {
  all: {
    key: "all",
    roles: ROLE_CODES,
    defaultRole: ROLE.author,
    school: "select",
    contest: "any",
    complaintRight: true,
    judgeFlag: true,
    major: true,
    memberNoLabel: "学号/工号",
    noun: "用户",
  },
  contest: {
    key: "contest",
    roles: [ROLE.contestReviewer, ROLE.judge],
    defaultRole: ROLE.judge,
    school: "select",
    contest: "mine",
    complaintRight: false,
    judgeFlag: false,
    major: false,
    memberNoLabel: "工号",
    noun: "评委或审核员",
  },
  students: {
    key: "students",
    fixedType: ROLE.author,
    roles: [ROLE.author],
    defaultRole: ROLE.author,
    school: "own",
    contest: "any",
    complaintRight: false,
    judgeFlag: false,
    major: true,
    memberNoLabel: "学号",
    noun: "学生",
  },
  teachers: {
    key: "teachers",
    fixedType: ROLE.teacher,
    roles: [ROLE.teacher],
    defaultRole: ROLE.teacher,
    school: "own",
    contest: "any",
    complaintRight: false,
    judgeFlag: true,
    major: false,
    memberNoLabel: "工号",
    noun: "教师",
  },
} as const satisfies Record<string, UserVariant>;

/** Roles that belong to a school (the server refuses them without one). */
export const SCHOOL_ROLES: readonly number[] = [ROLE.schoolAdmin, ROLE.teacher, ROLE.author];
/** Roles that can join a contest. */
export const CONTEST_ROLES: readonly number[] = [ROLE.contestAdmin, ROLE.contestReviewer, ROLE.judge];

export const roleOptions = (roles: readonly RoleCode[]) => roles.map((r) => ({ value: r, label: ROLE_NAMES[r] }));

const ROLE_COLOR: Partial<Record<number, string>> = {
  0: "red",
  1: "volcano",
  2: "gold",
  3: "cyan",
  4: "blue",
  5: "purple",
  6: "magenta",
  7: "geekblue",
  99: "green",
  100: "default",
};
export const roleColor = (t: number) => ROLE_COLOR[t] ?? "default";

export const CLAIM_HINT = "待激活：用户需通过“找回密码”设置密码";

/** A contest member's role in Chinese. */
export const MEMBER_ROLE_NAMES: Record<string, string> = { admin: "管理员", reviewer: "审核员", judge: "评委" };
