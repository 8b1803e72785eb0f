import { describe, expect, it } from "vitest";
import {
  assignerList,
  checkProposal,
  findAssigner,
  minCostFlow,
  type AssignInput,
  type AssignJudge,
  type AssignWork,
} from "../../../src/server/judging/assign";
import { bruteForce, explicitMaxFlow, randomInstance, verify } from "./fixtures";

const propose = (input: AssignInput) => minCostFlow.propose(input, minCostFlow.defaults);
const work = (id: number, schoolId: number, extra: Partial<AssignWork> = {}): AssignWork => ({
  id,
  schoolId,
  province: `P${schoolId}`,
  advisorIds: [],
  ...extra,
});
const judge = (id: number, schoolId: number | null, capacity = 100, extra: Partial<AssignJudge> = {}): AssignJudge => ({
  id,
  schoolId,
  province: schoolId === null ? null : `P${schoolId}`,
  capacity,
  ...extra,
});
const judgesOf = (result: ReturnType<typeof propose>, workId: number) =>
  result.rows
    .filter((r) => r.workId === workId)
    .map((r) => r.judgeId)
    .sort((a, b) => a - b);

describe("assigner registry", () => {
  it("lists min-cost-flow with a Chinese description and finds it by name", () => {
    expect(assignerList().map((a) => a.name)).toContain("min-cost-flow");
    expect(findAssigner("min-cost-flow")?.description).toMatch(/[\u4e00-\u9fa5]/);
    expect(findAssigner("nope")).toBeUndefined();
  });
});

describe("min-cost-flow: hand-made cases", () => {
  it("gives each work its N judges from other schools and spreads 6 reviews over 4 judges as 2-2-1-1", () => {
    const input: AssignInput = {
      works: [work(1, 1, { needed: 2 }), work(2, 1, { needed: 2 }), work(3, 2, { needed: 2 })],
      judges: [judge(10, 3), judge(11, 4), judge(12, 5), judge(13, 1)],
    };
    // Judge 13 (school 1) may only take work 3; the unique balanced answer gives all four judges
    // loads {2,2,1,1} or similar; with 6 reviews on 4 judges the best spread is 1.
    const r = propose(input);
    expect(r.complete).toBe(true);
    expect(r.issues).toEqual([]);
    expect(r.rows).toHaveLength(6);
    expect(judgesOf(r, 1)).not.toContain(13);
    expect(judgesOf(r, 2)).not.toContain(13);
    expect(r.loadSpread).toBe(1);
    expect(r.maxLoad).toBe(2);
    expect(verify(input, r).conflicts).toBe(0);
  });

  it.each([
    ["the own school", { judge: { schoolId: 1 } }],
    ["a work the judge advises", { work: { advisorIds: [20] } }],
    ["a work the judge is an author of", { work: { authorIds: [20] } }],
    ["a declared work", { judge: { declared: { workIds: [1] } } }],
    ["a work of a declared school", { judge: { declared: { schoolIds: [1] } } }],
    ["the own province (national option)", { judge: { province: "P1" }, avoidProvince: true }],
    ["an extra forbidden pair", { extra: true }],
  ] as const)("never gives a judge %s, even when that judge is the cheapest", (_, c) => {
    const x = c as { judge?: Partial<AssignJudge>; work?: Partial<AssignWork>; avoidProvince?: boolean; extra?: boolean };
    // Judge 20 has no load, judge 21 already has 5: without the rule, 20 would be chosen.
    const input: AssignInput = {
      works: [work(1, 1, { needed: 1, ...x.work })],
      judges: [judge(20, 2, 10, x.judge), judge(21, 3, 10, { load: 5 })],
      conflictOptions: { avoidProvince: x.avoidProvince ?? false },
      extraConflicts: x.extra ? [{ workId: 1, judgeId: 20 }] : undefined,
    };
    const r = propose(input);
    expect(r.rows).toEqual([{ workId: 1, judgeId: 21 }]);
    expect(propose({ ...input, judges: [input.judges[0]] }).complete).toBe(false);
  });

  it("chooses the cheapest judge when nothing forbids it (the control for the cases above)", () => {
    const r = propose({ works: [work(1, 1, { needed: 1 })], judges: [judge(20, 2, 10), judge(21, 3, 10, { load: 5 })] });
    expect(r.rows).toEqual([{ workId: 1, judgeId: 20 }]);
  });

  it("keeps existing assignments: counts them towards N and the judge's load, proposes only the rest and never repeats a judge", () => {
    const input: AssignInput = {
      works: [work(1, 1, { existingJudgeIds: [10, 11] }), work(2, 1, { existingJudgeIds: [10] }), work(3, 2)],
      judges: [judge(10, 5, 3), judge(11, 6), judge(12, 7), judge(13, 8), judge(14, 9)],
    };
    const r = propose(input);
    expect(r.complete).toBe(true);
    expect(r.rows.filter((x) => x.workId === 1)).toHaveLength(1);
    expect(r.rows.filter((x) => x.workId === 2)).toHaveLength(2);
    expect(r.rows.filter((x) => x.workId === 3)).toHaveLength(3);
    expect(judgesOf(r, 1)).not.toContain(10);
    expect(judgesOf(r, 1)).not.toContain(11);
    expect(judgesOf(r, 2)).not.toContain(10);
    // 9 reviews, 3 existing: judges end at loads 2,2,2,2,1 or better; judge 10 starts at 2.
    const l10 = r.loads.find((l) => l.judgeId === 10)!;
    expect(l10.before).toBe(2);
    expect(r.maxLoad - r.minLoad).toBeLessThanOrEqual(1);
    expect(r.loads.reduce((a, l) => a + l.after, 0)).toBe(9);
    verify(input, r);
  });

  it("respects capacities even when that unbalances the loads", () => {
    const input: AssignInput = {
      works: Array.from({ length: 6 }, (_, i) => work(i + 1, 1, { needed: 1 })),
      judges: [judge(10, 2, 1), judge(11, 3, 10), judge(12, 4, 10)],
    };
    const r = propose(input);
    expect(r.complete).toBe(true);
    expect(r.loads.find((l) => l.judgeId === 10)!.after).toBe(1);
    expect(r.maxLoad).toBe(3); // 6 reviews: 1 + 3 + 2 is the best possible under capacity 1
    expect(r.loadSpread).toBe(2);
  });

  it("uses only the judges of the work's group", () => {
    const input: AssignInput = {
      works: [work(1, 1, { groupId: "A", needed: 2 }), work(2, 1, { groupId: "B", needed: 2 })],
      judges: [judge(10, 2), judge(11, 3), judge(12, 4), judge(13, 5)],
      groups: [
        { id: "A", name: "软件应用与开发", judgeIds: [10, 11] },
        { id: "B", name: "大数据应用", judgeIds: [12, 13] },
      ],
    };
    const r = propose(input);
    expect(judgesOf(r, 1)).toEqual([10, 11]);
    expect(judgesOf(r, 2)).toEqual([12, 13]);
  });

  it("swaps away a personal conflict the class model cannot see, keeping every load", () => {
    // Works 1 and 2 of school 1 form one class; judge 20 advises work 1. Wrap-around would
    // give work 1 judge 20 (first in order); the repair swaps it with work 2.
    const input: AssignInput = {
      works: [work(1, 1, { needed: 1, advisorIds: [20] }), work(2, 1, { needed: 1 })],
      judges: [judge(20, 2, 1), judge(21, 3, 1)],
    };
    const r = propose(input);
    expect(r.complete).toBe(true);
    expect(r.rows).toEqual([
      { workId: 1, judgeId: 21 },
      { workId: 2, judgeId: 20 },
    ]);
    expect(r.stats.swaps).toBe(1);
    expect(r.stats.exactWorks).toBe(0);
  });

  it("makes a work an exact node when no swap can remove its conflict, and still finds the optimum", () => {
    // Judge 20 (load 0) is the cheapest, so the class model gives it to work 1, which it
    // advises; there is no other work to swap with.
    const input: AssignInput = {
      works: [work(1, 1, { needed: 2, advisorIds: [20] })],
      judges: [judge(20, 2, 9), judge(21, 3, 9, { load: 4 }), judge(22, 4, 9, { load: 4 })],
    };
    const r = propose(input);
    expect(r.complete).toBe(true);
    expect(r.rows).toEqual([
      { workId: 1, judgeId: 21 },
      { workId: 1, judgeId: 22 },
    ]);
    expect(r.stats.rounds).toBe(2);
    expect(r.stats.exactWorks).toBe(1);
  });

  it("is deterministic", () => {
    const input = randomInstance(5, {
      works: 200,
      judges: 30,
      schools: 25,
      advisorRate: 0.1,
      declaredRate: 0.2,
      existingRate: 0.1,
    });
    expect(propose(input)).toEqual(propose(input));
  });
});

describe("min-cost-flow: infeasible cases say exactly why", () => {
  it("names the work that has too few conflict-free judges", () => {
    const input: AssignInput = {
      works: [work(2026000123, 1), work(2026000124, 2)],
      judges: [judge(10, 1), judge(11, 1), judge(12, 3), judge(13, 4), judge(14, 5, 0)],
    };
    // Work …123 (school 1): judges 12, 13 and 14, but 14 has no capacity.
    const r = propose(input);
    expect(r.complete).toBe(false);
    expect(r.issues.map((i) => i.message)).toEqual([
      "作品 2026000123 只有 2 位无回避关系的评委可选，需要 3 位（另有 1 位无回避关系的评委已无剩余容量）",
    ]);
    expect(r.issues[0]).toMatchObject({ kind: "work_too_few_judges", workId: 2026000123, eligible: 2, full: 1, needed: 3 });
    expect(r.shortfalls).toEqual([{ workId: 2026000123, needed: 3, proposed: 2 }]);
    // The partial proposal is still a maximum one: the other work is complete.
    expect(judgesOf(r, 2026000124)).toHaveLength(3);
    expect(judgesOf(r, 2026000123)).toEqual([12, 13]);
  });

  it("states the exact message of the brief for a work with 2 of 3 judges", () => {
    const input: AssignInput = { works: [work(2026000123, 1)], judges: [judge(10, 1), judge(12, 3), judge(13, 4)] };
    expect(propose(input).issues.map((i) => i.message)).toEqual(["作品 2026000123 只有 2 位无回避关系的评委可选，需要 3 位"]);
  });

  it("reports total capacity below total demand", () => {
    const input: AssignInput = {
      works: Array.from({ length: 10 }, (_, i) => work(i + 1, 1)),
      judges: Array.from({ length: 5 }, (_, i) => judge(10 + i, 2 + i, 5)),
    };
    const r = propose(input);
    expect(r.complete).toBe(false);
    expect(r.issues).toEqual([
      { kind: "capacity", capacity: 25, demand: 30, message: "评委剩余容量合计 25 次，少于作品还需的 30 次评审（缺 5 次）" },
    ]);
    expect(r.rows).toHaveLength(25);
    expect(r.shortfalls.reduce((a, s) => a + s.needed - s.proposed, 0)).toBe(5);
  });

  it("reports a group with too few judges", () => {
    const input: AssignInput = {
      works: [work(1, 1, { groupId: 7 }), work(2, 1, { groupId: 8 })],
      judges: [judge(10, 2), judge(11, 3), judge(12, 4), judge(13, 5), judge(14, 6)],
      groups: [
        { id: 7, name: "物联网应用", judgeIds: [10, 11] },
        { id: 8, name: "人工智能应用", judgeIds: [12, 13, 14] },
      ],
    };
    const r = propose(input);
    expect(r.issues).toEqual([
      {
        kind: "group_too_few_judges",
        groupId: 7,
        judges: 2,
        needed: 3,
        workIds: [1],
        message: "评审组“物联网应用”只有 2 位评委，每件作品需要 3 位（涉及作品 1）",
      },
    ]);
    expect(judgesOf(r, 2)).toEqual([12, 13, 14]);
  });

  it("reports the minimum cut when capacity and distinctness bind together", () => {
    // Works 1–3 (school 1) need 2 reviews each = 6. Judge 10 may take each once but has
    // capacity 1; judge 11 may take each once (3). Every work alone has 2 eligible judges, so
    // no single work explains it; the cut does: 1 + 3 = 4 < 6.
    const input: AssignInput = {
      works: [work(1, 1, { needed: 2 }), work(2, 1, { needed: 2 }), work(3, 1, { needed: 2 })],
      judges: [judge(10, 2, 1), judge(11, 3, 10)],
    };
    const r = propose(input);
    expect(r.complete).toBe(false);
    expect(r.rows).toHaveLength(4);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({
      kind: "cut",
      workIds: [1, 2, 3],
      demand: 6,
      limit: 4,
      capacityLimit: 1,
      distinctLimit: 3,
      saturatedJudgeIds: [10],
    });
    expect(r.issues[0].message).toBe(
      "作品 1、2、3，共还需 6 次评审，但可选评委最多只能再承担 4 次：1 位评委的剩余容量（合计 1 次）已用满，其余无回避关系的评委对每件作品至多各评一次（合计 3 次）；缺 2 次",
    );
  });

  it("warns about kept assignments that conflict, without dropping them", () => {
    const input: AssignInput = { works: [work(1, 1, { needed: 1, existingJudgeIds: [10] })], judges: [judge(10, 1)] };
    const r = propose(input);
    expect(r.complete).toBe(true);
    expect(r.rows).toEqual([]);
    expect(r.warnings).toEqual([
      expect.objectContaining({ kind: "existing_conflict", workId: 1, judgeId: 10, reasons: ["same_school"] }),
    ]);
  });
});

describe("min-cost-flow against independent references", () => {
  it("matches exhaustive search on tiny random instances: maximum reviews, least max load, greatest min load, least spread", () => {
    let infeasible = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const input = randomInstance(seed, {
        works: 2 + (seed % 3),
        judges: 3 + (seed % 3),
        schools: 4,
        needed: [1, 3],
        capacity: [1, 4],
        preLoad: [0, 2],
        advisorRate: 0.3,
        declaredRate: 0.3,
        existingRate: 0.2,
        groups: seed % 4 === 0 ? 2 : 0,
        avoidProvince: seed % 5 === 0,
        noSchoolRate: 0.1,
      });
      if (seed % 3 === 0) input.isConflict = (w, j) => (w.id + j.id) % 5 === 0;
      const r = propose(input);
      const v = verify(input, r);
      const best = bruteForce(input);
      expect(v.conflicts, `seed ${seed}`).toBe(0);
      expect(v.total, `seed ${seed}`).toBe(best.total);
      expect(r.complete, `seed ${seed}`).toBe(
        best.total === input.works.reduce((a, w) => a + Math.max(0, (w.needed ?? 3) - (w.existingJudgeIds?.length ?? 0)), 0),
      );
      expect(v.maxLoad, `seed ${seed}`).toBe(best.maxLoad);
      expect(v.minLoad, `seed ${seed}`).toBe(best.minLoad);
      expect(r.loadSpread, `seed ${seed}`).toBe(best.spread);
      expect(v.sumSquares, `seed ${seed}`).toBe(best.sumSquares);
      if (!r.complete) {
        infeasible++;
        expect(r.issues.length, `seed ${seed}`).toBeGreaterThan(0);
      }
    }
    expect(infeasible).toBeGreaterThan(3); // the sample covers infeasible cases too
  });

  it("has zero conflicts, respects capacities and keeps existing rows on every seed; its total and max load equal an explicit max flow's", () => {
    for (let seed = 100; seed < 130; seed++) {
      const input = randomInstance(seed, {
        works: 150,
        judges: 25,
        schools: 20,
        needed: [2, 4],
        capacity: [10, 30],
        preLoad: [0, 3],
        advisorRate: 0.15,
        declaredRate: 0.3,
        existingRate: 0.15,
        groups: seed % 3 === 0 ? 3 : 0,
        avoidProvince: seed % 2 === 0,
        noSchoolRate: 0.05,
      });
      const r = propose(input);
      const v = verify(input, r);
      expect(v.conflicts, `seed ${seed}`).toBe(0);
      expect(checkProposal(input, r.rows), `seed ${seed}`).toEqual([]);
      const max = explicitMaxFlow(input);
      expect(v.total, `seed ${seed}`).toBe(max);
      // The least max load that still allows the maximum number of reviews.
      let lo = 0;
      let hi = Math.max(...input.judges.map((j) => j.capacity), ...input.judges.map((j) => (j.load ?? 0) + input.works.length));
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (explicitMaxFlow(input, mid) < max) lo = mid + 1;
        else hi = mid;
      }
      expect(v.maxLoad, `seed ${seed}`).toBe(
        Math.max(
          lo,
          ...input.judges.map((j) => (j.load ?? 0) + input.works.filter((w) => w.existingJudgeIds?.includes(j.id)).length),
        ),
      );
      for (const w of input.works)
        for (const id of w.existingJudgeIds ?? []) expect(r.rows).not.toContainEqual({ workId: w.id, judgeId: id });
    }
  });

  it("honours a conflict predicate exactly, even one that forbids every seventh pair", () => {
    for (let seed = 300; seed < 306; seed++) {
      const input = randomInstance(seed, {
        works: 120,
        judges: 15,
        schools: 12,
        needed: [2, 3],
        capacity: [15, 30],
        existingRate: 0.1,
      });
      input.isConflict = (w, j) => (w.id * 31 + j.id) % 7 === 0;
      const r = propose(input);
      const v = verify(input, r);
      expect(v.conflicts, `seed ${seed}`).toBe(0);
      expect(checkProposal(input, r.rows)).toEqual([]);
      expect(v.total, `seed ${seed}`).toBe(explicitMaxFlow(input));
      expect(r.stats.swaps + r.stats.exactWorks, `seed ${seed}`).toBeGreaterThan(0); // the repair really ran
    }
  });

  it("balances loads to max − min ≤ 1 on generous instances with many schools", () => {
    for (let seed = 200; seed < 210; seed++) {
      const input = randomInstance(seed, { works: 400, judges: 37, schools: 60, advisorRate: 0.05, declaredRate: 0.2 });
      const r = propose(input);
      expect(r.complete).toBe(true);
      expect(r.loadSpread, `seed ${seed}`).toBeLessThanOrEqual(1);
      expect(verify(input, r).conflicts).toBe(0);
    }
  });
});

describe("checkProposal", () => {
  it("finds every kind of problem in a hand-written proposal", () => {
    const input: AssignInput = {
      works: [work(1, 1, { needed: 1, existingJudgeIds: [11], groupId: "A" }), work(2, 2, { needed: 1 })],
      judges: [judge(10, 1, 5), judge(11, 3, 1), judge(12, 4, 0)],
      groups: [{ id: "A", judgeIds: [10, 11] }],
    };
    const kinds = checkProposal(input, [
      { workId: 9, judgeId: 10 },
      { workId: 2, judgeId: 99 },
      { workId: 1, judgeId: 10 }, // same school; 2 reviews for needed 1
      { workId: 1, judgeId: 11 }, // existing
      { workId: 2, judgeId: 12 }, // capacity 0
      { workId: 1, judgeId: 12 }, // not in group A
    ]).map((p) => p.kind);
    expect(kinds.sort()).toEqual(
      ["conflict", "duplicate", "not_in_group", "over_capacity", "over_needed", "unknown_judge", "unknown_work"].sort(),
    );
  });
});

describe("declared students", () => {
  it("the assigner never gives a judge a work authored by a student the judge declared", () => {
    // Three works need all three judges; judge 2 declared the student 77, an author of work 11.
    const works = [
      work(10, 1, { needed: 3, authorIds: [70] }),
      work(11, 2, { needed: 3, authorIds: [71, 77] }),
      work(12, 3, { needed: 3, authorIds: [72] }),
    ];
    const judges = [judge(1, null), judge(2, null, 100, { declared: { userIds: [77] } }), judge(3, null)];
    const result = propose({ works, judges });
    expect(judgesOf(result, 11)).toEqual([1, 3]);
    expect(judgesOf(result, 10)).toEqual([1, 2, 3]);
    expect(judgesOf(result, 12)).toEqual([1, 2, 3]);
    expect(checkProposal({ works, judges }, [{ workId: 11, judgeId: 2 }])[0]).toMatchObject({
      kind: "conflict",
      reasons: ["declared"],
    });
  });
});
