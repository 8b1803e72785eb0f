import { Type, type Static } from "typebox";

/**
 * "a number or null" as one JSON-schema type list: with the server's type coercion an
 * anyOf would turn null into 0 (a 0% cap instead of none); a type list keeps null.
 */
const NullableNumber = (opts: { minimum: number; maximum: number; title: string }) =>
  Type.Unsafe<number | null>({ type: ["number", "null"], ...opts });
const NullableInteger = (opts: { minimum: number; maximum: number; title: string }) =>
  Type.Unsafe<number | null>({ type: ["integer", "null"], ...opts });

export const CONTEST_LEVEL_LABELS = { national: "国赛", provincial: "省级赛", school: "校级赛" } as const;
export type AwardContestLevel = keyof typeof CONTEST_LEVEL_LABELS;
export const AWARD_KIND_LABELS = { work: "作品奖", teacher: "教师奖", organisation: "组织奖" } as const;
export type AwardKind = keyof typeof AWARD_KIND_LABELS;

const Level = Type.Union([Type.Literal("national"), Type.Literal("provincial"), Type.Literal("school")], { title: "赛事级别" });
const Kind = Type.Union([Type.Literal("work"), Type.Literal("teacher"), Type.Literal("organisation")], { title: "奖项类别" });

export const AwardView = Type.Object({
  id: Type.Integer(),
  contestLevel: Level,
  name: Type.String(),
  kind: Kind,
  /** share of the works (0–1) that may get this award; null: no ratio cap */
  ratio: Type.Union([Type.Number(), Type.Null()]),
  /** most awards of this level; null: no count cap */
  maxCount: Type.Union([Type.Integer(), Type.Null()]),
  sort: Type.Integer(),
  archived: Type.Boolean(),
});
export type AwardView = Static<typeof AwardView>;

/**
 * contestLevel and name are required for a new award level; they are optional in the
 * schema only because an Excel import names them in one key column, `ref` ("省级赛/一等奖").
 */
export const AwardCreate = Type.Object({
  contestLevel: Type.Optional(Level),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 20, title: "奖项名称" })),
  ref: Type.Optional(Type.String({ maxLength: 40, title: "等级/奖项" })),
  kind: Kind,
  ratio: Type.Optional(NullableNumber({ minimum: 0, maximum: 1, title: "比例上限" })),
  maxCount: Type.Optional(NullableInteger({ minimum: 1, maximum: 100000, title: "数量上限" })),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999, title: "排序" })),
});
export type AwardCreate = Static<typeof AwardCreate>;

export const AwardUpdate = Type.Object({
  contestLevel: Type.Optional(Level),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 20, title: "奖项名称" })),
  kind: Type.Optional(Kind),
  ratio: Type.Optional(NullableNumber({ minimum: 0, maximum: 1, title: "比例上限" })),
  maxCount: Type.Optional(NullableInteger({ minimum: 1, maximum: 100000, title: "数量上限" })),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999, title: "排序" })),
  archived: Type.Optional(Type.Boolean({ title: "归档" })),
});
export type AwardUpdate = Static<typeof AwardUpdate>;

export const AwardFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 20, title: "关键词" })),
  contestLevel: Type.Optional(Level),
  kind: Type.Optional(Kind),
  archived: Type.Optional(Type.Boolean({ title: "归档" })),
});
