/**
 * Why a maximum assignment is not complete, in sentences an admin can act on.
 *
 * Three kinds of statement, each a true bound that the works concerned cannot beat:
 * - a group has fewer judges than a work of it needs;
 * - a work has fewer eligible judges with capacity left than it needs (its own Hall condition);
 * - the remaining capacity of all judges (of a group) is below the demand.
 * And the certificate that always exists: the MINIMUM CUT of the final flow. The nodes still
 * reachable from the source in the residual graph split into connected parts; for each part
 * with a deficit, its works need `demand` reviews, its judges have no capacity left
 * (`capacityLimit`), and every arc from its works to the other eligible judges is full, i.e.
 * each of those judges already reviews each of these works once (`distinctLimit`). By max-flow
 * min-cut the works of the part get exactly capacityLimit + distinctLimit reviews, and no
 * assignment can give them more. A part is reported only when its deficit is not already
 * explained by the per-work statements, so the report is exact and not repetitive.
 */
import type { FlowGraph } from "../mcmf";
import type { Snapshot } from "./snapshot";
import type { AssignIssue } from "./types";

export interface WorkClass {
  index: number;
  /** Structural key (group, school, province) of its works. */
  skey: number;
  /** Reviews each of its works still needs. */
  d: number;
  /** A single work with arcs only to the judges it may really have. */
  exact: boolean;
  works: number[];
  /** Judge indices it has an arc to, and those arcs. */
  judges: number[];
  arcs: number[];
  sourceArc: number;
  node: number;
}

export interface Network {
  graph: FlowGraph;
  source: number;
  sink: number;
  classes: WorkClass[];
  classOf: Int32Array;
  judgeNode: (ji: number) => number;
  judgeArc: Int32Array;
}

const LIST = 5;
const listWorks = (ids: readonly number[]) =>
  ids.slice(0, LIST).join("、") + (ids.length > LIST ? ` 等 ${ids.length} 件作品` : "");

/** Groups with fewer judges than a work of them needs; marks those works `covered`. */
function groupIssues(s: Snapshot, covered: Uint8Array): { issues: AssignIssue[]; groupDemand: Float64Array } {
  const issues: AssignIssue[] = [];
  const short: number[][] = s.groups.map(() => []);
  const shortNeed = new Int32Array(s.groups.length);
  const groupDemand = new Float64Array(s.groups.length);
  for (let wi = 0; wi < s.W; wi++) {
    const gi = s.workGroup[wi];
    if (gi < 0) continue;
    groupDemand[gi] += s.demand[wi];
    if (s.demand[wi] > s.groups[gi].size) {
      short[gi].push(s.works[wi].id);
      shortNeed[gi] = Math.max(shortNeed[gi], s.demand[wi]);
      covered[wi] = 1;
    }
  }
  s.groups.forEach((g, gi) => {
    const works = short[gi];
    const needed = shortNeed[gi];
    if (works.length) {
      issues.push({
        kind: "group_too_few_judges",
        groupId: g.id,
        judges: g.size,
        needed,
        workIds: works,
        message: `评审组“${g.name}”只有 ${g.size} 位评委，每件作品需要 ${needed} 位（涉及作品 ${listWorks(works)}）`,
      });
    }
  });
  return { issues, groupDemand };
}

/**
 * Works with fewer eligible judges with capacity left than they need: per-work eligibility,
 * counted per structural key and corrected by the work's forbidden judges. Every such work
 * has its local deficit; works already `covered` by a group statement get no issue.
 */
function workIssues(s: Snapshot, assigned: readonly number[][], covered: Uint8Array) {
  const allBy = new Map<number, number>();
  const capBy = new Map<number, number>();
  const counts = (k: number) => {
    if (!allBy.has(k)) {
      let all = 0;
      let cap = 0;
      const row = s.eligible[k];
      for (let ji = 0; ji < s.J; ji++)
        if (row[ji]) {
          all++;
          if (s.remaining[ji] > 0) cap++;
        }
      allBy.set(k, all);
      capBy.set(k, cap);
    }
    return [allBy.get(k)!, capBy.get(k)!];
  };
  const localDeficit = new Int32Array(s.W);
  const localIssues: AssignIssue[] = [];
  for (let wi = 0; wi < s.W; wi++) {
    if (assigned[wi].length >= s.demand[wi]) continue;
    let [all, cap] = counts(s.skey[wi]);
    const row = s.eligible[s.skey[wi]];
    const forbidden = s.forbidden.get(wi);
    for (const ji of forbidden ?? []) {
      if (row[ji]) {
        all--;
        if (s.remaining[ji] > 0) cap--;
      }
    }
    if (s.predicate) {
      for (let ji = 0; ji < s.J; ji++) {
        if (row[ji] && !forbidden?.has(ji) && s.predicate(wi, ji)) {
          all--;
          if (s.remaining[ji] > 0) cap--;
        }
      }
    }
    const d = s.demand[wi];
    if (cap >= d) continue;
    localDeficit[wi] = d - cap;
    if (covered[wi]) continue;
    const full = all - cap;
    localIssues.push({
      kind: "work_too_few_judges",
      workId: s.works[wi].id,
      eligible: cap,
      full,
      needed: d,
      message:
        `作品 ${s.works[wi].id} 只有 ${cap} 位无回避关系的评委可选，需要 ${d} 位` +
        (full > 0 ? `（另有 ${full} 位无回避关系的评委已无剩余容量）` : ""),
    });
  }
  return { localDeficit, localIssues };
}

/** The remaining capacity below the demand, overall and per group. */
function capacityIssues(s: Snapshot, groupDemand: Float64Array): AssignIssue[] {
  const issues: AssignIssue[] = [];
  let totalDemand = 0;
  for (let wi = 0; wi < s.W; wi++) totalDemand += s.demand[wi];
  const totalCap = s.remaining.reduce((a, b) => a + b, 0);
  if (totalCap < totalDemand) {
    issues.push({
      kind: "capacity",
      capacity: totalCap,
      demand: totalDemand,
      message: `评委剩余容量合计 ${totalCap} 次，少于作品还需的 ${totalDemand} 次评审（缺 ${totalDemand - totalCap} 次）`,
    });
  }
  s.groups.forEach((g, gi) => {
    const demand = groupDemand[gi];
    let cap = 0;
    for (let ji = 0; ji < s.J; ji++) if (g.member[ji]) cap += s.remaining[ji];
    if (g.size > 0 && cap < demand) {
      issues.push({
        kind: "capacity",
        groupId: g.id,
        capacity: cap,
        demand,
        message: `评审组“${g.name}”的评委剩余容量合计 ${cap} 次，少于该组作品还需的 ${demand} 次评审（缺 ${demand - cap} 次）`,
      });
    }
  });
  return issues;
}

/**
 * The minimum cut, split into connected parts: one issue per part whose deficit the
 * per-work statements do not explain and no capacity statement in `earlier` already gives.
 */
function cutIssues(s: Snapshot, net: Network, localDeficit: Int32Array, earlier: readonly AssignIssue[]): AssignIssue[] {
  const issues: AssignIssue[] = [];
  const reach = net.graph.residualReachable(net.source);
  const parent = new Int32Array(net.graph.nodeCount).map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const c of net.classes) {
    if (!reach[c.node]) continue;
    c.judges.forEach((ji) => {
      const v = net.judgeNode(ji);
      if (reach[v]) parent[find(v)] = find(c.node);
    });
  }
  interface Part {
    works: number[];
    demand: number;
    flow: number;
    capacityLimit: number;
    distinctLimit: number;
    judges: number[];
    local: number;
  }
  const parts = new Map<number, Part>();
  const part = (root: number) => {
    let p = parts.get(root);
    if (!p) parts.set(root, (p = { works: [], demand: 0, flow: 0, capacityLimit: 0, distinctLimit: 0, judges: [], local: 0 }));
    return p;
  };
  for (const c of net.classes) {
    if (!reach[c.node]) continue;
    const p = part(find(c.node));
    p.demand += c.works.length * c.d;
    p.flow += net.graph.flowOn(c.sourceArc);
    for (const wi of c.works) {
      p.works.push(s.works[wi].id);
      p.local += localDeficit[wi];
    }
    c.judges.forEach((ji, k) => {
      if (!reach[net.judgeNode(ji)]) p.distinctLimit += net.graph.flowOn(c.arcs[k]);
    });
  }
  for (let ji = 0; ji < s.J; ji++) {
    const v = net.judgeNode(ji);
    if (!reach[v] || !parts.has(find(v))) continue;
    const p = parts.get(find(v))!;
    p.capacityLimit += s.remaining[ji];
    p.judges.push(s.judges[ji].id);
  }
  for (const p of parts.values()) {
    const deficit = p.demand - p.flow;
    if (deficit <= p.local) continue;
    const limit = p.capacityLimit + p.distinctLimit;
    if (
      p.distinctLimit === 0 &&
      earlier.some((i) => i.kind === "capacity" && i.capacity === p.capacityLimit && i.demand === p.demand)
    )
      continue;
    p.works.sort((a, b) => a - b);
    p.judges.sort((a, b) => a - b);
    issues.push({
      kind: "cut",
      workIds: p.works,
      demand: p.demand,
      limit,
      capacityLimit: p.capacityLimit,
      distinctLimit: p.distinctLimit,
      saturatedJudgeIds: p.judges,
      message:
        `作品 ${listWorks(p.works)}，共还需 ${p.demand} 次评审，但可选评委最多只能再承担 ${limit} 次：` +
        `${p.judges.length} 位评委的剩余容量（合计 ${p.capacityLimit} 次）已用满，其余无回避关系的评委对每件作品至多各评一次（合计 ${p.distinctLimit} 次）；缺 ${p.demand - limit} 次`,
    });
  }
  return issues;
}

export function diagnose(s: Snapshot, net: Network, assigned: readonly number[][]): AssignIssue[] {
  const covered = new Uint8Array(s.W);
  const { issues, groupDemand } = groupIssues(s, covered);
  const { localDeficit, localIssues } = workIssues(s, assigned, covered);
  issues.push(...capacityIssues(s, groupDemand));
  issues.push(...localIssues);
  issues.push(...cutIssues(s, net, localDeficit, issues));
  return issues;
}
