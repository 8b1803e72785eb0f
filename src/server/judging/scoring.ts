/**
 * Score normalisation across judges. Pure and deterministic: the same scores (in any order)
 * and options give bit-identical results, and the fit parameters returned with them are what a
 * published result stores so it can be recomputed and compared.
 *
 * DEFAULT: THE ADDITIVE JUDGE-EFFECT MODEL
 *   score(w, j) = μ_w + b_j + ε,   least squares,   Σ b_j = 0 within each connected panel.
 * μ_w is the work's normalised score, b_j the judge's leniency (+) or harshness (−).
 * For fixed b the best μ_w is the mean of score − b_j over the work's judges. Substituting it
 * leaves the normal equations for b alone, a J × J symmetric positive semi-definite system
 *   A b = r,  (A v)_j = Σ_{scores (w,j)} (v_j − mean of v over w's judges),
 *             r_j     = Σ_{scores (w,j)} (score − mean score of w),
 * a graph Laplacian of "judges who scored the same work". It is solved matrix-free by
 * CONJUGATE GRADIENT: each iteration is two passes over the scores (150k for 50k works × 3),
 * with no matrix ever built. A is singular exactly on vectors constant on a connected
 * component (a panel of judges linked by shared works); r lies in A's range, and CG started at
 * 0 stays there, so it converges to the minimum-norm solution; then b is centred per
 * component (the identifying assumption: the average judge of a panel is neutral) and μ
 * recomputed. Panels that share no judge cannot be compared by any method without such an
 * assumption; `fit.components` says how many there were.
 *
 * Why not z-scores: standardising each judge's scores assumes every judge saw works of the
 * same average quality. When assignment is clustered (a judge who happens to get only strong
 * works), z-scores take the strength for leniency and push those works down; the additive
 * model sees through it because the works' other judges tie the scales together. Per-judge
 * z-scores are still computed (`z`, `zScoreNormalise`) so both can be shown.
 *
 * Disagreement: a work whose raw scores spread (max − min) more than the threshold (default
 * 15 points on a 100-point scale) is flagged, and an extra judge is proposed for it
 * (`extraJudge`, in the shape the assigner's works take: needed = current + 1, existing kept).
 */
import { createHash } from "node:crypto";

export const SCORING_MODEL = "additive-judge-effect";
export const SCORING_MODEL_VERSION = 1;

export interface Score {
  workId: number;
  judgeId: number;
  /** The judge's total for the work (e.g. 0–100). */
  score: number;
}

export interface NormaliseOptions {
  /** Stop when ‖A b − r‖ ≤ tolerance · ‖r‖. */
  tolerance: number;
  maxIterations: number;
  /** Flag a work when max − min of its raw scores exceeds this. */
  disagreementThreshold: number;
  /** Σ b_j = 0 over each panel's judges ("judges") or weighted by their numbers of scores ("scores"). */
  center: "judges" | "scores";
}

export const NORMALISE_DEFAULTS: NormaliseOptions = {
  tolerance: 1e-10,
  maxIterations: 1000,
  disagreementThreshold: 15,
  center: "judges",
};

export interface WorkScore {
  workId: number;
  count: number;
  rawMean: number;
  /** μ_w of the additive model: the default published score. */
  normalised: number;
  /** Mean of the judges' z-scores for this work, mapped back to the scale of all scores. */
  z: number;
  min: number;
  max: number;
  spread: number;
  disagreement: boolean;
  component: number;
}

export interface JudgeEffect {
  judgeId: number;
  count: number;
  mean: number;
  sd: number;
  /** b_j: + lenient, − harsh. */
  effect: number;
  component: number;
  /** false when none of the judge's works had another judge: then the effect is 0 by assumption. */
  identified: boolean;
}

export interface FitParameters {
  model: typeof SCORING_MODEL;
  version: typeof SCORING_MODEL_VERSION;
  method: "conjugate-gradient";
  tolerance: number;
  maxIterations: number;
  iterations: number;
  /** Relative residual ‖A b − r‖ / ‖r‖ of the final b, recomputed from scratch (0 when r = 0). */
  residual: number;
  /** CG reached the tolerance (by its own residual recurrence) within maxIterations. */
  converged: boolean;
  center: NormaliseOptions["center"];
  disagreementThreshold: number;
  /** Connected panels of judges (linked by works they both scored). */
  components: number;
  /** Root mean square of score − μ_w − b_j. */
  rmse: number;
  scores: number;
  works: number;
  judges: number;
  /** sha256 of the sorted "workId,judgeId,score" lines: which input these parameters belong to. */
  scoresDigest: string;
}

export interface ExtraJudgeRequest {
  workId: number;
  /** Judges who already scored it (to keep, and not to pick again). */
  existingJudgeIds: number[];
  needed: number;
}

export interface NormaliseResult {
  works: WorkScore[];
  judges: JudgeEffect[];
  fit: FitParameters;
  extraJudge: ExtraJudgeRequest[];
}

interface Indexed {
  works: number[];
  judges: number[];
  ow: Int32Array;
  oj: Int32Array;
  y: Float64Array;
}

/** Sorts by (work, judge), checks, and indexes works and judges in id order. */
function index(scores: readonly Score[]): Indexed {
  const sorted = [...scores].sort((a, b) => a.workId - b.workId || a.judgeId - b.judgeId);
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i];
    if (!Number.isFinite(s.score)) throw new RangeError(`作品 ${s.workId} 评委 ${s.judgeId} 的分数不是有限数`);
    if (i > 0 && sorted[i - 1].workId === s.workId && sorted[i - 1].judgeId === s.judgeId) {
      throw new RangeError(`评委 ${s.judgeId} 对作品 ${s.workId} 有多个分数`);
    }
  }
  const works = [...new Set(sorted.map((s) => s.workId))];
  const judges = [...new Set(sorted.map((s) => s.judgeId))].sort((a, b) => a - b);
  const wIndex = new Map(works.map((id, i) => [id, i]));
  const jIndex = new Map(judges.map((id, i) => [id, i]));
  const n = sorted.length;
  const ow = new Int32Array(n);
  const oj = new Int32Array(n);
  const y = new Float64Array(n);
  sorted.forEach((s, i) => {
    ow[i] = wIndex.get(s.workId)!;
    oj[i] = jIndex.get(s.judgeId)!;
    y[i] = s.score;
  });
  return { works, judges, ow, oj, y };
}

function digest(d: Indexed): string {
  const h = createHash("sha256");
  for (let i = 0; i < d.y.length; i++) h.update(`${d.works[d.ow[i]]},${d.judges[d.oj[i]]},${d.y[i]}\n`);
  return h.digest("hex");
}

/** Per-judge mean and (population) standard deviation. */
function judgeMoments(d: Indexed): { count: Int32Array; mean: Float64Array; sd: Float64Array } {
  const J = d.judges.length;
  const count = new Int32Array(J);
  const mean = new Float64Array(J);
  const sd = new Float64Array(J);
  for (let i = 0; i < d.y.length; i++) {
    count[d.oj[i]]++;
    mean[d.oj[i]] += d.y[i];
  }
  for (let j = 0; j < J; j++) mean[j] /= count[j];
  for (let i = 0; i < d.y.length; i++) sd[d.oj[i]] += (d.y[i] - mean[d.oj[i]]) ** 2;
  for (let j = 0; j < J; j++) sd[j] = Math.sqrt(sd[j] / count[j]);
  return { count, mean, sd };
}

/** z-score per work: mean over its judges of (score − judge mean) / judge sd, back on the overall scale. */
function zScores(d: Indexed, m: ReturnType<typeof judgeMoments>): Float64Array {
  const W = d.works.length;
  const n = d.y.length;
  let grand = 0;
  for (let i = 0; i < n; i++) grand += d.y[i];
  grand /= n;
  let gsd = 0;
  for (let i = 0; i < n; i++) gsd += (d.y[i] - grand) ** 2;
  gsd = Math.sqrt(gsd / n);
  const sum = new Float64Array(W);
  const cnt = new Int32Array(W);
  for (let i = 0; i < n; i++) {
    const j = d.oj[i];
    sum[d.ow[i]] += m.sd[j] > 0 ? (d.y[i] - m.mean[j]) / m.sd[j] : 0;
    cnt[d.ow[i]]++;
  }
  const out = new Float64Array(W);
  for (let w = 0; w < W; w++) out[w] = grand + gsd * (sum[w] / cnt[w]);
  return out;
}

/** Per-judge z-scores as an alternative normalisation (see the module comment for its limits). */
export function zScoreNormalise(scores: readonly Score[]): {
  works: { workId: number; z: number; count: number }[];
  judges: { judgeId: number; mean: number; sd: number; count: number }[];
} {
  const d = index(scores);
  if (d.y.length === 0) return { works: [], judges: [] };
  const m = judgeMoments(d);
  const z = zScores(d, m);
  const cnt = new Int32Array(d.works.length);
  for (let i = 0; i < d.ow.length; i++) cnt[d.ow[i]]++;
  return {
    works: d.works.map((workId, w) => ({ workId, z: z[w], count: cnt[w] })),
    judges: d.judges.map((judgeId, j) => ({ judgeId, mean: m.mean[j], sd: m.sd[j], count: m.count[j] })),
  };
}

/** Per-work count, mean, min and max of the scores. */
function workStats(d: Indexed) {
  const W = d.works.length;
  const { ow, y } = d;
  const wCount = new Int32Array(W);
  const wSum = new Float64Array(W);
  const wMin = new Float64Array(W).fill(Number.POSITIVE_INFINITY);
  const wMax = new Float64Array(W).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < y.length; i++) {
    const w = ow[i];
    wCount[w]++;
    wSum[w] += y[i];
    if (y[i] < wMin[w]) wMin[w] = y[i];
    if (y[i] > wMax[w]) wMax[w] = y[i];
  }
  const wMean = new Float64Array(W);
  for (let w = 0; w < W; w++) wMean[w] = wSum[w] / wCount[w];
  return { wCount, wMean, wMin, wMax };
}
type WorkStats = ReturnType<typeof workStats>;

/**
 * Panels: judges linked by a work they both scored (union-find; smallest judge index as
 * root), numbered in judge order; a judge's effect is identified when the judge scored a
 * work somebody else scored too.
 */
function panels(d: Indexed, wCount: Int32Array) {
  const W = d.works.length;
  const J = d.judges.length;
  const { ow, oj } = d;
  const parent = new Int32Array(J).map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const firstJudge = new Int32Array(W).fill(-1);
  for (let i = 0; i < oj.length; i++) {
    const w = ow[i];
    if (firstJudge[w] < 0) firstJudge[w] = oj[i];
    else {
      const a = find(firstJudge[w]);
      const b = find(oj[i]);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const compOfRoot = new Map<number, number>();
  const comp = new Int32Array(J);
  for (let j = 0; j < J; j++) {
    const r = find(j);
    if (!compOfRoot.has(r)) compOfRoot.set(r, compOfRoot.size);
    comp[j] = compOfRoot.get(r)!;
  }
  const identified = new Uint8Array(J);
  for (let i = 0; i < oj.length; i++) if (wCount[ow[i]] > 1) identified[oj[i]] = 1;
  return { comp, components: compOfRoot.size, firstJudge, identified };
}
type Panels = ReturnType<typeof panels>;

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
};

/**
 * The judge effects b from the normal equations, matrix-free, by conjugate gradients (not
 * yet centred); `residual` is the true relative residual at the end.
 */
function solveEffects(d: Indexed, ws: WorkStats, opt: NormaliseOptions) {
  const n = d.y.length;
  const W = d.works.length;
  const J = d.judges.length;
  const { ow, oj, y } = d;
  const { wCount, wMean } = ws;
  const rhs = new Float64Array(J);
  for (let i = 0; i < n; i++) rhs[oj[i]] += y[i] - wMean[ow[i]];
  const wTmp = new Float64Array(W);
  const apply = (v: Float64Array, out: Float64Array) => {
    wTmp.fill(0);
    for (let i = 0; i < n; i++) wTmp[ow[i]] += v[oj[i]];
    out.fill(0);
    for (let i = 0; i < n; i++) out[oj[i]] += v[oj[i]] - wTmp[ow[i]] / wCount[ow[i]];
  };
  const b = new Float64Array(J);
  const r = Float64Array.from(rhs);
  const p = Float64Array.from(rhs);
  const Ap = new Float64Array(J);
  const rhsNorm = Math.sqrt(dot(rhs, rhs));
  let rs = dot(r, r);
  let iterations = 0;
  let residual = rhsNorm === 0 ? 0 : 1;
  while (residual > opt.tolerance && iterations < opt.maxIterations) {
    apply(p, Ap);
    const pAp = dot(p, Ap);
    if (!(pAp > 0)) break;
    const alpha = rs / pAp;
    for (let k = 0; k < J; k++) {
      b[k] += alpha * p[k];
      r[k] -= alpha * Ap[k];
    }
    const rsNew = dot(r, r);
    iterations++;
    residual = Math.sqrt(rsNew) / rhsNorm;
    const beta = rsNew / rs;
    rs = rsNew;
    for (let k = 0; k < J; k++) p[k] = r[k] + beta * p[k];
  }
  const converged = residual <= opt.tolerance;
  // The true residual (the recurrence can drift from it by rounding), for the record.
  if (rhsNorm > 0) {
    apply(b, Ap);
    let s = 0;
    for (let k = 0; k < J; k++) s += (rhs[k] - Ap[k]) ** 2;
    residual = Math.sqrt(s) / rhsNorm;
  }
  return { b, iterations, residual, converged };
}

/**
 * Centres the effects per panel (in place; weighted by scores or by judges, unidentified
 * effects 0), then the works' normalised scores μ and the sum of squared errors.
 */
function centreAndFit(
  d: Indexed,
  b: Float64Array,
  pn: Panels,
  moments: ReturnType<typeof judgeMoments>,
  wCount: Int32Array,
  opt: NormaliseOptions,
) {
  const n = d.y.length;
  const W = d.works.length;
  const J = d.judges.length;
  const { ow, oj, y } = d;
  const { comp, identified } = pn;
  const cSum = new Float64Array(pn.components);
  const cWeight = new Float64Array(pn.components);
  for (let j = 0; j < J; j++) {
    const wgt = opt.center === "scores" ? moments.count[j] : 1;
    cSum[comp[j]] += wgt * b[j];
    cWeight[comp[j]] += wgt;
  }
  for (let j = 0; j < J; j++) b[j] = identified[j] ? b[j] - cSum[comp[j]] / cWeight[comp[j]] : 0;
  const mu = new Float64Array(W);
  for (let i = 0; i < n; i++) mu[ow[i]] += y[i] - b[oj[i]];
  for (let w = 0; w < W; w++) mu[w] /= wCount[w];
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (y[i] - mu[ow[i]] - b[oj[i]]) ** 2;
  return { mu, sse };
}

/** The works flagged for disagreement, each with its judges and the count it needs. */
function extraJudges(d: Indexed, works: readonly WorkScore[]): NormaliseResult["extraJudge"] {
  const judgesOfWork = new Map<number, number[]>();
  for (let i = 0; i < d.y.length; i++) {
    const w = d.works[d.ow[i]];
    if (!judgesOfWork.has(w)) judgesOfWork.set(w, []);
    judgesOfWork.get(w)!.push(d.judges[d.oj[i]]);
  }
  return works
    .filter((w) => w.disagreement)
    .map((w) => ({ workId: w.workId, existingJudgeIds: judgesOfWork.get(w.workId)!, needed: w.count + 1 }));
}

/**
 * Fits the additive judge-effect model and flags disagreement, in steps: per-work
 * statistics, panels, the judge effects (conjugate gradients), centring and μ, the result.
 */
export function normaliseScores(scores: readonly Score[], options: Partial<NormaliseOptions> = {}): NormaliseResult {
  const opt: NormaliseOptions = { ...NORMALISE_DEFAULTS, ...options };
  const d = index(scores);
  const n = d.y.length;
  const W = d.works.length;
  const J = d.judges.length;
  const ws = workStats(d);
  const { wCount, wMean, wMin, wMax } = ws;
  const pn = panels(d, wCount);
  const { comp, firstJudge, identified } = pn;
  const { b, iterations, residual, converged } = solveEffects(d, ws, opt);
  const moments = judgeMoments(d);
  const { mu, sse } = centreAndFit(d, b, pn, moments, wCount, opt);

  const z = n ? zScores(d, moments) : new Float64Array(0);
  const works: WorkScore[] = d.works.map((workId, w) => {
    const spread = wMax[w] - wMin[w];
    return {
      workId,
      count: wCount[w],
      rawMean: wMean[w],
      normalised: mu[w],
      z: z[w],
      min: wMin[w],
      max: wMax[w],
      spread,
      disagreement: spread > opt.disagreementThreshold,
      component: comp[firstJudge[w]],
    };
  });
  const judges: JudgeEffect[] = d.judges.map((judgeId, j) => ({
    judgeId,
    count: moments.count[j],
    mean: moments.mean[j],
    sd: moments.sd[j],
    effect: b[j],
    component: comp[j],
    identified: identified[j] === 1,
  }));
  return {
    works,
    judges,
    extraJudge: extraJudges(d, works),
    fit: {
      model: SCORING_MODEL,
      version: SCORING_MODEL_VERSION,
      method: "conjugate-gradient",
      tolerance: opt.tolerance,
      maxIterations: opt.maxIterations,
      iterations,
      residual,
      converged,
      center: opt.center,
      disagreementThreshold: opt.disagreementThreshold,
      components: pn.components,
      rmse: n ? Math.sqrt(sse / n) : 0,
      scores: n,
      works: W,
      judges: J,
      scoresDigest: digest(d),
    },
  };
}
