/** The pure results rules (src/server/judging/results.ts): ranks, award allocation, promotion. */
import { describe, expect, it } from "vitest";
import {
  allocateAwards,
  allocationRanks,
  choosePromotions,
  computeGroup,
  levelCounts,
  rankRows,
} from "../../src/server/judging/results";

describe("rankRows", () => {
  it("gives equal scores one rank, skips the places they take, and leaves unscored works unranked", () => {
    const rows = rankRows([
      { workId: 5, score: 80 },
      { workId: 1, score: null },
      { workId: 3, score: 90 },
      { workId: 2, score: 80 + 1e-12 },
      { workId: 4, score: 70 },
    ]);
    expect(rows.map((r) => [r.workId, r.rank])).toEqual([
      [3, 1],
      [2, 2],
      [5, 2],
      [4, 4],
      [1, null],
    ]);
  });
});

describe("levelCounts and allocateAwards", () => {
  const levels = [
    { id: 1, ratio: 0.1, maxCount: null },
    { id: 2, ratio: 0.2, maxCount: 3 },
    { id: 3, ratio: null, maxCount: 2 },
    { id: 4, ratio: null, maxCount: null },
  ];
  it("counts ⌊n × ratio⌋ per level, capped by the maximum count; a level with neither is manual only", () => {
    expect(levelCounts(levels, 29)).toEqual([2, 3, 2, null]);
    expect(levelCounts(levels, 100)).toEqual([10, 3, 2, null]);
    expect(levelCounts([{ id: 1, ratio: 0.29, maxCount: null }], 100)).toEqual([29]);
  });

  it("walks the ranking; a tie at a boundary shares the better award; manual awards keep their place", () => {
    const ranks = [1, 2, 2, 4, 5, 6, 7, 8, 9, 10];
    const rows = ranks.map((rank, i) => ({ workId: i + 1, rank, manual: false, awardLevelId: null as number | null }));
    rows.push({ workId: 11, rank: null as unknown as number, manual: false, awardLevelId: null });
    // 11 works: level 1 → 1, level 2 → 2, level 3 → 2.
    const a = allocateAwards(rows, levels);
    expect([...Array(11)].map((_, i) => a.get(i + 1))).toEqual([1, 2, 2, 3, 3, null, null, null, null, null, null]);
    const manual = rows.map((r) => (r.workId === 2 ? { ...r, manual: true, awardLevelId: 4 } : r));
    const b = allocateAwards(manual, levels);
    expect([1, 2, 3, 4].map((id) => b.get(id))).toEqual([1, 4, 2, 3]);
  });
});

describe("choosePromotions", () => {
  it("takes the best awards first, then the relative rank, within the total and per-category quotas", () => {
    const c = [
      { workId: 1, categoryId: 10, awardSort: 1, rank: 1, groupSize: 10, score: 90 },
      { workId: 2, categoryId: 10, awardSort: 1, rank: 2, groupSize: 10, score: 89 },
      { workId: 3, categoryId: 20, awardSort: 2, rank: 1, groupSize: 4, score: 80 },
      { workId: 4, categoryId: 20, awardSort: 1, rank: 1, groupSize: 2, score: 70 },
      { workId: 5, categoryId: 30, awardSort: 3, rank: 3, groupSize: 30, score: 60 },
    ];
    expect(choosePromotions(c, null, {})).toEqual({ promoted: [1, 4, 2, 3, 5], left: [] });
    const q = choosePromotions(c, 3, { "10": 1 });
    expect(q.promoted).toEqual([1, 4, 3]);
    expect(q.left).toEqual([
      { workId: 2, categoryId: 10, reason: "category" },
      { workId: 5, categoryId: 30, reason: "total" },
    ]);
  });
});

describe("computeGroup", () => {
  it("corrects a harsh judge by the additive model and flags a spread over the threshold", () => {
    const g = computeGroup(
      {
        key: "g1",
        workIds: [1, 2, 3, 4],
        scores: [
          { workId: 1, judgeId: 1, score: 80 },
          { workId: 1, judgeId: 3, score: 70 },
          { workId: 2, judgeId: 2, score: 82 },
          { workId: 2, judgeId: 3, score: 72 },
          { workId: 3, judgeId: 1, score: 75 },
          { workId: 3, judgeId: 2, score: 75 },
        ],
        defence: new Map(),
        basis: "online",
      },
      { disagreementThreshold: 9 },
    );
    expect(g.rows.map((r) => [r.workId, r.rank])).toEqual([
      [2, 1],
      [1, 2],
      [3, 3],
      [4, null],
    ]);
    expect(g.rows.find((r) => r.workId === 1)!.normalised).toBeCloseTo(80 - 10 / 3, 9);
    expect(g.rows.filter((r) => r.flagged).map((r) => r.workId)).toEqual([2, 1]);
    expect(g.rows.find((r) => r.workId === 4)).toMatchObject({ judgeCount: 0, rawMean: null, score: null });
    expect(g.judges.find((j) => j.judgeId === 3)!.effect).toBeCloseTo(-20 / 3, 9);
  });
});

describe("incomplete works (issue 15)", () => {
  // Three judges per work; work 9 has one lenient score only (95) — it used to rank first.
  const scores = [
    { workId: 1, judgeId: 1, score: 85 },
    { workId: 1, judgeId: 2, score: 83 },
    { workId: 1, judgeId: 3, score: 84 },
    { workId: 2, judgeId: 1, score: 80 },
    { workId: 2, judgeId: 2, score: 78 },
    { workId: 2, judgeId: 3, score: 79 },
    { workId: 9, judgeId: 1, score: 95 },
  ];
  const group = (incomplete?: Set<number>, basis: "online" | "defence" = "online") =>
    computeGroup(
      {
        key: "g1",
        workIds: [9, 1, 2],
        scores,
        defence: new Map([
          [9, { mean: 99, count: 2 }],
          [1, { mean: 60, count: 2 }],
        ]),
        basis,
        incomplete,
      },
      { disagreementThreshold: 50 },
    );

  it("without the completeness the work with 1 of 3 scores ranks first (the old behaviour)", () => {
    expect(group().rows[0]).toMatchObject({ workId: 9, rank: 1 });
  });

  it("does not rank a work with missing scores: complete works are ranked, the incomplete one follows apart", () => {
    const g = group(new Set([9]));
    expect(g.rows.map((r) => [r.workId, r.rank, r.incomplete])).toEqual([
      [1, 1, false],
      [2, 2, false],
      [9, null, true],
    ]);
    // Its provisional score is still shown.
    expect(g.rows[2].score).not.toBeNull();
    expect(g.rows[2].judgeCount).toBe(1);
  });

  it("ranks by defence regardless of the online completeness", () => {
    const g = group(new Set([9]), "defence");
    expect(g.rows.map((r) => [r.workId, r.rank])).toEqual([
      [9, 1],
      [1, 2],
      [2, null],
    ]);
  });

  it("allocation ranks: only complete works unless the incomplete ones are explicitly included", () => {
    const rows = group(new Set([9])).rows;
    expect([...allocationRanks(rows, false)]).toEqual([
      [1, 1],
      [2, 2],
      [9, null],
    ]);
    const all = allocationRanks(rows, true);
    expect([all.get(9), all.get(1), all.get(2)]).toEqual([1, 2, 3]);
    // 3 complete works → one 一等奖 at 1/3; the incomplete work gets nothing by default.
    const levels = [{ id: 1, ratio: 0.34, maxCount: null }];
    const only = allocateAwards(
      rows.filter((r) => r.rank !== null).map((r) => ({ workId: r.workId, rank: r.rank, manual: false, awardLevelId: null })),
      levels,
    );
    expect(only.get(1)).toBeNull(); // ⌊2 × 0.34⌋ = 0
    const incl = allocateAwards(
      rows.map((r) => ({ workId: r.workId, rank: all.get(r.workId)!, manual: false, awardLevelId: null })),
      levels,
    );
    expect([incl.get(9), incl.get(1), incl.get(2)]).toEqual([1, null, null]);
  });
});
