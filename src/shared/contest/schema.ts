/** Contests and field locks: the shapes of the API, shared by server and browser. */
import { Type, type Static } from "typebox";
import { CONTEST_LEVELS, STAGE_KEYS } from "./stages";
import { LOCKABLE_FIELD_KEYS } from "./lockable-fields";
import { MAX_ID } from "../bounds";

const literals = <T extends readonly string[]>(keys: T, title: string) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...keys], title });
export const ContestLevelSchema = literals(CONTEST_LEVELS, "级别");
export const StageKeySchema = literals(STAGE_KEYS, "阶段");
export const LockableFieldSchema = literals(LOCKABLE_FIELD_KEYS, "字段");

/**
 * "a value or null" as one JSON-schema type list: with the server's type coercion an anyOf
 * would turn null into 0 or "" (and 0 into null); a type list keeps null as null.
 */
const NullableInt = (opts: { minimum?: number; maximum?: number; title: string }) =>
  Type.Unsafe<number | null>({ type: ["integer", "null"], ...opts });
const NullableStr = (opts: { minLength?: number; maxLength?: number; title: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });

export const StageTimesSchema = Type.Object({
  stage: StageKeySchema,
  startsAt: Type.String({ minLength: 1, maxLength: 40, title: "开始时间" }),
  endsAt: Type.String({ minLength: 1, maxLength: 40, title: "结束时间" }),
});

export const CategoryQuotaSchema = Type.Object({
  categoryId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "大类" }),
  quota: Type.Integer({ minimum: 0, maximum: 100000, title: "名额" }),
});

export const MemberRef = Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String() });
export type MemberRef = Static<typeof MemberRef>;

export const ContestView = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  level: ContestLevelSchema,
  year: Type.Integer(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  parentName: Type.Union([Type.String(), Type.Null()]),
  parentCode: Type.Union([Type.String(), Type.Null()]),
  province: Type.Union([Type.String(), Type.Null()]),
  schoolId: Type.Union([Type.Integer(), Type.Null()]),
  schoolName: Type.Union([Type.String(), Type.Null()]),
  schoolCode: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  /** open 大类 ids, and their names in the same order */
  categories: Type.Array(Type.Integer()),
  categoryNames: Type.Array(Type.String()),
  stages: Type.Array(StageTimesSchema),
  recommendQuota: Type.Union([Type.Integer(), Type.Null()]),
  categoryQuotas: Type.Array(Type.Object({ categoryId: Type.Integer(), categoryName: Type.String(), quota: Type.Integer() })),
  childCount: Type.Integer(),
  admins: Type.Array(MemberRef),
  reviewers: Type.Array(MemberRef),
  archived: Type.Boolean(),
  updatedAt: Type.String(),
});
export type ContestView = Static<typeof ContestView>;

export const ContestCreate = Type.Object({
  code: Type.Optional(Type.String({ pattern: "^[0-9A-Za-z_-]{2,30}$", maxLength: 30, title: "赛事代码" })),
  name: Type.String({ minLength: 2, maxLength: 100, title: "赛事名称" }),
  level: ContestLevelSchema,
  year: Type.Integer({ minimum: 2000, maximum: 2100, title: "年份" }),
  parentId: Type.Optional(NullableInt({ minimum: 1, maximum: MAX_ID, title: "上级赛事" })),
  province: Type.Optional(NullableStr({ minLength: 2, maxLength: 20, title: "省份" })),
  schoolId: Type.Optional(NullableInt({ minimum: 1, maximum: MAX_ID, title: "学校" })),
  description: Type.Optional(NullableStr({ maxLength: 5000, title: "简介" })),
  categories: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 100, title: "开放大类" })),
  stages: Type.Optional(Type.Array(StageTimesSchema, { maxItems: STAGE_KEYS.length, title: "阶段时间" })),
  recommendQuota: Type.Optional(NullableInt({ minimum: 0, maximum: 100000, title: "推荐名额" })),
  categoryQuotas: Type.Optional(Type.Array(CategoryQuotaSchema, { maxItems: 100, title: "分大类名额" })),
  adminIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 50, title: "赛事管理员" })),
  reviewerIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 500, title: "审核员" })),
});
export type ContestCreate = Static<typeof ContestCreate>;

export const ContestUpdate = Type.Partial(
  Type.Intersect([ContestCreate, Type.Object({ archived: Type.Boolean({ title: "归档" }) })]),
);
export type ContestUpdate = Static<typeof ContestUpdate>;

export const ContestFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词" })),
  level: Type.Optional(ContestLevelSchema),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100, title: "年份" })),
  parentId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "上级赛事" })),
  province: Type.Optional(Type.String({ maxLength: 20, title: "省份" })),
  archived: Type.Optional(Type.Boolean({ title: "归档" })),
});
export type ContestFilters = Static<typeof ContestFilters>;

export const EntryLockView = Type.Object({
  id: Type.Integer(),
  contestId: Type.Union([Type.Integer(), Type.Null()]),
  contestName: Type.Union([Type.String(), Type.Null()]),
  field: LockableFieldSchema,
  fieldName: Type.String(),
  fromStage: StageKeySchema,
  stageName: Type.String(),
  createdAt: Type.String(),
});
export type EntryLockView = Static<typeof EntryLockView>;

export const EntryLockCreate = Type.Object({
  contestId: Type.Optional(NullableInt({ minimum: 1, maximum: MAX_ID, title: "赛事（空为全部赛事）" })),
  field: LockableFieldSchema,
  fromStage: StageKeySchema,
});
export type EntryLockCreate = Static<typeof EntryLockCreate>;

export const EntryLockUpdate = Type.Partial(EntryLockCreate);
export type EntryLockUpdate = Static<typeof EntryLockUpdate>;

export const EntryLockFilters = Type.Object({
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
  /** true: only the locks of all contests (no contest set) */
  global: Type.Optional(Type.Boolean({ title: "仅全部赛事" })),
  field: Type.Optional(LockableFieldSchema),
  fromStage: Type.Optional(StageKeySchema),
});
export type EntryLockFilters = Static<typeof EntryLockFilters>;
