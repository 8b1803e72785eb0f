/**
 * Work types: the tree 大类 (parentId null) → 小类. A 大类 carries the team rules, the
 * 专业组 majors, the required attachments and the scoring standard (rubric items whose
 * max points sum to 100, and deductions); a 小类 has a name and sort and inherits the rest.
 */
import { Type, type Static } from "typebox";
import { MAX_ID } from "../bounds";

export const RUBRIC_TOTAL = 100;
export const MAX_AUTHORS = 5;
export const MAX_TEACHERS = 2;

export const Attachment = Type.Object({
  key: Type.String({ pattern: "^[a-z][a-z0-9_]{0,31}$", maxLength: 32, title: "附件标识" }),
  name: Type.String({ minLength: 1, maxLength: 30, title: "附件名称" }),
  required: Type.Boolean({ title: "必交" }),
  maxSizeMB: Type.Integer({ minimum: 1, maximum: 4096, title: "大小上限（MB）" }),
  /** file extensions without the dot, lower case: pdf, zip, mp4 */
  types: Type.Array(Type.String({ pattern: "^\\.?[A-Za-z0-9]{1,10}$", maxLength: 11 }), {
    minItems: 1,
    maxItems: 20,
    title: "文件类型",
  }),
});
export type Attachment = Static<typeof Attachment>;

/** Points deducted (a positive number: 10 means −10), e.g. 非原创. */
export const Deduction = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40, title: "扣分项" }),
  points: Type.Integer({ minimum: 1, maximum: 100, title: "扣分" }),
});
export type Deduction = Static<typeof Deduction>;

export const RubricItemInput = Type.Object({
  /** an existing item keeps its id (scores refer to it); without id a new item is added */
  id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID })),
  name: Type.String({ minLength: 1, maxLength: 40, title: "评分项" }),
  maxPoints: Type.Integer({ minimum: 1, maximum: 100, title: "满分" }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999 })),
});
export type RubricItemInput = Static<typeof RubricItemInput>;

export const RubricItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  maxPoints: Type.Integer(),
  description: Type.Union([Type.String(), Type.Null()]),
  sort: Type.Integer(),
});
export type RubricItem = Static<typeof RubricItem>;

export const WorkTypeChild = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  sort: Type.Integer(),
  archived: Type.Boolean(),
});

/** A category with its effective rules: a 小类 shows the rules of its 大类. */
export const WorkTypeView = Type.Object({
  id: Type.Integer(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  parentName: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  sort: Type.Integer(),
  minAuthors: Type.Integer(),
  maxAuthors: Type.Integer(),
  maxTeachers: Type.Integer(),
  hasProfessionalGroup: Type.Boolean(),
  professionalMajors: Type.Array(Type.String()),
  requiredAttachments: Type.Array(Attachment),
  description: Type.Union([Type.String(), Type.Null()]),
  rubric: Type.Array(RubricItem),
  deductions: Type.Array(Deduction),
  /** submit needs the advising teacher's 指导老师自评 (a work without a teacher is not asked) */
  teacherReviewRequired: Type.Boolean(),
  archived: Type.Boolean(),
  /** the 小类 of a 大类; empty for a 小类 */
  children: Type.Array(WorkTypeChild),
});
export type WorkTypeView = Static<typeof WorkTypeView>;

export const WorkTypeCreate = Type.Object({
  parentId: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: MAX_ID }), Type.Null()], { title: "所属大类" })),
  name: Type.String({ minLength: 1, maxLength: 40, title: "类别名称" }),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999, title: "排序" })),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], { title: "说明" })),
  minAuthors: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AUTHORS, title: "最少作者" })),
  maxAuthors: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AUTHORS, title: "最多作者" })),
  maxTeachers: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TEACHERS, title: "最多指导教师" })),
  hasProfessionalGroup: Type.Optional(Type.Boolean({ title: "分普通组和专业组" })),
  professionalMajors: Type.Optional(Type.Array(Type.String({ maxLength: 12 }), { maxItems: 200, title: "专业组专业" })),
  requiredAttachments: Type.Optional(Type.Array(Attachment, { maxItems: 20, title: "提交材料" })),
  rubric: Type.Optional(Type.Array(RubricItemInput, { maxItems: 30, title: "评分标准" })),
  deductions: Type.Optional(Type.Array(Deduction, { maxItems: 20, title: "扣分项" })),
  teacherReviewRequired: Type.Optional(Type.Boolean({ title: "提交前须填写指导老师自评" })),
});
export type WorkTypeCreate = Static<typeof WorkTypeCreate>;

export const WorkTypeUpdate = Type.Partial(
  Type.Intersect([WorkTypeCreate, Type.Object({ archived: Type.Boolean({ title: "归档" }) })]),
);
export type WorkTypeUpdate = Static<typeof WorkTypeUpdate>;

export const WorkTypeFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 40, title: "关键词" })),
  /** a 大类 id for its 小类; "null" (or empty) for the 大类 */
  parentId: Type.Optional(
    Type.Union([Type.Null(), Type.Literal("null"), Type.Integer({ minimum: 1, maximum: MAX_ID })], { title: "所属大类" }),
  ),
  archived: Type.Optional(Type.Boolean({ title: "归档" })),
});

/** The whole tree for forms and judging: each 大类 with its rules and its 小类. */
export const WorkTypeTreeNode = Type.Object({
  ...WorkTypeView.properties,
  children: Type.Array(Type.Object({ ...WorkTypeChild.properties, description: Type.Union([Type.String(), Type.Null()]) })),
});
export type WorkTypeTreeNode = Static<typeof WorkTypeTreeNode>;
