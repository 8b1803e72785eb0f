/**
 * Shared passages of two normalised texts by winnowing (Schleimer, Wilkerson, Aiken 2003 —
 * the method of MOSS): hash every k-gram, keep the minimum hash of every window of w
 * consecutive k-grams (the rightmost on ties) as the text's fingerprints. Any substring
 * shared by both texts of length ≥ w + k − 1 (here 8 characters) yields at least one common
 * fingerprint; a shorter one may not.
 *
 * Common fingerprints become position pairs (pa, pb); pairs near one diagonal (pa − pb
 * drifts by at most a few characters: an inserted or dropped character) and close in both
 * texts are chained into one passage, which is then extended character by character while
 * both sides agree. Passages shorter than `minLength` are dropped as chance phrases.
 */
import { mix32 } from "./shingles";

export const WINNOW_K = 5;
export const WINNOW_W = 4;

export interface Fingerprint {
  hash: number;
  pos: number;
}

/** Hash of text[i, i + k). */
function kgramHash(text: string, i: number, k: number): number {
  let h = 0x811c9dc5 ^ k;
  for (let j = 0; j < k; j++) h = mix32(h ^ Math.imul(text.charCodeAt(i + j), 0x9e3779b1));
  return h;
}

/** The winnowed fingerprints of a normalised text, by position. */
export function winnow(text: string, k = WINNOW_K, w = WINNOW_W): Fingerprint[] {
  const n = text.length - k + 1;
  if (n <= 0) return [];
  const hashes = new Uint32Array(n);
  for (let i = 0; i < n; i++) hashes[i] = kgramHash(text, i, k);
  const out: Fingerprint[] = [];
  if (n <= w) {
    let m = 0;
    for (let i = 1; i < n; i++) if (hashes[i] <= hashes[m]) m = i;
    return [{ hash: hashes[m], pos: m }];
  }
  let last = -1;
  for (let start = 0; start + w <= n; start++) {
    let m = start;
    for (let i = start + 1; i < start + w; i++) if (hashes[i] <= hashes[m]) m = i;
    if (m !== last) {
      out.push({ hash: hashes[m], pos: m });
      last = m;
    }
  }
  return out;
}

export interface PassagePair {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

export interface PassageOptions {
  k?: number;
  w?: number;
  /** shortest passage kept, in normalised characters */
  minLength?: number;
  /** most diagonal drift within one passage (inserted/dropped characters) */
  drift?: number;
  /** largest gap between two fingerprints of one passage */
  gap?: number;
  /** a fingerprint hash found more often than this in b is treated as noise */
  maxOccurrences?: number;
}

/** The shared passages of normalised texts a and b, ascending in a. */
export function sharedPassages(a: string, b: string, opts: PassageOptions = {}): PassagePair[] {
  const k = opts.k ?? WINNOW_K;
  const w = opts.w ?? WINNOW_W;
  const minLength = opts.minLength ?? 10;
  const drift = opts.drift ?? 3;
  const gap = opts.gap ?? 3 * (w + k);
  const maxOcc = opts.maxOccurrences ?? 16;

  const inB = new Map<number, number[]>();
  for (const f of winnow(b, k, w)) {
    const list = inB.get(f.hash);
    if (list) list.push(f.pos);
    else inB.set(f.hash, [f.pos]);
  }
  const pairs: Array<[number, number]> = [];
  for (const f of winnow(a, k, w)) {
    const list = inB.get(f.hash);
    if (!list || list.length > maxOcc) continue;
    for (const pb of list) if (a.substr(f.pos, k) === b.substr(pb, k)) pairs.push([f.pos, pb]);
  }
  pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);

  // Chain pairs into passages: each open chain ends at (lastA, lastB).
  interface Chain {
    aStart: number;
    bStart: number;
    lastA: number;
    lastB: number;
  }
  const open: Chain[] = [];
  const done: Chain[] = [];
  for (const [pa, pb] of pairs) {
    let best: Chain | null = null;
    let bestCost = Infinity;
    for (let i = open.length - 1; i >= 0; i--) {
      const c = open[i];
      if (pa - c.lastA > gap) {
        done.push(c);
        open.splice(i, 1);
        continue;
      }
      const da = pa - c.lastA;
      const db = pb - c.lastB;
      if (da < 0 || db < 0 || db > gap || Math.abs(da - db) > drift) continue;
      if (da === 0 && db === 0) continue;
      const cost = Math.abs(da - db) * 100 + da;
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    if (best) {
      best.lastA = pa;
      best.lastB = pb;
    } else open.push({ aStart: pa, bStart: pb, lastA: pa, lastB: pb });
  }
  done.push(...open);

  let passages: PassagePair[] = done.map((c) => {
    let aStart = c.aStart;
    let bStart = c.bStart;
    let aEnd = c.lastA + k;
    let bEnd = c.lastB + k;
    while (aStart > 0 && bStart > 0 && a.charCodeAt(aStart - 1) === b.charCodeAt(bStart - 1)) {
      aStart--;
      bStart--;
    }
    while (aEnd < a.length && bEnd < b.length && a.charCodeAt(aEnd) === b.charCodeAt(bEnd)) {
      aEnd++;
      bEnd++;
    }
    return { aStart, aEnd, bStart, bEnd };
  });
  passages = passages.filter((p) => Math.min(p.aEnd - p.aStart, p.bEnd - p.bStart) >= minLength);
  passages.sort((x, y) => x.aStart - y.aStart || x.bStart - y.bStart);

  // Merge passages overlapping on both sides (chains broken by a larger edit and re-extended)
  // when they lie on nearly one diagonal: two parts standing in opposite order on the two sides
  // (a reordered copy: XY against YX) touch on both sides too, but merged they would pair X with
  // Y; they stay two passages, each reading the same on both sides.
  const diagonal = (x: PassagePair) => x.aStart - x.bStart;
  const merged: PassagePair[] = [];
  for (const p of passages) {
    const q = merged.find(
      (m) =>
        p.aStart <= m.aEnd &&
        p.bStart <= m.bEnd &&
        m.aStart <= p.aEnd &&
        m.bStart <= p.bEnd &&
        Math.abs(diagonal(p) - diagonal(m)) <= gap,
    );
    if (q) {
      q.aStart = Math.min(q.aStart, p.aStart);
      q.aEnd = Math.max(q.aEnd, p.aEnd);
      q.bStart = Math.min(q.bStart, p.bStart);
      q.bEnd = Math.max(q.bEnd, p.bEnd);
    } else merged.push({ ...p });
  }
  return merged;
}

/** Merges ranges into ascending, non-overlapping ones. */
export function mergeRanges(ranges: Array<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const s = ranges.filter((r) => r.end > r.start).sort((x, y) => x.start - y.start);
  const out: Array<{ start: number; end: number }> = [];
  for (const r of s) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
