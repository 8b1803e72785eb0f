/**
 * Judge pool (评委库, issue 12 "The pool"): the shapes of the API, shared by server and browser.
 * One record per judge person across years (judge_person, migration 0020); a person's history
 * is computed from what the platform already holds (contest membership, groups, scores and the
 * published normalisation fits), never stored.
 *
 * Routes (every reply { error, info, data? }; "404" = missing, merged away, or out of the
 * caller's scope — always the same sentence, NOT_FOUND):
 *
 * Pool administration (/judgePool for root and contest admins) — api.judgePool (roles 0, 1).
 * Contest admins see every active record's public fields; email and phone only of persons in
 * their CONTACT SCOPE (see below), otherwise null with contactVisible false:
 *   GET   /Backend/JudgePool/persons                       read    ListParams + JudgePersonFilters → Page<JudgePersonView>
 *                                                                  (sort: SORTABLE; judge accounts without a record get one first)
 *   GET   /Backend/JudgePool/persons/:id                   read    → JudgePersonView
 *   GET   /Backend/JudgePool/persons/:id/history           read    → JudgeHistory
 *   GET   /Backend/JudgePool/persons/:id/contact           read    → JudgeContact; 404 (NOT_FOUND) when missing OR outside the contact scope
 *   POST  /Backend/JudgePool/persons                       create  JudgePersonCreate → JudgePersonView (201)
 *   PATCH /Backend/JudgePool/persons/:id                   update  JudgePersonUpdate → JudgePersonView (a contest admin
 *                                                                  changes email/phone only of persons in the contact scope)
 *   POST  /Backend/JudgePool/persons/merge                 update  MergeBody → JudgePersonView (the kept record)
 *   GET   /Backend/JudgePool/persons/template              create  the import template (.xlsx)
 *   POST  /Backend/JudgePool/persons/import                create  multipart .xlsx → { jobId } (dry run: row errors and the diff)
 *   POST  /Backend/JudgePool/persons/import/:jobId/confirm create  → { jobId } (all rows or none)
 *   POST  /Backend/JudgePool/persons/export                read    JudgePersonFilters → { jobId } (.xlsx; contacts as the list shows them)
 *   GET   /Backend/JudgePool/tags                          read    → TagCount[] (expertise tags in use, most used first)
 *   (progress, download and cancel of the jobs: /Backend/Common/job/:id…)
 *
 * A judge's own record (/judgePool for role 4) — api.judgePoolSelf (role 4). The record is
 * found by the account (user_id, also through a merged row), else an unlinked record with
 * the account's email is linked, else one is created from the account:
 *   GET   /Backend/JudgePool/self                          read    → JudgeSelfView
 *   PUT   /Backend/JudgePool/self                          update  JudgeSelfBody → JudgeSelfView
 *   GET   /Backend/JudgePool/self/students                 read    StudentSearch → StudentOption[] (the conflict picker:
 *                                                                  full name or student number within a school; 20 a minute)
 * Declared conflicts stay on /Backend/Judging/conflicts (api.conflicts): work, school, or a
 * student (userId, target "u:<id>": every work the student authors is avoided).
 *
 * CONTACT SCOPE of a contest admin: a person whose account (or a merged duplicate's account)
 * is contest_member "judge" of a contest the admin manages (adminContestIds: own contests and
 * their children), or who has a judge_invitation sent by the admin or to a contest the admin
 * manages, or whom the admin entered (created_by: the admin typed the contact). Root: all.
 *
 * HISTORY (JudgeHistory) of a person = of every account reachable from it (its user_id and the
 * user_id of rows merged into it):
 * - contests: contest_member "judge" rows, with the judge groups (judge_group_member) there;
 * - worksScored: submitted online scores (judge_score, superseded ones included: they were
 *   scored), per contest and in all;
 * - onTimeRate: of the submitted scores of contests with a 网络评审 (online_judging) stage, the
 *   share submitted no later than the stage's end; null when no such score exists;
 * - effect: the judge effect b_j (+ lenient, − harsh, in points) of the PUBLISHED fits (the
 *   newest non-withdrawn result_publication of each contest, params.groups[].judges), averaged
 *   over groups weighted by the judge's number of scores; null when no published fit has them;
 * - disagreementRate: of the works the judge scored in published groups, the share flagged as
 *   a disagreement (score spread > the publication's threshold, recomputed from the published
 *   scores); null when no published fit has them.
 */
import { Type, type Static, type TSchema } from "typebox";
import { Id, MAX_ID } from "../bounds";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** "a value or null" as a JSON-schema type list (bodies keep null as null). */
const NullableStr = (opts: { maxLength: number; title: string; minLength?: number; format?: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });
const NullableBool = (title: string) => Type.Unsafe<boolean | null>({ type: ["boolean", "null"], title });
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const NOT_FOUND = "评委不存在或不在您的管理范围内";

export const NAME_MAX = 40;
export const TITLE_MAX = 30;
export const TAG_MAX = 20;
export const MAX_TAGS = 20;
export const MAX_CATEGORIES = 60;
export const NOTE_MAX = 200;

/** Expertise tags offered in the pickers (anything else may be typed). */
export const TAG_SUGGESTIONS = [
  "人工智能",
  "机器学习",
  "计算机视觉",
  "自然语言处理",
  "大数据",
  "数据可视化",
  "软件工程",
  "Web 开发",
  "移动应用",
  "嵌入式",
  "物联网",
  "网络安全",
  "区块链",
  "数字媒体",
  "动画",
  "游戏设计",
  "交互设计",
  "微课与教学",
  "信息管理",
  "数据库",
] as const;

/** Sort fields of the list (?sort=name, ?sort=-worksScored). */
export const SORTABLE = ["id", "name", "school", "province", "title", "updatedAt", "contests", "worksScored"] as const;

export const PersonIdParam = Type.Object({ id: Id("评委") });

export const JudgePersonFilters = Type.Object({
  /** name, school, or (only where the contacts are visible) email */
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词" })),
  /** a 大类 (also matches its 小类) or a 小类 (also matches its 大类) */
  categoryId: Type.Optional(Id("评审类别")),
  tag: Type.Optional(Type.String({ maxLength: TAG_MAX, title: "专业特长" })),
  province: Type.Optional(Type.String({ maxLength: 20, title: "省份" })),
  schoolId: Type.Optional(Id("学校")),
  /** this year's availability: yes (可参评), no (不可参评), unknown (未填写) */
  available: Type.Optional(
    Type.Union([Type.Literal("yes"), Type.Literal("no"), Type.Literal("unknown")], { title: "本年度可参评" }),
  ),
  /** any: judged at least one contest; none: never */
  history: Type.Optional(Type.Union([Type.Literal("any"), Type.Literal("none")], { title: "评审经历" })),
  /** judged a contest of this year */
  judgedYear: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100, title: "评审年度" })),
  hasAccount: Type.Optional(Type.Boolean({ title: "已有账号" })),
});
export type JudgePersonFilters = Static<typeof JudgePersonFilters>;

/** A 大类 (parentId null) or a 小类 with its 大类 */
export const CategoryRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parentId: Nullable(Type.Integer()),
  parentName: Nullable(Type.String()),
});
export type CategoryRef = Static<typeof CategoryRef>;

export const JudgePersonView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** the school record, when the person's school is one */
  school: Nullable(Ref),
  /** the school's name as shown (the record's, or the free text for a school outside the list) */
  schoolName: Nullable(Type.String()),
  province: Nullable(Type.String()),
  title: Nullable(Type.String()),
  categories: Type.Array(CategoryRef),
  tags: Type.Array(Type.String()),
  /** the current year (Beijing time) the availability is about */
  year: Type.Integer(),
  /** this year: true 可参评, false 不可参评, null not stated */
  available: Nullable(Type.Boolean()),
  availabilityNote: Type.String(),
  /** the linked account (judges log in with it) */
  account: Nullable(Type.Object({ id: Type.Integer(), username: Type.String(), name: Type.String() })),
  /** null when not visible to the caller (contactVisible false) or not known */
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  contactVisible: Type.Boolean(),
  note: Type.String(),
  /** contests judged and submitted scores, over every linked account */
  contests: Type.Integer(),
  worksScored: Type.Integer(),
  /** the latest year the person judged in, null: never */
  lastYear: Nullable(Type.Integer()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type JudgePersonView = Static<typeof JudgePersonView>;

export const JudgeContact = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
});
export type JudgeContact = Static<typeof JudgeContact>;

const Email = NullableStr({ maxLength: 120, title: "邮箱", format: "email" });
const Phone = NullableStr({ maxLength: 30, title: "手机" });

export const JudgePersonCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: NAME_MAX, title: "姓名" }),
  schoolId: Type.Optional(Type.Unsafe<number | null>({ type: ["integer", "null"], minimum: 1, maximum: MAX_ID, title: "学校" })),
  /** a school outside the list (an exact name of a listed school is linked to it) */
  schoolName: Type.Optional(NullableStr({ maxLength: 60, title: "学校" })),
  province: Type.Optional(NullableStr({ maxLength: 20, title: "省份" })),
  title: Type.Optional(NullableStr({ maxLength: TITLE_MAX, title: "职称" })),
  email: Type.Optional(Email),
  phone: Type.Optional(Phone),
  categoryIds: Type.Optional(Type.Array(Id("评审类别"), { maxItems: MAX_CATEGORIES, title: "评审类别" })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: TAG_MAX }), { maxItems: MAX_TAGS, title: "专业特长" })),
  /** this year's availability (null: not stated) */
  available: Type.Optional(NullableBool("本年度可参评")),
  availabilityNote: Type.Optional(Type.String({ maxLength: NOTE_MAX, title: "可参评说明" })),
  note: Type.Optional(Type.String({ maxLength: NOTE_MAX, title: "备注" })),
});
export type JudgePersonCreate = Static<typeof JudgePersonCreate>;

export const JudgePersonUpdate = Type.Partial(JudgePersonCreate);
export type JudgePersonUpdate = Static<typeof JudgePersonUpdate>;

export const MergeBody = Type.Object({
  /** the record that stays */
  keepId: Id("保留的评委"),
  /** the duplicate: gets merged_into, leaves the list; its categories, tags, years, invitations and account move */
  mergeId: Id("合并的评委"),
});
export type MergeBody = Static<typeof MergeBody>;

export const TagCount = Type.Object({ tag: Type.String(), count: Type.Integer() });
export type TagCount = Static<typeof TagCount>;

export const HistoryContest = Type.Object({
  contest: Type.Object({ id: Type.Integer(), name: Type.String(), year: Type.Integer(), level: Type.String() }),
  /** the judge groups the person was in there */
  groups: Type.Array(Type.String()),
  worksScored: Type.Integer(),
  /** the 网络评审 stage's end, null: the contest has none */
  deadline: Nullable(Type.String()),
  /** submitted no later than the deadline (of worksScored; 0 without a deadline) */
  onTime: Type.Integer(),
  /** effect in this contest's published fit, null: not published / not in it */
  effect: Nullable(Type.Number()),
  disagreementRate: Nullable(Type.Number()),
});
export type HistoryContest = Static<typeof HistoryContest>;

export const JudgeHistory = Type.Object({
  personId: Type.Integer(),
  /** the accounts the history is computed from (the record's and merged duplicates') */
  accountIds: Type.Array(Type.Integer()),
  contests: Type.Array(HistoryContest),
  groups: Type.Integer(),
  worksScored: Type.Integer(),
  /** 0–1, null when no submitted score has a deadline */
  onTimeRate: Nullable(Type.Number()),
  /** points, + lenient, − harsh; null when no published fit includes the person */
  effect: Nullable(Type.Number()),
  /** 0–1, null when no published fit includes the person */
  disagreementRate: Nullable(Type.Number()),
  /** scores behind effect and disagreementRate */
  publishedScores: Type.Integer(),
});
export type JudgeHistory = Static<typeof JudgeHistory>;

export const JudgeSelfView = Type.Object({
  person: JudgePersonView,
  history: JudgeHistory,
});
export type JudgeSelfView = Static<typeof JudgeSelfView>;

/** What a judge edits of the own record (name, school and contacts are kept by the admins). */
export const JudgeSelfBody = Type.Object({
  title: Type.Optional(NullableStr({ maxLength: TITLE_MAX, title: "职称" })),
  categoryIds: Type.Optional(Type.Array(Id("评审类别"), { maxItems: MAX_CATEGORIES, title: "评审类别" })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: TAG_MAX }), { maxItems: MAX_TAGS, title: "专业特长" })),
  available: Type.Optional(NullableBool("本年度可参评")),
  availabilityNote: Type.Optional(Type.String({ maxLength: NOTE_MAX, title: "可参评说明" })),
});
export type JudgeSelfBody = Static<typeof JudgeSelfBody>;

export const StudentSearch = Type.Object({
  schoolId: Id("学校"),
  keyword: Type.String({ minLength: 1, maxLength: 40, title: "学生全名或学号" }),
});
export const StudentOption = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  school: Type.String(),
});
export type StudentOption = Static<typeof StudentOption>;
