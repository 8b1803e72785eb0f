/**
 * The own profile of a student or teacher (/author/info, /teacher/info). The school is
 * set by the school admin; the email changes through account security (verified).
 */
import { Type, type Static } from "typebox";
import { MAX_ID } from "../bounds";

const Nullable = <T extends import("typebox").TSchema>(t: T) => Type.Union([t, Type.Null()]);
const NullableStr = (opts: { minLength?: number; maxLength: number; pattern?: string; title: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });

export const ProfileView = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  userType: Type.Integer(),
  roleName: Type.String(),
  /** 学号/工号 */
  memberNo: Nullable(Type.String()),
  majorCode: Nullable(Type.String()),
  majorName: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  emailVerified: Type.Boolean(),
  school: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), province: Type.String() })),
});
export type ProfileView = Static<typeof ProfileView>;

export const ProfileUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 2, maxLength: 40, title: "姓名" })),
  memberNo: Type.Optional(NullableStr({ maxLength: 40, title: "学号/工号" })),
  majorCode: Type.Optional(NullableStr({ maxLength: 12, title: "专业代码" })),
  phone: Type.Optional(NullableStr({ maxLength: 11, pattern: "^1\\d{10}$", title: "手机号" })),
  /** not editable here: named so the refusal can say where it is changed */
  email: Type.Optional(NullableStr({ maxLength: 254, title: "邮箱" })),
  schoolId: Type.Optional(Type.Unsafe<number | null>({ type: ["integer", "null"], minimum: 1, maximum: MAX_ID, title: "学校" })),
});
export type ProfileUpdate = Static<typeof ProfileUpdate>;
