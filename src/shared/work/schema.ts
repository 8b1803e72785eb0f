/**
 * Works: the shapes of the API (requests and replies), shared by server and browser.
 * Field names and labels: fields.ts; states and transitions: states.ts.
 */
import { Type, type Static, type TSchema } from "typebox";
import { GROUPS } from "./fields";
import { WORK_ACTIONS, WORK_STATES } from "./states";
import { MAX_ID } from "../bounds";

const literals = <T extends readonly string[]>(keys: T, title: string) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...keys], title });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** "a value or null" as a JSON-schema type list, so type coercion keeps null as null. */
const NullableStr = (opts: { minLength?: number; maxLength: number; pattern?: string; title: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });
const NullableInt = (opts: { minimum?: number; maximum?: number; title: string }) =>
  Type.Unsafe<number | null>({ type: ["integer", "null"], ...opts });

export const WorkStateSchema = literals(WORK_STATES, "状态");
export const WorkActionSchema = literals(WORK_ACTIONS, "操作");
export const GroupSchema = literals(GROUPS, "组别");
export const WorkId = Type.Integer({ minimum: 2000000001, maximum: 9999999999, title: "作品编号" });
export const WorkIdParam = Type.Object({ id: WorkId });

const LONG = 5000;
const text = (title: string) => Type.Optional(NullableStr({ maxLength: LONG, title }));
const link = (title: string) => Type.Optional(NullableStr({ maxLength: 500, pattern: "^https?://\\S+$", title }));

/** One AI tool used: tool, version, access/time, stage and purpose, key prompts and output, human edits, adoption %. */
export const AiToolUse = Type.Object({
  tool: Type.String({ minLength: 1, maxLength: 60, title: "工具名称" }),
  version: Type.String({ maxLength: 60, title: "版本" }),
  access: Type.String({ maxLength: 200, title: "访问方式与使用时间" }),
  purpose: Type.String({ minLength: 1, maxLength: 500, title: "使用阶段与用途" }),
  prompts: Type.String({ maxLength: 2000, title: "关键提示词" }),
  output: Type.String({ maxLength: 2000, title: "关键输出" }),
  edits: Type.String({ maxLength: 2000, title: "人工修改情况" }),
  adoption: Type.Integer({ minimum: 0, maximum: 100, title: "采纳比例（%）" }),
});
export type AiToolUse = Static<typeof AiToolUse>;

/** The AI-tool usage declaration: used false with no tools, or the tools used. */
export const AiDeclaration = Type.Object({
  used: Type.Boolean({ title: "是否使用AI工具" }),
  tools: Type.Array(AiToolUse, { maxItems: 10, title: "AI工具" }),
});
export type AiDeclaration = Static<typeof AiDeclaration>;

/** The fields an author edits (all optional; null clears a text). */
const EditableFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, title: "作品名称" })),
  subcategoryId: Type.Optional(NullableInt({ minimum: 1, maximum: MAX_ID, title: "作品小类" })),
  group: Type.Optional(GroupSchema),
  summary: text("作品简介"),
  designIdea: text("设计思路"),
  keyPoints: text("设计重点和难点"),
  openSource: text("开源代码与组件使用情况说明"),
  installGuide: text("作品安装说明"),
  otherNotes: text("其他说明"),
  deployLink1: link("部署链接1"),
  deployLink2: link("部署链接2"),
  aiDeclaration: Type.Optional(Type.Union([AiDeclaration, Type.Null()], { title: "AI工具使用声明" })),
};

const Usernames = (max: number, title: string, min = 0) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: min, maxItems: max, title });

export const WorkCreate = Type.Object({
  contestId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }),
  categoryId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品大类" }),
  ...EditableFields,
  name: Type.String({ minLength: 1, maxLength: 100, title: "作品名称" }),
  /** co-authors by username, in rank order; each confirms themselves */
  coAuthors: Type.Optional(Usernames(4, "合作作者")),
  teachers: Type.Optional(Usernames(2, "指导教师")),
});
export type WorkCreate = Static<typeof WorkCreate>;

/** A contest admin enters a work on a school's behalf: all authors by username, first author first. */
export const AdminWorkCreate = Type.Object({
  contestId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }),
  categoryId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品大类" }),
  ...EditableFields,
  name: Type.String({ minLength: 1, maxLength: 100, title: "作品名称" }),
  teacherReview: text("指导老师自评"),
  authors: Usernames(5, "作者", 1),
  teachers: Type.Optional(Usernames(2, "指导教师")),
});
export type AdminWorkCreate = Static<typeof AdminWorkCreate>;

export const WorkUpdate = Type.Object({
  /** the version the edit is based on; a stale version is refused */
  version: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" }),
  categoryId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品大类" })),
  ...EditableFields,
  /** written by the teacher only (PATCH /Backend/Teacher/work/:id/review); named here to refuse it clearly */
  teacherReview: Type.Optional(NullableStr({ maxLength: LONG, title: "指导老师自评" })),
});
export type WorkUpdate = Static<typeof WorkUpdate>;

export const TeacherReviewBody = Type.Object({
  version: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" }),
  teacherReview: NullableStr({ maxLength: LONG, title: "指导老师自评" }),
});
export type TeacherReviewBody = Static<typeof TeacherReviewBody>;

export const MemberBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64, title: "用户名" }),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })),
});
export const MemberParam = Type.Object({ id: WorkId, userId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "用户" }) });
export const ReorderBody = Type.Object({
  /** every author, first author first */
  userIds: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { minItems: 1, maxItems: 5, title: "作者顺序" }),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })),
});
export const VersionBody = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })) });

export const TransitionBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 500, title: "原因" })),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })),
});
export type TransitionBody = Static<typeof TransitionBody>;

export const SCHOOL_ACTIONS = ["approve", "return", "withdraw_approval", "recommend", "unrecommend"] as const;
export const CONTEST_ACTIONS = ["accept", "reject", "disqualify"] as const;
export const SchoolActionParam = Type.Object({ id: WorkId, action: literals(SCHOOL_ACTIONS, "操作") });
export const ContestActionParam = Type.Object({ id: WorkId, action: literals(CONTEST_ACTIONS, "操作") });

/** All or nothing: every id is checked; one refusal changes none. */
export const BulkBody = Type.Object({
  ids: Type.Array(WorkId, { minItems: 1, maxItems: 500, title: "作品编号" }),
  action: literals(
    WORK_ACTIONS.filter((a) => a !== "submit"),
    "操作",
  ),
  reason: Type.Optional(Type.String({ maxLength: 500, title: "原因" })),
});
export type BulkBody = Static<typeof BulkBody>;
export const BulkReport = Type.Object({
  done: Type.Boolean(),
  results: Type.Array(
    Type.Object({ id: Type.Integer(), ok: Type.Boolean(), info: Type.String(), status: Nullable(WorkStateSchema) }),
  ),
});
export type BulkReport = Static<typeof BulkReport>;

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const WorkAuthorView = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  rank: Type.Integer(),
  confirmed: Type.Boolean(),
  memberNo: Nullable(Type.String()),
  majorCode: Nullable(Type.String()),
  majorName: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
});
export type WorkAuthorView = Static<typeof WorkAuthorView>;

export const WorkTeacherView = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  rank: Type.Integer(),
  memberNo: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
});
export type WorkTeacherView = Static<typeof WorkTeacherView>;

/** One row of a works list. myRank/myConfirmed: the caller's place in the team (my works only). */
export const WorkListItem = Type.Object({
  id: Type.Integer(),
  year: Type.Integer(),
  name: Type.String(),
  status: WorkStateSchema,
  statusName: Type.String(),
  contest: Type.Object({ id: Type.Integer(), name: Type.String(), level: Type.String() }),
  category: Ref,
  subcategory: Nullable(Ref),
  group: GroupSchema,
  school: Ref,
  authorNames: Type.String(),
  teacherNames: Type.String(),
  version: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  submittedAt: Nullable(Type.String()),
  myRank: Nullable(Type.Integer()),
  myConfirmed: Nullable(Type.Boolean()),
});
export type WorkListItem = Static<typeof WorkListItem>;

/** What the caller may do with the work now (buttons), and which fields are locked. */
export const WorkViewer = Type.Object({
  /** author | pending_author | first_author | teacher | school | contest | receiving_contest | reviewer | root */
  relations: Type.Array(Type.String()),
  actions: Type.Array(WorkActionSchema),
  canEdit: Type.Boolean(),
  canEditTeacherReview: Type.Boolean(),
  lockedFields: Type.Array(
    Type.Object({ field: Type.String(), fieldName: Type.String(), stage: Type.String(), stageName: Type.String() }),
  ),
  /** the work is shown as its national entry (issue 14): 大类, 小类 and 组别 stay the provincial ones */
  nationalRound: Type.Optional(Type.Boolean()),
});

/** The work's text fields and AI declaration as read back (the work view and the registration form). */
export const WorkTextView = {
  summary: Nullable(Type.String()),
  designIdea: Nullable(Type.String()),
  keyPoints: Nullable(Type.String()),
  openSource: Nullable(Type.String()),
  installGuide: Nullable(Type.String()),
  teacherReview: Nullable(Type.String()),
  otherNotes: Nullable(Type.String()),
  deployLink1: Nullable(Type.String()),
  deployLink2: Nullable(Type.String()),
  aiDeclaration: Nullable(AiDeclaration),
};

export const WorkView = Type.Object({
  ...WorkListItem.properties,
  ...WorkTextView,
  returnReason: Nullable(Type.String()),
  disqualifyReason: Nullable(Type.String()),
  /** format review: the reasons of the current return or rejection, and the correction deadline of a return */
  formatReasons: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  formatDeadline: Nullable(Type.String()),
  groupName: Type.String(),
  authors: Type.Array(WorkAuthorView),
  teachers: Type.Array(WorkTeacherView),
  rules: Type.Object({
    minAuthors: Type.Integer(),
    maxAuthors: Type.Integer(),
    maxTeachers: Type.Integer(),
    hasProfessionalGroup: Type.Boolean(),
  }),
  viewer: WorkViewer,
  /** both levels of the competition path (issue 14): the published provincial award and the national entry's status */
  rounds: Type.Optional(Type.Array(Type.Object({ level: Type.String(), text: Type.String() }))),
});
export type WorkView = Static<typeof WorkView>;

export const WorkFilters = Type.Object({
  /** a work id, or part of a name */
  keyword: Type.Optional(Type.String({ maxLength: 100, title: "关键词（作品编号或名称）" })),
  id: Type.Optional(WorkId),
  name: Type.Optional(Type.String({ maxLength: 100, title: "作品名称" })),
  status: Type.Optional(Type.Array(WorkStateSchema, { maxItems: WORK_STATES.length, title: "状态" })),
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100, title: "年份" })),
  categoryId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品大类" })),
  subcategoryId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品小类" })),
  group: Type.Optional(GroupSchema),
  schoolId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "学校" })),
  schoolName: Type.Optional(Type.String({ maxLength: 60, title: "学校名称" })),
  authorName: Type.Optional(Type.String({ maxLength: 40, title: "作者姓名" })),
});
export type WorkFilters = Static<typeof WorkFilters>;
export const WORK_SORT = ["id", "name", "status", "createdAt", "updatedAt", "submittedAt", "categoryId", "schoolId"] as const;

/** Recommendation quota of a contest: null limits mean no limit is set. */
export const QuotaView = Type.Object({
  contestId: Type.Integer(),
  contestName: Type.String(),
  level: Type.String(),
  /** where recommended works go */
  parentName: Nullable(Type.String()),
  total: Nullable(Type.Integer()),
  used: Type.Integer(),
  left: Nullable(Type.Integer()),
  categories: Type.Array(
    Type.Object({
      categoryId: Type.Integer(),
      categoryName: Type.String(),
      quota: Nullable(Type.Integer()),
      used: Type.Integer(),
      left: Nullable(Type.Integer()),
    }),
  ),
});
export type QuotaView = Static<typeof QuotaView>;

export const WorkLogEntry = Type.Object({
  id: Type.Integer(),
  workId: Type.Integer(),
  at: Type.String(),
  user: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String() })),
  action: Type.String(),
  actionName: Type.String(),
  changes: Type.Array(Type.Object({ field: Type.String(), fieldName: Type.String(), old: Type.Unknown(), new: Type.Unknown() })),
});
export type WorkLogEntry = Static<typeof WorkLogEntry>;

export const WorkLogFilters = Type.Object({
  workId: Type.Optional(WorkId),
  userId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "操作人" })),
  action: Type.Optional(Type.String({ maxLength: 40, title: "操作" })),
  from: Type.Optional(Type.String({ maxLength: 40, title: "开始时间" })),
  to: Type.Optional(Type.String({ maxLength: 40, title: "结束时间" })),
});
export type WorkLogFilters = Static<typeof WorkLogFilters>;

/** Contests the author may enter now, with their open 大类 and 小类. */
export const OpenContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.String(),
  year: Type.Integer(),
  registrationEndsAt: Type.String(),
  categories: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      hasProfessionalGroup: Type.Boolean(),
      subcategories: Type.Array(Ref),
    }),
  ),
});
export type OpenContest = Static<typeof OpenContest>;

export const QueryWorkBody = Type.Object({
  workId: WorkId,
  authorName: Type.String({ minLength: 1, maxLength: 40, title: "作者姓名" }),
});
export const QueryWorkResult = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  statusName: Type.String(),
  /** null until results are published */
  award: Nullable(Type.String()),
});
export type QueryWorkResult = Static<typeof QueryWorkResult>;
