/**
 * Rows (key, work id) gathered in memory and given back in key order (then work id order),
 * without duplicates: the full rebuild's band keys, written into the new dup_band in its own
 * order instead of being sorted by the database (see recomputeBands in ./rebuild-bands.ts).
 *
 * Keys are safe integers in [−2⁵³, 2⁵³) (band keys and the negative passage anchors), work ids
 * integers in [0, 2³²). A row costs 12 bytes. Rows are kept in partitions by the key's top
 * bits (key / 2⁴¹: 4,096 per 2⁵³), each sorted on its own by an LSD radix sort of the 41-bit
 * rest — stable, so rows of one key keep the order they were pushed in: push them in work id
 * order (the rebuild reads the entries in work id order) and they come back by (key, work id).
 */

const PART_SHIFT = 2 ** 41;
const PART_OFFSET = 4096; // partitions of negative keys come first
const PARTS = 2 * PART_OFFSET;
const TWO32 = 4294967296;
const DIGIT_BITS = 11;
const DIGIT = 1 << DIGIT_BITS;

class Part {
  rest: Float64Array;
  work: Uint32Array;
  n = 0;
  constructor(cap: number) {
    this.rest = new Float64Array(cap);
    this.work = new Uint32Array(cap);
  }
  push(rest: number, work: number) {
    if (this.n === this.rest.length) {
      const cap = this.n * 2;
      const r = new Float64Array(cap);
      r.set(this.rest);
      const w = new Uint32Array(cap);
      w.set(this.work);
      this.rest = r;
      this.work = w;
    }
    this.rest[this.n] = rest;
    this.work[this.n] = work;
    this.n++;
  }
}

/** The order of rows 0..n−1 by `rest` (integers in [0, 2⁴¹)), ties in index order: four 11-bit LSD passes. */
export function radixOrder(rest: Float64Array, n: number): Uint32Array {
  let idx = new Uint32Array(n);
  let tmp = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = rest[i];
    lo[i] = r >>> 0; // ToUint32: r mod 2³² for an integer r
    hi[i] = Math.floor(r / TWO32);
  }
  const count = new Uint32Array(DIGIT);
  for (let pass = 0; pass < 4; pass++) {
    const src = pass < 3 ? lo : hi;
    const shift = pass < 3 ? pass * DIGIT_BITS : 0;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(src[i] >>> shift) & (DIGIT - 1)]++;
    if (count[(src[0] >>> shift) & (DIGIT - 1)] === n) continue; // one digit value: already in order for it
    let sum = 0;
    for (let d = 0; d < DIGIT; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = idx[i];
      tmp[count[(src[j] >>> shift) & (DIGIT - 1)]++] = j;
    }
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  return idx;
}

export class KeyRows {
  #parts: Array<Part | undefined> = new Array(PARTS);
  /** rows pushed (duplicates included) */
  size = 0;

  push(key: number, work: number): void {
    if (!Number.isSafeInteger(key) || key < -(2 ** 53)) throw new Error(`not a key: ${key}`);
    if (!(work >= 0 && work < TWO32 && Number.isInteger(work))) throw new Error(`not a work id for KeyRows: ${work}`);
    const p = Math.floor(key / PART_SHIFT);
    const i = p + PART_OFFSET;
    const part = (this.#parts[i] ??= new Part(256));
    part.push(key - p * PART_SHIFT, work);
    this.size++;
  }

  /**
   * The rows in (key, work id) order without duplicates, as flat arrays [key, work, key, work, …]
   * of at most `rows` rows. Each partition is sorted when reached and freed after.
   */
  *sorted(rows: number): Generator<number[]> {
    let out: number[] = [];
    for (let i = 0; i < PARTS; i++) {
      const part = this.#parts[i];
      if (!part) continue;
      this.#parts[i] = undefined;
      const base = (i - PART_OFFSET) * PART_SHIFT;
      const order = radixOrder(part.rest, part.n);
      let lastRest = -1;
      let lastWork = -1;
      for (let j = 0; j < part.n; j++) {
        const o = order[j];
        const r = part.rest[o];
        const w = part.work[o];
        if (r === lastRest && w === lastWork) continue;
        lastRest = r;
        lastWork = w;
        out.push(base + r, w);
        if (out.length === rows * 2) {
          yield out;
          out = [];
        }
      }
    }
    this.size = 0;
    if (out.length) yield out;
  }
}
