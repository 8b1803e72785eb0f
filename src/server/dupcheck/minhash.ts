/**
 * MinHash signatures and LSH band keys.
 *
 * Signature: one-permutation hashing (Li, Owen, Zhang 2012) into 192 bins with optimal
 * densification (Shrivastava 2017): every shingle is hashed once, one hash picks its bin and
 * a second is its value; a bin no shingle fell into copies the value of a bin chosen by a
 * fixed probe sequence. Pr[sigA[i] = sigB[i]] = J(A, B) as with 192 independent
 * permutations, at a 192th of the cost (a rebuild of a million works hashes every shingle
 * once, not 192 times).
 *
 * LSH: 64 bands of 3 rows; a work is a candidate when it shares at least 2 band keys. With
 * p = J³ per band, P(candidate | J) = 1 − (1 − p)⁶⁴ − 64·p·(1 − p)⁶³:
 *     J                     0.05     0.1     0.2    0.3    0.4    0.45   0.5     0.6
 *     64×3, ≥ 2 bands       0.00003  0.0019  0.093  0.52   0.92   0.984  0.9980  1.0000
 *     42×3, ≥ 1 band        0.0052   0.041   0.29   0.68   0.94   0.982  0.9963  1.0000
 *     80×4, ≥ 1 band        0.0005   0.0080  0.12   0.48   0.87   0.965  0.9943  1.0000
 * Recall at J = 0.5 is 0.998 (aim ≥ 0.99), while unrelated works of one topic (J ≈ 0.05–0.1
 * after ignoring common shingles) become candidates 20–150 times less often than with one
 * matching band of 42×3 — and each candidate costs a row read and an exact comparison. A
 * single shared band key costs only an index entry read. 80×4 needs more rows for less.
 *
 * A band key is one number below 2⁵³ (a safe JS integer, a SQLite integer, a PostgreSQL
 * bigint): band index × 2⁴⁷ + a 47-bit hash of the band's 3 values.
 */
import { mix32 } from "./shingles";

export const HASHES = 192;
export const BANDS = 64;
export const ROWS = 3;
/** a work is a candidate when it shares at least this many band keys */
export const MIN_BAND_MATCHES = 2;
/** the bin of a 32-bit hash: its share of 2³² times HASHES */
const binOf = (g: number) => Math.floor(g * (HASHES / 4294967296));
const SEED_BIN = 0x2545f491;
const SEED_VALUE = 0x6c8e9cf5;

/** The probability that two sets with Jaccard j become candidates. */
export function candidateProbability(j: number, bands = BANDS, rows = ROWS, minMatches = MIN_BAND_MATCHES): number {
  const p = j ** rows;
  let below = 0;
  let binom = 1; // C(bands, k)
  for (let k = 0; k < minMatches; k++) {
    below += binom * p ** k * (1 - p) ** (bands - k);
    binom = (binom * (bands - k)) / (k + 1);
  }
  return 1 - below;
}

/** The MinHash signature of a non-empty sorted shingle set; null for an empty one. */
export function signature(set: Uint32Array): Uint32Array | null {
  if (set.length === 0) return null;
  const sig = new Uint32Array(HASHES);
  const filled = new Uint8Array(HASHES);
  for (let i = 0; i < set.length; i++) {
    const h = set[i];
    const bin = binOf(mix32(h ^ SEED_BIN));
    const v = mix32((h + SEED_VALUE) >>> 0);
    if (!filled[bin] || v < sig[bin]) {
      sig[bin] = v;
      filled[bin] = 1;
    }
  }
  for (let i = 0; i < HASHES; i++) {
    if (filled[i]) continue;
    // Optimal densification: probe bins by a hash of (i, attempt) until a filled one.
    for (let attempt = 1; ; attempt++) {
      const j = binOf(mix32(Math.imul(i + 1, 0x9e3779b1) ^ mix32(attempt)));
      if (filled[j]) {
        sig[i] = sig[j];
        break;
      }
    }
  }
  return sig;
}

/** The share of equal values of two signatures (an estimate of J, for tests). */
export function estimateJaccard(a: Uint32Array, b: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < HASHES; i++) if (a[i] === b[i]) n++;
  return n / HASHES;
}

const TWO32 = 2 ** 32;
const TWO47 = 2 ** 47;

/** The BANDS band keys of a signature. */
export function bandKeys(sig: Uint32Array): number[] {
  const keys: number[] = new Array(BANDS);
  for (let b = 0; b < BANDS; b++) {
    const x = sig[b * ROWS];
    const y = sig[b * ROWS + 1];
    const z = sig[b * ROWS + 2];
    const h1 = mix32(mix32(mix32(x ^ Math.imul(b + 1, 0x27d4eb2f)) ^ y) ^ z);
    const h2 = mix32(mix32(mix32(z ^ 0x165667b1) ^ x) + y);
    keys[b] = b * TWO47 + (h1 & 0x7fff) * TWO32 + h2;
  }
  return keys;
}

/** Band keys ↔ bytes (8 per key, float64 little-endian: every key is an exact safe integer). */
export function encodeKeys(keys: number[]): Uint8Array {
  const f = new Float64Array(keys);
  return new Uint8Array(f.buffer);
}

export function decodeKeys(bytes: Uint8Array): number[] {
  const copy = new Uint8Array(bytes); // aligned copy
  return Array.from(new Float64Array(copy.buffer, 0, copy.length >> 3));
}
