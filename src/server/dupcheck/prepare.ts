/**
 * Preparing a text for the index (pure, no database): normalised, shingled, its full and
 * effective (ignored shingles left out) sets, its passage anchors and its text hash; the band
 * keys of an effective set; the too-short reason; which works are indexed.
 */
import { createHash } from "node:crypto";
import type { DupReason, DupSettings } from "../../shared/dupcheck/schema";
import { BANDS, HASHES, MIN_BAND_MATCHES, ROWS, bandKeys, signature } from "./minhash";
import { normalise } from "./normalise";
import { SHINGLE, anchorKeys, shingleSequence, sortedUnique, without } from "./shingles";

/** Changes whenever normalisation, shingling or signatures change: every text_hash then differs. */
export const PARAMS_TAG = "dupcheck-v3;shingle=3;oph=192;bands=64x3;min=2;anchors=seed6of9/20";
export const DUP_PARAMS = { hashes: HASHES, bands: BANDS, rows: ROWS, minBandMatches: MIN_BAND_MATCHES, shingle: SHINGLE };

/** Which works are indexed: every work past draft. */
export function isIndexable(status: string): boolean {
  return status !== "draft";
}

export interface Prepared {
  /** the full sorted shingle set (stored) */
  full: Uint32Array;
  /** without the ignored shingles (compared and signed) */
  eff: Uint32Array;
  /** passage anchors (negative keys, see anchorKeys) */
  anchors: number[];
  textHash: string;
}

export function prepareText(text: string, ignored: Uint32Array): Prepared {
  const n = normalise(text);
  const seq = shingleSequence(n.text);
  const full = sortedUnique(seq);
  return {
    full,
    eff: without(full, ignored),
    anchors: anchorKeys(n.text, ignored, seq),
    textHash: createHash("sha256").update(PARAMS_TAG).update("\0").update(n.text).digest("hex"),
  };
}

/** Band keys of an effective set, or null when it is too short to check. */
export function bandsOf(eff: Uint32Array, settings: DupSettings): number[] | null {
  if (eff.length < settings.minShingles) return null;
  const sig = signature(eff);
  return sig ? bandKeys(sig) : null;
}

export const TOO_SHORT_MESSAGE = "文本过短（去掉标点、空格和常见套话后不足以比对），无法可靠查重";
export const tooShortReason = (): DupReason => ({ code: "too_short", fileId: null, filename: null, message: TOO_SHORT_MESSAGE });
