/**
 * The fast traditional → simplified conversion (src/server/dupcheck/simplify.ts) gives exactly
 * what opencc-js's Converter({ from: "tw", to: "cn" }) gives, on random strings made of the
 * characters and phrases of the dictionaries it uses (both sides of every entry, so phrases
 * overlap, nest and follow each other), corpus text, ideographic description sequences,
 * characters outside the BMP and stray surrogates. Likewise the shingle set's radix sort and
 * the passage anchors against straightforward reference versions.
 */
import fc from "fast-check";
import { Converter, Locale } from "opencc-js/t2cn";
import { describe, expect, it } from "vitest";
import { CorpusGenerator } from "../../bench/dupcheck-corpus";
import { normalise } from "../../src/server/dupcheck/normalise";
import {
  ANCHOR_MOD,
  ANCHOR_SEED,
  ANCHOR_SPAN,
  SHINGLE,
  anchorKeys,
  mix32,
  shingleSequence,
  sortedUnique,
} from "../../src/server/dupcheck/shingles";
import { twToCn } from "../../src/server/dupcheck/simplify";

const opencc = Converter({ from: "tw", to: "cn" });

// Every entry of every dictionary of the tw2s configuration, as [from, to].
type Dict = string | ReadonlyArray<readonly string[]>;
const cfg = (
  Locale as unknown as {
    configs: Record<string, { normalizationChain?: Dict[][]; segmentation: Dict | Dict[]; conversionChain: Dict[][] }>;
  }
).configs.tw2s;
const dicts: Dict[] = [
  ...(cfg.normalizationChain ?? []).flat(),
  ...(Array.isArray(cfg.segmentation) && cfg.segmentation.every((d) => typeof d === "string")
    ? (cfg.segmentation as Dict[])
    : [cfg.segmentation as Dict]),
  ...cfg.conversionChain.flat(),
];
const entries: string[][] = dicts.flatMap((d) =>
  typeof d === "string" ? d.split("|").map((e) => e.split(" ")) : d.map((e) => [...e]),
);
const phrases = [...new Set(entries.flat().filter((p) => p.length > 0))];
const chars = [...new Set(phrases.flatMap((p) => [...p]))];
const g = new CorpusGenerator(11);
const corpusText = Array.from({ length: 8 }, (_, i) => g.original(i, i % 2 ? 3 : null)).join("");
const corpusSlices = Array.from({ length: 400 }, (_, i) =>
  corpusText.slice((i * 97) % corpusText.length, ((i * 97) % corpusText.length) + 1 + (i % 30)),
);
const specials = [
  "⿰",
  "⿱",
  "⿲",
  "⿳",
  "⿴",
  "⿻",
  "𠮷",
  "𡘙",
  "\ud842",
  "\udfb7",
  "a",
  "Z",
  "1",
  "，",
  " ",
  "\n",
  "ｆ",
  "①",
  "豈",
  "﨎",
  "著",
  "显著",
  "乾隆",
  "一口吃個",
];

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...phrases) },
  { weight: 4, arbitrary: fc.constantFrom(...chars) },
  { weight: 2, arbitrary: fc.constantFrom(...corpusSlices) },
  { weight: 1, arbitrary: fc.constantFrom(...specials) },
  // a prefix of a phrase: a match that breaks off
  { weight: 1, arbitrary: fc.constantFrom(...phrases).map((p) => [...p].slice(0, Math.max(1, [...p].length - 1)).join("")) },
);
const text = fc.array(piece, { minLength: 0, maxLength: 40 }).map((xs) => xs.join(""));

describe("traditional → simplified as opencc-js", () => {
  it("uses the dictionaries it is compared on", () => {
    expect(entries.length).toBeGreaterThan(5_000);
    expect(twToCn("這個系統採用了資料庫與網路伺服器的架構")).toBe("这个系统采用了资料库与网路伺服器的架构");
    expect(twToCn("显著的核心")).toBe(opencc("显著的核心"));
  });

  it("gives opencc-js's output on random strings of dictionary phrases, characters and corpus text", () => {
    fc.assert(
      fc.property(text, (s) => twToCn(s) === opencc(s)),
      { numRuns: 20_000, seed: 13 },
    );
  });

  it("gives opencc-js's output on every dictionary entry, both sides, and on whole corpus works", () => {
    for (const p of phrases) expect(twToCn(p), p).toBe(opencc(p));
    for (let i = 0; i < 30; i++) {
      const w = g.original(i % 60, i % 3 ? null : i);
      expect(twToCn(w)).toBe(opencc(w));
      const kept = normalise(w).text;
      expect(twToCn(kept)).toBe(opencc(kept));
    }
  });

  it("normalise keeps the length where a phrase would change it (per character, as before)", () => {
    const lengthChanging = entries.filter(([a, b]) => b !== undefined && a.length !== b.length).map(([a]) => a);
    expect(lengthChanging.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...lengthChanging), fc.constantFrom(...chars)), { maxLength: 12 }), (xs) => {
        const s = xs.join("");
        const n = normalise(s);
        return n.text.length === n.starts.length;
      }),
      { numRuns: 2_000, seed: 13 },
    );
  });
});

describe("shingle sets and anchors", () => {
  it("sortedUnique sorts and deduplicates as the built-in sort does", () => {
    const arr = fc
      .array(fc.oneof(fc.nat({ max: 0xffffffff }), fc.nat({ max: 5000 })), { maxLength: 3000 })
      .map((xs) => Uint32Array.from(xs));
    fc.assert(
      fc.property(arr, (a) => {
        const s = a.slice().sort();
        const ref = s.filter((v, i) => i === 0 || v !== s[i - 1]);
        expect(Array.from(sortedUnique(a))).toEqual(Array.from(ref));
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it("anchorKeys gives the keys of the plain definition", () => {
    // The definition: both hashes of the seed's characters at every window, kept when h1 ≡ 0 mod ANCHOR_MOD.
    const reference = (t: string, ignored: Uint32Array) => {
      const out = new Set<number>();
      const seq = shingleSequence(t);
      for (let i = 0; i < t.length - ANCHOR_SPAN + 1; i++) {
        let h1 = 0x811c9dc5;
        let h2 = 0x3c6ef372;
        for (const o of ANCHOR_SEED) {
          h1 = mix32(h1 ^ Math.imul(t.charCodeAt(i + o), 0x9e3779b1));
          h2 = mix32((h2 + Math.imul(t.charCodeAt(i + o), 0x27d4eb2f)) >>> 0);
        }
        if (h1 % ANCHOR_MOD !== 0) continue;
        let common = 0;
        for (let j = 0; j <= ANCHOR_SPAN - SHINGLE; j++) if (ignored.includes(seq[i + j])) common++;
        if (ignored.length && common * 2 >= ANCHOR_SPAN - SHINGLE + 1) continue;
        out.add(-(1 + (h1 >>> 6) * 2 ** 21 + (h2 & 0x1fffff)));
      }
      return [...out];
    };
    for (let i = 0; i < 20; i++) {
      const t = normalise(g.original(i, null)).text;
      const ignored = sortedUnique(shingleSequence(t).filter((_, k) => k % 5 === 0));
      expect(anchorKeys(t, ignored)).toEqual(reference(t, ignored));
      expect(anchorKeys(t, new Uint32Array(0))).toEqual(reference(t, new Uint32Array(0)));
    }
  });
});
