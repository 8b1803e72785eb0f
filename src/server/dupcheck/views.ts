/**
 * The engine's results as a user may see them (see scope.ts): matches in scope with their
 * names, contests and figures; matches outside reduced to the fact (id, year, similarity,
 * level); the side by side view with an outside side redacted to its shared passages.
 * Filters of the result lists are applied here, after the scope.
 */
import type { DupFilters, DupIndexState, DupMatchView, DupSideView, DupWorkRef } from "../../shared/dupcheck/api";
import { DUP_INDEX_STATUS_NAMES } from "../../shared/dupcheck/api";
import type { DupCheckResult, DupExplainSide, DupMatch, DupReason } from "../../shared/dupcheck/schema";
import type { Db } from "../db";
import { factsOf, inScope, type DupScope, type WorkFacts } from "./scope";

export const LEVEL_RANK = { likely: 2, suspect: 1, none: 0 } as const;

export function refOf(scope: DupScope, id: number, f: WorkFacts | undefined, year: number): DupWorkRef {
  const visible = !!f && inScope(scope, f);
  return {
    workId: id,
    year: f?.year ?? year,
    inScope: visible,
    name: visible ? f!.name : null,
    contestId: visible ? f!.contest_id : null,
    contestName: visible ? f!.contest_name : null,
  };
}

/** The matches as the caller sees them, filtered; `limit` after the filters. */
export async function matchViews(
  db: Db,
  scope: DupScope,
  matches: DupMatch[],
  filters: DupFilters = {},
  limit = filters.limit ?? 50,
): Promise<{ list: DupMatchView[]; more: number; outside: number }> {
  const facts = await factsOf(
    db,
    matches.map((m) => m.workId),
  );
  const views: DupMatchView[] = [];
  for (const m of matches) {
    const ref = refOf(scope, m.workId, facts.get(m.workId), m.year);
    // A work removed since it was indexed is not reported.
    if (!facts.has(m.workId)) continue;
    if (filters.level && LEVEL_RANK[m.level] < LEVEL_RANK[filters.level]) continue;
    if (filters.minSimilarity !== undefined && m.similarity < filters.minSimilarity) continue;
    if (filters.year !== undefined && ref.year !== filters.year) continue;
    if (filters.contestId !== undefined && (!ref.inScope || ref.contestId !== filters.contestId)) continue;
    if (filters.scope === "inside" && !ref.inScope) continue;
    if (filters.scope === "outside" && ref.inScope) continue;
    views.push({
      ...ref,
      similarity: m.similarity,
      level: m.level,
      jaccard: ref.inScope ? m.jaccard : null,
      containmentAB: ref.inScope ? m.containmentAB : null,
      containmentBA: ref.inScope ? m.containmentBA : null,
      shared: ref.inScope ? m.shared : null,
    });
  }
  views.sort((x, y) => y.similarity - x.similarity || x.workId - y.workId);
  const list = views.slice(0, limit);
  return { list, more: views.length - list.length, outside: list.filter((v) => !v.inScope).length };
}

export function indexState(r: Pick<DupCheckResult, "status" | "tooShort" | "reason" | "reasons" | "shingles">): DupIndexState {
  return {
    status: r.status,
    statusName: DUP_INDEX_STATUS_NAMES[r.status],
    tooShort: r.tooShort,
    reason: r.reason,
    reasons: r.reasons,
    shingles: r.shingles,
  };
}

/** Merges [start, end) ranges, ascending. */
export function mergeRanges(ranges: { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((x, y) => x.start - y.start || x.end - y.end);
  const out: { start: number; end: number }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** A side of the side by side view; outside the scope only its shared ranges' text is kept (with positions). */
export function sideView(
  side: DupExplainSide,
  facts: WorkFacts | undefined,
  visible: boolean,
  extra: { start: number; end: number }[] = [],
): DupSideView {
  const ranges = mergeRanges([...side.ranges, ...extra]);
  if (visible) {
    return {
      workId: side.workId,
      year: side.year,
      inScope: true,
      redacted: false,
      title: side.title ?? facts?.name ?? null,
      contestId: side.contestId,
      contestName: facts?.contest_name ?? null,
      text: side.text,
      length: side.text.length,
      sections: side.sections,
      skipped: side.skipped,
      ranges,
      snippets: [],
    };
  }
  return {
    workId: side.workId,
    year: side.year,
    inScope: false,
    redacted: true,
    title: null,
    contestId: null,
    contestName: null,
    text: "",
    length: side.text.length,
    sections: [],
    skipped: [],
    ranges,
    snippets: ranges.map((r) => ({ ...r, text: side.text.slice(r.start, r.end) })),
  };
}

/** Reasons of an uploaded document get its name. */
export const withFilename = (r: DupReason | null, filename: string): DupReason | null =>
  r ? { ...r, filename: r.filename ?? filename } : null;
