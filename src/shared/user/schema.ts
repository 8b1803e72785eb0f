/** Users managed by admins (/Backend/Admin/user): view, create, update, filters. */
import { Type, type Static } from "typebox";
import { Email, Username } from "../account/schema";
import { MAX_ID } from "../bounds";

const Nullable = <T extends import("typebox").TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A role code of the seed (section 6). */
export const RoleCodeSchema = Type.Union(
  [
    Type.Literal(0),
    Type.Literal(1),
    Type.Literal(2),
    Type.Literal(3),
    Type.Literal(4),
    Type.Literal(5),
    Type.Literal(6),
    Type.Literal(7),
    Type.Literal(99),
    Type.Literal(100),
  ],
  { title: "身份" },
);

export const UserContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** admin | reviewer | judge */
  role: Type.String(),
});

export const UserView = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  userType: Type.Integer(),
  /** Chinese name of the role */
  roleName: Type.String(),
  email: Nullable(Type.String()),
  emailVerified: Type.Boolean(),
  phone: Nullable(Type.String()),
  school: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() })),
  /** 学号/工号 */
  memberNo: Nullable(Type.String()),
  majorCode: Nullable(Type.String()),
  majorName: Nullable(Type.String()),
  hasComplaintRight: Type.Boolean(),
  isSchoolContestJudge: Type.Boolean(),
  locked: Type.Boolean(),
  archived: Type.Boolean(),
  /**
   * Accounts created by an admin or imported have no usable password: the user claims the
   * account through the password-recovery link (/account/claim-account) sent to the email.
   */
  needsClaim: Type.Boolean(),
  /** contests the user belongs to (judges, reviewers, contest admins) */
  contests: Type.Array(UserContest),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type UserView = Static<typeof UserView>;

const Phone = Type.String({ pattern: "^1\\d{10}$", maxLength: 11, title: "手机号" });
/** An edit may send back the masked number it was shown (138****5678): the server then keeps the stored one. */
const PhoneOrMasked = Type.String({ pattern: "^(1\\d{10}|[^*]{0,4}\\*{4}[^*]{0,4})$", maxLength: 12, title: "手机号" });
const MemberNo = Type.String({ minLength: 1, maxLength: 40, title: "学号/工号" });
const MajorCode = Type.String({ minLength: 1, maxLength: 12, title: "专业代码" });

export const UserCreate = Type.Object({
  username: Username,
  name: Type.String({ minLength: 2, maxLength: 40, title: "姓名" }),
  role: RoleCodeSchema,
  email: Type.Optional(Email),
  phone: Type.Optional(Phone),
  schoolId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "学校" }))),
  memberNo: Type.Optional(MemberNo),
  majorCode: Type.Optional(Nullable(MajorCode)),
  hasComplaintRight: Type.Optional(Type.Boolean({ title: "申诉权" })),
  isSchoolContestJudge: Type.Optional(Type.Boolean({ title: "校赛评委" })),
  /** the contest a judge, reviewer or contest admin joins (required for a contest admin) */
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
});
export type UserCreate = Static<typeof UserCreate>;

export const UserUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 2, maxLength: 40, title: "姓名" })),
  role: Type.Optional(RoleCodeSchema),
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(PhoneOrMasked)),
  schoolId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "学校" }))),
  memberNo: Type.Optional(Nullable(MemberNo)),
  majorCode: Type.Optional(Nullable(MajorCode)),
  hasComplaintRight: Type.Optional(Type.Boolean({ title: "申诉权" })),
  isSchoolContestJudge: Type.Optional(Type.Boolean({ title: "校赛评委" })),
});
export type UserUpdate = Static<typeof UserUpdate>;

export const UserFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词（用户名、姓名、邮箱、学号/工号）" })),
  userType: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 100 }), { maxItems: 10, title: "身份" })),
  schoolId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "学校" })),
  locked: Type.Optional(Type.Boolean({ title: "已锁定" })),
  archived: Type.Optional(Type.Boolean({ title: "已归档" })),
  hasComplaintRight: Type.Optional(Type.Boolean({ title: "申诉权" })),
  isSchoolContestJudge: Type.Optional(Type.Boolean({ title: "校赛评委" })),
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
});
export type UserFilters = Static<typeof UserFilters>;
