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
 *   database (dup_set.shingles) so that similarity is EXACT for every candidate.
 * - Shingles found in very many works (template sentences) are ignored (dup_ignored, see
 *   settings ignoreShare / ignoreMinWorks) in signatures and in the figures.
 * - Candidates: MinHash signatures (192 one-permutation hashes with optimal densification),
 *   LSH with 64 bands × 3 rows; a work sharing ≥ 2 band keys is a candidate: at J = 0.5
 *   P = 0.998, at J = 0.1 P = 0.002 (the maths in ./minhash.ts). A work sharing ≥ 3 passage
 *   anchors (spaced seeds of 6 characters in 9, one position in 20, ./shingles.ts anchorKeys)
 *   is one too: copied passages, and copies with 20–30 % of characters substituted, whose
 *   Jaccard (≈ 0.2–0.35) the bands find only now and then while the comparison rates them
 *   疑似重复 by containment. Band keys and anchors are rows of dup_band (any process can
 *   check and add); the layout's version is kept (./layout.ts) and a change is migrated by
 *   the sweep and the rebuild.
 * - Explanation: winnowing fingerprints (as MOSS) of both texts, matched and chained into
 *   passages, mapped back to character ranges of the original texts.
 *
 * Years: a work is checked against works of its own year (all contests, all levels) and of
 * earlier years (opts.maxYear, default the work's year); pasted texts against every year.
 *
 * Writes are batched (rebuild: a few hundred works per transaction) so SQLite's single writer
 * is never held long. All functions take the Kysely handle of src/server/db.
 *
 * Modules by job: ./prepare.ts (a text's sets, anchors, hash and band keys), ./store.ts (the
 * tables' types and batched writes), ./write.ts (entries and band keys), ./indexer.ts
 * (indexing works), ./match.ts (checks), ./explain.ts (a pair side by side, clusters),
 * ./ignored.ts (the ignored shingles), ./rebuild.ts (the rebuild job), ./rebuild-bands.ts and
 * ./shadow.ts (every band key recomputed into a shadow; the protocol as a typed state:
 * ./rebuild-state.ts), ./layout.ts (the layout's version), ./stats.ts (the admin page's figures).
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
  DupSettings,
} from "../../shared/dupcheck/schema";
import * as explain from "./explain";
import * as extract from "./extract";
import * as ignoredList from "./ignored";
import * as indexer from "./indexer";
import * as match from "./match";
import * as prepare from "./prepare";
import * as rebuilder from "./rebuild";
import * as stats from "./stats";
import * as write from "./write";
import * as norm from "./normalise";
import * as settings from "./settings";

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
export type Normalised = norm.Normalised;

/** Normalise for comparison (see the header); pure, the opencc converter is loaded once. */
export function normalise(original: string): Normalised {
  return norm.normalise(original);
}

/** Maps a normalised range [start, end) back to the original text's [start, end). */
export function toOriginalRange(n: Normalised, start: number, end: number): { start: number; end: number } {
  return norm.toOriginalRange(n, start, end);
}

/**
 * A work's combined original text: sections (DupSection: key, label, [start, end)) joined by
 * "\n\n", the parts not checked (skipped) and the work's year, contest, status and title.
 */
export type WorkText = extract.WorkText;

/** Gathers a work's text (fields, then current documents in upload order); null if the work does not exist. */
export function workText(db: Db, store: BlobStore, workId: number): Promise<WorkText | null> {
  return extract.workText(db, store, workId);
}

/** Limits of document extraction: larger files / longer texts are listed as oversized. */
export const EXTRACT_LIMITS: { maxFileBytes: number; maxTextChars: number; maxWorkChars: number } = extract.EXTRACT_LIMITS;

/**
 * Text of one document (also for "upload a document to check" on /dup-check). Never throws:
 * an unsupported, unreadable, encrypted or oversized file gives text "" and a reason
 * (fileId null; callers may fill it in).
 */
export function extractDocument(
  filename: string,
  bytes: Uint8Array,
  mime?: string,
): Promise<{ text: string; reason: DupReason | null }> {
  return extract.extractDocument(filename, bytes, mime);
}

// ───────────────────────────── index ─────────────────────────────

/**
 * What indexWork did: status, tooShort, shingles (non-ignored), reasons (parts not checked),
 * changed (false: the text was unchanged since the last indexing and nothing was written).
 */
export type IndexOutcome = indexer.IndexOutcome;

/** Which works are indexed: every work past draft. */
export function isIndexable(status: string): boolean {
  return prepare.isIndexable(status);
}

/**
 * (Re)indexes one work: extracts its text, writes its entry, shingle set and band keys,
 * replacing the old ones, in one short transaction. Idempotent: an unchanged text writes
 * nothing. A work that does not exist or is a draft is removed from the index (status of the
 * outcome "failed" with reason, nothing stored). Never throws for bad documents: they become
 * reasons; an unexpected error marks the entry failed with the reason.
 */
export function indexWork(db: Db, store: BlobStore, workId: number): Promise<IndexOutcome> {
  return indexer.indexWork(db, store, workId);
}

/**
 * Marks works pending (creates the entry if missing) without extracting — cheap, call it in
 * the submit/upload request, then run indexWork in the background (jobs). Keeps the old band
 * keys, so the work stays findable by others until reindexed.
 */
export function markPending(db: Db, workIds: number[]): Promise<void> {
  return indexer.markPending(db, workIds);
}

/** Indexes up to `limit` pending works (oldest first); returns how many were processed. */
export function indexPending(db: Db, store: BlobStore, opts?: { limit?: number; signal?: AbortSignal }): Promise<number> {
  return indexer.indexPending(db, store, opts);
}

/** Removes a work from the index (entry and band keys). */
export function removeWork(db: Db, workId: number): Promise<void> {
  return write.removeWorks(db, [workId]);
}

/**
 * Rebuilds the whole index. Without reextract: reuses the stored shingle sets — recomputes the
 * ignored-shingle list from a sample, then every signature and band key (fast), and indexes
 * eligible works that have no entry or are pending/failed. With reextract: extracts every
 * eligible work's text again first (reads every document; slow). Reports progress; the signal
 * stops it between batches (the index stays usable: each batch is consistent). Records the
 * run for indexStats().lastRebuild. Only one rebuild at a time per database (a second call
 * while one runs throws conflict "查重索引正在重建").
 */
export function rebuild(
  db: Db,
  store: BlobStore,
  onProgress?: (p: DupRebuildProgress) => void,
  signal?: AbortSignal,
  opts?: { reextract?: boolean },
): Promise<DupRebuildInfo> {
  return rebuilder.rebuild(db, store, onProgress, signal, opts);
}
export type { DupRebuildInfo } from "../../shared/dupcheck/schema";
import type { DupRebuildInfo } from "../../shared/dupcheck/schema";

/** Counts for the admin page. */
export function indexStats(db: Db): Promise<DupIndexStats> {
  return stats.indexStats(db);
}

/** Index entries by status, newest change first (admin page: failed works, works with skipped parts). */
export function listEntries(
  db: Db,
  opts: { status?: DupEntryStatus; withReasons?: boolean; limit: number; offset: number },
): Promise<{ total: number; items: DupEntryView[] }> {
  return stats.listEntries(db, opts);
}

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
export function checkWork(db: Db, workId: number, opts?: CheckOptions): Promise<DupCheckResult> {
  return match.checkWork(db, workId, opts);
}

/** Checks a pasted or extracted text (status "text"); a tiny text gives tooShort, not 0 %. */
export function checkText(db: Db, text: string, opts?: CheckOptions): Promise<DupCheckResult> {
  return match.checkText(db, text, opts);
}

/** A side of explainPair: an indexed work by id, or a text (pasted, or extracted from an upload). */
export type ExplainSideInput = number | { text: string; title?: string };

/**
 * The shared passages of two works (or a work and a text), side by side: both original texts
 * with their sections, the passages as ranges in each side's original text, the exact figures
 * (A = a, B = b). Reads the works' texts again (documents included). Throws notFound if a work
 * does not exist.
 */
export function explainPair(db: Db, store: BlobStore, a: ExplainSideInput, b: ExplainSideInput): Promise<DupExplain> {
  return explain.explainPair(db, store, a, b);
}

/** Groups pairs (e.g. the batch report's pairs above a threshold) into clusters of connected works, largest first. */
export function clusterPairs(pairs: Array<{ a: number; b: number }>): number[][] {
  return explain.clusterPairs(pairs);
}

// ───────────────────────────── settings ─────────────────────────────

/** The default settings (used until an admin saves others). */
export const DEFAULT_SETTINGS: DupSettings = settings.DEFAULT_SETTINGS;

/** The level of a similarity under the thresholds. */
export function levelOf(similarity: number, s: Pick<DupSettings, "suspect" | "likely">): "likely" | "suspect" | "none" {
  return settings.levelOf(similarity, s);
}

export function getSettings(db: Db): Promise<DupSettings> {
  return settings.getSettings(db);
}

/**
 * Saves settings (validated: likely ≥ suspect, else invalid("…")). Thresholds take effect at
 * once; ignoreShare / ignoreMinWorks / minShingles at the next rebuild (signatures depend on them).
 */
export function saveSettings(db: Db, patch: Partial<DupSettings>): Promise<DupSettings> {
  return settings.saveSettings(db, patch);
}

/** The ignored (very common) shingles, most frequent first. */
export function ignoredShingles(
  db: Db,
  opts: { limit: number; offset: number },
): Promise<{ total: number; items: DupIgnoredShingle[] }> {
  return ignoredList.ignoredShingles(db, opts);
}

/** The LSH parameters. */
export const DUP_PARAMS: { hashes: number; bands: number; rows: number; minBandMatches: number; shingle: number } =
  prepare.DUP_PARAMS;

/** The figures of the last benchmark run (npm run bench:dupcheck -- --record writes them into dup_setting), or null. */
export function lastBenchmark(db: Db) {
  return settings.lastBenchmark(db);
}
