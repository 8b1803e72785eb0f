/**
 * The duplicate-check engine (查重引擎): the one service API the routes, the indexing triggers,
 * the review sheet and the batch report use. Nothing here knows about users or scope: callers
 * filter matches by what the user may see (a contest admin sees the fact — id and year — of a
 * match outside their scope; see the issue).
 *
 * Method
 * - A work's text: title, 作品简介 (summary), 设计思路 (design_idea), 重点难点 (key_points),
 *   安装说明 (install_guide), 其他说明 (other_notes), then the text of its current documents
 *   (docx via mammoth, PDF via unpdf; other types are listed as not checked; unreadable,
 *   encrypted or oversized files are listed with the reason and the rest is still checked).
 * - normalise(): NFKC (full → half width), lower case, traditional → simplified (opencc-js),
 *   everything but letters and digits dropped; an offset map leads back to the original.
 * - Character 3-gram shingles hashed to 32 bits; a sorted set per work is stored in the
 *   database (dup_entry.shingles) so that similarity is EXACT for every candidate.
 * - Shingles found in very many works (template sentences) are ignored (dup_ignored, see
 *   settings ignoreShare / ignoreMinWorks) in signatures and in the figures.
 * - Candidates: MinHash signatures (128 one-permutation hashes with optimal densification),
 *   LSH with 42 bands × 3 rows: P(candidate | J) = 1 − (1 − J³)⁴²; at J = 0.5 that is
 *   1 − (7/8)⁴² = 0.9963. Band keys are rows of dup_band (any process can check and add).
 * - Explanation: winnowing fingerprints (as MOSS) of both texts, matched and chained into
 *   passages, mapped back to character ranges of the original texts.
 *
 * Years: a work is checked against works of its own year (all contests, all levels) and of
 * earlier years (opts.maxYear, default the work's year); pasted texts against every year.
 *
 * Writes are batched (rebuild: a few hundred works per transaction) so SQLite's single writer
 * is never held long. All functions take the Kysely handle of src/server/db.
 */
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import type {
  DupCheckResult,
  DupEntryStatus,
  DupEntryView,
  DupExplain,
  DupIgnoredShingle,
  DupIndexStats,
  DupReason,
  DupRebuildProgress,
  DupSection,
  DupSettings,
} from "../../shared/dupcheck/schema";

export type {
  DupCheckResult,
  DupEntryStatus,
  DupEntryView,
  DupExplain,
  DupIgnoredShingle,
  DupIndexStats,
  DupMatch,
  DupPassage,
  DupReason,
  DupRebuildProgress,
  DupSection,
  DupSettings,
} from "../../shared/dupcheck/schema";

// ───────────────────────────── text ─────────────────────────────

/**
 * A normalised text and the way back: normalised character i (UTF-16 index into `text`; every
 * kept character is one code unit or a surrogate pair counted as its code units) came from
 * original[starts[i], ends[i]).
 */
export interface Normalised {
  text: string;
  starts: Uint32Array;
  ends: Uint32Array;
}

/** Normalise for comparison (see the header); pure, the opencc converter is loaded once. */
export declare function normalise(original: string): Normalised;

/** Maps a normalised range [start, end) back to the original text's [start, end). */
export declare function toOriginalRange(n: Normalised, start: number, end: number): { start: number; end: number };

/** A work's combined original text: sections joined by "\n\n", and the parts not checked. */
export interface WorkText {
  workId: number;
  year: number;
  contestId: number;
  title: string;
  text: string;
  sections: DupSection[];
  skipped: DupReason[];
}

/** Gathers a work's text (fields, then current documents in upload order); null if the work does not exist. */
export declare function workText(db: Db, store: BlobStore, workId: number): Promise<WorkText | null>;

/** Limits of document extraction: larger files / longer texts are listed as oversized. */
export declare const EXTRACT_LIMITS: { maxFileBytes: number; maxTextChars: number };

/**
 * Text of one document (also for "upload a document to check" on /dup-check). Never throws:
 * an unsupported, unreadable, encrypted or oversized file gives text "" and a reason
 * (fileId null; callers may fill it in).
 */
export declare function extractDocument(filename: string, bytes: Uint8Array, mime?: string): Promise<{ text: string; reason: DupReason | null }>;

// ───────────────────────────── index ─────────────────────────────

/** What indexWork did. */
export interface IndexOutcome {
  workId: number;
  status: DupEntryStatus;
  tooShort: boolean;
  /** non-ignored shingles */
  shingles: number;
  reasons: DupReason[];
  /** false: the text was unchanged since the last indexing and nothing was written */
  changed: boolean;
}

/** Which works are indexed: every work past draft. */
export declare function isIndexable(status: string): boolean;

/**
 * (Re)indexes one work: extracts its text, writes its entry, shingle set and band keys,
 * replacing the old ones, in one short transaction. Idempotent: an unchanged text writes
 * nothing. A work that does not exist or is a draft is removed from the index (status of the
 * outcome "failed" with reason, nothing stored). Never throws for bad documents: they become
 * reasons; an unexpected error marks the entry failed with the reason.
 */
export declare function indexWork(db: Db, store: BlobStore, workId: number): Promise<IndexOutcome>;

/**
 * Marks works pending (creates the entry if missing) without extracting — cheap, call it in
 * the submit/upload request, then run indexWork in the background (jobs). Keeps the old band
 * keys, so the work stays findable by others until reindexed.
 */
export declare function markPending(db: Db, workIds: number[]): Promise<void>;

/** Indexes up to `limit` pending works (oldest first); returns how many were processed. */
export declare function indexPending(db: Db, store: BlobStore, opts?: { limit?: number; signal?: AbortSignal }): Promise<number>;

/** Removes a work from the index (entry and band keys). */
export declare function removeWork(db: Db, workId: number): Promise<void>;

/**
 * Rebuilds the whole index. Without reextract: reuses the stored shingle sets — recomputes the
 * ignored-shingle list from a sample, then every signature and band key (fast), and indexes
 * eligible works that have no entry or are pending/failed. With reextract: extracts every
 * eligible work's text again first (reads every document; slow). Reports progress; the signal
 * stops it between batches (the index stays usable: each batch is consistent). Records the
 * run for indexStats().lastRebuild. Only one rebuild at a time per database (a second call
 * while one runs throws conflict "查重索引正在重建").
 */
export declare function rebuild(
  db: Db,
  store: BlobStore,
  onProgress?: (p: DupRebuildProgress) => void,
  signal?: AbortSignal,
  opts?: { reextract?: boolean },
): Promise<DupRebuildInfo>;
export type { DupRebuildInfo } from "../../shared/dupcheck/schema";
import type { DupRebuildInfo } from "../../shared/dupcheck/schema";

/** Counts for the admin page. */
export declare function indexStats(db: Db): Promise<DupIndexStats>;

/** Index entries by status, newest change first (admin page: failed works, works with skipped parts). */
export declare function listEntries(
  db: Db,
  opts: { status?: DupEntryStatus; withReasons?: boolean; limit: number; offset: number },
): Promise<{ total: number; items: DupEntryView[] }>;

// ───────────────────────────── check ─────────────────────────────

export interface CheckOptions {
  /** only works of this year or earlier (checkWork: default the work's year; checkText: every year) */
  maxYear?: number;
  /** compare with every year, also later ones (overrides maxYear) */
  allYears?: boolean;
  /** works not to report (the checked work itself is always left out) */
  excludeWorkIds?: number[];
  /** report only matches with similarity ≥ this (default 0.1) */
  minSimilarity?: number;
  /** at most this many matches, highest similarity first (default 50, at most 1000) */
  limit?: number;
}

/**
 * Checks an indexed work against the index, using its stored shingle set (no extraction).
 * A work without an entry gives status "missing" and no matches (call indexWork first); a
 * pending work is checked with its previous shingle set if any (status "pending"); a failed
 * or too-short one gives tooShort with the reason.
 */
export declare function checkWork(db: Db, workId: number, opts?: CheckOptions): Promise<DupCheckResult>;

/** Checks a pasted or extracted text (status "text"); a tiny text gives tooShort, not 0 %. */
export declare function checkText(db: Db, text: string, opts?: CheckOptions): Promise<DupCheckResult>;

/** A side of explainPair: an indexed work by id, or a text (pasted, or extracted from an upload). */
export type ExplainSideInput = number | { text: string; title?: string };

/**
 * The shared passages of two works (or a work and a text), side by side: both original texts
 * with their sections, the passages as ranges in each side's original text, the exact figures
 * (A = a, B = b). Reads the works' texts again (documents included). Throws notFound if a work
 * does not exist.
 */
export declare function explainPair(db: Db, store: BlobStore, a: ExplainSideInput, b: ExplainSideInput): Promise<DupExplain>;

/** Groups pairs (e.g. the batch report's pairs above a threshold) into clusters of connected works, largest first. */
export declare function clusterPairs(pairs: Array<{ a: number; b: number }>): number[][];

// ───────────────────────────── settings ─────────────────────────────

/** The default settings (used until an admin saves others). */
export declare const DEFAULT_SETTINGS: DupSettings;

/** The level of a similarity under the thresholds. */
export declare function levelOf(similarity: number, s: Pick<DupSettings, "suspect" | "likely">): "likely" | "suspect" | "none";

export declare function getSettings(db: Db): Promise<DupSettings>;

/**
 * Saves settings (validated: likely ≥ suspect, else invalid("…")). Thresholds take effect at
 * once; ignoreShare / ignoreMinWorks / minShingles at the next rebuild (signatures depend on them).
 */
export declare function saveSettings(db: Db, patch: Partial<DupSettings>): Promise<DupSettings>;

/** The ignored (very common) shingles, most frequent first. */
export declare function ignoredShingles(db: Db, opts: { limit: number; offset: number }): Promise<{ total: number; items: DupIgnoredShingle[] }>;

/** The LSH parameters. */
export declare const DUP_PARAMS: { hashes: number; bands: number; rows: number; shingle: number };

/** The figures of the last benchmark run (bench/dupcheck.ts --record writes them), or null. */
export { LAST_BENCHMARK } from "../../shared/dupcheck/benchmark";
