/**
 * Min-cost maximum flow, domain-free (nothing here knows about works or judges).
 *
 * Method: the primal-dual form of successive shortest paths.
 *   repeat
 *     1. Dijkstra from the source on reduced costs c(u,v) + π(u) − π(v) ≥ 0 (Johnson
 *        potentials), stopping when the sink is settled; π(v) += min(dist(v), dist(sink)).
 *        After this every arc on a shortest path has reduced cost 0 and no arc is negative.
 *     2. Push a blocking flow, Dinic style (BFS levels + DFS with current-arc pointers), through
 *        the "admissible" arcs only: residual capacity > 0 and reduced cost exactly 0. Every
 *        such path is a shortest path, so this is the same as augmenting along shortest paths
 *        one by one, only cheaper. Repeat the BFS until the sink is unreachable by admissible
 *        arcs, then go back to 1.
 *   until the sink is unreachable (or the flow limit is reached).
 * Successive shortest-path augmentation keeps the flow cost-optimal for its value at every
 * step (no negative residual cycle is ever created), so the result is a minimum-cost flow among
 * all maximum flows. The number of Dijkstra runs is bounded by the number of distinct
 * shortest-path lengths, which for the assignment graph is about the largest judge load.
 *
 * Convex arcs. `addEdge(from, to, cap, cost, step)` gives the k-th unit of flow on the arc
 * (k = 0, 1, …) the cost `cost + step·k`; step ≥ 0 makes the arc cost convex. This is what the
 * assignment needs (the k-th review of a judge costs more than the (k−1)-th) without adding an
 * arc per unit. The forward residual costs `cost + step·f` (f = current flow), the backward
 * residual `−(cost + step·(f−1))`. After a unit crosses a convex arc its next unit costs `step`
 * more, so it stops being admissible: paths through such arcs carry one unit at a time, which
 * keeps every augmentation a shortest-path augmentation.
 *
 * Requirements: integer costs and steps, both ≥ 0 (then zero potentials are valid at the start
 * and "reduced cost exactly 0" is an exact test); integer capacities. Everything is stored in
 * typed arrays: 20 bytes per edge while building, then 20 bytes per arc direction (head,
 * residual, reverse, base cost, step) plus 4 per edge; 1.8M edges ≈ 80 MB.
 */

export interface FlowStats {
  /** Value of the flow found. */
  flow: number;
  /** Its total cost. */
  cost: number;
  /** Dijkstra runs (price updates). */
  dijkstras: number;
  /** BFS rounds of blocking flow. */
  rounds: number;
  /** Augmenting paths pushed. */
  augmentations: number;
}

export class FlowGraph {
  readonly nodeCount: number;
  private m = 0;
  private eFrom: Int32Array;
  private eTo: Int32Array;
  private eCap: Int32Array;
  private eCost: Int32Array;
  private eStep: Int32Array;
  // Compiled CSR form (built on the first solve).
  private start: Int32Array | null = null;
  private arcTo!: Int32Array;
  private arcRes!: Int32Array;
  private arcRev!: Int32Array;
  /**
   * Cost of the next unit through arc a = arcBase[a] + arcStep[a]·f, f = flow on its edge.
   * Forward arc: base = cost, step = +step. Backward arc: base = step − cost, step = −step
   * (undoing the last of f units saves cost + step·(f−1)). The sign of arcStep also tells the
   * direction of a convex arc: f = res(reverse arc) when > 0, f = res(arc) when < 0.
   */
  private arcBase!: Int32Array;
  private arcStep!: Int32Array;
  private fwdArc!: Int32Array;
  private potential: Float64Array;
  private totalCost = 0;

  constructor(nodeCount: number, edgeHint = 16) {
    this.nodeCount = nodeCount;
    const n = Math.max(4, edgeHint);
    this.eFrom = new Int32Array(n);
    this.eTo = new Int32Array(n);
    this.eCap = new Int32Array(n);
    this.eCost = new Int32Array(n);
    this.eStep = new Int32Array(n);
    this.potential = new Float64Array(nodeCount);
  }

  get edgeCount(): number {
    return this.m;
  }

  /** Adds an arc and returns its edge id. Edges can only be added before the first solve. */
  addEdge(from: number, to: number, cap: number, cost = 0, step = 0): number {
    if (this.start) throw new Error("FlowGraph: edges must be added before solve()");
    if (from < 0 || from >= this.nodeCount || to < 0 || to >= this.nodeCount)
      throw new RangeError("FlowGraph: node out of range");
    if (!Number.isInteger(cap) || cap < 0 || cap > 0x3fffffff) throw new RangeError("FlowGraph: capacity must be an integer ≥ 0");
    if (!Number.isInteger(cost) || cost < 0 || !Number.isInteger(step) || step < 0)
      throw new RangeError("FlowGraph: costs must be integers ≥ 0");
    if (this.m === this.eFrom.length) this.grow();
    const e = this.m++;
    this.eFrom[e] = from;
    this.eTo[e] = to;
    this.eCap[e] = cap;
    this.eCost[e] = cost;
    this.eStep[e] = step;
    return e;
  }

  /** Flow on edge `e` (after solve; 0 before). */
  flowOn(e: number): number {
    if (!this.start) return 0;
    return this.arcRes[this.arcRev[this.fwdArc[e]]];
  }

  /**
   * Nodes reachable from `source` in the residual graph after solve(): the source side of a
   * minimum cut. Every arc leaving this set is saturated, every arc entering it carries no flow.
   */
  residualReachable(source: number): Uint8Array {
    this.compile();
    const seen = new Uint8Array(this.nodeCount);
    const stack = [source];
    seen[source] = 1;
    const start = this.start!;
    const { arcTo, arcRes } = this;
    while (stack.length) {
      const u = stack.pop()!;
      for (let a = start[u]; a < start[u + 1]; a++) {
        const v = arcTo[a];
        if (arcRes[a] > 0 && !seen[v]) {
          seen[v] = 1;
          stack.push(v);
        }
      }
    }
    return seen;
  }

  /** Sends as much flow as possible (up to `limit`) from source to sink at minimum cost. */
  solve(source: number, sink: number, limit = Number.POSITIVE_INFINITY): FlowStats {
    if (source === sink) throw new RangeError("FlowGraph: source equals sink");
    this.compile();
    const n = this.nodeCount;
    const start = this.start!;
    const { arcTo, arcRes, arcRev, arcBase, arcStep, potential: pi } = this;
    const dist = new Float64Array(n);
    const settled = new Uint8Array(n);
    const heap = new IndexedHeap(n, dist);
    const level = new Int32Array(n);
    const queue = new Int32Array(n);
    const cur = new Int32Array(n);
    const pathArcs = new Int32Array(n);
    const pathNodes = new Int32Array(n + 1);
    const stats: FlowStats = { flow: 0, cost: 0, dijkstras: 0, rounds: 0, augmentations: 0 };

    while (stats.flow < limit) {
      // 1. Dijkstra on reduced costs, stopped when the sink is settled.
      stats.dijkstras++;
      dist.fill(Number.POSITIVE_INFINITY);
      settled.fill(0);
      heap.clear();
      dist[source] = 0;
      heap.push(source);
      while (!heap.empty()) {
        const u = heap.pop();
        settled[u] = 1;
        if (u === sink) break;
        const du = dist[u] + pi[u];
        for (let a = start[u], end = start[u + 1]; a < end; a++) {
          if (arcRes[a] <= 0) continue;
          const v = arcTo[a];
          if (settled[v]) continue;
          const st = arcStep[a];
          const nd = du + (st === 0 ? arcBase[a] : arcBase[a] + st * (st > 0 ? arcRes[arcRev[a]] : arcRes[a])) - pi[v];
          if (nd < dist[v]) {
            const was = dist[v];
            dist[v] = nd;
            if (was === Number.POSITIVE_INFINITY) heap.push(v);
            else heap.decrease(v);
          }
        }
      }
      if (!settled[sink]) break;
      const dt = dist[sink];
      for (let v = 0; v < n; v++) pi[v] += settled[v] ? dist[v] : dt;

      // 2. Blocking flows on the admissible arcs (residual > 0, reduced cost 0).
      for (;;) {
        if (stats.flow >= limit) break;
        stats.rounds++;
        level.fill(-1);
        level[source] = 0;
        let qh = 0;
        let qt = 0;
        queue[qt++] = source;
        while (qh < qt) {
          const u = queue[qh++];
          const pu = pi[u];
          for (let a = start[u], end = start[u + 1]; a < end; a++) {
            const v = arcTo[a];
            if (level[v] >= 0 || arcRes[a] <= 0) continue;
            const st = arcStep[a];
            if ((st === 0 ? arcBase[a] : arcBase[a] + st * (st > 0 ? arcRes[arcRev[a]] : arcRes[a])) + pu - pi[v] === 0) {
              level[v] = level[u] + 1;
              queue[qt++] = v;
            }
          }
        }
        if (level[sink] < 0) break;
        for (let v = 0; v < n; v++) cur[v] = start[v];
        // Iterative DFS with current-arc pointers.
        let depth = 0;
        pathNodes[0] = source;
        while (stats.flow < limit) {
          const u = pathNodes[depth];
          if (u === sink) {
            let push = limit - stats.flow;
            for (let i = 0; i < depth; i++) {
              const a = pathArcs[i];
              push = Math.min(push, arcStep[a] !== 0 ? 1 : arcRes[a]);
            }
            for (let i = 0; i < depth; i++) {
              const a = pathArcs[i];
              stats.cost += push * this.arcCost(a);
              arcRes[a] -= push;
              arcRes[arcRev[a]] += push;
            }
            stats.flow += push;
            stats.augmentations++;
            // Retreat to the tail of the first arc that is no longer admissible.
            let k = 0;
            while (k < depth && this.admissible(pathArcs[k], pathNodes[k], level)) k++;
            depth = k;
            continue;
          }
          let a = cur[u];
          const end = start[u + 1];
          const pu = pi[u];
          const lu = level[u] + 1;
          for (; a < end; a++) {
            if (arcRes[a] <= 0) continue;
            const v = arcTo[a];
            if (level[v] !== lu) continue;
            const st = arcStep[a];
            if ((st === 0 ? arcBase[a] : arcBase[a] + st * (st > 0 ? arcRes[arcRev[a]] : arcRes[a])) + pu - pi[v] === 0) break;
          }
          cur[u] = a;
          if (a < end) {
            pathArcs[depth] = a;
            pathNodes[++depth] = arcTo[a];
          } else {
            if (depth === 0) break;
            level[u] = -1; // dead end for this round
            depth--;
            cur[pathNodes[depth]]++;
          }
        }
      }
    }
    this.totalCost += stats.cost;
    stats.cost = this.totalCost;
    return stats;
  }

  private admissible(a: number, u: number, level: Int32Array): boolean {
    const v = this.arcTo[a];
    return this.arcRes[a] > 0 && level[v] === level[u] + 1 && this.arcCost(a) + this.potential[u] - this.potential[v] === 0;
  }

  /** Cost of the next unit through arc `a` (convex arcs: depends on the current flow). */
  private arcCost(a: number): number {
    const st = this.arcStep[a];
    if (st === 0) return this.arcBase[a];
    return this.arcBase[a] + st * (st > 0 ? this.arcRes[this.arcRev[a]] : this.arcRes[a]);
  }

  private grow() {
    const n = this.eFrom.length * 2;
    const g = (x: Int32Array) => {
      const y = new Int32Array(n);
      y.set(x);
      return y;
    };
    this.eFrom = g(this.eFrom);
    this.eTo = g(this.eTo);
    this.eCap = g(this.eCap);
    this.eCost = g(this.eCost);
    this.eStep = g(this.eStep);
  }

  private compile() {
    if (this.start) return;
    const n = this.nodeCount;
    const m = this.m;
    const start = new Int32Array(n + 1);
    for (let e = 0; e < m; e++) {
      start[this.eFrom[e] + 1]++;
      start[this.eTo[e] + 1]++;
    }
    for (let v = 0; v < n; v++) start[v + 1] += start[v];
    const fill = start.slice(0, n);
    this.arcTo = new Int32Array(2 * m);
    this.arcRes = new Int32Array(2 * m);
    this.arcRev = new Int32Array(2 * m);
    this.arcBase = new Int32Array(2 * m);
    this.arcStep = new Int32Array(2 * m);
    this.fwdArc = new Int32Array(m);
    for (let e = 0; e < m; e++) {
      const f = fill[this.eFrom[e]]++;
      const b = fill[this.eTo[e]]++;
      this.arcTo[f] = this.eTo[e];
      this.arcRes[f] = this.eCap[e];
      this.arcBase[f] = this.eCost[e];
      this.arcStep[f] = this.eStep[e];
      this.arcTo[b] = this.eFrom[e];
      this.arcRes[b] = 0;
      this.arcBase[b] = this.eStep[e] - this.eCost[e];
      this.arcStep[b] = -this.eStep[e];
      this.arcRev[f] = b;
      this.arcRev[b] = f;
      this.fwdArc[e] = f;
    }
    this.start = start;
    // The builder arrays are no longer needed.
    this.eFrom = this.eTo = this.eCap = this.eCost = this.eStep = new Int32Array(0);
  }
}

/** Binary min-heap of node ids keyed by an external Float64Array, with decrease-key. */
class IndexedHeap {
  private heap: Int32Array;
  private pos: Int32Array;
  private size = 0;
  constructor(
    n: number,
    private key: Float64Array,
  ) {
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }
  clear() {
    for (let i = 0; i < this.size; i++) this.pos[this.heap[i]] = -1;
    this.size = 0;
  }
  empty() {
    return this.size === 0;
  }
  push(v: number) {
    this.heap[this.size] = v;
    this.pos[v] = this.size;
    this.up(this.size++);
  }
  decrease(v: number) {
    this.up(this.pos[v]);
  }
  pop(): number {
    const top = this.heap[0];
    this.pos[top] = -1;
    const last = this.heap[--this.size];
    if (this.size > 0) {
      this.heap[0] = last;
      this.pos[last] = 0;
      this.down(0);
    }
    return top;
  }
  private up(i: number) {
    const { heap, pos, key } = this;
    const v = heap[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      const w = heap[p];
      if (key[w] < key[v] || (key[w] === key[v] && w < v)) break;
      heap[i] = w;
      pos[w] = i;
      i = p;
    }
    heap[i] = v;
    pos[v] = i;
  }
  private down(i: number) {
    const { heap, pos, key } = this;
    const v = heap[i];
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      const r = c + 1;
      if (r < this.size && (key[heap[r]] < key[heap[c]] || (key[heap[r]] === key[heap[c]] && heap[r] < heap[c]))) c = r;
      const w = heap[c];
      if (key[v] < key[w] || (key[v] === key[w] && v < w)) break;
      heap[i] = w;
      pos[w] = i;
      i = c;
    }
    heap[i] = v;
    pos[v] = i;
  }
}
