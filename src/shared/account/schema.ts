/** Request and reply schemas of accounts: one source for validation, types and docs. */
import { Type, type Static } from "typebox";
import { MAX_ID } from "../bounds";

export const Username = Type.String({ minLength: 3, maxLength: 32, pattern: "^[A-Za-z0-9_.@-]+$", title: "用户名" });
/** At least 8 characters with letters and digits. */
export const Password = Type.String({ minLength: 8, maxLength: 128, pattern: "^(?=.*[A-Za-z])(?=.*\\d).+$", title: "密码" });
export const Email = Type.String({ format: "email", maxLength: 254, title: "邮箱" });

export const CurrentUser = Type.Object({
  needToLogin: Type.Boolean(),
  userType: Type.Union([Type.Integer(), Type.Null()]),
  hasComplaintRight: Type.Boolean(),
  isSchoolContestJudge: Type.Boolean(),
  id: Type.Optional(Type.Integer()),
  username: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  emailVerified: Type.Optional(Type.Boolean()),
  school: Type.Optional(Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()])),
});
export type CurrentUser = Static<typeof CurrentUser>;

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 254, title: "用户名" }),
  password: Type.String({ minLength: 1, maxLength: 128, title: "密码" }),
  page: Type.Union([Type.Literal("student"), Type.Literal("teacher"), Type.Literal("admin")], { title: "登录页" }),
});
export type LoginBody = Static<typeof LoginBody>;

export const RegisterBody = Type.Object({
  role: Type.Union([Type.Literal(100), Type.Literal(99)], { title: "身份" }),
  username: Username,
  password: Password,
  name: Type.String({ minLength: 2, maxLength: 40, title: "姓名" }),
  email: Email,
  schoolId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "学校" }),
  memberNo: Type.Optional(Type.String({ maxLength: 40, title: "学号/工号" })),
  phone: Type.Optional(Type.String({ pattern: "^1\\d{10}$", maxLength: 11, title: "手机号" })),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const TokenBody = Type.Object({ token: Type.String({ minLength: 10, maxLength: 200, title: "验证链接" }) });
export const EmailBody = Type.Object({ email: Email });

export const RecoveryRequestBody = Type.Object({
  account: Type.String({ minLength: 1, maxLength: 254, title: "用户名或邮箱" }),
});
export const RecoveryConfirmBody = Type.Object({
  token: Type.Optional(Type.String({ minLength: 10, maxLength: 200, title: "找回链接" })),
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 254, title: "用户名或邮箱" })),
  code: Type.Optional(Type.String({ pattern: "^\\d{6}$", maxLength: 6, title: "验证码" })),
  newPassword: Password,
});
export type RecoveryConfirmBody = Static<typeof RecoveryConfirmBody>;

export const ChangePasswordBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 128, title: "原密码" }),
  newPassword: Password,
});
export const ChangeEmailBody = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 128, title: "密码" }),
  email: Email,
});

export const SessionView = Type.Object({
  id: Type.String(),
  current: Type.Boolean(),
  createdAt: Type.String(),
  lastSeenAt: Type.String(),
  expiresAt: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
});
export type SessionView = Static<typeof SessionView>;

export const SecurityView = Type.Object({
  username: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  /** an address waiting for verification after a change */
  pendingEmail: Type.Union([Type.String(), Type.Null()]),
  sessions: Type.Array(SessionView),
});
export type SecurityView = Static<typeof SecurityView>;

export const SchoolOption = Type.Object({ id: Type.Integer(), name: Type.String(), province: Type.String() });
export type SchoolOption = Static<typeof SchoolOption>;

export const Announcement = Type.Object({
  title: Type.String(),
  content: Type.String(),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export type Announcement = Static<typeof Announcement>;

/** Chinese names of fields for validation messages where the schema gives no title. */
export const FIELD_LABELS: Record<string, string> = {
  username: "用户名",
  password: "密码",
  newPassword: "新密码",
  oldPassword: "原密码",
  email: "邮箱",
  schoolId: "学校",
  memberNo: "学号/工号",
  phone: "手机号",
  role: "身份",
  page: "登录页",
  token: "验证链接",
  account: "用户名或邮箱",
  keyword: "关键词",
};
