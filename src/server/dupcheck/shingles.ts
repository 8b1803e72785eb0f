/**
 * Character 3-gram shingles of a normalised text, hashed to 32 bits, as a sorted set
 * (Uint32Array, ascending, unique); exact Jaccard and containment of two such sets; the
 * compact storage form (delta + LEB128 varint, ~3 bytes a shingle instead of 4).
 *
 * A shingle is 3 consecutive UTF-16 code units of the normalised text (a character outside
 * the BMP counts as two: consistent on both sides, and rare).
 */

export const SHINGLE = 3;

/** murmur3's 32-bit finaliser: a bijective mix. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The hash of the 3 code units a, b, c. */
export function shingleHash(a: number, b: number, c: number): number {
  return mix32(mix32(Math.imul(a, 0x9e3779b1) ^ b) ^ Math.imul(c, 0x85ebca77) ^ 0x5bd1e995);
}

/** The hashes of every 3-gram at position i (text[i..i+3)), in text order (duplicates kept). */
export function shingleSequence(text: string): Uint32Array {
  const n = text.length - SHINGLE + 1;
  if (n <= 0) return new Uint32Array(0);
  const out = new Uint32Array(n);
  let a = text.charCodeAt(0);
  let b = text.charCodeAt(1);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i + 2);
    out[i] = shingleHash(a, b, c);
    a = b;
    b = c;
  }
  return out;
}

/** The sorted set of 3-gram hashes of a normalised text. */
export function shingleSet(text: string): Uint32Array {
  return sortedUnique(shingleSequence(text));
}

export function sortedUnique(a: Uint32Array): Uint32Array {
  if (a.length === 0) return a;
  const s = a.length < RADIX_MIN ? a.slice().sort() : radixSort(a);
  let w = 1;
  for (let i = 1; i < s.length; i++) if (s[i] !== s[w - 1]) s[w++] = s[i];
  return s.slice(0, w);
}

/** Below this many values the built-in sort is as fast. */
const RADIX_MIN = 256;
const radixCounts = new Uint32Array(3 * 2048);

/**
 * A copy of `a` sorted ascending (as Uint32Array.prototype.sort): LSD radix sort in three
 * passes of 11 bits. A work's few thousand shingles sort several times faster than with the
 * built-in comparison sort, which was the largest part of shingling.
 */
function radixSort(a: Uint32Array): Uint32Array {
  const n = a.length;
  const c = radixCounts;
  c.fill(0);
  for (let i = 0; i < n; i++) {
    const v = a[i];
    c[v & 0x7ff]++;
    c[2048 + ((v >>> 11) & 0x7ff)]++;
    c[4096 + (v >>> 22)]++;
  }
  for (let p = 0; p < 3; p++) {
    let sum = 0;
    for (let b = p * 2048, e = b + 2048; b < e; b++) {
      const x = c[b];
      c[b] = sum;
      sum += x;
    }
  }
  const t = new Uint32Array(n);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = a[i];
    t[c[v & 0x7ff]++] = v;
  }
  for (let i = 0; i < n; i++) {
    const v = t[i];
    out[c[2048 + ((v >>> 11) & 0x7ff)]++] = v;
  }
  for (let i = 0; i < n; i++) {
    const v = out[i];
    t[c[4096 + (v >>> 22)]++] = v;
  }
  return t;
}

/** a minus the values in `ignored` (both sorted). Returns `a` itself when nothing is removed. */
export function without(a: Uint32Array, ignored: Uint32Array): Uint32Array {
  if (ignored.length === 0 || a.length === 0) return a;
  const out = new Uint32Array(a.length);
  let w = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    while (j < ignored.length && ignored[j] < v) j++;
    if (j < ignored.length && ignored[j] === v) continue;
    out[w++] = v;
  }
  return w === a.length ? a : out.slice(0, w);
}

/** |a ∩ b| of two sorted sets. */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

export interface Similarity {
  shared: number;
  jaccard: number;
  /** |A∩B| / |A| */
  containmentAB: number;
  /** |A∩B| / |B| */
  containmentBA: number;
  similarity: number;
}

export function similarityOf(shared: number, sizeA: number, sizeB: number): Similarity {
  const union = sizeA + sizeB - shared;
  const jaccard = union > 0 ? shared / union : 0;
  const containmentAB = sizeA > 0 ? shared / sizeA : 0;
  const containmentBA = sizeB > 0 ? shared / sizeB : 0;
  return { shared, jaccard, containmentAB, containmentBA, similarity: Math.max(jaccard, containmentAB, containmentBA) };
}

/** Exact figures of two sorted sets. */
export function compareSets(a: Uint32Array, b: Uint32Array): Similarity {
  return similarityOf(intersectionSize(a, b), a.length, b.length);
}

/**
 * Storage form: count as varint, then the deltas as varints (first delta from 0). Both
 * directions are written out byte by byte (no closure, no float powers): decoding every
 * candidate's set is most of a check's and a rebuild's CPU time.
 */
export function encodeSet(s: Uint32Array): Uint8Array {
  const out = new Uint8Array(5 + s.length * 5);
  let p = 0;
  let v = s.length;
  while (v >= 0x80) {
    out[p++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[p++] = v;
  let prev = 0;
  for (let i = 0; i < s.length; i++) {
    let d = s[i] - prev; // < 2³²
    prev = s[i];
    if (d >= 0x10000000) {
      // 5 bytes: the low 28 bits in 4, then the rest
      out[p++] = (d & 0x7f) | 0x80;
      out[p++] = ((d >>> 7) & 0x7f) | 0x80;
      out[p++] = ((d >>> 14) & 0x7f) | 0x80;
      out[p++] = ((d >>> 21) & 0x7f) | 0x80;
      out[p++] = d >>> 28;
      continue;
    }
    while (d >= 0x80) {
      out[p++] = (d & 0x7f) | 0x80;
      d >>>= 7;
    }
    out[p++] = d;
  }
  return out.slice(0, p);
}

export function decodeSet(bytes: Uint8Array): Uint32Array {
  let p = 0;
  let n = 0;
  let shift = 0;
  let b: number;
  do {
    b = bytes[p++];
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  const out = new Uint32Array(n);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    b = bytes[p++];
    let v = b & 0x7f;
    if (b & 0x80) {
      b = bytes[p++];
      v |= (b & 0x7f) << 7;
      if (b & 0x80) {
        b = bytes[p++];
        v |= (b & 0x7f) << 14;
        if (b & 0x80) {
          b = bytes[p++];
          v |= (b & 0x7f) << 21;
          if (b & 0x80) {
            b = bytes[p++];
            v += (b & 0x7f) * 0x10000000;
            // (a longer varint never occurs: deltas are below 2³²)
            while (b & 0x80) b = bytes[p++];
          }
        }
      }
    }
    prev += v;
    out[i] = prev;
  }
  return out;
}

/** A set of 32-bit values for membership tests (open addressing; the values are hashes already, so spread by a multiply). */
export class U32Set {
  readonly size: number;
  readonly keys: Uint32Array;
  readonly used: Uint8Array;
  readonly shift: number;
  readonly mask: number;
  constructor(values: ArrayLike<number>) {
    let bits = 4;
    while (1 << bits < values.length * 2) bits++;
    this.keys = new Uint32Array(1 << bits);
    this.used = new Uint8Array(1 << bits);
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    let n = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i] >>> 0;
      let j = Math.imul(v, 0x9e3779b1) >>> this.shift;
      while (this.used[j] && this.keys[j] !== v) j = (j + 1) & this.mask;
      if (!this.used[j]) {
        this.used[j] = 1;
        this.keys[j] = v;
        n++;
      }
    }
    this.size = n;
  }
  has(v: number): boolean {
    let j = Math.imul(v, 0x9e3779b1) >>> this.shift;
    while (this.used[j]) {
      if (this.keys[j] === v) return true;
      j = (j + 1) & this.mask;
    }
    return false;
  }
}

/**
 * A stored set (encodeSet's bytes) against a set `a` and the ignored shingles, in one pass
 * without decoding into an array: `shared` = |a ∩ b|, `size` = |b − ignored|. The same
 * figures as intersectionSize(a, decodeSet(bytes)) and decodeSet(bytes).length −
 * intersectionSize(decodeSet(bytes), ignored), without walking the (long) ignored list for
 * every candidate: a check compares every candidate this way.
 */
export function compareStored(bytes: Uint8Array, a: U32Set, ignored: U32Set): { shared: number; size: number } {
  let p = 0;
  let n = 0;
  let shift = 0;
  let b: number;
  do {
    b = bytes[p++];
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  let prev = 0;
  let shared = 0;
  let common = 0;
  const checkIgnored = ignored.size > 0;
  const { keys: aKeys, used: aUsed, shift: aShift, mask: aMask } = a;
  const { keys: iKeys, used: iUsed, shift: iShift, mask: iMask } = ignored;
  for (let c = 0; c < n; c++) {
    b = bytes[p++];
    let v = b & 0x7f;
    if (b & 0x80) {
      b = bytes[p++];
      v |= (b & 0x7f) << 7;
      if (b & 0x80) {
        b = bytes[p++];
        v |= (b & 0x7f) << 14;
        if (b & 0x80) {
          b = bytes[p++];
          v |= (b & 0x7f) << 21;
          if (b & 0x80) {
            b = bytes[p++];
            v += (b & 0x7f) * 0x10000000;
            while (b & 0x80) b = bytes[p++];
          }
        }
      }
    }
    prev += v;
    // (a.has / ignored.has inlined: this loop runs for every shingle of every candidate)
    const h = Math.imul(prev, 0x9e3779b1);
    let j = h >>> aShift;
    let hit = false;
    while (aUsed[j]) {
      if (aKeys[j] === prev) {
        hit = true;
        break;
      }
      j = (j + 1) & aMask;
    }
    if (hit) shared++;
    else if (checkIgnored) {
      // (a holds no ignored shingle)
      j = h >>> iShift;
      while (iUsed[j]) {
        if (iKeys[j] === prev) {
          common++;
          break;
        }
        j = (j + 1) & iMask;
      }
    }
  }
  return { shared, size: n - common };
}

/**
 * Passage anchors: content-defined samples of the normalised text, for finding a work that
 * copies a few paragraphs of a much longer one (whole-document Jaccard is then low and the
 * MinHash bands miss the pair, but containment is high) and a copy with many characters
 * substituted (20–30 %: Jaccard of the 3-gram sets ≈ 0.2–0.35, where the bands find one pair
 * in ten to two in three). An anchor is a spaced seed (as homology search uses): the hash of
 * the ANCHOR_SEED.length characters at the offsets ANCHOR_SEED of a window of ANCHOR_SPAN,
 * taken where that hash ≡ 0 mod ANCHOR_MOD (one position in ANCHOR_MOD, chosen by content, so
 * a copied passage yields the same anchors wherever it stands). A substituted character
 * breaks only the seeds that read it: with a share s of characters substituted a seed survives
 * with (1 − s)⁶ (0.26 at 20 %, 0.12 at 30 %), against 0.07 and 0.014 for the 12 contiguous
 * characters used before, while six characters at fixed gaps are as rare in unrelated texts as
 * a contiguous six. A 2,000-character work has ~100 anchors; a 30 % copy of it shares ~12, an
 * unrelated same-topic work 0–3. Windows made mostly of ignored (very common) shingles are
 * skipped. Each anchor is a negative safe integer (> −2⁴⁸), so it shares dup_band with the
 * (non-negative) LSH band keys.
 */
export const ANCHOR_SEED = [0, 1, 3, 5, 7, 8];
export const ANCHOR_SPAN = 9;
export const ANCHOR_MOD = 20;

const inSorted = (a: Uint32Array, v: number) => {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (a[m] === v) return true;
    if (a[m] < v) lo = m + 1;
    else hi = m - 1;
  }
  return false;
};

/** `seq`: shingleSequence(text), when the caller has it already. */
export function anchorKeys(text: string, ignored: Uint32Array, seq: Uint32Array = shingleSequence(text)): number[] {
  const out = new Set<number>();
  const n = text.length - ANCHOR_SPAN + 1;
  const windowShingles = ANCHOR_SPAN - SHINGLE + 1;
  for (let i = 0; i < n; i++) {
    let h1 = 0x811c9dc5;
    for (const o of ANCHOR_SEED) h1 = mix32(h1 ^ Math.imul(text.charCodeAt(i + o), 0x9e3779b1));
    if (h1 % ANCHOR_MOD !== 0) continue;
    // (the second hash only for the one position in ANCHOR_MOD that is an anchor)
    let h2 = 0x3c6ef372;
    for (const o of ANCHOR_SEED) h2 = mix32((h2 + Math.imul(text.charCodeAt(i + o), 0x27d4eb2f)) >>> 0);
    if (ignored.length) {
      let common = 0;
      for (let j = 0; j < windowShingles; j++) if (inSorted(ignored, seq[i + j])) common++;
      if (common * 2 >= windowShingles) continue;
    }
    out.add(-(1 + (h1 >>> 6) * 2 ** 21 + (h2 & 0x1fffff)));
  }
  return [...out];
}
