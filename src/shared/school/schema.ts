import { Type, type Static } from "typebox";

export const SchoolView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.String(),
  province: Type.String(),
  formerNames: Type.Array(Type.String()),
  contact: Type.Union([Type.String(), Type.Null()]),
  archived: Type.Boolean(),
  adminCount: Type.Integer(),
  updatedAt: Type.String(),
});
export type SchoolView = Static<typeof SchoolView>;

export const SchoolCreate = Type.Object({
  name: Type.String({ minLength: 2, maxLength: 60, title: "学校名称" }),
  code: Type.String({ pattern: "^[0-9A-Za-z]{4,12}$", maxLength: 12, title: "学校代码" }),
  province: Type.String({ minLength: 2, maxLength: 20, title: "省份" }),
  formerNames: Type.Optional(Type.Array(Type.String({ minLength: 2, maxLength: 60 }), { maxItems: 10, title: "曾用名" })),
  contact: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { title: "联系方式" })),
});
export type SchoolCreate = Static<typeof SchoolCreate>;

export const SchoolUpdate = Type.Partial(
  Type.Intersect([SchoolCreate, Type.Object({ archived: Type.Boolean({ title: "归档" }) })]),
);
export type SchoolUpdate = Static<typeof SchoolUpdate>;

export const SchoolFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词" })),
  province: Type.Optional(Type.String({ maxLength: 20, title: "省份" })),
  archived: Type.Optional(Type.Boolean({ title: "归档" })),
});
