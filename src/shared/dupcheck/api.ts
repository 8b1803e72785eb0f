/**
 * Duplicate check (查重) in the platform: the routes' request schemas (every value bounded)
 * and the scoped reply shapes, shared by src/server/dupcheck/routes.ts and src/client/dupcheck/.
 * The engine's own shapes (matches, passages, index figures) are in ./schema.ts.
 *
 * Routes (policy objects in casbin/policy.csv):
 *   GET  /Backend/DupCheck/work/:id            check a work by id, with filters (api.dupcheck read: root, contest admin, judge)
 *   POST /Backend/DupCheck/text                check a pasted text against the corpus (api.dupcheck read)
 *   POST /Backend/DupCheck/document            check an uploaded .docx/.pdf (multipart, field file) (api.dupcheck read)
 *   GET  /Backend/DupCheck/pair/:a/:b          side by side: work a (checked) and work b (its match) (api.dupcheckPair read: + reviewers)
 *   POST /Backend/DupCheck/pair-text           side by side: a pasted text and a work (api.dupcheck read)
 *   POST /Backend/DupCheck/pair-document?workId=  side by side: an uploaded document and a work (api.dupcheck read)
 *   GET  /Backend/DupCheck/contests            contests the caller may report on (api.dupcheckReport read: root, contest admin)
 *   POST /Backend/DupCheck/report              batch report of a contest: a job (api.dupcheckReport create); progress,
 *                                              clusters (job result) and the .xlsx through /Backend/Common/job/:id
 *   GET  /Backend/Review/work/:id/dupcheck     the review sheet's top matches (api.formReview read; the sheet's rule)
 *   GET  /Backend/DupCheck/admin/stats         index status, settings, ignored-shingle count, last rebuild, benchmark (api.dupcheckAdmin read: root)
 *   GET  /Backend/DupCheck/admin/entries       index entries by status (failed with reasons, pending, parts not checked)
 *   GET  /Backend/DupCheck/admin/ignored       the ignored (very common) shingles
 *   PUT  /Backend/DupCheck/admin/settings      thresholds and common-shingle settings (api.dupcheckAdmin update)
 *   POST /Backend/DupCheck/admin/rebuild       rebuild the index: a job with progress (api.dupcheckAdmin update)
 *   POST /Backend/DupCheck/admin/work/:id/reindex  queue one work's indexing again (api.dupcheckAdmin update)
 *
 * Scope: root sees every work; a contest admin the works of the own contests and their
 * children; a judge the works assigned to them; a format reviewer the works of the contests
 * they review. A work checked by id or shown as side a must be in scope (else 404, the same
 * text as a missing work). A match outside the scope is shown as a fact only — its id, year,
 * similarity and level (inScope false, no name, contest or containment) — and in the side by
 * side view only the shared passages of it are shown, with their positions (redacted).
 */
import { Type, type Static } from "typebox";
import { Id } from "../bounds";
import {
  DUP_ENTRY_STATUSES,
  DUP_LEVELS,
  DupIgnoredShingle,
  DupIndexStats,
  DupEntryView,
  DupPassage,
  DupReason,
  DupSection,
} from "./schema";

const Share = Type.Number({ minimum: 0, maximum: 1 });
const Nullable = <T extends import("typebox").TSchema>(t: T) => Type.Union([t, Type.Null()]);
const literals = <T extends readonly string[]>(keys: T, title: string) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...keys], title });

/** The longest pasted text (characters). */
export const MAX_TEXT_CHARS = 100_000;
/** Texts shorter than this are refused before the engine sees them (it says tooShort for longer ones too). */
export const MIN_TEXT_HINT = "请粘贴至少几句话（建议 200 字以上）的文本";
/** The largest uploaded document (the engine's extraction limit may be lower). */
export const MAX_DOCUMENT_MB = 20;
export const DOCUMENT_TYPES = ["docx", "pdf"] as const;

const Year = Type.Integer({ minimum: 2000, maximum: 2100, title: "年度" });

/** Filters of a result list (check by id, text or document). */
export const DupFilters = Type.Object({
  /** report matches with similarity ≥ this (default 0.1) */
  minSimilarity: Type.Optional(Type.Number({ minimum: 0, maximum: 1, title: "最低相似度" })),
  level: Type.Optional(literals(["likely", "suspect"] as const, "级别（该级别及以上）")),
  year: Type.Optional(Year),
  contestId: Type.Optional(Id("赛事")),
  /** inside: only matches in the caller's scope; outside: only the facts outside it */
  scope: Type.Optional(literals(["inside", "outside"] as const, "范围")),
  /** compare with later years too (a work is otherwise checked against its year and earlier ones) */
  allYears: Type.Optional(Type.Boolean({ title: "包括以后年度" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, title: "最多条数" })),
});
export type DupFilters = Static<typeof DupFilters>;

export const DupTextBody = Type.Intersect([
  Type.Object({
    text: Type.String({ maxLength: MAX_TEXT_CHARS, title: "待查文本" }),
    title: Type.Optional(Type.String({ maxLength: 200, title: "标题" })),
  }),
  DupFilters,
]);
export type DupTextBody = Static<typeof DupTextBody>;

export const DupPairParams = Type.Object({ a: Id("作品 A"), b: Id("作品 B") });
export const DupPairTextBody = Type.Object({
  text: Type.String({ maxLength: MAX_TEXT_CHARS, title: "待查文本" }),
  title: Type.Optional(Type.String({ maxLength: 200, title: "标题" })),
  workId: Id("作品"),
});
export type DupPairTextBody = Static<typeof DupPairTextBody>;
export const DupPairDocumentQuery = Type.Object({ workId: Id("作品") });

/** A work as a result shows it: in scope with its name and contest, else only the fact (id, year). */
export const DupWorkRef = Type.Object({
  workId: Type.Integer(),
  year: Type.Integer(),
  inScope: Type.Boolean(),
  name: Nullable(Type.String()),
  contestId: Nullable(Type.Integer()),
  contestName: Nullable(Type.String()),
});
export type DupWorkRef = Static<typeof DupWorkRef>;

/** One match of a result list; containment and shared shingles only in scope. */
export const DupMatchView = Type.Intersect([
  DupWorkRef,
  Type.Object({
    similarity: Share,
    level: literals(DUP_LEVELS, "级别"),
    jaccard: Nullable(Share),
    /** how much of the checked work/text is found in this match */
    containmentAB: Nullable(Share),
    /** how much of this match is found in the checked work/text */
    containmentBA: Nullable(Share),
    shared: Nullable(Type.Integer()),
  }),
]);
export type DupMatchView = Static<typeof DupMatchView>;

/** The index state of a checked work (status "text" for a pasted text or document). */
export const DupIndexState = Type.Object({
  status: literals([...DUP_ENTRY_STATUSES, "missing", "text"] as const, "索引状态"),
  statusName: Type.String(),
  tooShort: Type.Boolean(),
  /** why it could not be checked, or null */
  reason: Nullable(Type.String()),
  /** parts not checked (documents) and why */
  reasons: Type.Array(DupReason),
  shingles: Type.Integer(),
});
export type DupIndexState = Static<typeof DupIndexState>;

export const DupThresholds = Type.Object({ suspect: Share, likely: Share });
export type DupThresholds = Static<typeof DupThresholds>;

const ResultCommon = {
  index: DupIndexState,
  /** works LSH proposed and that were compared exactly */
  candidates: Type.Integer(),
  matches: Type.Array(DupMatchView),
  /** matches left out by the limit */
  more: Type.Integer(),
  /** of the matches listed, how many are outside the caller's scope */
  outside: Type.Integer(),
  thresholds: DupThresholds,
};

export const DupWorkReport = Type.Object({
  work: DupWorkRef,
  ...ResultCommon,
});
export type DupWorkReport = Static<typeof DupWorkReport>;

export const DupTextReport = Type.Object({
  /** the uploaded document (its name, the characters read, why it could not be read) */
  document: Nullable(Type.Object({ filename: Type.String(), chars: Type.Integer(), reason: Nullable(DupReason) })),
  ...ResultCommon,
});
export type DupTextReport = Static<typeof DupTextReport>;

/** One side of the side by side view. A redacted side (outside the scope) has no text: only its shared passages (snippets) with positions. */
export const DupSideView = Type.Object({
  workId: Nullable(Type.Integer()),
  year: Nullable(Type.Integer()),
  inScope: Type.Boolean(),
  redacted: Type.Boolean(),
  title: Nullable(Type.String()),
  contestId: Nullable(Type.Integer()),
  contestName: Nullable(Type.String()),
  /** the original text (empty when redacted) */
  text: Type.String(),
  /** the original text's length, also when redacted */
  length: Type.Integer(),
  sections: Type.Array(DupSection),
  skipped: Type.Array(DupReason),
  /** shared ranges [start, end) of the original text, merged, ascending */
  ranges: Type.Array(Type.Object({ start: Type.Integer(), end: Type.Integer() })),
  /** redacted only: the shared ranges' text */
  snippets: Type.Array(Type.Object({ start: Type.Integer(), end: Type.Integer(), text: Type.String() })),
});
export type DupSideView = Static<typeof DupSideView>;

export const DupPairView = Type.Object({
  a: DupSideView,
  b: DupSideView,
  passages: Type.Array(DupPassage),
  jaccard: Share,
  containmentAB: Share,
  containmentBA: Share,
  similarity: Share,
  level: literals(DUP_LEVELS, "级别"),
  tooShort: Type.Boolean(),
  thresholds: DupThresholds,
});
export type DupPairView = Static<typeof DupPairView>;

/** The review sheet's panel: the work's index state and its top matches. */
export const DupSheetPanel = Type.Object({
  workId: Type.Integer(),
  index: DupIndexState,
  matches: Type.Array(DupMatchView),
  more: Type.Integer(),
  thresholds: DupThresholds,
});
export type DupSheetPanel = Static<typeof DupSheetPanel>;

// ───────────────────────────── batch report ─────────────────────────────

export const DupReportContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  level: Type.String(),
  works: Type.Integer(),
});
export type DupReportContest = Static<typeof DupReportContest>;

export const DupReportBody = Type.Object({
  contestId: Id("赛事"),
  /** pairs with similarity ≥ this (default: the suspect threshold) */
  threshold: Type.Optional(Type.Number({ minimum: 0.05, maximum: 1, title: "相似度阈值" })),
  /** also pairs with works of earlier years and other contests (default true); false: only pairs inside the contest */
  outsideContest: Type.Optional(Type.Boolean({ title: "包括赛事以外的作品" })),
});
export type DupReportBody = Static<typeof DupReportBody>;

export const DupReportPair = Type.Object({
  a: Type.Integer(),
  b: Type.Integer(),
  similarity: Share,
  level: literals(DUP_LEVELS, "级别"),
});
export type DupReportPair = Static<typeof DupReportPair>;

/** The report job's result (JobView.result): the clusters, largest first (the .xlsx has every pair). */
export interface DupReportResult {
  contestId: number;
  contestName: string;
  threshold: number;
  works: number;
  checked: number;
  notChecked: number;
  pairs: number;
  clusters: { index: number; maxSimilarity: number; works: DupWorkRef[]; pairs: DupReportPair[] }[];
  /** clusters left out of this summary (all are in the file) */
  moreClusters: number;
}

// ───────────────────────────── admin ─────────────────────────────

export const DupBenchmark = Type.Object({
  works: Type.Number(),
  buildSeconds: Type.Number(),
  addMs: Type.Number(),
  checkP50Ms: Type.Number(),
  checkP99Ms: Type.Number(),
  recallAt05: Type.Number(),
  lightEditsFound: Type.Number(),
  rewritesFound: Type.Number(),
  originalsFlagged: Type.Number(),
  rewrites20Found: Type.Optional(Type.Number()),
  rewrites30Found: Type.Optional(Type.Number()),
  pairAgreement: Type.Optional(Type.Number()),
  dialect: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
  rebuildSeconds: Type.Optional(Type.Number()),
  machine: Type.Optional(Type.String()),
});

export const DupAdminStats = Type.Object({
  stats: DupIndexStats,
  /** the figures of the last `npm run bench:dupcheck -- --record`; null: never run */
  benchmark: Nullable(DupBenchmark),
  /** a rebuild job now running (of any root) */
  rebuild: Nullable(
    Type.Object({ jobId: Type.String(), processed: Type.Integer(), total: Type.Integer(), mine: Type.Boolean() }),
  ),
});
export type DupAdminStats = Static<typeof DupAdminStats>;

export const DupEntriesQuery = Type.Object({
  status: Type.Optional(literals(DUP_ENTRY_STATUSES, "索引状态")),
  /** only entries with parts not checked */
  withReasons: Type.Optional(Type.Boolean({ title: "仅含未查部分" })),
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, title: "每页条数" })),
});
export type DupEntriesQuery = Static<typeof DupEntriesQuery>;

export const DupEntryRow = Type.Intersect([
  DupEntryView,
  Type.Object({ name: Nullable(Type.String()), statusName: Type.String() }),
]);
export type DupEntryRow = Static<typeof DupEntryRow>;

export const DupIgnoredQuery = Type.Object({
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, title: "每页条数" })),
});
export { DupIgnoredShingle };

export const DupSettingsBody = Type.Object({
  suspect: Type.Optional(Type.Number({ minimum: 0.05, maximum: 1, title: "疑似重复阈值" })),
  likely: Type.Optional(Type.Number({ minimum: 0.05, maximum: 1, title: "高度疑似重复阈值" })),
  ignoreShare: Type.Optional(Type.Number({ minimum: 0.001, maximum: 1, title: "常见片段：出现作品比例" })),
  ignoreMinWorks: Type.Optional(Type.Integer({ minimum: 2, maximum: 1_000_000, title: "常见片段：最少作品数" })),
  minShingles: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, title: "最少片段数" })),
});
export type DupSettingsBody = Static<typeof DupSettingsBody>;

export const DupRebuildBody = Type.Object({
  /** read every work's documents again (slow); default: reuse the stored shingle sets */
  reextract: Type.Optional(Type.Boolean({ title: "重新读取全部文档" })),
});

export const DUP_INDEX_STATUS_NAMES: Record<DupIndexState["status"], string> = {
  indexed: "已索引",
  pending: "等待索引",
  failed: "索引失败",
  missing: "尚未索引",
  text: "文本",
};

/** Where the side by side view of two works is (the browser's route). */
export const comparePath = (a: number, b: number) => `/dup-check/compare/${a}/${b}`;
