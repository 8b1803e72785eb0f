/**
 * The metrics of one app, in a Registry of its own: tests build many apps in one process,
 * and prom-client's global registry would mix their series (and refuse a name twice).
 *
 * - HTTP: saiwu_http_requests_total and saiwu_http_request_duration_seconds by route
 *   pattern, method and status code (a request that matched no route: UNMATCHED, since raw
 *   paths would be unbounded), observed as each reply is sent (./plugin.ts).
 * - Rate limits: saiwu_rate_limit_refusals_total by rule, counted as each 429 is sent.
 * - Load shedding: saiwu_overload_refusals_total by reason (in_flight: too many requests at
 *   once; event_loop: sustained event-loop lag), counted as each 503 is sent
 *   (plugins/overload.ts); both series start at 0.
 * - Read caches: saiwu_read_cache_hits_total / _misses_total by cache name, read from the
 *   caches of the database handle (db/changes.ts) when scraped.
 * - Background work: saiwu_jobs (job rows by kind and state) and saiwu_queue_tasks (queue
 *   tasks by queue and state), read from the database when scraped (./sources.ts);
 *   saiwu_metrics_source_up says whether each read answered this time.
 * - PostgreSQL pool: saiwu_db_pool_connections (in_use / idle), saiwu_db_pool_waiting_requests
 *   and saiwu_db_pool_max_connections. Not on the embedded SQLite: it has no pool (one writer
 *   and one reader connection inside the process, db/libsql-dialect.ts).
 * - Process: prom-client's default series (process_resident_memory_bytes,
 *   nodejs_eventloop_lag_seconds, heap, GC, …). Their collectors install process-wide
 *   observers (an event-loop delay monitor, a GC observer) that prom-client cannot stop, and
 *   they describe the process, not an app: they are created once per process and their
 *   metric objects added to each app's registry, so building many apps adds no observers.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from "prom-client";
import type pg from "pg";
import type { Db, Dialect } from "../db";
import { readCachesOf } from "../db/changes";
import type { OverloadReason } from "../plugins/overload";
import { readJobCounts, readQueueCounts, within, type JobCount, type QueueCount } from "./sources";

/** How long a scrape waits for each database read before it answers without it. */
const SOURCE_TIMEOUT_MS = 2000;

let processRegistry: Registry | undefined;
function processMetrics(): Metric[] {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  // Typed as plain descriptions, they are the metric objects themselves.
  return processRegistry.getMetricsAsArray() as unknown as Metric[];
}

/** Latency bucket bounds in seconds, 5 ms to 10 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const OVERLOAD_REASONS: OverloadReason[] = ["in_flight", "event_loop"];

/** The route label of a request that matched no route (a 404). */
export const UNMATCHED = "unmatched";

export interface AppMetrics {
  /** One answered request: its route pattern (UNMATCHED for none), method, status and time in seconds. */
  request(route: string, method: string, status: number, seconds: number): void;
  readonly contentType: string;
  limitRefused(rule: string): void;
  /** A rate-limit rule some route uses: its refusal series starts at 0, so the first refusal shows as an increase. */
  limitRule(rule: string): void;
  /** A request refused with 503 because the process is over capacity, by the signal that refused it. */
  overloadRefused(reason: OverloadReason): void;
  /** The Prometheus text of every series, reading the database first. */
  scrape(): Promise<string>;
  close(): void;
}

/** saiwu_overload_refusals_total, each reason's series at 0 from the start. */
function overloadCounter(registers: Registry[]) {
  const counter = new Counter({
    name: "saiwu_overload_refusals_total",
    help: "API requests refused with 503 because the process was over capacity, by reason: in_flight (too many requests at once), event_loop (sustained event-loop lag)",
    labelNames: ["reason"],
    registers,
  });
  for (const reason of OVERLOAD_REASONS) counter.inc({ reason }, 0);
  return counter;
}

export function createAppMetrics(deps: { db: Db; dialect: Dialect; pool?: pg.Pool; log: (msg: string) => void }): AppMetrics {
  const { db, dialect, pool } = deps;
  const registry = new Registry();
  const registers = [registry];
  for (const m of processMetrics()) registry.registerMetric(m);

  const requestsTotal = new Counter({
    name: "saiwu_http_requests_total",
    help: "HTTP requests answered, by route pattern (unmatched: no route), method and status code",
    labelNames: ["route", "method", "status_code"],
    registers,
  });
  const requestSeconds = new Histogram({
    name: "saiwu_http_request_duration_seconds",
    help: "HTTP response time in seconds, by route pattern, method and status code",
    labelNames: ["route", "method", "status_code"],
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const refusals = new Counter({
    name: "saiwu_rate_limit_refusals_total",
    help: "Requests refused with 429 by a rate limit, by the refusing rule",
    labelNames: ["rule"],
    registers,
  });

  const overloadRefusals = overloadCounter(registers);

  const cacheCounter = (name: string, help: string, pick: "hits" | "misses") =>
    new Counter({
      name,
      help,
      labelNames: ["cache"],
      registers,
      collect() {
        this.reset();
        for (const [cache, c] of readCachesOf(db)) this.inc({ cache }, c[pick]);
      },
    });
  cacheCounter("saiwu_read_cache_hits_total", "Reads served from a read cache, by cache", "hits");
  cacheCounter("saiwu_read_cache_misses_total", "Reads a read cache had to compute, by cache", "misses");

  // The database reads of the current scrape, made before the registry is read (scrape()).
  let jobs: JobCount[] = [];
  let queue: QueueCount[] = [];
  const up = { jobs: true, queue: true };
  new Gauge({
    name: "saiwu_jobs",
    help: "Background jobs (imports, exports, tasks) by kind and state: queued, running, ready (a dry run awaiting confirmation), failed (kept until cleaned up)",
    labelNames: ["kind", "state"],
    registers,
    collect() {
      this.reset();
      for (const c of jobs) this.set({ kind: c.kind, state: c.state }, c.n);
    },
  });
  new Gauge({
    name: "saiwu_queue_tasks",
    help: "Task queue entries by queue and state: queued, active, failed",
    labelNames: ["queue", "state"],
    registers,
    collect() {
      this.reset();
      for (const c of queue) this.set({ queue: c.queue, state: c.state }, c.n);
    },
  });
  new Gauge({
    name: "saiwu_metrics_source_up",
    help: "Whether the database read behind a group of series answered in this scrape (1) or not (0: its series are missing)",
    labelNames: ["source"],
    registers,
    collect() {
      this.set({ source: "jobs" }, up.jobs ? 1 : 0);
      this.set({ source: "queue" }, up.queue ? 1 : 0);
    },
  });

  if (pool) {
    new Gauge({
      name: "saiwu_db_pool_connections",
      help: "PostgreSQL pool connections by state: in_use (lent to a query or transaction), idle",
      labelNames: ["state"],
      registers,
      collect() {
        this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        this.set({ state: "idle" }, pool.idleCount);
      },
    });
    new Gauge({
      name: "saiwu_db_pool_waiting_requests",
      help: "Queries waiting for a free PostgreSQL pool connection",
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: "saiwu_db_pool_max_connections",
      help: "The PostgreSQL pool's size limit",
      registers,
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
  }

  const read = async <T>(source: keyof typeof up, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await within(run(), SOURCE_TIMEOUT_MS);
      up[source] = true;
      return value;
    } catch (err) {
      // Logged when a source goes down, not at every scrape while it stays down.
      if (up[source]) deps.log(`监控指标读取失败（${source}）：${err instanceof Error ? err.message : String(err)}`);
      up[source] = false;
      return undefined;
    }
  };

  return {
    request(route, method, status, seconds) {
      const labels = { route, method, status_code: status };
      requestsTotal.inc(labels);
      requestSeconds.observe(labels, seconds);
    },
    contentType: registry.contentType,
    limitRefused: (rule) => refusals.inc({ rule }),
    limitRule: (rule) => refusals.inc({ rule }, 0),
    overloadRefused: (reason) => overloadRefusals.inc({ reason }),
    async scrape() {
      const [j, q] = await Promise.all([
        read("jobs", () => readJobCounts(db)),
        read("queue", () => readQueueCounts(db, dialect)),
      ]);
      jobs = j ?? [];
      queue = q ?? [];
      return registry.metrics();
    },
    close() {
      // Drops this app's series; the process-wide collectors stay for the process's other apps.
      registry.clear();
    },
  };
}
