/**
 * Explaining a pair side by side (the passages two texts share, mapped back to each side's
 * original text, with the exact figures), and grouping pairs into clusters.
 */
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import type { DupExplain, DupExplainSide, DupPassage } from "../../shared/dupcheck/schema";
import { notFound } from "../../shared/errors";
import { joinSections, workText } from "./extract";
import { normalise, toOriginalRange } from "./normalise";
import { getSettings, ignoredSet, levelOf } from "./settings";
import { intersectionSize, shingleSequence, shingleSet, similarityOf, without } from "./shingles";
import { mergeRanges, sharedPassages } from "./winnow";

export type ExplainSideInput = number | { text: string; title?: string };

async function sideOf(db: Db, store: BlobStore, x: ExplainSideInput): Promise<Omit<DupExplainSide, "ranges">> {
  if (typeof x === "number") {
    const wt = await workText(db, store, x);
    if (!wt) throw notFound("作品不存在");
    return {
      workId: wt.workId,
      year: wt.year,
      contestId: wt.contestId,
      title: wt.title,
      text: wt.text,
      sections: wt.sections,
      skipped: wt.skipped,
    };
  }
  const { text, sections } = joinSections([{ key: "text", label: x.title ?? "待查文本", text: x.text }]);
  return { workId: null, year: null, contestId: null, title: x.title ?? null, text, sections, skipped: [] };
}

const ignoredHas = (ignored: Uint32Array, v: number) => {
  let lo = 0;
  let hi = ignored.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (ignored[m] === v) return true;
    if (ignored[m] < v) lo = m + 1;
    else hi = m - 1;
  }
  return false;
};

export async function explainPair(db: Db, store: BlobStore, a: ExplainSideInput, b: ExplainSideInput): Promise<DupExplain> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  const [sa, sb] = await Promise.all([sideOf(db, store, a), sideOf(db, store, b)]);
  const na = normalise(sa.text);
  const nb = normalise(sb.text);
  const ea = without(shingleSet(na.text), ignored);
  const eb = without(shingleSet(nb.text), ignored);
  const tooShort = ea.length < settings.minShingles || eb.length < settings.minShingles;
  const s = similarityOf(intersectionSize(ea, eb), ea.length, eb.length);
  const passages: DupPassage[] = sharedPassages(na.text, nb.text).map((p) => {
    const seq = shingleSequence(na.text.slice(p.aStart, p.aEnd));
    let common = 0;
    for (const h of seq) if (ignoredHas(ignored, h)) common++;
    const ra = toOriginalRange(na, p.aStart, p.aEnd);
    const rb = toOriginalRange(nb, p.bStart, p.bEnd);
    return {
      aStart: ra.start,
      aEnd: ra.end,
      bStart: rb.start,
      bEnd: rb.end,
      // The same figure whichever side is a (root and a contest admin may open the pair from either work).
      length: Math.max(p.aEnd - p.aStart, p.bEnd - p.bStart),
      common: seq.length > 0 && common * 2 >= seq.length,
      differs: na.text.slice(p.aStart, p.aEnd) !== nb.text.slice(p.bStart, p.bEnd),
    };
  });
  return {
    a: { ...sa, ranges: mergeRanges(passages.map((p) => ({ start: p.aStart, end: p.aEnd }))) },
    b: { ...sb, ranges: mergeRanges(passages.map((p) => ({ start: p.bStart, end: p.bEnd }))) },
    passages,
    jaccard: tooShort ? 0 : s.jaccard,
    containmentAB: tooShort ? 0 : s.containmentAB,
    containmentBA: tooShort ? 0 : s.containmentBA,
    similarity: tooShort ? 0 : s.similarity,
    level: tooShort ? "none" : levelOf(s.similarity, settings),
    tooShort,
  };
}

export function clusterPairs(pairs: Array<{ a: number; b: number }>): number[][] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    while (parent.get(x) !== r) {
      const n = parent.get(x)!;
      parent.set(x, r);
      x = n;
    }
    return r;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  const groups = new Map<number, number[]>();
  for (const x of parent.keys()) {
    const r = find(x);
    const g = groups.get(r);
    if (g) g.push(x);
    else groups.set(r, [x]);
  }
  return [...groups.values()].map((g) => g.sort((x, y) => x - y)).sort((x, y) => y.length - x.length || x[0] - y[0]);
}
