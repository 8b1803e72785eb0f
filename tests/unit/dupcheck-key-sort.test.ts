/** KeyRows (the full rebuild's in-memory sort of band keys): the same rows as sorting and de-duplicating them. */
import { describe, expect, it } from "vitest";
import { KeyRows, radixOrder } from "../../src/server/dupcheck/key-sort";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

function reference(rows: Array<[number, number]>): number[] {
  const seen = new Set<string>();
  const uniq = rows.filter(([k, w]) => !seen.has(`${k}:${w}`) && seen.add(`${k}:${w}`));
  uniq.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return uniq.flat();
}

describe("KeyRows", () => {
  it("gives rows back by (key, work id) without duplicates, whatever the keys", () => {
    const rand = rng(7);
    const edges = [
      -(2 ** 53) + 1,
      -(2 ** 47),
      -(2 ** 41) - 1,
      -(2 ** 41),
      -(2 ** 41) + 1,
      -1,
      0,
      1,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 41 - 1,
      2 ** 41,
      2 ** 47 * 63 + 5,
      2 ** 53 - 1,
    ];
    for (const n of [0, 1, 5, 1000, 30_000]) {
      const rows: Array<[number, number]> = [];
      const kr = new KeyRows();
      // pushed in work id order, each work's keys together (as the rebuild does), some repeated
      for (let w = 0; rows.length < n; w++) {
        const work = w * 37;
        const count = 1 + Math.floor(rand() * 12);
        for (let c = 0; c < count && rows.length < n; c++) {
          const r = rand();
          const key =
            r < 0.1
              ? edges[Math.floor(rand() * edges.length)]
              : r < 0.4
                ? -(1 + Math.floor(rand() * 2 ** 26) * 2 ** 21 + Math.floor(rand() * 2 ** 21)) // an anchor
                : r < 0.5
                  ? Math.floor(rand() * 4) * 2 ** 47 + Math.floor(rand() * 3) // few keys shared by many works
                  : Math.floor(rand() * 64) * 2 ** 47 + Math.floor(rand() * 2 ** 15) * 2 ** 32 + Math.floor(rand() * 2 ** 32); // a band key
          rows.push([key, work]);
          kr.push(key, work);
          if (rand() < 0.05) {
            rows.push([key, work]);
            kr.push(key, work);
          }
        }
      }
      for (const key of edges.slice(0, n ? 4 : 0)) {
        rows.push([key, 2 ** 32 - 1]); // the largest work id, pushed last
        kr.push(key, 2 ** 32 - 1);
      }
      const got: number[] = [];
      for (const part of kr.sorted(333)) {
        expect(part.length).toBeLessThanOrEqual(666);
        got.push(...part);
      }
      expect(got).toEqual(reference(rows));
    }
  });

  it("refuses what it cannot hold exactly", () => {
    const kr = new KeyRows();
    expect(() => kr.push(2 ** 53, 1)).toThrow();
    expect(() => kr.push(0.5, 1)).toThrow();
    expect(() => kr.push(1, 2 ** 32)).toThrow();
    expect(() => kr.push(1, -1)).toThrow();
  });

  it("radixOrder is a stable sort of 41-bit integers", () => {
    const rand = rng(3);
    const n = 5000;
    const rest = new Float64Array(n);
    for (let i = 0; i < n; i++) rest[i] = rand() < 0.3 ? Math.floor(rand() * 5) : Math.floor(rand() * 2 ** 41);
    const want = Array.from({ length: n }, (_, i) => i).sort((a, b) => rest[a] - rest[b] || a - b);
    expect(Array.from(radixOrder(rest, n))).toEqual(want);
  });
});
