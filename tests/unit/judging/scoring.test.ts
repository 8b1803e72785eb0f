import { describe, expect, it } from "vitest";
import { rng } from "../../../src/server/seed/generate";
import { normaliseScores, zScoreNormalise, type Score } from "../../../src/server/judging/scoring";

/**
 * Clustered assignment with planted truth: 100 strong works (μ ≈ 80) scored by the lenient
 * judge A (+10), neutral B, and one of the bridge judges E/F; 100 weak works (μ ≈ 60) scored
 * by the harsh judge C (−10), neutral D, and E or F. Σ b = 0 over the six judges.
 */
function clustered(seed: number, noise: number) {
  const r = rng(seed);
  const effect: Record<number, number> = { 1: 10, 2: 0, 3: -10, 4: 0, 5: 0, 6: 0 };
  const mu = new Map<number, number>();
  const scores: Score[] = [];
  for (let i = 0; i < 200; i++) {
    const workId = 2026000001 + i;
    const strong = i < 100;
    const m = (strong ? 80 : 60) + r.int(-5, 5);
    mu.set(workId, m);
    const panel = strong ? [1, 2] : [3, 4];
    panel.push(i % 2 ? 5 : 6);
    for (const judgeId of panel) scores.push({ workId, judgeId, score: m + effect[judgeId] + (r.next() * 2 - 1) * noise });
  }
  return { scores, mu, effect };
}

const meanAbsError = (est: Map<number, number>, truth: Map<number, number>) =>
  [...truth].reduce((a, [id, m]) => a + Math.abs(est.get(id)! - m), 0) / truth.size;
const gap = (est: Map<number, number>) => {
  const v = [...est.values()];
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return avg(v.slice(0, 100)) - avg(v.slice(100));
};

describe("normaliseScores: additive judge-effect model", () => {
  it("recovers planted work scores exactly on noise-free data and the judges' effects", () => {
    const { scores, mu } = clustered(1, 0);
    const res = normaliseScores(scores);
    for (const w of res.works) expect(w.normalised).toBeCloseTo(mu.get(w.workId)!, 8);
    const effect = Object.fromEntries(res.judges.map((j) => [j.judgeId, j.effect]));
    expect(effect[1]).toBeCloseTo(10, 8);
    expect(effect[3]).toBeCloseTo(-10, 8);
    expect(effect[2]).toBeCloseTo(0, 8);
    expect(res.fit).toMatchObject({
      model: "additive-judge-effect",
      version: 1,
      method: "conjugate-gradient",
      converged: true,
      components: 1,
      scores: 600,
      works: 200,
      judges: 6,
    });
    expect(res.fit.rmse).toBeLessThan(1e-8);
  });

  it("corrects a lenient (+10) and a harsh (−10) judge on clustered assignments where per-judge z-scores fail", () => {
    const { scores, mu } = clustered(2, 1.5);
    const res = normaliseScores(scores);
    const additive = new Map(res.works.map((w) => [w.workId, w.normalised]));
    const raw = new Map(res.works.map((w) => [w.workId, w.rawMean]));
    const z = new Map(zScoreNormalise(scores).works.map((w) => [w.workId, w.z]));
    expect(new Map(res.works.map((w) => [w.workId, w.z]))).toEqual(z);

    // Additive: within a point of the truth, and the 20-point gap between the clusters kept.
    expect(meanAbsError(additive, mu)).toBeLessThan(1);
    expect(Math.abs(gap(additive) - gap(mu))).toBeLessThan(1);
    const effect = Object.fromEntries(res.judges.map((j) => [j.judgeId, j.effect]));
    expect(Math.abs(effect[1] - 10)).toBeLessThan(1);
    expect(Math.abs(effect[3] + 10)).toBeLessThan(1);

    // Raw means carry the judges' bias: strong works +10/3, weak works −10/3.
    expect(meanAbsError(raw, mu)).toBeGreaterThan(2.5);
    // z-scores take the strong works' quality for leniency and erase most of the gap.
    expect(gap(z)).toBeLessThan(gap(mu) * 0.6);
    expect(meanAbsError(z, mu)).toBeGreaterThan(4);
  });

  it("flags works whose judges disagree by more than the threshold and proposes one more judge", () => {
    const scores: Score[] = [
      { workId: 1, judgeId: 10, score: 60 },
      { workId: 1, judgeId: 11, score: 62 },
      { workId: 1, judgeId: 12, score: 80 }, // 20
      { workId: 2, judgeId: 10, score: 70 },
      { workId: 2, judgeId: 11, score: 85 },
      { workId: 2, judgeId: 12, score: 75 }, // 15: not over
      { workId: 3, judgeId: 10, score: 90 },
      { workId: 3, judgeId: 11, score: 88 },
      { workId: 3, judgeId: 12, score: 91 },
    ];
    const res = normaliseScores(scores);
    expect(res.works.map((w) => [w.workId, w.spread, w.disagreement])).toEqual([
      [1, 20, true],
      [2, 15, false],
      [3, 3, false],
    ]);
    expect(res.extraJudge).toEqual([{ workId: 1, existingJudgeIds: [10, 11, 12], needed: 4 }]);
    expect(normaliseScores(scores, { disagreementThreshold: 10 }).extraJudge.map((e) => e.workId)).toEqual([1, 2]);
    expect(res.fit.disagreementThreshold).toBe(15);
  });

  it("gives the same result, bit for bit, for the same scores in another order", () => {
    const { scores } = clustered(3, 2);
    const r = rng(99);
    const shuffled = [...scores];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const k = r.int(0, i);
      [shuffled[i], shuffled[k]] = [shuffled[k], shuffled[i]];
    }
    const a = normaliseScores(scores);
    const b = normaliseScores(shuffled);
    expect(b).toEqual(a);
    expect(a.fit.scoresDigest).toMatch(/^[0-9a-f]{64}$/);
    const changed = normaliseScores([...scores.slice(1), { ...scores[0], score: scores[0].score + 1 }]);
    expect(changed.fit.scoresDigest).not.toBe(a.fit.scoresDigest);
  });

  it("centres each panel of judges separately and leaves unidentified judges at 0", () => {
    const scores: Score[] = [
      // Panel 1: judges 1 and 2 share works; judge 1 is 4 points more lenient.
      { workId: 1, judgeId: 1, score: 74 },
      { workId: 1, judgeId: 2, score: 70 },
      { workId: 2, judgeId: 1, score: 64 },
      { workId: 2, judgeId: 2, score: 60 },
      // Panel 2: judges 3 and 4, judge 4 is 6 points harsher.
      { workId: 3, judgeId: 3, score: 80 },
      { workId: 3, judgeId: 4, score: 74 },
      // Judge 5 alone on work 4.
      { workId: 4, judgeId: 5, score: 55 },
    ];
    const res = normaliseScores(scores);
    expect(res.fit.components).toBe(3);
    const e = Object.fromEntries(res.judges.map((j) => [j.judgeId, [Number(j.effect.toFixed(9)), j.identified]]));
    expect(e).toEqual({ 1: [2, true], 2: [-2, true], 3: [3, true], 4: [-3, true], 5: [0, false] });
    expect(res.works.map((w) => Number(w.normalised.toFixed(9)))).toEqual([72, 62, 77, 55]);
    // Weighted centring uses the numbers of scores instead: same here, as counts are equal per panel.
    expect(normaliseScores(scores, { center: "scores" }).works.map((w) => Number(w.normalised.toFixed(9)))).toEqual([
      72, 62, 77, 55,
    ]);
  });

  it("rejects a judge scoring a work twice and non-finite scores", () => {
    expect(() =>
      normaliseScores([
        { workId: 1, judgeId: 1, score: 1 },
        { workId: 1, judgeId: 1, score: 2 },
      ]),
    ).toThrow(RangeError);
    expect(() => normaliseScores([{ workId: 1, judgeId: 1, score: Number.NaN }])).toThrow(RangeError);
    expect(normaliseScores([]).works).toEqual([]);
  });

  it("converges on a large sparse instance (5,000 works × 3 scores, 200 judges) in well under its iteration cap", () => {
    const r = rng(7);
    const effect = Array.from({ length: 200 }, () => r.int(-8, 8));
    const scores: Score[] = [];
    for (let w = 0; w < 5000; w++) {
      const m = r.int(50, 95);
      const js = new Set<number>();
      while (js.size < 3) js.add(r.int(0, 199));
      for (const j of js) scores.push({ workId: w + 1, judgeId: j + 1, score: m + effect[j] + r.next() - 0.5 });
    }
    const res = normaliseScores(scores);
    expect(res.fit.converged).toBe(true);
    expect(res.fit.iterations).toBeLessThan(200);
    expect(res.fit.residual).toBeLessThan(1e-8);
    const mean = effect.reduce((a, b) => a + b, 0) / effect.length;
    const worst = Math.max(...res.judges.map((j) => Math.abs(j.effect - (effect[j.judgeId - 1] - mean))));
    expect(worst).toBeLessThan(0.5);
  });
});
