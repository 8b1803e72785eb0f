/**
 * Statistics dashboards (统计, issue 32): the shapes of the aggregate replies, shared by server
 * and browser. One GET per chart group; every figure is scoped like the lists (root: all;
 * contest admin: the contests they manage and their children; school admin: the own school's
 * works). Policy: page.stats view, api.stats read — roles 0, 1, 2 only.
 *
 * Routes (every reply { error, info, data? }; query StatsQuery on every one):
 *   GET /Backend/Stats/timeline    → TimelineReply    entries over time: per day and cumulative
 *                                    created / submitted / school-approved / recommended / received
 *                                    (line chart), last year's curve aligned on days before the
 *                                    deadline (dashed line), the deadline (mark line)
 *   GET /Backend/Stats/pipeline    → PipelineReply    works per state (WORK_STATES order) per contest
 *                                    (stacked bar; a bar opens /WorkManagement?contestId=&status=)
 *   GET /Backend/Stats/breakdown   → BreakdownReply   by province, by school (top and bottom), by
 *                                    大类/小类 (sorted bars, shares); a school admin: own figures
 *                                    (works per student, advising teachers, returned works and why)
 *   GET /Backend/Stats/progress    → ProgressReply    format review per reviewer; per judging group
 *                                    the share of scores in; per judge started/finished and last
 *                                    activity (stragglers first); defence sessions
 *   GET /Backend/Stats/scores      → ScoresReply      per group box plot + histogram; per judge
 *                                    severity (effect of the additive model) and spread; the
 *                                    disagreement flags; awards per level against the quota
 *   GET /Backend/Stats/complaints  → ComplaintStatsReply  filed, decided, upheld, in arbitration,
 *                                    overdue, per contest (grouped bars)
 *   GET /Backend/Stats/summary     → SummaryReply     the user centre's three figures for the role
 *   GET /Backend/Stats/<dashboard>/export  → .xlsx of that dashboard's figures (Chinese sheets and
 *                                    columns), same query; <dashboard> one of STATS_DASHBOARDS
 *
 * Scope rules: a contestId outside the caller's contests is a 403 ("只能查看您管理的赛事的统计");
 * a school admin always gets the own school's works only — asking for another school (schoolId)
 * or for a province (province) is a 403 ("学校管理员只能查看本校的统计"). A school admin's
 * breakdown has no province or school lists (empty arrays) but `school` figures; their progress
 * and scores replies carry no reviewers, judges or groups (empty arrays), only the own works'
 * counts and awards. Days are Beijing dates (YYYY-MM-DD).
 */
import { Type, type Static } from "typebox";

export const STATS_PATHS = {
  timeline: "/Backend/Stats/timeline",
  pipeline: "/Backend/Stats/pipeline",
  breakdown: "/Backend/Stats/breakdown",
  progress: "/Backend/Stats/progress",
  scores: "/Backend/Stats/scores",
  complaints: "/Backend/Stats/complaints",
  summary: "/Backend/Stats/summary",
} as const;

/** The dashboards with an .xlsx export (the summary has none). */
export const STATS_DASHBOARDS = ["timeline", "pipeline", "breakdown", "progress", "scores", "complaints"] as const;
export type StatsDashboard = (typeof STATS_DASHBOARDS)[number];
export const STATS_DASHBOARD_NAMES: Record<StatsDashboard, string> = {
  timeline: "报名进度",
  pipeline: "作品状态",
  breakdown: "分布",
  progress: "审查与评审进度",
  scores: "评分与获奖",
  complaints: "申诉",
};
/** GET path of a dashboard's .xlsx export. */
export const statsExportPath = (d: StatsDashboard) => `/Backend/Stats/${d}/export`;

const Int = Type.Integer();
const Num = Type.Number();
const NullableStr = Type.Union([Type.String(), Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

/** Every dashboard's query. Absent year: the newest year in the caller's scope; absent contestId: all contests in scope that year. */
export const StatsQuery = Type.Object({
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })),
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** root and contest admins: one school's figures; a school admin: only the own school */
  schoolId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** root and contest admins: one province's figures; refused to a school admin */
  province: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
});
export type StatsQuery = Static<typeof StatsQuery>;

export const StatsContest = Type.Object({
  id: Int,
  name: Type.String(),
  level: Type.String(),
  year: Int,
  parentId: NullableInt,
});
export type StatsContest = Static<typeof StatsContest>;

/** What the figures cover: the selectors' choices and the current choice. */
export const StatsScope = Type.Object({
  role: Int,
  year: Int,
  /** years with contests in the caller's scope, newest first */
  years: Type.Array(Int),
  contestId: NullableInt,
  /** contests in scope that year (school-level contests only for a school admin, their own) */
  contests: Type.Array(StatsContest),
  schoolId: NullableInt,
  schoolName: NullableStr,
  province: NullableStr,
  /** ISO time the figures were computed (a cached reply keeps its time) */
  computedAt: Type.String(),
});
export type StatsScope = Static<typeof StatsScope>;

/* ── (a) entries over time ─────────────────────────────────────────── */

export const TIMELINE_SERIES = ["created", "submitted", "approved", "recommended", "accepted"] as const;
export type TimelineSeriesKey = (typeof TIMELINE_SERIES)[number];
export const TIMELINE_SERIES_NAMES: Record<TimelineSeriesKey, string> = {
  created: "创建",
  submitted: "提交",
  approved: "学校审核通过",
  recommended: "推荐至省赛",
  accepted: "省赛接收",
};

/**
 * One day of a series. created: works created that day (work.created_at); the others: works
 * whose FIRST submit / approve / recommend / accept (work_log) fell on that day.
 */
export const TimelinePoint = Type.Object({
  date: Type.String(),
  /** whole days before the deadline (0 on the deadline day, negative after); null without a deadline */
  daysBefore: NullableInt,
  count: Int,
  cumulative: Int,
});
export type TimelinePoint = Static<typeof TimelinePoint>;

export const TimelineSeries = Type.Object({
  key: Type.String(),
  name: Type.String(),
  /** days with at least one event, ascending */
  points: Type.Array(TimelinePoint),
  total: Int,
});
export type TimelineSeries = Static<typeof TimelineSeries>;

export const TimelineEdition = Type.Object({
  year: Int,
  /** the registration deadline (Beijing date), the end of the registration stage */
  deadline: NullableStr,
  series: Type.Array(TimelineSeries),
});
export type TimelineEdition = Static<typeof TimelineEdition>;

export const TimelineReply = Type.Object({
  scope: StatsScope,
  current: TimelineEdition,
  /** the same scope one year earlier (the previous edition), or null when there was none */
  previous: Type.Union([TimelineEdition, Type.Null()]),
});
export type TimelineReply = Static<typeof TimelineReply>;

/* ── (b) pipeline ──────────────────────────────────────────────────── */

export const PipelineState = Type.Object({ state: Type.String(), name: Type.String() });

export const PipelineContest = Type.Object({
  contestId: Int,
  contestName: Type.String(),
  level: Type.String(),
  parentId: NullableInt,
  /** state → works registered in this contest in that state (every state of WORK_STATES present, 0 included) */
  counts: Type.Record(Type.String(), Int),
  total: Int,
});
export type PipelineContest = Static<typeof PipelineContest>;

export const PipelineReply = Type.Object({
  scope: StatsScope,
  /** WORK_STATES in order, with their Chinese names */
  states: Type.Array(PipelineState),
  contests: Type.Array(PipelineContest),
  totals: Type.Record(Type.String(), Int),
  total: Int,
});
export type PipelineReply = Static<typeof PipelineReply>;

/* ── (c) breakdowns ────────────────────────────────────────────────── */

/** Works counted: every work in scope except drafts (submitted at least once). share = count / total, 0–1. */
export const ShareRow = Type.Object({ key: Type.String(), name: Type.String(), count: Int, share: Num });
export type ShareRow = Static<typeof ShareRow>;

export const CategoryShare = Type.Object({
  categoryId: Int,
  name: Type.String(),
  count: Int,
  share: Num,
  subcategories: Type.Array(Type.Object({ subcategoryId: NullableInt, name: Type.String(), count: Int, share: Num })),
});
export type CategoryShare = Static<typeof CategoryShare>;

export const ReturnReason = Type.Object({
  /** "school": returned by the school (return_reason text); "format": format review (reason code) */
  kind: Type.String(),
  reason: Type.String(),
  count: Int,
});

/** A school admin's own figures (all works of the school that year, drafts included). */
export const SchoolFigures = Type.Object({
  schoolId: Int,
  schoolName: Type.String(),
  works: Int,
  /** distinct students among the works' authors */
  students: Int,
  /** works / students, 0 without students */
  worksPerStudent: Num,
  /** distinct teachers advising at least one work */
  teachers: Int,
  /** works now returned by the school (returned) and by format review (format_returned) */
  returnedBySchool: Int,
  returnedByFormat: Int,
  reasons: Type.Array(ReturnReason),
});
export type SchoolFigures = Static<typeof SchoolFigures>;

export const BreakdownReply = Type.Object({
  scope: StatsScope,
  total: Int,
  provinces: Type.Array(ShareRow),
  /** schools with works, most works first: the first 10 and the last 10 */
  topSchools: Type.Array(ShareRow),
  bottomSchools: Type.Array(ShareRow),
  schoolCount: Int,
  categories: Type.Array(CategoryShare),
  /** normal / professional */
  groups: Type.Array(ShareRow),
  /** a school admin's figures, or the chosen school's (schoolId) for root and contest admins; else null */
  school: Type.Union([SchoolFigures, Type.Null()]),
});
export type BreakdownReply = Static<typeof BreakdownReply>;

/* ── (d) review and judging progress ───────────────────────────────── */

export const ReviewerProgress = Type.Object({
  userId: Int,
  name: Type.String(),
  /** format review decisions logged by this user (work_log), each work counted once per action */
  passed: Int,
  returned: Int,
  rejected: Int,
  total: Int,
  lastAt: NullableStr,
});

export const GroupProgress = Type.Object({
  groupId: Int,
  name: Type.String(),
  contestId: Int,
  works: Int,
  /** judge assignments (scores expected) */
  expected: Int,
  /** submitted, not superseded scores */
  submitted: Int,
  /** submitted / expected, 0–1 (0 without assignments) */
  share: Num,
});
export type GroupProgress = Static<typeof GroupProgress>;

export const JudgeProgress = Type.Object({
  judgeId: Int,
  name: Type.String(),
  contestId: Int,
  groupId: NullableInt,
  groupName: NullableStr,
  assigned: Int,
  /** scores saved (draft or submitted) */
  started: Int,
  /** scores submitted */
  finished: Int,
  /** the judge's last score change (ISO), null if none */
  lastActivityAt: NullableStr,
});
export type JudgeProgress = Static<typeof JudgeProgress>;

export const ProgressReply = Type.Object({
  scope: StatsScope,
  formatReview: Type.Object({
    /** works in format review now, by their state: accepted + format_resubmitted */
    pending: Int,
    passed: Int,
    returned: Int,
    rejected: Int,
    reviewers: Type.Array(ReviewerProgress),
  }),
  groups: Type.Array(GroupProgress),
  /** stragglers first: lowest finished/assigned, then oldest last activity */
  judges: Type.Array(JudgeProgress),
  defence: Type.Object({ sessions: Int, drawn: Int, signedOff: Int, slots: Int, scoredSlots: Int }),
});
export type ProgressReply = Static<typeof ProgressReply>;

/* ── (e) scores and awards ─────────────────────────────────────────── */

export const BoxPlot = Type.Object({ min: Num, q1: Num, median: Num, q3: Num, max: Num });
export type BoxPlot = Static<typeof BoxPlot>;

export const HistogramBin = Type.Object({ from: Num, to: Num, count: Int });

/** A result group: a judge group ("g<id>"), or a 大类 for works judged without a group ("c<id>"), as judging/results.ts keys them. */
export const GroupScores = Type.Object({
  key: Type.String(),
  groupId: NullableInt,
  name: Type.String(),
  contestId: Int,
  /** submitted, not superseded scores in the group */
  scores: Int,
  works: Int,
  /** of the scores' totals; null without scores */
  box: Type.Union([BoxPlot, Type.Null()]),
  /** 10 equal bins from the lowest to the highest score (last bin closed) */
  bins: Type.Array(HistogramBin),
  /** works whose raw spread (max − min) exceeds the contest's disagreement threshold */
  flagged: Int,
});
export type GroupScores = Static<typeof GroupScores>;

export const JudgeSeverity = Type.Object({
  judgeId: Int,
  name: Type.String(),
  /** the result group the severity was fitted in (a judge in two groups has two rows) */
  groupKey: Type.String(),
  /** the judge group of that result group; null for a 大类 judged without groups */
  groupId: NullableInt,
  groupName: Type.String(),
  count: Int,
  mean: Num,
  sd: Num,
  /** b_j of the additive judge-effect model (judging/scoring.ts): + lenient, − harsh */
  effect: Num,
  /** false when no work of the judge had another judge (effect 0 by assumption) */
  identified: Type.Boolean(),
});
export type JudgeSeverity = Static<typeof JudgeSeverity>;

export const DisagreementFlag = Type.Object({
  workId: Int,
  workName: Type.String(),
  groupKey: Type.String(),
  /** the judge group; null for a 大类 judged without groups */
  groupId: NullableInt,
  groupName: Type.String(),
  judgeCount: Int,
  min: Num,
  max: Num,
  spread: Num,
});
export type DisagreementFlag = Static<typeof DisagreementFlag>;

export const AwardRow = Type.Object({
  contestId: Int,
  contestName: Type.String(),
  levelId: Int,
  levelName: Type.String(),
  /** works holding this award level in contest_result */
  count: Int,
  /** the level's max_count, or ratio × results of the contest rounded down; null: no quota */
  quota: NullableInt,
});
export type AwardRow = Static<typeof AwardRow>;

export const ScoresReply = Type.Object({
  scope: StatsScope,
  groups: Type.Array(GroupScores),
  /** harshest first */
  judges: Type.Array(JudgeSeverity),
  /** largest spread first, at most 200 */
  flags: Type.Array(DisagreementFlag),
  /** the disagreement threshold used (result_setting, else 15) */
  threshold: Num,
  awards: Type.Array(AwardRow),
});
export type ScoresReply = Static<typeof ScoresReply>;

/* ── (f) complaints ────────────────────────────────────────────────── */

export const ComplaintContestStats = Type.Object({
  contestId: Int,
  contestName: Type.String(),
  /** every complaint */
  filed: Int,
  /** with a decision (decision_at set) */
  decided: Int,
  /** decision (or revised arbitration) upheld or partly upheld */
  upheld: Int,
  /** arbitration_requested or arbitrated */
  inArbitration: Int,
  /** open (not refused, closed, withdrawn) with due_at passed */
  overdue: Int,
  open: Int,
});
export type ComplaintContestStats = Static<typeof ComplaintContestStats>;

export const ComplaintStatsReply = Type.Object({
  scope: StatsScope,
  contests: Type.Array(ComplaintContestStats),
  totals: Type.Object({ filed: Int, decided: Int, upheld: Int, inArbitration: Int, overdue: Int, open: Int }),
  /** state → count, every complaint state present */
  states: Type.Record(Type.String(), Int),
});
export type ComplaintStatsReply = Static<typeof ComplaintStatsReply>;

/* ── (g) user-centre summary ───────────────────────────────────────── */

export const SummaryFigure = Type.Object({
  key: Type.String(),
  label: Type.String(),
  value: Int,
  /** a comparison when there is one (last year on the same day, or the whole the value is part of) */
  compare: NullableInt,
  compareLabel: NullableStr,
  /** where the figure leads (a path of the admin app) */
  link: Type.String(),
});
export type SummaryFigure = Static<typeof SummaryFigure>;

/**
 * root: works submitted this year (vs last year by the same day), works in format review
 * pending, overdue complaints. Contest admin: works received (vs last year), format review
 * pending, judging share of scores in (value: submitted, compare: expected). School admin:
 * works submitted (vs last year), awaiting the school's review, returned works.
 */
export const SummaryReply = Type.Object({ year: Int, figures: Type.Array(SummaryFigure) });
export type SummaryReply = Static<typeof SummaryReply>;
