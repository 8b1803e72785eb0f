/**
 * The duplicate check's use cases for a user: check a work by id, a pasted text or an
 * uploaded document against the corpus; the side by side view of two works or of a text
 * and a work; the review sheet's top matches. Every result goes through the caller's scope
 * (scope.ts) and views.ts; the engine (./index.ts) knows nothing of users.
 */
import { badRequest, DomainError, notFound } from "../../shared/errors";
import type {
  DupFilters,
  DupPairView,
  DupSheetPanel,
  DupTextReport,
  DupThresholds,
  DupWorkReport,
} from "../../shared/dupcheck/api";
import type { DupCheckResult, DupExplain } from "../../shared/dupcheck/schema";
import type { Db } from "../db";
import type { User } from "../db/schema";
import type { BlobStore } from "../storage";
import {
  checkText,
  checkWork,
  explainPair,
  extractDocument,
  getSettings,
  indexWork,
  isIndexable,
  type ExplainSideInput,
} from "./index";
import { dupScope, factsOf, inScope, NOT_IN_SCOPE, requireInScope, type DupScope } from "./scope";
import { indexState, matchViews, refOf, sideView, withFilename } from "./views";

export interface DupCtx {
  db: Db;
  store: BlobStore;
  user: User;
}

/** How many matches the engine is asked for before the scope and the filters pick the list. */
const FETCH = 500;
/** The engine's default floor: matches below it are not reported. */
export const MIN_REPORTED = 0.1;

export async function thresholdsOf(db: Db): Promise<DupThresholds> {
  const s = await getSettings(db);
  return { suspect: s.suspect, likely: s.likely };
}

const engineOptions = (f: DupFilters) => ({
  minSimilarity: Math.max(MIN_REPORTED, f.minSimilarity ?? 0),
  limit: FETCH,
  ...(f.allYears ? { allYears: true } : {}),
});

/** Checks the work; a work never indexed (e.g. entered before the index existed) is indexed first. */
async function checkIndexed(ctx: DupCtx, workId: number, status: string, f: DupFilters): Promise<DupCheckResult> {
  let r = await checkWork(ctx.db, workId, engineOptions(f));
  if (r.status === "missing" && isIndexable(status)) {
    await indexWork(ctx.db, ctx.store, workId);
    r = await checkWork(ctx.db, workId, engineOptions(f));
  }
  if (r.status === "missing" && !isIndexable(status)) return { ...r, reason: "草稿不参与查重，作品提交后才会建立索引" };
  return r;
}

export async function checkWorkFor(ctx: DupCtx, workId: number, f: DupFilters): Promise<DupWorkReport> {
  const scope = await dupScope(ctx.db, ctx.user);
  const w = await requireInScope(ctx.db, scope, workId);
  const r = await checkIndexed(ctx, workId, w.status, f);
  const views = await matchViews(ctx.db, scope, r.matches, f);
  return {
    work: refOf(scope, w.id, w, w.year),
    index: indexState(r),
    candidates: r.candidates,
    matches: views.list,
    more: views.more + r.more,
    outside: views.outside,
    thresholds: await thresholdsOf(ctx.db),
  };
}

export async function checkTextFor(
  ctx: DupCtx,
  text: string,
  f: DupFilters,
  document: DupTextReport["document"] = null,
): Promise<DupTextReport> {
  const scope = await dupScope(ctx.db, ctx.user);
  const r = await checkText(ctx.db, text, engineOptions(f));
  const views = await matchViews(ctx.db, scope, r.matches, f);
  return {
    document,
    index: indexState(r),
    candidates: r.candidates,
    matches: views.list,
    more: views.more + r.more,
    outside: views.outside,
    thresholds: await thresholdsOf(ctx.db),
  };
}

/** The text of an uploaded document, or a 400 saying why it cannot be read. */
export async function documentText(
  filename: string,
  bytes: Uint8Array,
): Promise<{ text: string; document: NonNullable<DupTextReport["document"]> }> {
  const { text, reason } = await extractDocument(filename, bytes);
  return { text, document: { filename, chars: text.length, reason: withFilename(reason, filename) } };
}

export async function checkDocumentFor(ctx: DupCtx, filename: string, bytes: Uint8Array, f: DupFilters): Promise<DupTextReport> {
  const { text, document } = await documentText(filename, bytes);
  if (!text.trim())
    throw badRequest(
      document.reason ? `「${filename}」未能查重：${document.reason.message}` : `「${filename}」中没有读到文字，无法查重`,
    );
  return checkTextFor(ctx, text, f, document);
}

/**
 * Side by side of `a` (a work in scope, or a text) and work `b`. Work b outside the scope is
 * shown redacted, and only when it is a match of a (similarity at least the reported floor);
 * otherwise it answers like a missing work.
 */
async function pairView(ctx: DupCtx, scope: DupScope, a: ExplainSideInput, b: number): Promise<DupPairView> {
  const facts = await factsOf(ctx.db, [b, ...(typeof a === "number" ? [a] : [])]);
  const fb = facts.get(b);
  if (!fb) throw notFound(NOT_IN_SCOPE);
  const bVisible = inScope(scope, fb);
  let e: DupExplain;
  try {
    e = await explainPair(ctx.db, ctx.store, a, b);
  } catch (err) {
    // A work removed meanwhile answers like any work out of reach.
    throw err instanceof DomainError && err.status === 404 ? notFound(NOT_IN_SCOPE) : err;
  }
  if (!bVisible && (e.tooShort || e.similarity < MIN_REPORTED)) throw notFound(NOT_IN_SCOPE);
  const bPassages = e.passages.map((p) => ({ start: p.bStart, end: p.bEnd }));
  const aPassages = e.passages.map((p) => ({ start: p.aStart, end: p.aEnd }));
  return {
    a: sideView(e.a, typeof a === "number" ? facts.get(a) : undefined, true, aPassages),
    b: sideView(e.b, fb, bVisible, bPassages),
    passages: e.passages,
    jaccard: e.jaccard,
    containmentAB: e.containmentAB,
    containmentBA: e.containmentBA,
    similarity: e.similarity,
    level: e.level,
    tooShort: e.tooShort,
    thresholds: await thresholdsOf(ctx.db),
  };
}

export async function pairFor(ctx: DupCtx, a: number, b: number): Promise<DupPairView> {
  if (a === b) throw badRequest("请选择两件不同的作品进行对比");
  const scope = await dupScope(ctx.db, ctx.user);
  await requireInScope(ctx.db, scope, a);
  return pairView(ctx, scope, a, b);
}

/**
 * Pasted text against one work: only a work the caller may open. The text is the caller's own, so
 * a work out of reach would show its matching wording to anyone testing guesses about its text.
 */
export async function pairTextFor(ctx: DupCtx, text: string, title: string, workId: number): Promise<DupPairView> {
  const scope = await dupScope(ctx.db, ctx.user);
  await requireInScope(ctx.db, scope, workId);
  return pairView(ctx, scope, { text, title }, workId);
}

/** The review sheet's panel: the work's index state and its top matches (the caller's review scope). */
export async function sheetPanelFor(ctx: DupCtx, workId: number, status: string): Promise<DupSheetPanel> {
  const scope = await dupScope(ctx.db, ctx.user);
  const r = await checkIndexed(ctx, workId, status, {});
  const views = await matchViews(ctx.db, scope, r.matches, {}, 5);
  return { workId, index: indexState(r), matches: views.list, more: views.more + r.more, thresholds: await thresholdsOf(ctx.db) };
}
