/**
 * The defence draw (src/server/judging/draw.ts): the same seed gives the same order, every
 * work appears exactly once, different seeds give different orders, the order depends only
 * on the set of works, and positions are close to uniform.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { drawOrder, drawWorkOrder, seedStream, slotTime, uniformBelow } from "../../src/server/judging/draw";

const ids = Array.from({ length: 12 }, (_, i) => 2026000100 + i * 7);

describe("defence draw", () => {
  it("gives the same order for the same seed, every time", () => {
    const seed = "3f1c9a0b7d2e4c58a6b1f0e9d8c7b6a5";
    const a = drawWorkOrder(seed, ids);
    for (let k = 0; k < 5; k++) expect(drawWorkOrder(seed, ids)).toEqual(a);
    // A fixed vector, so that a change of the algorithm cannot pass unnoticed.
    expect(drawWorkOrder("demo", [1, 2, 3, 4, 5, 6, 7, 8])).toEqual([7, 5, 8, 2, 6, 3, 4, 1]);
  });

  it("contains every work exactly once, for any size", () => {
    for (let n = 0; n <= 40; n++) {
      const list = Array.from({ length: n }, (_, i) => 2026000001 + i);
      const order = drawWorkOrder(`seed-${n}`, list);
      expect(order).toHaveLength(n);
      expect(new Set(order).size).toBe(n);
      expect([...order].sort((a, b) => a - b)).toEqual(list);
    }
  });

  it("depends only on the set of works, not on the order they are given in", () => {
    const seed = "abc";
    expect(drawWorkOrder(seed, [...ids].reverse())).toEqual(drawWorkOrder(seed, ids));
    expect(ids).toEqual([...ids].sort((a, b) => a - b)); // the input is not changed
  });

  it("gives different orders for different seeds", () => {
    const orders = new Set(Array.from({ length: 50 }, (_, i) => drawWorkOrder(`s${i}`, ids).join(",")));
    expect(orders.size).toBeGreaterThan(45);
  });

  it("follows the documented stream: sha256(seed:k), big-endian 32-bit numbers", () => {
    const next = seedStream("x");
    const block0 = createHash("sha256").update("x:0").digest();
    const block1 = createHash("sha256").update("x:1").digest();
    for (let i = 0; i < 8; i++) expect(next()).toBe(block0.readUInt32BE(i * 4));
    expect(next()).toBe(block1.readUInt32BE(0));
    // Re-computed by hand for three items: Fisher–Yates from the last position.
    const s = seedStream("check");
    const items = ["a", "b", "c"];
    const j2 = uniformBelow(s, 2);
    [items[2], items[j2]] = [items[j2], items[2]];
    const j1 = uniformBelow(s, 1);
    [items[1], items[j1]] = [items[j1], items[1]];
    expect(drawOrder("check", ["a", "b", "c"])).toEqual(items);
  });

  it("puts each work in each position about equally often", () => {
    const n = 5;
    const counts = Array.from({ length: n }, () => Array(n).fill(0));
    const runs = 5000;
    for (let r = 0; r < runs; r++) {
      drawOrder(`u${r}`, [0, 1, 2, 3, 4]).forEach((item, pos) => counts[item][pos]++);
    }
    for (const row of counts) for (const c of row) expect(Math.abs(c - runs / n)).toBeLessThan(runs / n / 5);
  });

  it("refuses an empty seed", () => {
    expect(() => drawOrder("", [1, 2])).toThrow();
  });

  it("times the slots from the start, one interval per position", () => {
    expect(slotTime("2026-07-20T01:00:00.000Z", 1, 15)).toBe("2026-07-20T01:00:00.000Z");
    expect(slotTime("2026-07-20T01:00:00.000Z", 3, 15)).toBe("2026-07-20T01:30:00.000Z");
    expect(slotTime(null, 3, 15)).toBeNull();
  });
});

describe("the short draw code (issue 15)", () => {
  it("is ten readable characters and is the seed the check command recomputes the order from", async () => {
    const { newSeed } = await import("../../src/server/judging/service/defence");
    const { drawCheck } = await import("../../src/server/judging/draw-check-cli");
    const { drawWorkOrder } = await import("../../src/server/judging/draw");
    const codes = new Set(Array.from({ length: 200 }, () => newSeed()));
    expect(codes.size).toBe(200);
    for (const c of codes) expect(c).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    const code = [...codes][0];
    const lines = drawCheck([code, "9", "3,5"]);
    expect(lines[0]).toBe(`算法 sha256-fisher-yates-v1，抽签码 ${code}，作品 3、5、9`);
    expect(lines.slice(1)).toEqual(drawWorkOrder(code, [3, 5, 9]).map((id, i) => `第 ${i + 1} 位：作品 ${id}`));
    expect(drawCheck([code])[0]).toContain("用法");
  });
});
