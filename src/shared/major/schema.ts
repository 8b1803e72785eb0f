import { Type, type Static } from "typebox";

/** The 14 discipline categories (学科门类) of the national undergraduate major catalogue. */
export const DISCIPLINES = [
  "哲学",
  "经济学",
  "法学",
  "教育学",
  "文学",
  "历史学",
  "理学",
  "工学",
  "农学",
  "医学",
  "管理学",
  "艺术学",
  "军事学",
  "交叉学科",
] as const;

/** A national major code: six digits and up to two letters (080906, 080904K, 120108TK). */
export const MAJOR_CODE_PATTERN = "^[0-9]{6}[A-Za-z]{0,2}$";
export const MAJOR_CODE_RULE = "专业代码应为 6 位数字，可带 1–2 个字母，如 080906、080904K";

export const MajorView = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  discipline: Type.Union([Type.String(), Type.Null()]),
  archived: Type.Boolean(),
  /** accounts whose major this is */
  userCount: Type.Integer(),
  /** work categories whose 专业组 includes this major */
  categoryCount: Type.Integer(),
});
export type MajorView = Static<typeof MajorView>;

export const MajorCreate = Type.Object({
  /** checked against MAJOR_CODE_PATTERN by the server, with a message that names 专业代码 */
  code: Type.String({ minLength: 1, maxLength: 12, title: "专业代码" }),
  name: Type.String({ minLength: 2, maxLength: 40, title: "专业名称" }),
  discipline: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Null()], { title: "学科门类" })),
});
export type MajorCreate = Static<typeof MajorCreate>;

export const MajorUpdate = Type.Partial(
  Type.Intersect([MajorCreate, Type.Object({ archived: Type.Boolean({ title: "归档" }) })]),
);
export type MajorUpdate = Static<typeof MajorUpdate>;

export const MajorFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 40, title: "关键词" })),
  discipline: Type.Optional(Type.String({ maxLength: 10, title: "学科门类" })),
  archived: Type.Optional(Type.Boolean({ title: "归档" })),
});
