/** compareStored (a check's comparison of a candidate's stored set): the figures of decoding the set and intersecting. */
import { describe, expect, it } from "vitest";
import { U32Set, compareStored, decodeSet, encodeSet, intersectionSize, sortedUnique } from "../../src/server/dupcheck/shingles";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

describe("compareStored", () => {
  it("gives |a ∩ b| and |b − ignored| as decoding and intersecting does", () => {
    const rand = rng(11);
    const pool = Uint32Array.from({ length: 4000 }, () => Math.floor(rand() * 2 ** 32));
    const pick = (n: number, wide: boolean) =>
      sortedUnique(
        Uint32Array.from({ length: n }, () =>
          wide && rand() < 0.3 ? Math.floor(rand() * 2 ** 32) : pool[Math.floor(rand() * pool.length)],
        ),
      );
    for (let t = 0; t < 300; t++) {
      const ignored = pick(Math.floor(rand() * 400), false);
      const a0 = pick(Math.floor(rand() * 1500), true);
      const a = a0.filter((v) => intersectionSize(Uint32Array.of(v), ignored) === 0);
      const extremes = t % 10 === 0 ? [0, 1, 2 ** 28 - 1, 2 ** 28, 2 ** 32 - 1] : [];
      const b = sortedUnique(Uint32Array.from([...pick(Math.floor(rand() * 1500), true), ...extremes]));
      const bytes = encodeSet(b);
      const d = decodeSet(bytes);
      expect(Array.from(d)).toEqual(Array.from(b));
      expect(compareStored(bytes, new U32Set(a), new U32Set(ignored))).toEqual({
        shared: intersectionSize(a, d),
        size: d.length - intersectionSize(d, ignored),
      });
    }
    const u = new U32Set(Uint32Array.of(0, 5, 2 ** 32 - 1, 5, 17));
    expect([u.size, u.has(0), u.has(5), u.has(2 ** 32 - 1), u.has(17), u.has(1), u.has(2 ** 32 - 2)]).toEqual([
      4,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(new U32Set([]).has(0)).toBe(false);
    expect(compareStored(encodeSet(new Uint32Array(0)), new U32Set(Uint32Array.of(1, 2)), new U32Set(Uint32Array.of(3)))).toEqual(
      { shared: 0, size: 0 },
    );
  });
});
