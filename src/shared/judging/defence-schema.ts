/**
 * The offline defence (现场答辩) of a judge group, the authors' defence link and the judge
 * profile: the shapes of the API, shared by server and browser.
 */
import { Type, type Static, type TSchema } from "typebox";
import { WorkId } from "../work/schema";
import { MAX_ID, MAX_PAGE } from "../bounds";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const NullableStr = (opts: { maxLength: number; title: string; pattern?: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });
const Id = (title: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, title });

export const RECOMMENDATIONS = ["strong", "recommend", "not"] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];
export const RECOMMENDATION_NAMES: Record<Recommendation, string> = { strong: "强烈推荐", recommend: "推荐", not: "不推荐" };

/** Defence material: one current file per work (a new upload replaces it, the old one is kept). */
export const DEFENCE_FILE_KIND = "defence";
export const DEFENCE_FILE_NAME = "答辩材料";
/** Accepted types and their size limits (MB). */
export const DEFENCE_FILE_LIMITS: Record<string, number> = { pdf: 50, ppt: 100, pptx: 100, zip: 300, mp4: 500 };
export const DEFENCE_FILE_TYPES = Object.keys(DEFENCE_FILE_LIMITS);

export const MAX_SCORE = 100;
export const MINUTES_PER_WORK = { min: 3, max: 120, default: 15 } as const;

export const GroupIdParam = Type.Object({ groupId: Id("评审组") });
export const SessionParam = Type.Object({ sessionId: Id("答辩场次") });
export const SessionWorkParam = Type.Object({ sessionId: Id("答辩场次"), workId: WorkId });
export const SessionFileParam = Type.Object({ sessionId: Id("答辩场次"), workId: WorkId, fileId: Id("附件") });
export const ContestIdParam = Type.Object({ contestId: Id("赛事") });
/** The authors' link code: base64url, unguessable. */
export const CodeParam = Type.Object({
  code: Type.String({ minLength: 16, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$", title: "答辩链接" }),
});
export const CodeFileParam = Type.Object({
  code: Type.String({ minLength: 16, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$", title: "答辩链接" }),
  fileId: Id("附件"),
});

export const DefenceFileView = Type.Object({
  id: Type.Integer(),
  filename: Type.String(),
  size: Type.Integer(),
  createdAt: Type.String(),
  /** false: replaced by a later upload (kept as history) */
  current: Type.Boolean(),
});
export type DefenceFileView = Static<typeof DefenceFileView>;

export const DrawView = Type.Object({
  seed: Type.String(),
  algorithm: Type.String(),
  drawnAt: Type.String(),
  drawnBy: Ref,
  /** the works' ids in ascending order, the input of the draw — for a judge only the works the judge may see */
  input: Type.Array(Type.Integer()),
  /** works of the input not listed (the viewing judge avoids them); 0 for the contest admin */
  withheld: Type.Integer(),
  /** the stored positions equal the order the seed draws */
  verified: Type.Boolean(),
});
export type DrawView = Static<typeof DrawView>;

export const SignOffView = Type.Object({
  at: Type.String(),
  by: Ref,
  note: Nullable(Type.String()),
});

export const ReopenView = Type.Object({ at: Type.String(), by: Ref, reason: Type.String() });

const SessionBase = {
  id: Type.Integer(),
  contest: Ref,
  group: Ref,
  leader: Nullable(Ref),
  startsAt: Nullable(Type.String()),
  place: Nullable(Type.String()),
  meetingLink: Nullable(Type.String()),
  prepareNote: Nullable(Type.String()),
  minutesPerWork: Type.Integer(),
  draw: Nullable(DrawView),
  signOff: Nullable(SignOffView),
  reopened: Nullable(ReopenView),
};

export const MyScore = Type.Object({
  score: Type.Number(),
  recommendation: Type.Unsafe<Recommendation>({ type: "string", enum: [...RECOMMENDATIONS] }),
  comment: Type.String(),
  updatedAt: Type.String(),
});
export type MyScore = Static<typeof MyScore>;

/** One work of the session as a judge of the group sees it (blind: no authors, no school). */
export const JudgeSlot = Type.Object({
  position: Nullable(Type.Integer()),
  time: Nullable(Type.String()),
  work: Type.Object({ id: Type.Integer(), name: Type.String(), category: Type.String(), subcategory: Nullable(Type.String()) }),
  files: Type.Array(DefenceFileView),
  mine: Nullable(MyScore),
});
export type JudgeSlot = Static<typeof JudgeSlot>;

export const JudgeSession = Type.Object({
  ...SessionBase,
  isLeader: Type.Boolean(),
  isMember: Type.Boolean(),
  slots: Type.Array(JudgeSlot),
  /** works of the session the judge does not see (own school, advised, declared conflicts) */
  avoided: Type.Integer(),
  scored: Type.Integer(),
});
export type JudgeSession = Static<typeof JudgeSession>;

export const ScoreBody = Type.Object({
  score: Type.Number({ minimum: 0, maximum: MAX_SCORE, title: "评分" }),
  recommendation: Type.Unsafe<Recommendation>({ type: "string", enum: [...RECOMMENDATIONS], title: "推荐意见" }),
  comment: Type.Optional(Type.String({ maxLength: 1000, title: "评语" })),
});
export type ScoreBody = Static<typeof ScoreBody>;

/** The consolidated sheet of the group (leader, contest admin). */
export const SheetRow = Type.Object({
  position: Nullable(Type.Integer()),
  time: Nullable(Type.String()),
  work: Type.Object({ id: Type.Integer(), name: Type.String(), category: Type.String(), subcategory: Nullable(Type.String()) }),
  scores: Type.Array(
    Type.Object({
      judge: Ref,
      score: Type.Number(),
      recommendation: Type.String(),
      comment: Type.String(),
      updatedAt: Type.String(),
    }),
  ),
  /** members expected to score the work (no conflict) who have not */
  missing: Type.Array(Ref),
  /** members who may not score the work (conflict), not expected */
  avoiding: Type.Integer(),
  mean: Nullable(Type.Number()),
  counts: Type.Object({ strong: Type.Integer(), recommend: Type.Integer(), not: Type.Integer() }),
  rank: Nullable(Type.Integer()),
});
export type SheetRow = Static<typeof SheetRow>;

export const GroupSheet = Type.Object({
  ...SessionBase,
  members: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), scored: Type.Integer(), expected: Type.Integer() })),
  rows: Type.Array(SheetRow),
  /** works the viewing leader avoids: not shown, only counted */
  hidden: Type.Object({ works: Type.Integer(), missingScores: Type.Integer() }),
  complete: Type.Boolean(),
  canSignOff: Type.Boolean(),
});
export type GroupSheet = Static<typeof GroupSheet>;

export const SignOffBody = Type.Object({
  note: Type.Optional(Type.String({ maxLength: 1000, title: "签署说明" })),
  /** sign off although members have not scored every work (e.g. a member was absent) */
  confirmMissing: Type.Optional(Type.Boolean({ title: "确认缺评" })),
});
export type SignOffBody = Static<typeof SignOffBody>;

export const ReopenBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500, title: "重新开放的原因" }) });
export const DrawBody = Type.Object({ redraw: Type.Optional(Type.Boolean({ title: "重新抽签" })) });

// ---- contest admin

export const SessionInput = Type.Object({
  startsAt: Type.Optional(NullableStr({ maxLength: 40, title: "答辩开始时间" })),
  place: Type.Optional(NullableStr({ maxLength: 200, title: "答辩地点" })),
  meetingLink: Type.Optional(NullableStr({ maxLength: 500, pattern: "^https?://\\S+$", title: "会议链接" })),
  prepareNote: Type.Optional(NullableStr({ maxLength: 2000, title: "准备事项" })),
  minutesPerWork: Type.Optional(
    Type.Integer({ minimum: MINUTES_PER_WORK.min, maximum: MINUTES_PER_WORK.max, title: "每件作品时长（分钟）" }),
  ),
  /** the works of the defence, of the group's works; default all of them */
  workIds: Type.Optional(Type.Array(WorkId, { minItems: 1, maxItems: 500, title: "答辩作品" })),
});
export type SessionInput = Static<typeof SessionInput>;

export const AdminSlot = Type.Object({
  position: Nullable(Type.Integer()),
  time: Nullable(Type.String()),
  work: Type.Object({ id: Type.Integer(), name: Type.String(), school: Type.String() }),
  code: Type.String(),
  scores: Type.Integer(),
  expected: Type.Integer(),
  files: Type.Integer(),
});
export type AdminSlot = Static<typeof AdminSlot>;

export const AdminSession = Type.Object({
  ...SessionBase,
  slots: Type.Array(AdminSlot),
  scores: Type.Integer(),
});
export type AdminSession = Static<typeof AdminSession>;

export const AdminGroupDefence = Type.Object({
  group: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    contestId: Type.Integer(),
    leader: Nullable(Ref),
    judges: Type.Array(Ref),
  }),
  /** the group's works, candidates for the defence */
  works: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), school: Type.String(), inSession: Type.Boolean() })),
  session: Nullable(AdminSession),
});
export type AdminGroupDefence = Static<typeof AdminGroupDefence>;

// ---- the authors' link

export const ReplyView = Type.Object({
  work: Type.Object({ id: Type.Integer(), name: Type.String(), category: Type.String() }),
  contest: Type.String(),
  group: Type.String(),
  position: Nullable(Type.Integer()),
  time: Nullable(Type.String()),
  minutesPerWork: Type.Integer(),
  place: Nullable(Type.String()),
  meetingLink: Nullable(Type.String()),
  prepareNote: Nullable(Type.String()),
  drawn: Type.Boolean(),
  closed: Type.Boolean(),
  /** the visitor is logged in as a confirmed author of the work */
  isAuthor: Type.Boolean(),
  /** current material count (everyone); the files themselves for the work's authors only */
  fileCount: Type.Integer(),
  files: Type.Array(DefenceFileView),
  limits: Type.Array(Type.Object({ type: Type.String(), maxSizeMB: Type.Integer() })),
});
export type ReplyView = Static<typeof ReplyView>;

// ---- judge profile and past works

export const JudgeProfile = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  school: Nullable(Ref),
  province: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  expertise: Nullable(Type.String()),
  contests: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), groups: Type.Array(Type.String()) })),
});
export type JudgeProfile = Static<typeof JudgeProfile>;

export const JudgeProfileBody = Type.Object({ expertise: NullableStr({ maxLength: 500, title: "专业特长" }) });
export type JudgeProfileBody = Static<typeof JudgeProfileBody>;

export const PastWorkFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100, title: "关键词（作品编号或名称）" })),
  categoryId: Type.Optional(Id("作品类别")),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100, title: "年份" })),
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, title: "每页条数" })),
});
export type PastWorkFilters = Static<typeof PastWorkFilters>;

export const PastWork = Type.Object({
  id: Type.Integer(),
  year: Type.Integer(),
  name: Type.String(),
  category: Type.String(),
  subcategory: Nullable(Type.String()),
  /** published awards only, e.g. ["省级赛 二等奖"] */
  awards: Type.Array(Type.String()),
});
export type PastWork = Static<typeof PastWork>;
