/**
 * min-cost-flow: every work gets its N conflict-free judges with the judges' loads as even as
 * the constraints allow, or, when that is impossible, a maximum partial proposal with the exact
 * reasons. It only proposes rows; the caller's gate re-checks and writes them.
 *
 * THE MODEL. Reviews are flow: source → work → judge → sink, one unit per review. A judge's
 * arc to the sink has capacity = capacity left and a rising cost: the unit that brings the
 * judge's total load to L costs L (a convex arc, see mcmf.ts). A minimum-cost maximum flow
 * therefore minimises Σ_j L_j(L_j+1)/2 over all maximum assignments. The loads a flow can give
 * the judges form an integral base polyhedron (a polymatroid induced through a bipartite
 * network), and on such a set a minimiser of an identical, strictly convex, separable function
 * is "decreasingly minimal" (Frank & Murota, Discrete decreasing minimization, 2020): it has the
 * least possible maximum load and the greatest possible minimum load at once, so max − min is as
 * small as the conflicts, groups and capacities allow; ≤ 1 whenever that is achievable at all.
 *
 * SCALING BY AGGREGATION. One arc per (work, judge) pair would be 50,000 × 2,000 = 100M arcs.
 * But the school-level conflicts (same school, same province, a declared school) and the group
 * depend only on the work's (group, school, province): works sharing those and the number of
 * reviews d still needed are interchangeable. So the flow runs on CLASSES of such works:
 *   source → class C (capacity n_C·d) → judge j (capacity n_C, if j is in the group and has no
 *   school-level conflict) → sink (capacity left, rising cost).
 * The per-arc capacity n_C encodes "a judge reviews each work at most once". With 700 schools
 * and 2,000 judges that is ≈ 1.4M arcs instead of 100M, and the flow is exact for classes:
 *   DISAGGREGATION (McNaughton's wrap-around rule): list the judges of C, judge j repeated x_j
 *   times (x_j = flow on C→j ≤ n_C), and give position p of that list to work p mod n_C. A run
 *   of x_j ≤ n_C consecutive positions hits x_j different works, so no work gets a judge twice,
 *   and every work gets ⌊X/n_C⌋ or ⌈X/n_C⌉ of the class's X reviews: exactly d when X = n_C·d.
 *
 * PERSONAL CONFLICTS (a judge advising or authoring a work of another school, a declared work,
 * an extra forbidden pair or the input's conflict predicate, the work's existing judges)
 * concern single works, and they are rare.
 * The class model ignores them, so it is a RELAXATION of the real problem. After
 * disaggregation each violating row (w, j) is REPAIRED by a load-preserving swap: find a work
 * w' that may take j and has a judge k that w may take, and exchange (w gets k, w' gets j).
 * Every judge keeps its load, so the cost, i.e. the optimum, is unchanged, and no new
 * violation is created (both moves are checked). If some violation cannot be swapped away, the
 * works concerned become EXACT singleton classes (one node, arcs only to the judges they may
 * really have) and the flow is solved again. Each round makes at least one more work exact, so
 * this ends; in practice the first round succeeds.
 *
 * WHY THE RESULT IS RIGHT. Every model solved is a relaxation of the real problem (any real
 * assignment is a flow of it), and the accepted answer is a real assignment (checked row by row
 * against conflict.ts before returning). A real assignment that is a maximum, minimum-cost
 * flow of a relaxation is a maximum, minimum-cost real assignment. When the flow is not
 * complete, the minimum cut of the last model names the binding constraint (diagnose.ts).
 */
import { FlowGraph } from "../mcmf";
import { checkProposal } from "./check";
import { diagnose, type Network, type WorkClass } from "./diagnose";
import { buildSnapshot, mayJudge, type Snapshot } from "./snapshot";
import type { AssignInput, AssignResult, Assigner, JudgeLoad, Proposal, Shortfall } from "./types";

/** The unit of flow that brings a judge's total load to L costs L × perLoad. */
export const COST = { perLoad: 1 } as const;

export interface MinCostFlowParams {
  /** Candidate works examined per violation before its work is made an exact node instead. */
  repairBudget: number;
}

export const MIN_COST_FLOW_DEFAULTS: MinCostFlowParams = { repairBudget: 200_000 };

export const minCostFlow: Assigner<MinCostFlowParams> = {
  name: "min-cost-flow",
  description:
    "最小费用流：每件作品分配所需数量的无回避评委，评委工作量尽量均衡（最多与最少相差不超过 1，条件允许时）；无法完全分配时给出原因",
  defaults: MIN_COST_FLOW_DEFAULTS,
  propose: proposeMinCostFlow,
};

export function proposeMinCostFlow(input: AssignInput, params: MinCostFlowParams = MIN_COST_FLOW_DEFAULTS): AssignResult {
  const s = buildSnapshot(input);
  const exact = new Uint8Array(s.W);
  const stats: Record<string, number> = {
    rounds: 0,
    classes: 0,
    exactWorks: 0,
    arcs: 0,
    dijkstras: 0,
    augmentations: 0,
    swaps: 0,
    demand: 0,
    flow: 0,
  };
  for (;;) {
    stats.rounds++;
    const net = buildNetwork(s, exact);
    const flow = net.graph.solve(net.source, net.sink);
    const assigned = disaggregate(s, net);
    const { failed, swaps } = repair(s, net, assigned, params.repairBudget);
    stats.swaps += swaps;
    stats.dijkstras += flow.dijkstras;
    stats.augmentations += flow.augmentations;
    if (failed.length > 0) {
      for (const wi of failed) exact[wi] = 1;
      continue;
    }
    stats.classes = net.classes.length;
    stats.exactWorks = exact.reduce((a, b) => a + b, 0);
    stats.arcs = net.graph.edgeCount;
    stats.flow = flow.flow;
    stats.demand = net.classes.reduce((a, c) => a + c.works.length * c.d, 0);
    return finish(input, s, net, assigned, stats);
  }
}

function buildNetwork(s: Snapshot, exact: Uint8Array): Network {
  const classes: WorkClass[] = [];
  const byKey = new Map<string, WorkClass>();
  const classOf = new Int32Array(s.W).fill(-1);
  for (let wi = 0; wi < s.W; wi++) {
    const d = s.demand[wi];
    if (d === 0) continue;
    const key = exact[wi] ? `w${wi}` : `${s.skey[wi]}:${d}`;
    let c = byKey.get(key);
    if (!c) {
      c = {
        index: classes.length,
        skey: s.skey[wi],
        d,
        exact: exact[wi] === 1,
        works: [],
        judges: [],
        arcs: [],
        sourceArc: -1,
        node: -1,
      };
      byKey.set(key, c);
      classes.push(c);
    }
    c.works.push(wi);
    classOf[wi] = c.index;
  }
  let arcCount = 0;
  for (const c of classes) {
    const row = s.eligible[c.skey];
    const only = c.exact ? c.works[0] : -1;
    for (let ji = 0; ji < s.J; ji++) {
      if (row[ji] && s.remaining[ji] > 0 && (only < 0 || mayJudge(s, only, ji))) c.judges.push(ji);
    }
    arcCount += c.judges.length;
  }
  const source = 0;
  const sink = 1;
  const judgeNode = (ji: number) => 2 + classes.length + ji;
  const graph = new FlowGraph(2 + classes.length + s.J, arcCount + classes.length + s.J);
  classes.forEach((c, i) => {
    c.node = 2 + i;
    const n = c.works.length;
    c.sourceArc = graph.addEdge(source, c.node, n * c.d);
    for (const ji of c.judges) c.arcs.push(graph.addEdge(c.node, judgeNode(ji), n));
  });
  const judgeArc = new Int32Array(s.J).fill(-1);
  for (let ji = 0; ji < s.J; ji++) {
    if (s.remaining[ji] > 0)
      judgeArc[ji] = graph.addEdge(judgeNode(ji), sink, s.remaining[ji], COST.perLoad * (s.preLoad[ji] + 1), COST.perLoad);
  }
  return { graph, source, sink, classes, classOf, judgeNode, judgeArc };
}

/** McNaughton's wrap-around rule per class: position p of the judge list goes to work p mod n. */
function disaggregate(s: Snapshot, net: Network): number[][] {
  const assigned: number[][] = Array.from({ length: s.W }, () => []);
  for (const c of net.classes) {
    const n = c.works.length;
    let p = 0;
    c.judges.forEach((ji, k) => {
      const x = net.graph.flowOn(c.arcs[k]);
      for (let t = 0; t < x; t++, p++) assigned[c.works[p % n]].push(ji);
    });
  }
  return assigned;
}

/**
 * Removes personal-conflict violations by load-preserving swaps. Returns the works whose
 * violations could not be swapped away (they become exact nodes in the next round).
 */
function repair(s: Snapshot, net: Network, assigned: number[][], budget: number): { failed: number[]; swaps: number } {
  const failed: number[] = [];
  let swaps = 0;
  const canTake = (w: number, j: number) => mayJudge(s, w, j) && !assigned[w].includes(j);
  const trySwap = (wi: number, i: number, partner: number): boolean => {
    const j = assigned[wi][i];
    if (partner === wi || !canTake(partner, j)) return false;
    const list = assigned[partner];
    for (let t = 0; t < list.length; t++) {
      const k = list[t];
      if (k !== j && canTake(wi, k)) {
        assigned[wi][i] = k;
        list[t] = j;
        return true;
      }
    }
    return false;
  };
  // Works that can hold a violation: those with forbidden judges, or all when a predicate is given.
  const candidates = s.predicate ? Array.from({ length: s.W }, (_, i) => i) : [...s.forbidden.keys()].sort((a, b) => a - b);
  for (const wi of candidates) {
    const cls = net.classOf[wi];
    if (cls < 0 || net.classes[cls].exact) continue;
    for (let i = 0; i < assigned[wi].length; i++) {
      if (mayJudge(s, wi, assigned[wi][i])) continue;
      let done = false;
      let examined = 0;
      // Same class first (same school and group: the likeliest partners), then every work.
      for (const w2 of net.classes[cls].works) {
        if (++examined > budget || (done = trySwap(wi, i, w2))) break;
      }
      for (let step = 1; !done && step < s.W && examined <= budget; step++, examined++) {
        done = trySwap(wi, i, (wi + step) % s.W);
      }
      if (done) swaps++;
      else {
        failed.push(wi);
        break;
      }
    }
  }
  return { failed, swaps };
}

function finish(
  input: AssignInput,
  s: Snapshot,
  net: Network,
  assigned: number[][],
  stats: Record<string, number>,
): AssignResult {
  const rows: Proposal[] = [];
  const shortfalls: Shortfall[] = [];
  const count = new Int32Array(s.J);
  for (let wi = 0; wi < s.W; wi++) {
    for (const ji of assigned[wi]) {
      rows.push({ workId: s.works[wi].id, judgeId: s.judges[ji].id });
      count[ji]++;
    }
    if (assigned[wi].length < s.demand[wi])
      shortfalls.push({ workId: s.works[wi].id, needed: s.demand[wi], proposed: assigned[wi].length });
  }
  rows.sort((a, b) => a.workId - b.workId || a.judgeId - b.judgeId);
  shortfalls.sort((a, b) => a.workId - b.workId);

  // Insurance: the answer must pass the same gate the writer uses, evaluated on conflict.ts directly.
  const problems = checkProposal(input, rows);
  if (problems.length) throw new Error(`min-cost-flow: internal error, proposal fails its check: ${problems[0].message}`);

  const loads: JudgeLoad[] = s.judges.map((j, ji) => ({
    judgeId: j.id,
    before: s.preLoad[ji],
    after: s.preLoad[ji] + count[ji],
    capacity: j.capacity,
  }));
  let maxLoad = loads.length ? loads[0].after : 0;
  let minLoad = maxLoad;
  for (const l of loads) {
    maxLoad = Math.max(maxLoad, l.after);
    minLoad = Math.min(minLoad, l.after);
  }
  const complete = shortfalls.length === 0;
  return {
    algorithm: minCostFlow.name,
    complete,
    rows,
    issues: complete ? [] : diagnose(s, net, assigned),
    shortfalls,
    warnings: s.warnings,
    loads,
    maxLoad,
    minLoad,
    loadSpread: maxLoad - minLoad,
    stats,
  };
}
