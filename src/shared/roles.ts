/** Role codes of the seed (section 6). Shared by server and browser. */
export const ROLE = {
  root: 0,
  contestAdmin: 1,
  schoolAdmin: 2,
  contestReviewer: 3,
  judge: 4,
  complaintReviewer: 5,
  complaintAdmin: 6,
  arbitrator: 7,
  teacher: 99,
  author: 100,
} as const;

export type RoleCode = (typeof ROLE)[keyof typeof ROLE];

export const ROLE_CODES: readonly RoleCode[] = [0, 1, 2, 3, 4, 5, 6, 7, 99, 100];

export const ROLE_NAMES: Record<RoleCode, string> = {
  0: "超级管理员",
  1: "赛事管理员",
  2: "学校管理员",
  3: "赛事审核员",
  4: "评委",
  5: "申诉审核员",
  6: "申诉管理员",
  7: "仲裁员",
  99: "教师",
  100: "作者（学生）",
};

export const isRoleCode = (n: unknown): n is RoleCode => typeof n === "number" && (ROLE_CODES as readonly number[]).includes(n);

/** Which login page admits which roles. */
export const LOGIN_PAGES = {
  student: [100],
  teacher: [99],
  admin: [0, 1, 2, 3, 4, 5, 6, 7],
} as const satisfies Record<string, readonly RoleCode[]>;
export type LoginPage = keyof typeof LOGIN_PAGES;

export const LOGIN_PAGE_NAMES: Record<LoginPage, string> = {
  student: "学生登录",
  teacher: "教师登录",
  admin: "管理员登录",
};
