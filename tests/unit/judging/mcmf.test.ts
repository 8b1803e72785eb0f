import { describe, expect, it } from "vitest";
import { rng } from "../../../src/server/seed/generate";
import { FlowGraph } from "../../../src/server/judging/mcmf";

interface E {
  from: number;
  to: number;
  cap: number;
  cost: number;
  step: number;
}

/**
 * Reference: every convex arc expanded into unit arcs of cost cost + step·k, then one unit at
 * a time along a Bellman–Ford shortest path. Slow, obviously correct.
 */
function reference(n: number, edges: E[], s: number, t: number): { flow: number; cost: number } {
  const to: number[] = [],
    cap: number[] = [],
    cost: number[] = [],
    from: number[] = [];
  const add = (u: number, v: number, c: number, w: number) => {
    from.push(u);
    to.push(v);
    cap.push(c);
    cost.push(w);
    from.push(v);
    to.push(u);
    cap.push(0);
    cost.push(-w);
  };
  for (const e of edges) {
    if (e.step === 0) add(e.from, e.to, e.cap, e.cost);
    else for (let k = 0; k < e.cap; k++) add(e.from, e.to, 1, e.cost + e.step * k);
  }
  let flow = 0,
    total = 0;
  for (;;) {
    const dist = new Array<number>(n).fill(Infinity),
      prev = new Array<number>(n).fill(-1);
    dist[s] = 0;
    for (let round = 0; round < n; round++) {
      let changed = false;
      for (let a = 0; a < to.length; a++) {
        if (cap[a] > 0 && dist[from[a]] + cost[a] < dist[to[a]]) {
          dist[to[a]] = dist[from[a]] + cost[a];
          prev[to[a]] = a;
          changed = true;
        }
      }
      if (!changed) break;
    }
    if (dist[t] === Infinity) return { flow, cost: total };
    let push = Infinity;
    for (let v = t; v !== s; v = from[prev[v]]) push = Math.min(push, cap[prev[v]]);
    for (let v = t; v !== s; v = from[prev[v]]) {
      cap[prev[v]] -= push;
      cap[prev[v] ^ 1] += push;
    }
    flow += push;
    total += push * dist[t];
  }
}

describe("FlowGraph (min-cost max-flow)", () => {
  it("finds the known optimum of a small network", () => {
    // Two routes of capacity 2: cost 1+1 and 2+2; a cross arc of cost 0. Max flow 4, min cost 2·2 + 2·4 = 12.
    const g = new FlowGraph(4);
    const a = g.addEdge(0, 1, 2, 1);
    g.addEdge(0, 2, 2, 2);
    g.addEdge(1, 3, 2, 1);
    g.addEdge(2, 3, 3, 2);
    g.addEdge(1, 2, 5, 0);
    const r = g.solve(0, 3);
    expect(r.flow).toBe(4);
    expect(r.cost).toBe(12);
    expect(g.flowOn(a)).toBe(2);
  });

  it("charges a convex arc cost + step·k for its k-th unit", () => {
    // Source → sink over one convex arc (1, +2 per unit: 1, 3, 5) and one flat arc of cost 4.
    const g = new FlowGraph(2);
    const convex = g.addEdge(0, 1, 10, 1, 2);
    const flat = g.addEdge(0, 1, 10, 4);
    const r = g.solve(0, 1, 5);
    // Cheapest 5 units: 1, 3, 4, 4, 4 = 16 (the convex arc's third unit would cost 5).
    expect(r.flow).toBe(5);
    expect(r.cost).toBe(16);
    expect(g.flowOn(convex)).toBe(2);
    expect(g.flowOn(flat)).toBe(3);
  });

  it("agrees with a unit-expansion Bellman–Ford reference on random networks", () => {
    for (let seed = 1; seed <= 150; seed++) {
      const r = rng(seed);
      const n = r.int(3, 9);
      const edges: E[] = [];
      for (let k = r.int(2, 20); k > 0; k--) {
        const from = r.int(0, n - 1),
          to = r.int(0, n - 1);
        if (from !== to) edges.push({ from, to, cap: r.int(0, 6), cost: r.int(0, 9), step: r.next() < 0.3 ? r.int(1, 3) : 0 });
      }
      const g = new FlowGraph(n);
      for (const e of edges) g.addEdge(e.from, e.to, e.cap, e.cost, e.step);
      const got = g.solve(0, n - 1);
      const want = reference(n, edges, 0, n - 1);
      expect({ flow: got.flow, cost: got.cost }, `seed ${seed}`).toEqual(want);
    }
  });

  it("leaves a minimum cut: the residual-reachable side has only full arcs out and empty arcs in", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const r = rng(1000 + seed);
      const n = r.int(4, 10);
      const edges: E[] = [];
      for (let k = r.int(5, 30); k > 0; k--) {
        const from = r.int(0, n - 1),
          to = r.int(0, n - 1);
        if (from !== to) edges.push({ from, to, cap: r.int(0, 5), cost: r.int(0, 4), step: r.next() < 0.3 ? 1 : 0 });
      }
      const g = new FlowGraph(n);
      const ids = edges.map((e) => g.addEdge(e.from, e.to, e.cap, e.cost, e.step));
      const { flow } = g.solve(0, n - 1);
      const side = g.residualReachable(0);
      expect(side[n - 1]).toBe(0);
      let cut = 0;
      edges.forEach((e, i) => {
        if (side[e.from] && !side[e.to]) {
          expect(g.flowOn(ids[i])).toBe(e.cap);
          cut += e.cap;
        }
        if (!side[e.from] && side[e.to]) expect(g.flowOn(ids[i])).toBe(0);
      });
      expect(cut, `seed ${seed}`).toBe(flow);
    }
  });

  it("rejects negative or fractional costs and edges added after solving", () => {
    const g = new FlowGraph(2);
    expect(() => g.addEdge(0, 1, 1, -1)).toThrow(RangeError);
    expect(() => g.addEdge(0, 1, 1, 0.5)).toThrow(RangeError);
    expect(() => g.addEdge(0, 1, 1.5)).toThrow(RangeError);
    g.addEdge(0, 1, 1);
    g.solve(0, 1);
    expect(() => g.addEdge(0, 1, 1)).toThrow();
  });
});
