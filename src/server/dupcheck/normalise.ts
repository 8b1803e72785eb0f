/**
 * Text normalisation for the duplicate check, with an offset map back to the original.
 *
 * Each code point of the original is NFKC-normalised (full-width letters, digits and
 * punctuation become half-width; compatibility forms like ① become 1), lower-cased, and only
 * letters and digits are kept (punctuation, spaces, symbols and line breaks are dropped).
 * Traditional characters become simplified as opencc-js converts them (Taiwan standard →
 * mainland; ./simplify.ts gives exactly its output, faster). Every kept character remembers
 * the original range it came from, so passages found in the normalised text can be
 * highlighted in the original.
 *
 * Speed: a table over the Basic Multilingual Plane decides per code unit (keep / drop /
 * replace) without calling normalize(); the converter copies runs of text no dictionary
 * entry starts in as they are (./simplify.ts).
 */
import { twToCn } from "./simplify";

export interface Normalised {
  text: string;
  /** normalised code unit i came from original[starts[i], ends[i]) */
  starts: Uint32Array;
  ends: Uint32Array;
}

const KEEP = 1;
const DROP = 0;
const MAP = 2;

const isKept = /^[\p{L}\p{N}]$/u;

// Per BMP code unit: KEEP as is, DROP, or MAP to `mapped[c]` (letters/digits only, possibly several).
const kind = new Uint8Array(65536);
const mapped = new Map<number, string>();
function classify(ch: string): string {
  let out = "";
  for (const c of ch.normalize("NFKC").toLowerCase()) if (isKept.test(c)) out += c;
  return out;
}
for (let c = 0; c < 65536; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue; // surrogates: handled as pairs
  const ch = String.fromCharCode(c);
  const out = classify(ch);
  if (out === ch) kind[c] = KEEP;
  else if (out === "") kind[c] = DROP;
  else {
    kind[c] = MAP;
    mapped.set(c, out);
  }
}

/** Traditional → simplified, keeping the length (per character where a phrase would change it). */
function toSimplified(s: string): string {
  const conv = twToCn;
  const whole = conv(s);
  if (whole.length === s.length) return whole;
  let out = "";
  for (const ch of s) {
    const c = conv(ch);
    out += c.length === ch.length ? c : ch;
  }
  return out;
}

/** Normalises `original` for comparison; see the module header. */
export function normalise(original: string): Normalised {
  const n = original.length;
  const starts = new Uint32Array(n * 2 + 4);
  const ends = new Uint32Array(n * 2 + 4);
  const parts: string[] = [];
  let buf = "";
  let len = 0;
  const push = (s: string, from: number, to: number) => {
    if (len + s.length > starts.length) return; // NFKC expansions beyond 2× (never in practice)
    for (let j = 0; j < s.length; j++) {
      starts[len] = from;
      ends[len] = to;
      len++;
    }
    buf += s;
    if (buf.length > 4096) {
      parts.push(buf);
      buf = "";
    }
  };
  let runStart = -1; // a run of KEPT code units copied at once
  const flushRun = (i: number) => {
    if (runStart < 0) return;
    const s = original.slice(runStart, i);
    for (let j = 0; j < s.length; j++) {
      starts[len + j] = runStart + j;
      ends[len + j] = runStart + j + 1;
    }
    len += s.length;
    buf += s;
    if (buf.length > 4096) {
      parts.push(buf);
      buf = "";
    }
    runStart = -1;
  };
  for (let i = 0; i < n; i++) {
    const c = original.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = original.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        flushRun(i);
        const out = classify(original.slice(i, i + 2));
        if (out) push(out, i, i + 2);
        i++;
        continue;
      }
    }
    const k = kind[c];
    if (k === KEEP) {
      if (runStart < 0) runStart = i;
      continue;
    }
    flushRun(i);
    if (k === MAP) push(mapped.get(c)!, i, i + 1);
  }
  flushRun(n);
  parts.push(buf);
  const text = toSimplified(parts.join(""));
  return { text, starts: starts.slice(0, len), ends: ends.slice(0, len) };
}

/** Maps a normalised range [start, end) back to the original's [start, end). */
export function toOriginalRange(n: Normalised, start: number, end: number): { start: number; end: number } {
  if (end <= start || start >= n.text.length) {
    const at = start < n.starts.length ? n.starts[start] : n.ends.length ? n.ends[n.ends.length - 1] : 0;
    return { start: at, end: at };
  }
  return { start: n.starts[start], end: n.ends[Math.min(end, n.text.length) - 1] };
}
