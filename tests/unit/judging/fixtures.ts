/**
 * Test helpers for the judging algorithms: seeded instance generators, a verifier that checks
 * a proposal straight on conflict.ts, and reference solvers written independently of
 * mcmf.ts and the assigner (brute force for tiny instances, a plain Edmonds–Karp max flow on
 * the explicit work × judge graph for medium ones).
 */
import { rng } from "../../../src/server/seed/generate";
import { conflictsFor } from "../../../src/server/judging/conflict";
import type { AssignGroup, AssignInput, AssignJudge, AssignResult, AssignWork } from "../../../src/server/judging/assign";

export interface InstanceOptions {
  works: number;
  judges: number;
  schools: number;
  provinces?: number;
  needed?: [number, number];
  capacity?: [number, number];
  preLoad?: [number, number];
  /** Share of works co-advised by a judge (of any school). */
  advisorRate?: number;
  /** Share of judges declaring a work / a school. */
  declaredRate?: number;
  /** Share of works with one existing judge. */
  existingRate?: number;
  groups?: number;
  avoidProvince?: boolean;
  /** Share of judges without a school. */
  noSchoolRate?: number;
}

export function randomInstance(seed: number, o: InstanceOptions): AssignInput {
  const r = rng(seed);
  const provinces = o.provinces ?? 4;
  const provinceOf = (school: number) => `省${school % provinces}`;
  const judges: AssignJudge[] = Array.from({ length: o.judges }, (_, i) => {
    const schoolId = r.next() < (o.noSchoolRate ?? 0) ? null : r.int(1, o.schools);
    return {
      id: 100 + i,
      schoolId,
      province: schoolId === null ? null : provinceOf(schoolId),
      capacity: r.int(...(o.capacity ?? [1000, 1000])),
      load: r.int(...(o.preLoad ?? [0, 0])),
    };
  });
  const works: AssignWork[] = Array.from({ length: o.works }, (_, i) => {
    const schoolId = Math.min(o.schools, 1 + Math.floor(Math.pow(r.next(), 2) * o.schools)); // uneven
    const advisorIds = [50_000 + schoolId * 10 + r.int(0, 9)];
    if (r.next() < (o.advisorRate ?? 0)) advisorIds.push(r.pick(judges).id);
    return {
      id: 2026_000_001 + i,
      schoolId,
      province: provinceOf(schoolId),
      advisorIds,
      authorIds: [90_000 + i],
      needed: r.int(...(o.needed ?? [3, 3])),
    };
  });
  for (const j of judges) {
    if (r.next() < (o.declaredRate ?? 0)) j.declared = { workIds: [r.pick(works).id] };
    if (r.next() < (o.declaredRate ?? 0) / 2) j.declared = { ...j.declared, schoolIds: [r.int(1, o.schools)] };
  }
  let groups: AssignGroup[] | undefined;
  if (o.groups) {
    const ids: number[][] = Array.from({ length: o.groups }, () => []);
    judges.forEach((j, i) => ids[i % o.groups!].push(j.id));
    // A few judges sit in two groups.
    judges.forEach((j, i) => {
      if (r.next() < 0.1) ids[(i + 1) % o.groups!].push(j.id);
    });
    groups = ids.map((judgeIds, g) => ({ id: `g${g}`, name: `组${g}`, judgeIds }));
    works.forEach((w) => (w.groupId = `g${r.int(0, o.groups! - 1)}`));
  }
  const input: AssignInput = { works, judges, groups, conflictOptions: { avoidProvince: o.avoidProvince ?? false } };
  for (const w of works) {
    if (r.next() >= (o.existingRate ?? 0)) continue;
    const j = r.pick(judges);
    if (allowedPair(input, w, j)) w.existingJudgeIds = [j.id];
  }
  return input;
}

/** The rules, straight from conflict.ts and the groups: may judge j have work w at all? */
export function allowedPair(input: AssignInput, w: AssignWork, j: AssignJudge): boolean {
  if (conflictsFor(j, w, input.conflictOptions ?? { avoidProvince: false }).length) return false;
  if ((input.extraConflicts ?? []).some((p) => p.workId === w.id && p.judgeId === j.id)) return false;
  if (input.isConflict?.(w, j)) return false;
  if (w.groupId !== undefined && !(input.groups ?? []).find((g) => g.id === w.groupId)?.judgeIds.includes(j.id)) return false;
  return true;
}

export interface Verified {
  conflicts: number;
  total: number;
  loads: Map<number, number>;
  maxLoad: number;
  minLoad: number;
  sumSquares: number;
}

/** Throws on any broken rule; returns figures. Independent of the assigner's indexes. */
export function verify(input: AssignInput, result: AssignResult): Verified {
  const judges = new Map(input.judges.map((j) => [j.id, j]));
  const load = new Map(input.judges.map((j) => [j.id, j.load ?? 0]));
  const lists = new Map(input.works.map((w) => [w.id, [...(w.existingJudgeIds ?? [])]]));
  for (const w of input.works) for (const id of w.existingJudgeIds ?? []) if (load.has(id)) load.set(id, load.get(id)! + 1);
  let conflicts = 0;
  for (const { workId, judgeId } of result.rows) {
    const w = input.works.find((x) => x.id === workId);
    const j = judges.get(judgeId);
    if (!w || !j) throw new Error(`unknown row ${workId}/${judgeId}`);
    if (!allowedPair(input, w, j)) conflicts++;
    lists.get(workId)!.push(judgeId);
    load.set(judgeId, load.get(judgeId)! + 1);
  }
  for (const w of input.works) {
    const list = lists.get(w.id)!;
    if (new Set(list).size !== list.length) throw new Error(`work ${w.id} has a judge twice`);
    const needed = w.needed ?? 3;
    const short = result.shortfalls.find((s) => s.workId === w.id);
    const existing = w.existingJudgeIds?.length ?? 0;
    if (short) {
      if (list.length !== existing + short.proposed || short.proposed >= short.needed)
        throw new Error(`shortfall of ${w.id} misreported`);
    } else if (list.length !== Math.max(needed, existing))
      throw new Error(`work ${w.id} has ${list.length} judges, needs ${needed}`);
  }
  for (const j of input.judges) {
    const before = (j.load ?? 0) + input.works.filter((w) => w.existingJudgeIds?.includes(j.id)).length;
    if (load.get(j.id)! > Math.max(j.capacity, before)) throw new Error(`judge ${j.id} over capacity`);
  }
  const values = [...load.values()];
  return {
    conflicts,
    total: result.rows.length,
    loads: load,
    maxLoad: Math.max(...values),
    minLoad: Math.min(...values),
    sumSquares: values.reduce((a, b) => a + b * b, 0),
  };
}

export interface Optimum {
  total: number;
  maxLoad: number;
  minLoad: number;
  spread: number;
  sumSquares: number;
}

/**
 * Exhaustive search over every assignment of a tiny instance: the maximum number of new
 * reviews, and among assignments reaching it the least max load, greatest min load, least
 * spread and least Σ load².
 */
export function bruteForce(input: AssignInput): Optimum {
  const js = input.judges;
  const load = js.map((j) => (j.load ?? 0) + input.works.filter((w) => w.existingJudgeIds?.includes(j.id)).length);
  const cap = js.map((j) => j.capacity);
  const options = input.works.map((w) => {
    const d = Math.max(0, (w.needed ?? 3) - (w.existingJudgeIds?.length ?? 0));
    const ok = js.map((_, i) => i).filter((i) => allowedPair(input, w, js[i]) && !w.existingJudgeIds?.includes(js[i].id));
    const subsets: number[][] = [];
    const rec = (from: number, cur: number[]) => {
      subsets.push([...cur]);
      if (cur.length === d) return;
      for (let k = from; k < ok.length; k++) rec(k + 1, [...cur, ok[k]]);
    };
    rec(0, []);
    return subsets;
  });
  let best: Optimum = { total: -1, maxLoad: Infinity, minLoad: -Infinity, spread: Infinity, sumSquares: Infinity };
  let bestMax = Infinity,
    bestMin = -Infinity,
    bestSpread = Infinity,
    bestSq = Infinity;
  const rec = (w: number, total: number) => {
    if (w === options.length) {
      const mx = Math.max(...load),
        mn = Math.min(...load),
        sq = load.reduce((a, b) => a + b * b, 0);
      if (total > best.total) {
        best = { total, maxLoad: mx, minLoad: mn, spread: mx - mn, sumSquares: sq };
        bestMax = mx;
        bestMin = mn;
        bestSpread = mx - mn;
        bestSq = sq;
      } else if (total === best.total) {
        bestMax = Math.min(bestMax, mx);
        bestMin = Math.max(bestMin, mn);
        bestSpread = Math.min(bestSpread, mx - mn);
        bestSq = Math.min(bestSq, sq);
      }
      return;
    }
    for (const s of options[w]) {
      if (s.some((i) => load[i] + 1 > cap[i])) continue;
      for (const i of s) load[i]++;
      rec(w + 1, total + s.length);
      for (const i of s) load[i]--;
    }
  };
  rec(0, 0);
  return { total: best.total, maxLoad: bestMax, minLoad: bestMin, spread: bestSpread, sumSquares: bestSq };
}

/**
 * Maximum number of new reviews with every judge's final load ≤ maxLoad, by Edmonds–Karp on
 * the explicit graph source → work (d) → judge (1 per allowed pair) → sink (capacity left).
 */
export function explicitMaxFlow(input: AssignInput, maxLoad = Infinity): number {
  const W = input.works.length,
    J = input.judges.length;
  const n = W + J + 2,
    S = W + J,
    T = S + 1;
  const head: number[][] = Array.from({ length: n }, () => []);
  const to: number[] = [],
    cap: number[] = [];
  const add = (u: number, v: number, c: number) => {
    head[u].push(to.length);
    to.push(v);
    cap.push(c);
    head[v].push(to.length);
    to.push(u);
    cap.push(0);
  };
  const before = input.judges.map((j) => (j.load ?? 0) + input.works.filter((w) => w.existingJudgeIds?.includes(j.id)).length);
  input.works.forEach((w, wi) => {
    add(S, wi, Math.max(0, (w.needed ?? 3) - (w.existingJudgeIds?.length ?? 0)));
    input.judges.forEach((j, ji) => {
      if (allowedPair(input, w, j) && !w.existingJudgeIds?.includes(j.id)) add(wi, W + ji, 1);
    });
  });
  input.judges.forEach((j, ji) => add(W + ji, T, Math.max(0, Math.min(j.capacity, maxLoad) - before[ji])));
  let flow = 0;
  for (;;) {
    const prev = new Array<number>(n).fill(-1);
    prev[S] = -2;
    const q = [S];
    for (let h = 0; h < q.length && prev[T] === -1; h++) {
      for (const e of head[q[h]])
        if (cap[e] > 0 && prev[to[e]] === -1) {
          prev[to[e]] = e;
          q.push(to[e]);
        }
    }
    if (prev[T] === -1) return flow;
    let v = T;
    while (v !== S) {
      const e = prev[v];
      cap[e]--;
      cap[e ^ 1]++;
      v = to[e ^ 1];
    }
    flow++;
  }
}
