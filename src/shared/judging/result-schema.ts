/**
 * Results of a contest (/ContestAdmin/ContestResult): computation, ranking per group, the
 * fit, awards, promotion, publication and extra judges for works the judges disagree on.
 * The shapes of the API, shared by server and browser.
 */
import { Type, type Static, type TSchema } from "typebox";
import { WorkId } from "../work/schema";
import { MAX_ID } from "../bounds";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const BASES = ["online", "defence"] as const;
export type Basis = (typeof BASES)[number];
const BasisSchema = Type.Union([Type.Literal("online"), Type.Literal("defence")]);
export const BASIS_NAMES: Record<Basis, string> = { online: "按网评标准化成绩", defence: "按答辩成绩" };
export const RECOMMENDATION_NAMES = { strong: "强烈推荐", recommend: "推荐", not: "不推荐" } as const;

/** "g<judge group id>" or "c<大类 id>" (works in no judge group). */
export const GroupKey = Type.String({ pattern: "^[gc][0-9]{1,9}$", maxLength: 10, title: "结果分组" });

export const ResultContestParam = Type.Object({ contestId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }) });
export const ResultWorkParam = Type.Object({
  contestId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }),
  workId: WorkId,
});
export const GroupQuery = Type.Object({ group: GroupKey });

export const PublicationView = Type.Object({
  id: Type.Integer(),
  publishedAt: Type.String(),
  publishedBy: Type.String(),
  model: Type.String(),
  modelVersion: Type.Integer(),
  logHead: Type.String(),
  logSeq: Type.Integer(),
  note: Nullable(Type.String()),
  withdrawnAt: Nullable(Type.String()),
  withdrawnBy: Nullable(Type.String()),
  withdrawReason: Nullable(Type.String()),
});
export type PublicationView = Static<typeof PublicationView>;

/** A contest the admin manages, for the contest chooser. */
export const ResultContestItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.String(),
  year: Type.Integer(),
  computedAt: Nullable(Type.String()),
  publishedAt: Nullable(Type.String()),
});
export type ResultContestItem = Static<typeof ResultContestItem>;

export const AwardCount = Type.Object({ awardLevelId: Type.Integer(), name: Type.String(), count: Type.Integer() });

export const ResultGroup = Type.Object({
  key: Type.String(),
  groupId: Nullable(Type.Integer()),
  categoryId: Type.Integer(),
  name: Type.String(),
  basis: BasisSchema,
  works: Type.Integer(),
  ranked: Type.Integer(),
  flagged: Type.Integer(),
  /** fewer submitted scores than needed (reviews per work, or the judges assigned if more) */
  incomplete: Type.Integer(),
  /** works with defence scores */
  withDefence: Type.Integer(),
  /** the last allocation included the incomplete works */
  includeIncomplete: Type.Boolean(),
  awards: Type.Array(AwardCount),
  promoted: Type.Integer(),
});
export type ResultGroup = Static<typeof ResultGroup>;

export const AwardLevelRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ratio: Nullable(Type.Number()),
  maxCount: Nullable(Type.Integer()),
  sort: Type.Integer(),
});
export type AwardLevelRef = Static<typeof AwardLevelRef>;

export const QuotaInfo = Type.Object({
  parentName: Nullable(Type.String()),
  total: Nullable(Type.Integer()),
  promoted: Type.Integer(),
  categories: Type.Array(
    Type.Object({ categoryId: Type.Integer(), name: Type.String(), quota: Nullable(Type.Integer()), promoted: Type.Integer() }),
  ),
});
export type QuotaInfo = Static<typeof QuotaInfo>;

export const ResultsOverview = Type.Object({
  contest: Type.Object({ id: Type.Integer(), name: Type.String(), level: Type.String(), year: Type.Integer() }),
  computedAt: Nullable(Type.String()),
  computedBy: Nullable(Type.String()),
  disagreementThreshold: Type.Number(),
  reviewsPerWork: Type.Integer(),
  /** the publication in force, if any */
  published: Nullable(PublicationView),
  /** every publication, newest first (withdrawn ones included) */
  history: Type.Array(PublicationView),
  groups: Type.Array(ResultGroup),
  awardLevels: Type.Array(AwardLevelRef),
  quota: QuotaInfo,
  totals: Type.Object({
    works: Type.Integer(),
    ranked: Type.Integer(),
    flagged: Type.Integer(),
    incomplete: Type.Integer(),
    awarded: Type.Integer(),
    promoted: Type.Integer(),
  }),
});
export type ResultsOverview = Static<typeof ResultsOverview>;

export const ResultRow = Type.Object({
  workId: Type.Integer(),
  workName: Type.String(),
  schoolName: Type.String(),
  categoryName: Type.String(),
  rank: Nullable(Type.Integer()),
  judgeCount: Type.Integer(),
  /** judges assigned (online) */
  assigned: Type.Integer(),
  rawMean: Nullable(Type.Number()),
  normalised: Nullable(Type.Number()),
  spread: Nullable(Type.Number()),
  flagged: Type.Boolean(),
  incomplete: Type.Boolean(),
  defenceMean: Nullable(Type.Number()),
  defenceCount: Type.Integer(),
  recommendations: Type.Object({ strong: Type.Integer(), recommend: Type.Integer(), not: Type.Integer() }),
  award: Nullable(Ref),
  awardManual: Type.Boolean(),
  promoted: Type.Boolean(),
});
export type ResultRow = Static<typeof ResultRow>;

export const JudgeEffectView = Type.Object({
  judgeId: Type.Integer(),
  name: Type.String(),
  count: Type.Integer(),
  mean: Type.Number(),
  sd: Type.Number(),
  effect: Type.Number(),
  identified: Type.Boolean(),
});
export type JudgeEffectView = Static<typeof JudgeEffectView>;

export const FitView = Type.Object({
  model: Type.String(),
  version: Type.Integer(),
  disagreementThreshold: Type.Number(),
  groups: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      basis: Type.String(),
      fit: Type.Object({
        method: Type.String(),
        iterations: Type.Integer(),
        residual: Type.Number(),
        converged: Type.Boolean(),
        components: Type.Integer(),
        rmse: Type.Number(),
        scores: Type.Integer(),
        works: Type.Integer(),
        judges: Type.Integer(),
        scoresDigest: Type.String(),
      }),
      judges: Type.Array(JudgeEffectView),
    }),
  ),
});
export type FitView = Static<typeof FitView>;

export const ComputeBody = Type.Object({
  disagreementThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1000, title: "分歧阈值（最高分与最低分之差）" })),
  /** per group: rank by the online normalised score or by the defence mean; groups not named keep their choice */
  basis: Type.Optional(Type.Record(GroupKey, BasisSchema, { maxProperties: 1000, title: "排名依据" })),
});
export type ComputeBody = Static<typeof ComputeBody>;

export const ComputeOutcome = Type.Object({
  works: Type.Integer(),
  ranked: Type.Integer(),
  unscored: Type.Integer(),
  flagged: Type.Integer(),
  incomplete: Type.Integer(),
  groups: Type.Integer(),
  /** manual awards kept */
  manualKept: Type.Integer(),
});
export type ComputeOutcome = Static<typeof ComputeOutcome>;

export const AllocateBody = Type.Object({
  groups: Type.Optional(Type.Array(GroupKey, { maxItems: 1000, title: "结果分组（不填为全部）" })),
  /** also allocate to the works whose online scores are incomplete (ranked by their provisional score); default: complete works only */
  includeIncomplete: Type.Optional(Type.Boolean({ title: "评分未完成的作品也参与奖项分配" })),
});
export type AllocateBody = Static<typeof AllocateBody>;

export const AllocateOutcome = Type.Object({
  /** works: the works the allocation counted; left: the works left out (scores incomplete) */
  groups: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      works: Type.Integer(),
      left: Type.Integer(),
      awards: Type.Array(AwardCount),
    }),
  ),
  manualKept: Type.Integer(),
  /** levels given only by hand (no ratio, no count) */
  manualOnly: Type.Array(Type.String()),
  /** groups where a level's quota rounds down to 0 although the group has works (Chinese sentences) */
  warnings: Type.Array(Type.String()),
});
export type AllocateOutcome = Static<typeof AllocateOutcome>;

export const ResultPatch = Type.Object({
  /** set the award by hand (null: no award, by hand) */
  awardLevelId: Type.Optional(
    Type.Unsafe<number | null>({ type: ["integer", "null"], minimum: 1, maximum: MAX_ID, title: "奖项" }),
  ),
  /** false: back to the allocation (the award is cleared until the next allocation) */
  manual: Type.Optional(Type.Literal(false, { title: "恢复按比例分配" })),
  promoted: Type.Optional(Type.Boolean({ title: "晋级" })),
});
export type ResultPatch = Static<typeof ResultPatch>;

export const PromoteBody = Type.Object({
  /** the lowest award that may be promoted; none: every award */
  lowestAwardLevelId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "最低晋级奖项" })),
});
export type PromoteBody = Static<typeof PromoteBody>;

export const PromoteOutcome = Type.Object({
  parentName: Type.String(),
  total: Nullable(Type.Integer()),
  candidates: Type.Integer(),
  promoted: Type.Integer(),
  notFitting: Type.Integer(),
  categories: Type.Array(
    Type.Object({
      categoryId: Type.Integer(),
      name: Type.String(),
      quota: Nullable(Type.Integer()),
      candidates: Type.Integer(),
      promoted: Type.Integer(),
    }),
  ),
});
export type PromoteOutcome = Static<typeof PromoteOutcome>;

export const PublishBody = Type.Object({
  note: Type.Optional(Type.String({ maxLength: 500, title: "说明" })),
  /** publish although some works have fewer scores than needed */
  confirmIncomplete: Type.Optional(Type.Boolean({ title: "确认在评分未完成时发布" })),
});
export type PublishBody = Static<typeof PublishBody>;

export const UnpublishBody = Type.Object({ reason: Type.String({ minLength: 2, maxLength: 500, title: "撤回原因" }) });
export type UnpublishBody = Static<typeof UnpublishBody>;

export const ExtraJudgeProposal = Type.Object({
  workId: Type.Integer(),
  workName: Type.String(),
  groupKey: Type.String(),
  spread: Nullable(Type.Number()),
  existingJudges: Type.Array(Ref),
  needed: Type.Integer(),
  /** the conflict-free judge the assigner would add; null with the reason when none */
  proposed: Nullable(Ref),
  problem: Nullable(Type.String()),
});
export type ExtraJudgeProposal = Static<typeof ExtraJudgeProposal>;

export const ExtraJudgeBody = Type.Object({
  workId: WorkId,
  /** a particular judge; none: the one the assigner proposes */
  judgeId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "评委" })),
});
export type ExtraJudgeBody = Static<typeof ExtraJudgeBody>;

export const ExtraJudgeOutcome = Type.Object({ workId: Type.Integer(), judge: Ref, judges: Type.Integer() });
export type ExtraJudgeOutcome = Static<typeof ExtraJudgeOutcome>;
