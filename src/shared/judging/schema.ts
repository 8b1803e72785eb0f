/**
 * Judge groups, declared conflicts, assignment of works to judges, the check report and
 * the judge's own views: the shapes of the API, shared by server and browser.
 */
import { Type, type Static, type TSchema } from "typebox";
import { Deduction, RubricItem } from "../work-type/schema";
import { WorkFileView } from "../work/files";
import { AiDeclaration, GroupSchema, WorkId } from "../work/schema";
import { MAX_ID } from "../bounds";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** "a value or null" as a JSON-schema type list (bodies keep null as null). */
const NullableInt = (opts: { minimum?: number; maximum?: number; title: string }) =>
  Type.Unsafe<number | null>({ type: ["integer", "null"], ...opts });
const NullableStr = (opts: { maxLength: number; title: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });
const Id = (title: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, title });

export const ContestParam = Type.Object({ contestId: Id("赛事") });
export const GroupParam = Type.Object({ groupId: Id("评审组") });
export const GroupMemberParam = Type.Object({ groupId: Id("评审组"), userId: Id("评委") });
export const GroupWorkParam = Type.Object({ groupId: Id("评审组"), workId: WorkId });
export const AssignmentParam = Type.Object({ assignmentId: Id("分配") });
export const ConflictParam = Type.Object({ conflictId: Id("回避记录") });
export const JudgeWorkParam = Type.Object({ contestId: Id("赛事"), workId: WorkId });
export const JudgeFileParam = Type.Object({ contestId: Id("赛事"), workId: WorkId, fileId: Id("附件") });

export const MAX_REVIEWS_PER_WORK = 15;

export const JudgingSettings = Type.Object({
  reviewsPerWork: Type.Integer(),
  /** most works per judge in the contest; null: no limit */
  judgeCapacity: Nullable(Type.Integer()),
  /** a judge gets no work of the own province (national contest option) */
  avoidProvince: Type.Boolean(),
});
export type JudgingSettings = Static<typeof JudgingSettings>;

export const JudgingSettingsBody = Type.Object({
  reviewsPerWork: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_REVIEWS_PER_WORK, title: "每件作品评审次数" })),
  judgeCapacity: Type.Optional(NullableInt({ minimum: 1, maximum: 100000, title: "每位评委最多作品数" })),
  avoidProvince: Type.Optional(Type.Boolean({ title: "回避本省作品" })),
});
export type JudgingSettingsBody = Static<typeof JudgingSettingsBody>;

export const JudgeRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  schoolName: Nullable(Type.String()),
});

export const JudgeGroupView = Type.Object({
  id: Type.Integer(),
  contestId: Type.Integer(),
  name: Type.String(),
  category: Ref,
  subcategory: Nullable(Ref),
  groupType: Nullable(GroupSchema),
  /** e.g. "软件应用与开发 / Web应用与开发 / 普通组" */
  scope: Type.String(),
  leader: Nullable(Ref),
  note: Nullable(Type.String()),
  judges: Type.Array(JudgeRef),
  workCount: Type.Integer(),
  assignmentCount: Type.Integer(),
});
export type JudgeGroupView = Static<typeof JudgeGroupView>;

export const JudgeGroupCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, title: "评审组名称" }),
  categoryId: Id("作品大类"),
  subcategoryId: Type.Optional(NullableInt({ minimum: 1, maximum: MAX_ID, title: "作品小类" })),
  groupType: Type.Optional(
    Type.Unsafe<"normal" | "professional" | null>({
      type: ["string", "null"],
      enum: ["normal", "professional", null],
      title: "组别",
    }),
  ),
  leaderId: Type.Optional(NullableInt({ minimum: 1, maximum: MAX_ID, title: "专家组长" })),
  note: Type.Optional(NullableStr({ maxLength: 500, title: "备注" })),
});
export type JudgeGroupCreate = Static<typeof JudgeGroupCreate>;
export const JudgeGroupUpdate = Type.Partial(JudgeGroupCreate);
export type JudgeGroupUpdate = Static<typeof JudgeGroupUpdate>;

export const UserIdsBody = Type.Object({ userIds: Type.Array(Id("评委"), { minItems: 1, maxItems: 500, title: "评委" }) });
export const WorkIdsBody = Type.Object({ workIds: Type.Array(WorkId, { minItems: 1, maxItems: 5000, title: "作品" }) });

export const AutoGroupBody = Type.Object({
  /** also move works already in a group (that have no judges yet) */
  regroup: Type.Optional(Type.Boolean({ title: "重新分组" })),
});
export const AutoGroupResult = Type.Object({
  grouped: Type.Integer(),
  unmatched: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), categoryName: Type.String() })),
});
export type AutoGroupResult = Static<typeof AutoGroupResult>;

export const ContestJudge = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  school: Nullable(Ref),
  province: Nullable(Type.String()),
  groups: Type.Array(Ref),
  load: Type.Integer(),
  declared: Type.Integer(),
});
export type ContestJudge = Static<typeof ContestJudge>;

export const PoolFilters = Type.Object({
  groupId: Type.Optional(Id("评审组")),
  ungrouped: Type.Optional(Type.Boolean({ title: "未分组" })),
  categoryId: Type.Optional(Id("作品大类")),
  keyword: Type.Optional(Type.String({ maxLength: 100, title: "关键词（作品编号或名称）" })),
  /** fewer judges than the contest's reviews per work */
  short: Type.Optional(Type.Boolean({ title: "评委不足" })),
});
export type PoolFilters = Static<typeof PoolFilters>;

export const AssignedJudge = Type.Object({ assignmentId: Type.Integer(), judgeId: Type.Integer(), name: Type.String() });
export const PoolWork = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: Ref,
  subcategory: Nullable(Ref),
  group: GroupSchema,
  school: Ref,
  judgeGroup: Nullable(Ref),
  judges: Type.Array(AssignedJudge),
  needed: Type.Integer(),
  /** the contest's judges who must not judge it (回避), with the reasons (同校、申报回避 …) */
  conflicts: Type.Array(Type.Object({ judgeId: Type.Integer(), reasons: Type.String() })),
});
export type PoolWork = Static<typeof PoolWork>;

export const AssignBody = Type.Object({
  reviewsPerWork: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_REVIEWS_PER_WORK, title: "每件作品评审次数" })),
  judgeCapacity: Type.Optional(NullableInt({ minimum: 1, maximum: 100000, title: "每位评委最多作品数" })),
  avoidProvince: Type.Optional(Type.Boolean({ title: "回避本省作品" })),
  /** only these works (e.g. the short ones of the check report); default all */
  workIds: Type.Optional(Type.Array(WorkId, { minItems: 1, maxItems: 20000, title: "作品" })),
  /** only the works of this judge group (with workIds: those of them in the group) */
  groupId: Type.Optional(Id("评审组")),
  /** write a partial assignment when a complete one does not exist */
  confirmPartial: Type.Optional(Type.Boolean({ title: "确认部分分配" })),
});
export type AssignBody = Static<typeof AssignBody>;

export const AssignIssueView = Type.Object({ kind: Type.String(), message: Type.String(), workIds: Type.Array(Type.Integer()) });
export const AssignOutcome = Type.Object({
  applied: Type.Boolean(),
  complete: Type.Boolean(),
  /** rows written (0 when not applied) */
  added: Type.Integer(),
  /** rows the algorithm proposed */
  proposed: Type.Integer(),
  issues: Type.Array(AssignIssueView),
  shortfalls: Type.Array(Type.Object({ workId: Type.Integer(), needed: Type.Integer(), proposed: Type.Integer() })),
  works: Type.Integer(),
  judges: Type.Integer(),
  maxLoad: Type.Integer(),
  minLoad: Type.Integer(),
  loadSpread: Type.Integer(),
});
export type AssignOutcome = Static<typeof AssignOutcome>;

export const ManualAssignBody = Type.Object({ workId: WorkId, judgeId: Id("评委") });
export const ReplaceBody = Type.Object({ judgeId: Id("评委") });

export const AssignmentView = Type.Object({
  id: Type.Integer(),
  workId: Type.Integer(),
  workName: Type.String(),
  judgeId: Type.Integer(),
  judgeName: Type.String(),
  group: Nullable(Ref),
  createdAt: Type.String(),
});
export type AssignmentView = Static<typeof AssignmentView>;
export const AssignmentFilters = Type.Object({
  workId: Type.Optional(WorkId),
  judgeId: Type.Optional(Id("评委")),
  groupId: Type.Optional(Id("评审组")),
});

export const LoadStats = Type.Object({ min: Type.Integer(), max: Type.Integer(), spread: Type.Integer() });
export const CheckReport = Type.Object({
  contest: Ref,
  settings: JudgingSettings,
  summary: Type.Object({
    works: Type.Integer(),
    assignments: Type.Integer(),
    judges: Type.Integer(),
    groups: Type.Integer(),
    conflicts: Type.Integer(),
    misplaced: Type.Integer(),
    shortWorks: Type.Integer(),
    judgesWithoutGroup: Type.Integer(),
    worksWithoutGroup: Type.Integer(),
  }),
  /** every current assignment that breaks a conflict rule, with its reasons (should be none) */
  conflicts: Type.Array(
    Type.Object({
      assignmentId: Type.Integer(),
      workId: Type.Integer(),
      workName: Type.String(),
      judgeId: Type.Integer(),
      judgeName: Type.String(),
      reasons: Type.Array(Type.String()),
      reasonText: Type.String(),
    }),
  ),
  /** assignments outside the setting: judge not in the work's group, or a work no longer judged */
  misplaced: Type.Array(
    Type.Object({ assignmentId: Type.Integer(), workId: Type.Integer(), judgeId: Type.Integer(), message: Type.String() }),
  ),
  judgeLoads: Type.Array(
    Type.Object({
      judgeId: Type.Integer(),
      name: Type.String(),
      schoolName: Nullable(Type.String()),
      groups: Type.Array(Type.String()),
      load: Type.Integer(),
      capacity: Nullable(Type.Integer()),
    }),
  ),
  groupLoads: Type.Array(
    Type.Object({
      groupId: Type.Integer(),
      name: Type.String(),
      judges: Type.Integer(),
      works: Type.Integer(),
      assignments: Type.Integer(),
      min: Type.Integer(),
      max: Type.Integer(),
      spread: Type.Integer(),
    }),
  ),
  overall: LoadStats,
  shortWorks: Type.Array(
    Type.Object({
      workId: Type.Integer(),
      name: Type.String(),
      groupName: Nullable(Type.String()),
      have: Type.Integer(),
      needed: Type.Integer(),
    }),
  ),
  judgesWithoutGroup: Type.Array(Ref),
  worksWithoutGroup: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), categoryName: Type.String() })),
});
export type CheckReport = Static<typeof CheckReport>;

export const DeclaredConflictView = Type.Object({
  id: Type.Integer(),
  judge: Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String() }),
  work: Nullable(Ref),
  school: Nullable(Ref),
  /** a student conflict (target "u:<user id>"): every work the student authors is avoided */
  student: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), school: Nullable(Type.String()) })),
  note: Type.String(),
  createdBy: Nullable(Ref),
  createdAt: Type.String(),
});
export type DeclaredConflictView = Static<typeof DeclaredConflictView>;
export const DeclaredConflictCreate = Type.Object({
  /** the judge; a judge may only declare for themselves (default: the caller) */
  judgeId: Type.Optional(Id("评委")),
  workId: Type.Optional(WorkId),
  schoolId: Type.Optional(Id("学校")),
  /** a student (role 100), e.g. an advised student: every work they author is avoided */
  userId: Type.Optional(Id("学生")),
  note: Type.Optional(Type.String({ maxLength: 200, title: "说明" })),
});
export type DeclaredConflictCreate = Static<typeof DeclaredConflictCreate>;
export const ConflictFilters = Type.Object({ judgeId: Type.Optional(Id("评委")), contestId: Type.Optional(Id("赛事")) });

export const JudgeContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.String(),
  year: Type.Integer(),
  /** judge: a contest_member judge; school_contest_judge: a teacher flagged for the own school's contest */
  as: Type.Union([Type.Literal("judge"), Type.Literal("school_contest_judge")]),
  assigned: Type.Integer(),
  groups: Type.Array(Type.String()),
});
export type JudgeContest = Static<typeof JudgeContest>;

export const JudgeWorkItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: Ref,
  subcategory: Nullable(Ref),
  group: GroupSchema,
  judgeGroup: Nullable(Ref),
});
export type JudgeWorkItem = Static<typeof JudgeWorkItem>;

/** What a judge sees of an assigned work: no authors, teachers or school. */
export const JudgeWorkView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  contest: Ref,
  category: Ref,
  subcategory: Nullable(Ref),
  group: GroupSchema,
  groupName: Type.String(),
  judgeGroup: Nullable(Ref),
  fields: Type.Array(Type.Object({ key: Type.String(), label: Type.String(), value: Nullable(Type.String()) })),
  aiDeclaration: Nullable(AiDeclaration),
  files: Type.Array(Type.Omit(WorkFileView, ["uploadedBy"])),
  rubric: Type.Object({ items: Type.Array(RubricItem), deductions: Type.Array(Deduction), total: Type.Integer() }),
});
export type JudgeWorkView = Static<typeof JudgeWorkView>;
