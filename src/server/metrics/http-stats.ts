/**
 * Request counts and latencies per route pattern, method and status, kept in plain numbers
 * and turned into Prometheus series only when scraped. Recording a request is three map
 * look-ups and a few additions, with no allocation once a series exists: prom-client's own
 * observe() builds a label object and a hash string for every call.
 */

/** Latency bucket bounds in seconds, 5 ms to 10 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The route label of a request that matched no route (a 404): raw paths would be unbounded. */
export const UNMATCHED = "unmatched";

export interface RequestSeries {
  route: string;
  method: string;
  status: number;
  count: number;
  /** seconds */
  sum: number;
  /** requests per bucket of LATENCY_BUCKETS, not cumulative; slower than the last bound count only in `count` */
  buckets: Float64Array;
}

export class RequestStats {
  readonly #byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>();

  record(route: string, method: string, status: number, seconds: number) {
    let byMethod = this.#byRoute.get(route);
    if (!byMethod) this.#byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s)
      byStatus.set(status, (s = { route, method, status, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS.length) }));
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]) {
        s.buckets[i]++;
        break;
      }
    }
  }

  *series(): IterableIterator<RequestSeries> {
    for (const byMethod of this.#byRoute.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  }
}
