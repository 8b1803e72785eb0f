/**
 * Traditional → simplified (Taiwan standard → mainland), giving exactly what opencc-js's
 * `Converter({ from: "tw", to: "cn" })` gives, several times faster. Built from opencc-js's own
 * dictionaries and its tw2s configuration (normalisation chain, segmentation by phrases,
 * conversion chain), with the same greedy longest-match algorithm as its Trie: what differs is
 * only the data structure (the first character of every match is looked up in a table over the
 * BMP instead of a Map, no object per match, runs of unchanged text copied as one slice).
 * tests/unit/dupcheck-simplify.test.ts compares it with opencc-js on random strings made of the
 * dictionaries' characters and phrases and of corpus text.
 *
 * Profiled on the duplicate-check benchmark's corpus, opencc-js was most of the normalisation's
 * time: nearly every text holds a character the conversion can change (著 → 着 in 显著), so
 * skipping it for texts without such characters did not help.
 */
import { Converter, Locale } from "opencc-js/t2cn";

type DictLike = string | ReadonlyArray<readonly [string, string]> | ReadonlyArray<readonly string[]>;
type DictGroup = readonly DictLike[];

const PAIR_SLOTS = 1 << 18;
const pairSlot = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> 14;

/** A trie over code points: the root's BMP children in a table, every other edge in a per-node Map. */
class FastTrie {
  readonly #rootBmp = new Int32Array(65536); // child node id, 0 = none
  readonly #children: Array<Map<number, number> | undefined> = [new Map()];
  readonly #values: Array<string | undefined> = [undefined];
  /** 1 where some word's first two code points hash to the slot: 0 means no match longer than one code point */
  readonly #pairs = new Uint8Array(PAIR_SLOTS);

  #child(node: number, cp: number): number {
    if (node === 0 && cp < 65536) return this.#rootBmp[cp];
    return this.#children[node]?.get(cp) ?? 0;
  }

  addWord(s: string, v: string) {
    const cps = [...s].map((ch) => ch.codePointAt(0)!);
    if (cps.length >= 2) this.#pairs[pairSlot(cps[0], cps[1])] = 1;
    let node = 0;
    for (const ch of s) {
      const cp = ch.codePointAt(0)!;
      let next = this.#child(node, cp);
      if (next === 0) {
        next = this.#values.length;
        this.#values.push(undefined);
        this.#children.push(undefined);
        if (node === 0 && cp < 65536) this.#rootBmp[cp] = next;
        else (this.#children[node] ??= new Map()).set(cp, next);
      }
      node = next;
    }
    this.#values[node] = v;
  }

  /** As opencc-js's Trie.loadDict. */
  loadDict(d: DictLike) {
    if (typeof d === "string") {
      for (const line of d.split("|")) {
        const [l, r] = line.split(" ");
        if (typeof r !== "string") throw new TypeError("invalid dictionary entry");
        this.addWord(l, r);
      }
    } else for (const [l, r] of d) this.addWord(l, r);
  }

  /** As opencc-js's Trie.loadDictGroup: the first dictionary of the group wins. */
  loadDictGroup(g: DictGroup) {
    for (const d of g.slice().reverse()) this.loadDict(d);
  }

  /** The end of the longest match at i (0: none); its value in `matched`. */
  matched: string | undefined = undefined;
  matchPrefix(s: string, i: number): number {
    const n = s.length;
    const first = s.codePointAt(i)!;
    let j = i + (first > 0xffff ? 2 : 1);
    let node = first < 65536 ? this.#rootBmp[first] : (this.#children[0]!.get(first) ?? 0);
    if (node === 0) return 0;
    let k = 0;
    const v0 = this.#values[node];
    if (v0 !== undefined) {
      k = j;
      this.matched = v0;
    }
    if (j >= n || this.#pairs[pairSlot(first, s.codePointAt(j)!)] === 0) return k;
    while (j < n) {
      const x = s.codePointAt(j)!;
      j += x > 0xffff ? 2 : 1;
      const next = this.#children[node]?.get(x) ?? 0;
      if (next === 0) break;
      node = next;
      const v = this.#values[node];
      if (v !== undefined) {
        k = j;
        this.matched = v;
      }
    }
    return k;
  }

  /** Whether a match can start at i (its first code point is a root key). */
  #mayStart(s: string, i: number): boolean {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) return this.#rootBmp[c] !== 0;
    const cp = s.codePointAt(i)!;
    return cp < 65536 ? this.#rootBmp[cp] !== 0 : this.#children[0]!.has(cp);
  }

  /** As opencc-js's Trie.convert. */
  convert(s: string): string {
    const n = s.length;
    let out = "";
    let copied = 0; // s[copied, i) is unmatched text not yet copied
    for (let i = 0; i < n;) {
      if (this.#mayStart(s, i)) {
        const end = this.matchPrefix(s, i);
        if (end > 0) {
          if (copied < i) out += s.slice(copied, i);
          out += this.matched!;
          i = copied = end;
          continue;
        }
      }
      i += unmatchedLength(s, i);
    }
    return copied === 0 ? s : copied < n ? out + s.slice(copied) : out;
  }

  /** As opencc-js's Trie.segment: matched phrases and the unmatched runs between them, in order. */
  segment(s: string): string[] {
    const n = s.length;
    const out: string[] = [];
    let runStart = -1;
    for (let i = 0; i < n;) {
      const end = this.#mayStart(s, i) ? this.matchPrefix(s, i) : 0;
      if (end > 0) {
        if (runStart >= 0) {
          out.push(s.slice(runStart, i));
          runStart = -1;
        }
        out.push(s.slice(i, end));
        i = end;
      } else {
        if (runStart < 0) runStart = i;
        i += unmatchedLength(s, i);
      }
    }
    if (runStart >= 0) out.push(s.slice(runStart, n));
    return out;
  }
}

// Ideographic description sequences are skipped whole when unmatched (as opencc-js does).
const codePointLength = (s: string, i: number) => (s.codePointAt(i)! > 0xffff ? 2 : 1);
function idsArity(cp: number): number {
  if (cp >= 0x2ff0 && cp <= 0x2ff1) return 2;
  if (cp >= 0x2ff2 && cp <= 0x2ff3) return 3;
  if (cp >= 0x2ff4 && cp <= 0x2fff) return 2;
  return 0;
}
function idsEnd(s: string, i: number): number {
  const arity = idsArity(s.codePointAt(i)!);
  if (arity === 0) return 0;
  let end = i + codePointLength(s, i);
  for (let k = 0; k < arity; k++) {
    if (end >= s.length) return 0;
    const child = idsEnd(s, end);
    end = child || end + codePointLength(s, end);
  }
  return end;
}
function unmatchedLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0x2ff0 && c <= 0x2fff) {
    const e = idsEnd(s, i);
    if (e > i) return e - i;
    return 1;
  }
  return c >= 0xd800 && c <= 0xdbff ? codePointLength(s, i) : 1;
}

interface Tw2sConfig {
  normalizationChain?: readonly DictGroup[];
  segmentation?: DictLike | DictGroup;
  conversionChain: readonly DictGroup[];
}

function build(): ((s: string) => string) | null {
  const cfg = (Locale as unknown as { configs?: Record<string, Tw2sConfig> }).configs?.tw2s;
  if (!cfg || !Array.isArray(cfg.conversionChain)) return null;
  const group = (g: DictGroup) => {
    const t = new FastTrie();
    t.loadDictGroup(g);
    return t;
  };
  const normalisers = (cfg.normalizationChain ?? []).map(group);
  let segmenter: FastTrie | null = null;
  if (cfg.segmentation) {
    segmenter = new FastTrie();
    const seg = cfg.segmentation;
    if (Array.isArray(seg) && seg.every((d) => typeof d === "string")) segmenter.loadDictGroup(seg as DictGroup);
    else segmenter.loadDict(seg as DictLike);
  }
  const chain = cfg.conversionChain.map(group);
  return (s: string) => {
    for (const t of normalisers) s = t.convert(s);
    const segments = segmenter ? segmenter.segment(s) : [s];
    let out = "";
    for (let seg of segments) {
      for (const t of chain) seg = t.convert(seg);
      out += seg;
    }
    return out;
  };
}

let converter: ((s: string) => string) | undefined;

/**
 * opencc-js's tw → cn conversion; the fast one when opencc-js's tw2s configuration is as
 * expected. Its tries are built on the first call (about 0.1 s of CPU and some megabytes that
 * a process serving no duplicate check should not pay at start).
 */
export const twToCn = (s: string): string => (converter ??= build() ?? Converter({ from: "tw", to: "cn" }))(s);
