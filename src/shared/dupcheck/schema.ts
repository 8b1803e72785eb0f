/**
 * Duplicate check (查重): the shapes the engine (src/server/dupcheck) returns, shared by the
 * routes and the browser. Reply shapes only — request schemas (bounded) belong to the routes.
 *
 * Similarity figures are exact over the works' normalised character 3-gram sets (ignoring the
 * very common shingles), not estimates:
 *   jaccard        |A∩B| / |A∪B|
 *   containmentAB  |A∩B| / |A|   (how much of the checked work/text A is found in B)
 *   containmentBA  |A∩B| / |B|   (how much of the match B is found in A)
 *   similarity     max(jaccard, containmentAB, containmentBA) — what the thresholds compare
 */
import { Type, type Static } from "typebox";

export const DUP_ENTRY_STATUSES = ["indexed", "pending", "failed"] as const;
export type DupEntryStatus = (typeof DUP_ENTRY_STATUSES)[number];
export const DUP_ENTRY_STATUS_NAMES: Record<DupEntryStatus, string> = {
  indexed: "已索引",
  pending: "等待索引",
  failed: "索引失败",
};

/** likely: ≥ likely threshold (疑似重复, 很可能); suspect: ≥ suspect threshold (需关注); none: below. */
export const DUP_LEVELS = ["likely", "suspect", "none"] as const;
export type DupLevel = (typeof DUP_LEVELS)[number];
export const DUP_LEVEL_NAMES: Record<DupLevel, string> = { likely: "高度疑似重复", suspect: "疑似重复", none: "未见明显重复" };

const Share = Type.Number({ minimum: 0, maximum: 1 });
const LevelSchema = Type.Union([Type.Literal("likely"), Type.Literal("suspect"), Type.Literal("none")]);
const StatusSchema = Type.Union([Type.Literal("indexed"), Type.Literal("pending"), Type.Literal("failed")]);

/**
 * Why a part of a work was not checked, or why a work could not be checked.
 * code: unsupported (file type not extracted), unreadable (broken file), encrypted,
 * oversized (file or text over the limits), missing (blob absent from the store),
 * too_short (too little text to check meaningfully), error (anything else).
 */
export const DUP_REASON_CODES = ["unsupported", "unreadable", "encrypted", "oversized", "missing", "too_short", "error"] as const;
export type DupReasonCode = (typeof DUP_REASON_CODES)[number];
export const DupReason = Type.Object({
  code: Type.Union([
    Type.Literal("unsupported"),
    Type.Literal("unreadable"),
    Type.Literal("encrypted"),
    Type.Literal("oversized"),
    Type.Literal("missing"),
    Type.Literal("too_short"),
    Type.Literal("error"),
  ]),
  /** the work_file row the reason is about; null for the work as a whole */
  fileId: Type.Union([Type.Integer(), Type.Null()]),
  filename: Type.Union([Type.String(), Type.Null()]),
  /** a Chinese sentence for the user, e.g. "文件已加密，未查重" */
  message: Type.String(),
});
export type DupReason = Static<typeof DupReason>;

/** One work similar to the checked one. Sorted by similarity, highest first. */
export const DupMatch = Type.Object({
  workId: Type.Integer(),
  year: Type.Integer(),
  contestId: Type.Integer(),
  jaccard: Share,
  containmentAB: Share,
  containmentBA: Share,
  similarity: Share,
  level: LevelSchema,
  /** |A∩B|: shared (non-ignored) shingles */
  shared: Type.Integer(),
});
export type DupMatch = Static<typeof DupMatch>;

export const DupCheckResult = Type.Object({
  /** true: too little text (after normalisation and ignoring common shingles) to say anything; matches is empty, NOT a 0 % result */
  tooShort: Type.Boolean(),
  /** why it could not be checked (Chinese), or null */
  reason: Type.Union([Type.String(), Type.Null()]),
  /** checkWork only: the index state of the checked work ("missing": no index entry yet) */
  status: Type.Union([
    Type.Literal("indexed"),
    Type.Literal("pending"),
    Type.Literal("failed"),
    Type.Literal("missing"),
    Type.Literal("text"),
  ]),
  /** checkWork only: parts not checked and why (documents of unsupported types, encrypted files, …) */
  reasons: Type.Array(DupReason),
  /** the checked text's (non-ignored) shingle count */
  shingles: Type.Integer(),
  /** how many works LSH proposed and were compared exactly */
  candidates: Type.Integer(),
  matches: Type.Array(DupMatch),
  /** matches dropped by opts.limit (those with similarity ≥ opts.minSimilarity) */
  more: Type.Integer(),
});
export type DupCheckResult = Static<typeof DupCheckResult>;

/** A part of a work's combined text: [start, end) in DupText.text (UTF-16 offsets). */
export const DupSection = Type.Object({
  /** "name" | "summary" | "design_idea" | "key_points" | "install_guide" | "other_notes" | "file:<work_file id>" | "text" */
  key: Type.String(),
  /** Chinese label, e.g. "作品简介" or the document's file name */
  label: Type.String(),
  start: Type.Integer(),
  end: Type.Integer(),
});
export type DupSection = Static<typeof DupSection>;

/** A shared passage: [aStart, aEnd) in side a's ORIGINAL text ↔ [bStart, bEnd) in side b's. */
export const DupPassage = Type.Object({
  aStart: Type.Integer(),
  aEnd: Type.Integer(),
  bStart: Type.Integer(),
  bEnd: Type.Integer(),
  /** length in normalised characters (punctuation and spaces not counted), the longer side's: the same whichever side is a */
  length: Type.Integer(),
  /** the passage consists mostly of very common shingles (template sentences): shown, not counted as copying */
  common: Type.Boolean(),
  /** the two sides differ in a few characters (a word replaced, a character added or dropped): 相近片段 */
  differs: Type.Boolean(),
});
export type DupPassage = Static<typeof DupPassage>;

export const DupExplainSide = Type.Object({
  /** null for a pasted text or an uploaded document */
  workId: Type.Union([Type.Integer(), Type.Null()]),
  year: Type.Union([Type.Integer(), Type.Null()]),
  contestId: Type.Union([Type.Integer(), Type.Null()]),
  title: Type.Union([Type.String(), Type.Null()]),
  /** the original text: the work's sections joined by "\n\n" in DupSection order */
  text: Type.String(),
  sections: Type.Array(DupSection),
  /** parts not checked (documents) and why */
  skipped: Type.Array(DupReason),
  /** this side's shared ranges [start, end) in text, merged, ascending — for highlighting */
  ranges: Type.Array(Type.Object({ start: Type.Integer(), end: Type.Integer() })),
});
export type DupExplainSide = Static<typeof DupExplainSide>;

export const DupExplain = Type.Object({
  a: DupExplainSide,
  b: DupExplainSide,
  /** pairs of corresponding passages, by position in a */
  passages: Type.Array(DupPassage),
  jaccard: Share,
  containmentAB: Share,
  containmentBA: Share,
  similarity: Share,
  level: LevelSchema,
  /** one side is too short to compare meaningfully (figures are 0 and mean nothing) */
  tooShort: Type.Boolean(),
});
export type DupExplain = Static<typeof DupExplain>;

/** Settings kept in the database (dup_setting); defaults in src/server/dupcheck/settings.ts. */
export const DupSettings = Type.Object({
  /** similarity ≥ suspect → 疑似重复 */
  suspect: Share,
  /** similarity ≥ likely → 高度疑似重复 (likely ≥ suspect) */
  likely: Share,
  /** a shingle found in ≥ this share of indexed works is ignored … */
  ignoreShare: Share,
  /** … and in at least this many works (a small corpus ignores nothing) */
  ignoreMinWorks: Type.Integer({ minimum: 2 }),
  /** fewer (non-ignored) shingles than this → tooShort */
  minShingles: Type.Integer({ minimum: 1 }),
});
export type DupSettings = Static<typeof DupSettings>;

/** A very common shingle, ignored in similarity (admin page list). */
export const DupIgnoredShingle = Type.Object({
  /** the 3 normalised characters of one work where it was seen */
  sample: Type.String(),
  /** works it was found in, in the sample counted at the last computation */
  works: Type.Integer(),
  /** share of the sampled works */
  share: Share,
});
export type DupIgnoredShingle = Static<typeof DupIgnoredShingle>;

export const DupRebuildInfo = Type.Object({
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  seconds: Type.Union([Type.Number(), Type.Null()]),
  works: Type.Integer(),
  failed: Type.Integer(),
  /** whether texts were extracted again (documents read again) or only the stored shingle sets reused */
  reextract: Type.Boolean(),
  /** set when the rebuild was cancelled or failed */
  error: Type.Union([Type.String(), Type.Null()]),
});
export type DupRebuildInfo = Static<typeof DupRebuildInfo>;

export const DupIndexStats = Type.Object({
  /** works that should be indexed (every work past draft) */
  eligible: Type.Integer(),
  indexed: Type.Integer(),
  pending: Type.Integer(),
  failed: Type.Integer(),
  /** indexed, but too little text to check */
  tooShort: Type.Integer(),
  /** indexed with some parts (documents) not checked */
  withSkipped: Type.Integer(),
  /** eligible works without an index entry */
  missing: Type.Integer(),
  ignoredShingles: Type.Integer(),
  /** works the ignored list was computed from (a sample) and when */
  ignoredComputedFrom: Type.Integer(),
  ignoredComputedAt: Type.Union([Type.String(), Type.Null()]),
  lastRebuild: Type.Union([DupRebuildInfo, Type.Null()]),
  settings: DupSettings,
  /** the LSH parameters (fixed in code) */
  params: Type.Object({
    hashes: Type.Integer(),
    bands: Type.Integer(),
    rows: Type.Integer(),
    minBandMatches: Type.Integer(),
    shingle: Type.Integer(),
  }),
});
export type DupIndexStats = Static<typeof DupIndexStats>;

export const DupRebuildProgress = Type.Object({
  /** extract: reading works' texts; frequencies: counting common shingles; bands: writing signatures and band keys */
  phase: Type.Union([Type.Literal("extract"), Type.Literal("frequencies"), Type.Literal("bands"), Type.Literal("done")]),
  done: Type.Integer(),
  total: Type.Integer(),
});
export type DupRebuildProgress = Static<typeof DupRebuildProgress>;

/** One index entry (admin page list of failed / skipped works). */
export const DupEntryView = Type.Object({
  workId: Type.Integer(),
  year: Type.Integer(),
  contestId: Type.Integer(),
  status: StatusSchema,
  tooShort: Type.Boolean(),
  shingles: Type.Integer(),
  reasons: Type.Array(DupReason),
  updatedAt: Type.String(),
});
export type DupEntryView = Static<typeof DupEntryView>;

/** The figures of the last `npm run bench:dupcheck` (the admin page shows them). */
export interface DupBenchmarkFigures {
  works: number;
  buildSeconds: number;
  addMs: number;
  checkP50Ms: number;
  checkP99Ms: number;
  recallAt05: number;
  lightEditsFound: number;
  rewritesFound: number;
  originalsFlagged: number;
  /** shares of 30 sampled 20 % / 30 % rewrites whose original the check reports at or above the suspect threshold */
  rewrites20Found?: number;
  rewrites30Found?: number;
  /** share of sampled pairs where the check and the comparison agree on suspect-or-above */
  pairAgreement?: number;
  /** extra context: dialect, date, machine, rebuild seconds */
  dialect?: string;
  date?: string;
  rebuildSeconds?: number;
  /** cores, CPU, memory, Node version of the machine that ran it */
  machine?: string;
}
