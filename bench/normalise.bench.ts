/**
 * npm run bench:normalise — score normalisation at national scale.
 *
 * Generates (seeded) 50,000 works in 11 categories, 2,000 judges split over the categories,
 * 3 judges per work from its category (so 11 panels), planted work quality μ_w (40–90), judge
 * effects b_j (−8…+8, centred per panel), noise ±3 and 2% of the scores replaced by an
 * outlier. Fits the additive judge-effect model and reports how well it recovers the planted
 * values next to raw means and per-judge z-scores.
 * Progress goes to stderr; the last stdout line is one JSON object:
 * {"works","judges","scores","seconds","iterations","converged","components","flagged","muErrorAdditive","muErrorRaw","muErrorZ","maxEffectError","peakRssMB"}.
 * WORKS, JUDGES, SEED change the instance.
 */
import { rng } from "../src/server/seed/generate";
import { normaliseScores, type Score } from "../src/server/judging/scoring";

const WORKS = Number(process.env.WORKS ?? 50_000);
const JUDGES = Number(process.env.JUDGES ?? 2_000);
const CATEGORIES = 11;
const SEED = Number(process.env.SEED ?? 2026);

const mem = () => `RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`;
const log = (msg: string) => process.stderr.write(`${msg}（${mem()}）\n`);
const seconds = (from: number) => Math.round((performance.now() - from) / 10) / 100;
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

function main() {
  let t0 = performance.now();
  const r = rng(SEED);
  const panel: number[][] = Array.from({ length: CATEGORIES }, () => []);
  for (let j = 0; j < JUDGES; j++) panel[j % CATEGORIES].push(j + 1);
  const effect = new Map<number, number>();
  for (const p of panel) {
    const raw = p.map(() => (r.next() * 2 - 1) * 8);
    const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
    p.forEach((j, k) => effect.set(j, raw[k] - mean));
  }
  const mu = new Map<number, number>();
  const scores: Score[] = [];
  for (let i = 0; i < WORKS; i++) {
    const workId = 2026_000_001 + i;
    const m = 40 + r.next() * 50;
    mu.set(workId, m);
    const p = panel[r.int(0, CATEGORIES - 1)];
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(r.pick(p));
    for (const judgeId of chosen) {
      const outlier = r.next() < 0.02 ? (r.next() < 0.5 ? -25 : 25) : 0;
      scores.push({ workId, judgeId, score: m + effect.get(judgeId)! + (r.next() * 2 - 1) * 3 + outlier });
    }
  }
  log(`生成：${WORKS} 件作品，${JUDGES} 位评委，${scores.length} 个分数；${seconds(t0)} s`);

  t0 = performance.now();
  const res = normaliseScores(scores);
  const secs = seconds(t0);
  log(`拟合：${secs} s，${JSON.stringify({ ...res.fit, scoresDigest: res.fit.scoresDigest.slice(0, 12) })}`);

  const err = (f: (w: (typeof res.works)[number]) => number) =>
    res.works.reduce((a, w) => a + Math.abs(f(w) - mu.get(w.workId)!), 0) / res.works.length;
  const muErrorAdditive = err((w) => w.normalised);
  const muErrorRaw = err((w) => w.rawMean);
  const muErrorZ = err((w) => w.z);
  const maxEffectError = res.judges.reduce((a, j) => Math.max(a, Math.abs(j.effect - effect.get(j.judgeId)!)), 0);
  log(
    `平均绝对误差：加性模型 ${round(muErrorAdditive)}，原始均分 ${round(muErrorRaw)}，z 分数 ${round(muErrorZ)}；评委效应最大误差 ${round(maxEffectError)}；分歧作品 ${res.extraJudge.length}`,
  );

  const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(
    JSON.stringify({
      works: res.fit.works,
      judges: res.fit.judges,
      scores: res.fit.scores,
      seconds: secs,
      iterations: res.fit.iterations,
      converged: res.fit.converged,
      components: res.fit.components,
      flagged: res.extraJudge.length,
      muErrorAdditive: round(muErrorAdditive),
      muErrorRaw: round(muErrorRaw),
      muErrorZ: round(muErrorZ),
      maxEffectError: round(maxEffectError),
      peakRssMB,
    }),
  );
}

main();
