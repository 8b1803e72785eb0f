/**
 * Format review (形式审查) and fast review: the shapes of the API, shared by server and
 * browser. States and outcomes: ../work/states.ts; reason codes: reasons.ts.
 */
import { Type, type Static, type TSchema } from "typebox";
import { FORMAT_FILTERS, FORMAT_OUTCOMES } from "../work/states";
import { WorkFileView, FileRequirement } from "../work/files";
import { AiDeclaration, GroupSchema, WorkId, WorkLogEntry, WorkStateSchema } from "../work/schema";
import { FORMAT_REASON_CODES } from "./reasons";
import { MAX_ID } from "../bounds";

const literals = <T extends readonly string[]>(keys: T, title: string) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...keys], title });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const FormatFilterSchema = literals(Object.keys(FORMAT_FILTERS) as (keyof typeof FORMAT_FILTERS)[], "审查状态");
export const FormatOutcomeSchema = literals(FORMAT_OUTCOMES, "审查结论");
export const ReasonCodeSchema = literals(FORMAT_REASON_CODES, "问题类型");

export const ContestIdParam = Type.Object({ contestId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }) });

/** A contest the caller reviews, with its progress. */
export const ReviewContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.String(),
  year: Type.Integer(),
  /** works in format review */
  total: Type.Integer(),
  /** works with a decision (passed, returned, rejected) */
  reviewed: Type.Integer(),
  pending: Type.Integer(),
  passed: Type.Integer(),
  returned: Type.Integer(),
  rejected: Type.Integer(),
  /** where the caller stopped in fast review */
  lastWorkId: Nullable(Type.Integer()),
});
export type ReviewContest = Static<typeof ReviewContest>;

/** Filters of the review list; the order is always by work id, ascending (stable). */
export const ReviewFilters = Type.Object({
  status: Type.Optional(FormatFilterSchema),
  categoryId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品大类" })),
  /** a work id, or part of a name */
  keyword: Type.Optional(Type.String({ maxLength: 100, title: "关键词（作品编号或名称）" })),
});
export type ReviewFilters = Static<typeof ReviewFilters>;

export const ReviewListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: WorkStateSchema,
  statusName: Type.String(),
  category: Ref,
  subcategory: Nullable(Ref),
  group: GroupSchema,
  school: Ref,
  formatReasons: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  formatDeadline: Nullable(Type.String()),
  updatedAt: Type.String(),
});
export type ReviewListItem = Static<typeof ReviewListItem>;

/** One line of the review checklist: a required attachment or a required field. */
export const ChecklistItem = Type.Object({
  key: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal("attachment"), Type.Literal("field"), Type.Literal("team")]),
  required: Type.Boolean(),
  /** met now: the file is uploaded / the field is filled / the team rule holds */
  ok: Type.Boolean(),
  detail: Type.String(),
});
export type ChecklistItem = Static<typeof ChecklistItem>;

export const ReviewSheet = Type.Object({
  id: Type.Integer(),
  version: Type.Integer(),
  name: Type.String(),
  status: WorkStateSchema,
  statusName: Type.String(),
  contest: Type.Object({ id: Type.Integer(), name: Type.String() }),
  /** the contest whose format review this is (the receiving contest) */
  reviewContest: Ref,
  category: Ref,
  subcategory: Nullable(Ref),
  group: GroupSchema,
  groupName: Type.String(),
  school: Ref,
  authors: Type.Array(
    Type.Object({
      name: Type.String(),
      rank: Type.Integer(),
      majorName: Nullable(Type.String()),
      memberNo: Nullable(Type.String()),
    }),
  ),
  teachers: Type.Array(Type.Object({ name: Type.String(), rank: Type.Integer() })),
  fields: Type.Array(Type.Object({ key: Type.String(), label: Type.String(), value: Nullable(Type.String()) })),
  aiDeclaration: Nullable(AiDeclaration),
  files: Type.Array(WorkFileView),
  requirements: Type.Array(FileRequirement),
  checklist: Type.Array(ChecklistItem),
  returnReason: Nullable(Type.String()),
  formatReasons: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  formatDeadline: Nullable(Type.String()),
  /** the outcomes the caller may give now */
  outcomes: Type.Array(FormatOutcomeSchema),
  /** the format review steps of the work log, oldest first */
  history: Type.Array(WorkLogEntry),
});
export type ReviewSheet = Static<typeof ReviewSheet>;

export const OutcomeParam = Type.Object({ id: WorkId, outcome: FormatOutcomeSchema });
export const OutcomeBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 500, title: "说明" })),
  reasonCodes: Type.Optional(Type.Array(ReasonCodeSchema, { maxItems: FORMAT_REASON_CODES.length, title: "问题类型" })),
  deadline: Type.Optional(Type.String({ maxLength: 40, title: "修改截止时间" })),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })),
});
export type OutcomeBody = Static<typeof OutcomeBody>;

export const OutcomeResult = Type.Object({
  id: Type.Integer(),
  status: WorkStateSchema,
  statusName: Type.String(),
  next: Nullable(Type.Integer()),
});
export type OutcomeResult = Static<typeof OutcomeResult>;

export const NeighbourQuery = Type.Intersect([ReviewFilters, Type.Object({ workId: WorkId })]);
export const Neighbours = Type.Object({
  prev: Nullable(Type.Integer()),
  next: Nullable(Type.Integer()),
  /** 1-based place of the work among the filtered works; 0 when it does not match the filters */
  index: Type.Integer(),
  total: Type.Integer(),
});
export type Neighbours = Static<typeof Neighbours>;

export const Position = Type.Object({ workId: Nullable(Type.Integer()), updatedAt: Nullable(Type.String()) });
export type Position = Static<typeof Position>;
export const PositionBody = Type.Object({ workId: WorkId });

export const ReasonCatalogue = Type.Array(Type.Object({ code: Type.String(), name: Type.String(), hint: Type.String() }));
