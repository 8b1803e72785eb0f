/**
 * Online scoring (/judge/Online/:contestId, /teacher/SchoolContestJudge/:contestId) and its
 * administration: a judge's score of one assigned work (points per rubric item, deductions
 * taken, comment), the judge's overview of a contest, the contest admin's progress view, the
 * reopening of a submitted score and the check of the score log. Shared by server and browser.
 */
import { Type, type Static, type TSchema } from "typebox";
import { JudgeWorkItem } from "./schema";
import { WorkId } from "../work/schema";
import { MAX_ID } from "../bounds";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Id = (title: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, title });
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const SCORE_STATUSES = ["none", "draft", "submitted"] as const;
export type ScoreStatus = (typeof SCORE_STATUSES)[number];
export const ScoreStatusSchema = Type.Union([Type.Literal("none"), Type.Literal("draft"), Type.Literal("submitted")]);
export const SCORE_STATUS_NAMES: Record<ScoreStatus, string> = { none: "未评", draft: "草稿", submitted: "已提交" };

export const MAX_COMMENT = 2000;
export const MAX_REASON = 500;

export const ScoreParam = Type.Object({ contestId: Id("赛事"), scoreId: Id("评分记录") });
export const ScoreWorkParam = Type.Object({ contestId: Id("赛事"), workId: WorkId });

/** Points per rubric item id ("12": 18.5); an item left out is not scored yet. */
export const ScoreItems = Type.Record(
  Type.String({ pattern: "^[0-9]+$", maxLength: 10 }),
  Type.Number({ minimum: 0, maximum: 100, title: "得分" }),
  { maxProperties: 100, title: "评分项得分" },
);
export type ScoreItems = Static<typeof ScoreItems>;

export const ScoreBody = Type.Object({
  items: ScoreItems,
  /** names of the category's deductions taken */
  deductions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 20, title: "扣分项" })),
  comment: Type.Optional(Type.String({ maxLength: MAX_COMMENT, title: "评语" })),
  /** the version the edit is based on (0 when nothing is saved yet); a stale version is refused */
  version: Type.Integer({ minimum: 0, maximum: MAX_ID, title: "版本" }),
});
export type ScoreBody = Static<typeof ScoreBody>;

/** Whether the contest's online judging window lets judges score now. */
export const JudgingWindow = Type.Object({
  open: Type.Boolean(),
  startsAt: Nullable(Type.String()),
  endsAt: Nullable(Type.String()),
  /** why scoring is closed, in Chinese; null when open */
  message: Nullable(Type.String()),
});
export type JudgingWindow = Static<typeof JudgingWindow>;

/** The judge's own score of one work (version 0 and status none when nothing is saved). */
export const MyScore = Type.Object({
  id: Nullable(Type.Integer()),
  workId: Type.Integer(),
  status: ScoreStatusSchema,
  items: ScoreItems,
  deductions: Type.Array(Type.String()),
  comment: Type.String(),
  total: Nullable(Type.Number()),
  version: Type.Integer(),
  submittedAt: Nullable(Type.String()),
  updatedAt: Nullable(Type.String()),
  /** the contest admin's reason when the score was reopened */
  reopenReason: Nullable(Type.String()),
  reopenedAt: Nullable(Type.String()),
  window: JudgingWindow,
});
export type MyScore = Static<typeof MyScore>;

export const ScoreProgress = Type.Object({ assigned: Type.Integer(), submitted: Type.Integer(), draft: Type.Integer() });
export type ScoreProgress = Static<typeof ScoreProgress>;

/** /judge/Online/:contestId: the judge's assigned works with the own score status, and progress. */
export const OnlineOverview = Type.Object({
  contest: Type.Object({ id: Type.Integer(), name: Type.String(), level: Type.String(), as: Type.String() }),
  window: JudgingWindow,
  progress: ScoreProgress,
  works: Type.Array(
    Type.Intersect([JudgeWorkItem, Type.Object({ scoreStatus: ScoreStatusSchema, total: Nullable(Type.Number()) })]),
  ),
});
export type OnlineOverview = Static<typeof OnlineOverview>;

/** /judge: per contest the user judges, the online judging progress and window. */
export const JudgeProgress = Type.Object({ contestId: Type.Integer(), window: JudgingWindow, progress: ScoreProgress });
export type JudgeProgress = Static<typeof JudgeProgress>;

export const ReopenBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: MAX_REASON, title: "退回原因" }),
  /** the score's version as the admin saw it; a stale version is refused */
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })),
});
export type ReopenBody = Static<typeof ReopenBody>;

export const AdminScoreRow = Type.Object({
  /** null: assigned, nothing saved */
  scoreId: Nullable(Type.Integer()),
  judgeId: Type.Integer(),
  judgeName: Type.String(),
  status: ScoreStatusSchema,
  total: Nullable(Type.Number()),
  version: Type.Integer(),
  submittedAt: Nullable(Type.String()),
  reopenReason: Nullable(Type.String()),
});
export type AdminScoreRow = Static<typeof AdminScoreRow>;

/** The contest admin's view of online judging: progress per judge and per work. */
export const ScoreAdminView = Type.Object({
  contest: Ref,
  window: JudgingWindow,
  summary: Type.Object({
    assignments: Type.Integer(),
    submitted: Type.Integer(),
    draft: Type.Integer(),
    none: Type.Integer(),
    works: Type.Integer(),
    worksComplete: Type.Integer(),
  }),
  judges: Type.Array(
    Type.Object({
      judgeId: Type.Integer(),
      name: Type.String(),
      username: Type.String(),
      assigned: Type.Integer(),
      submitted: Type.Integer(),
      draft: Type.Integer(),
    }),
  ),
  works: Type.Array(
    Type.Object({
      workId: Type.Integer(),
      name: Type.String(),
      category: Type.String(),
      judgeGroup: Nullable(Type.String()),
      assigned: Type.Integer(),
      submitted: Type.Integer(),
      /** mean of the submitted totals (raw, not normalised); null when none */
      mean: Nullable(Type.Number()),
      scores: Type.Array(AdminScoreRow),
    }),
  ),
});
export type ScoreAdminView = Static<typeof ScoreAdminView>;

export const ScoreLogCheck = Type.Object({
  ok: Type.Boolean(),
  count: Type.Integer(),
  head: Nullable(Type.String()),
  /** 0-based index of the first broken entry */
  index: Nullable(Type.Integer()),
  reason: Nullable(Type.String()),
  message: Type.String(),
});
export type ScoreLogCheck = Static<typeof ScoreLogCheck>;

/** total = Σ items − Σ deductions, floored at 0, to one decimal. */
export function scoreTotal(items: Record<string, number>, deductionPoints: number[]): number {
  const sum = Object.values(items).reduce((s, v) => s + v, 0) - deductionPoints.reduce((s, v) => s + v, 0);
  return Math.max(0, Math.round(sum * 10) / 10);
}

/** At most one decimal (18, 18.5 — not 18.25). */
export const oneDecimal = (v: number) => Number.isFinite(v) && Math.abs(v * 10 - Math.round(v * 10)) < 1e-6;
