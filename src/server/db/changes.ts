/**
 * Which tables changed, and a read cache that is never stale for writes made through this
 * process's database handle.
 *
 * Every statement goes through the driver wrapped by `trackChanges`. A write (INSERT,
 * UPDATE, DELETE, or raw SQL that may write) bumps the version of each table it names —
 * once when it runs and once more when its transaction ends (commit or rollback), so a
 * reader that computed between the write and the commit (on PostgreSQL it still saw the
 * old rows) cannot keep its result. Raw SQL that writes and whose tables we cannot name
 * bumps every table.
 *
 * `ReadCache.get(key, tables, compute)` returns a cached value only if none of `tables`
 * changed since it was computed and it is younger than `maxAgeMs`; otherwise it computes,
 * and stores the result only if none of `tables` changed while computing. The age limit
 * bounds staleness from writers that announce nothing (psql, another program).
 *
 * On PostgreSQL several processes share the database: each committed write's tables are
 * broadcast to the others, and a process that may have missed a broadcast serves nothing
 * from its caches (./change-bus.ts).
 */
import {
  sql,
  DeleteQueryNode,
  InsertQueryNode,
  MergeQueryNode,
  RawNode,
  TableNode,
  UpdateQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type OperationNode,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import { markDatabaseError } from "./unavailable";

const ALL = "*";

/** Where the tables written through a connection are announced to other processes (./change-bus.ts). */
export interface ChangeAnnouncer {
  /** Whether a transaction that wrote `tables` announces them inside itself, before COMMIT, rather than after. */
  beforeCommit(tables: ReadonlySet<string>): boolean;
  /** Announces on `conn`: inside its open transaction, or after the write was committed; never throws once committed. */
  announce(conn: DatabaseConnection, tables: Iterable<string>, committed: boolean): Promise<void>;
}

export class ChangeTracker {
  #versions = new Map<string, number>();
  #all = 0;
  #suspended = false;

  /** True while writes may go unseen (PostgreSQL with no listening connection): caches then serve nothing. */
  get suspended() {
    return this.#suspended;
  }
  /** Ends every entry and stops caching until `resume`. */
  suspend() {
    this.#suspended = true;
    this.#all++;
  }
  /** Caches again, from scratch: anything may have changed meanwhile. */
  resume() {
    this.#all++;
    this.#suspended = false;
  }

  bump(tables: Iterable<string>) {
    for (const t of tables) {
      if (t === ALL) this.#all++;
      else this.#versions.set(t, (this.#versions.get(t) ?? 0) + 1);
    }
  }

  /** One number that changes whenever any of `tables` changes. */
  stamp(tables: readonly string[]): string {
    let s = `${this.#all}`;
    for (const t of tables) s += `.${this.#versions.get(t) ?? 0}`;
    return s;
  }
}

/** The tables a statement writes; [] for a read; ["*"] for raw SQL that may write anything. */
export function writtenTables(node: OperationNode | undefined, sql: string): string[] {
  if (!node || RawNode.is(node)) return rawWrites(sql) ? [ALL] : [];
  const names = (n: OperationNode | undefined): string[] => {
    if (!n) return [];
    if (TableNode.is(n)) return [n.table.identifier.name];
    if (n.kind === "AliasNode") return names((n as unknown as { node: OperationNode }).node);
    if (n.kind === "FromNode") return (n as unknown as { froms: OperationNode[] }).froms.flatMap(names);
    return [ALL];
  };
  // Writes in WITH (PostgreSQL's data-modifying common table expressions) count too.
  const ctes = (n: OperationNode): string[] => {
    const w = (n as { with?: { expressions?: ReadonlyArray<{ expression: OperationNode }> } }).with;
    return (
      w?.expressions?.flatMap((e) =>
        writtenTables(e.expression, RawNode.is(e.expression) ? e.expression.sqlFragments.join("?") : ""),
      ) ?? []
    );
  };
  const own = (): string[] => {
    if (InsertQueryNode.is(node)) return names(node.into);
    if (UpdateQueryNode.is(node)) return names(node.table);
    if (DeleteQueryNode.is(node)) return names(node.from);
    if (MergeQueryNode.is(node)) return names(node.into);
    if (/^(Create|Alter|Drop)(Table|Index|View|Schema|Type)Node$/.test(node.kind)) return [ALL];
    return [];
  };
  const all = [...own(), ...ctes(node)];
  return all.includes(ALL) ? [ALL] : [...new Set(all)];
}

/** Whether raw SQL may write: a write statement, or a WITH that contains one. */
export function rawWrites(sql: string): boolean {
  if (/^\s*(insert|update|delete|replace|merge|create|drop|alter|truncate)\b/i.test(sql)) return true;
  return /^\s*with\b/i.test(sql) && /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into)\b/i.test(sql);
}

class TrackedConnection implements DatabaseConnection {
  /** The tables written in the open transaction; null outside one. */
  pending: Set<string> | null = null;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly tracker: ChangeTracker,
    private readonly announcer: ChangeAnnouncer | undefined,
  ) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const tables = writtenTables(q.query, q.sql);
    let result: QueryResult<R>;
    try {
      result = await this.inner.executeQuery<R>(q);
    } catch (err) {
      // For the error handler: a refused or lost connection here is the database's (./unavailable.ts).
      markDatabaseError(err);
      throw err;
    } finally {
      if (tables.length) {
        this.tracker.bump(tables);
        if (this.pending) for (const t of tables) this.pending.add(t);
      }
    }
    // An autocommit write is committed now (a failed one changed nothing): tell the others.
    if (tables.length && !this.pending && this.announcer) await this.announcer.announce(this.inner, tables, true);
    return result;
  }

  streamQuery<R>(q: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(q, chunkSize);
  }
}

const rethrowMarked = (err: unknown): never => {
  markDatabaseError(err);
  throw err;
};

class TrackedDriver implements Driver {
  #wrapped = new WeakMap<DatabaseConnection, TrackedConnection>();
  constructor(
    private readonly inner: Driver,
    private readonly tracker: ChangeTracker,
    private readonly bus: (ChangeAnnouncer & { stop(): Promise<void> }) | undefined,
  ) {}

  init() {
    return this.inner.init();
  }
  async acquireConnection() {
    const c = await this.inner.acquireConnection().catch(rethrowMarked);
    let t = this.#wrapped.get(c);
    if (!t) this.#wrapped.set(c, (t = new TrackedConnection(c, this.tracker, this.bus)));
    return t;
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
    const t = c as TrackedConnection;
    await this.inner.beginTransaction(t.inner, settings).catch(rethrowMarked);
    t.pending = new Set();
  }
  async commitTransaction(c: DatabaseConnection) {
    const t = c as TrackedConnection;
    const written = t.pending?.size && this.bus ? t.pending : null;
    const before = !!written && this.bus!.beforeCommit(written);
    try {
      // Delivered by PostgreSQL at this COMMIT, atomically with it. If it fails, the
      // transaction is aborted and the caller rolls it back.
      if (before) await this.bus!.announce(t.inner, written!, false);
      await this.inner.commitTransaction(t.inner).catch(rethrowMarked);
    } finally {
      this.#end(t);
    }
    if (written && !before) await this.bus!.announce(t.inner, written, true);
  }
  async rollbackTransaction(c: DatabaseConnection) {
    const t = c as TrackedConnection;
    try {
      await this.inner.rollbackTransaction(t.inner).catch(rethrowMarked);
    } finally {
      this.#end(t);
    }
  }
  #end(t: TrackedConnection) {
    if (t.pending?.size) this.tracker.bump(t.pending);
    t.pending = null;
  }
  releaseConnection(c: DatabaseConnection) {
    return this.inner.releaseConnection((c as TrackedConnection).inner);
  }
  async destroy() {
    await this.bus?.stop();
    return this.inner.destroy();
  }
}

/**
 * The dialect with every statement's writes reported to `tracker` and, with a bus
 * (PostgreSQL), announced to other processes; destroying the handle stops the bus.
 */
export function trackChanges(
  dialect: Dialect,
  tracker: ChangeTracker,
  bus?: ChangeAnnouncer & { stop(): Promise<void> },
): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TrackedDriver(dialect.createDriver(), tracker, bus),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

interface Entry<T> {
  stamp: string;
  at: number;
  value: T;
}

/** A bounded map of computed reads, each valid while its tables are unchanged (see the top of this file). */
export class ReadCache {
  /** statistics, for benchmarks */
  #entries = new Map<string, Entry<unknown>>();
  #inflight = new Map<string, { stamp: string; promise: Promise<unknown> }>();
  hits = 0;
  misses = 0;
  constructor(
    private readonly tracker: ChangeTracker,
    private readonly opts: { maxEntries: number; maxAgeMs: number },
  ) {}

  async get<T>(key: string, tables: readonly string[], compute: () => Promise<T>): Promise<T> {
    if (!readCaches.enabled || this.opts.maxEntries <= 0) return compute();
    if (this.tracker.suspended) {
      this.misses++;
      return compute();
    }
    const stamp = this.tracker.stamp(tables);
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.stamp === stamp && now - hit.at < this.opts.maxAgeMs) {
      this.hits++;
      // Most recently used last, so the oldest is evicted first.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value as T;
    }
    // Many callers asking for the same missing entry at once share one computation.
    const pending = this.#inflight.get(key);
    if (pending && pending.stamp === stamp) {
      this.hits++;
      return pending.promise as Promise<T>;
    }
    this.misses++;
    const promise = compute();
    this.#inflight.set(key, { stamp, promise });
    try {
      const value = await promise;
      if (this.tracker.stamp(tables) === stamp) {
        this.#entries.delete(key);
        this.#entries.set(key, { stamp, at: now, value });
        if (this.#entries.size > this.opts.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      }
      return value;
    } finally {
      if (this.#inflight.get(key)?.promise === promise) this.#inflight.delete(key);
    }
  }

  /** Drops one entry or, without a key, all. */
  forget(key?: string) {
    if (key === undefined) this.#entries.clear();
    else this.#entries.delete(key);
  }
}

/** The tracker of each database handle opened by openDb (a transaction's handle shares its driver). */
const trackers = new WeakMap<object, ChangeTracker>();
const listeners = new WeakMap<object, { listen(): Promise<void>; readonly listening: boolean }>();
export function registerTracker(
  db: object,
  tracker: ChangeTracker,
  bus?: { listen(): Promise<void>; readonly listening: boolean },
) {
  trackers.set(db, tracker);
  if (bus) listeners.set(db, bus);
}

/**
 * Starts hearing other processes' writes (PostgreSQL; nothing to do on SQLite): until a
 * handle opened on PostgreSQL listens, its read caches serve nothing. Resolves once
 * listening, or after a few seconds while it keeps trying in the background.
 */
export async function watchChanges(db: Kysely<any>): Promise<void> {
  const bus = listeners.get(db);
  if (!bus) return;
  // The driver is initialised by a first query, so destroying the handle stops the bus.
  await sql`select 1`.execute(db);
  await bus.listen();
}

/**
 * Whether the handle hears other processes' writes now: on PostgreSQL, whether its change
 * bus is listening (false while it reconnects after losing the database); null for a handle
 * with no bus (the embedded SQLite), which has nobody to hear.
 */
export function changesHeard(db: object): boolean | null {
  const bus = listeners.get(db);
  return bus ? bus.listening : null;
}

export function trackerOf(db: object): ChangeTracker {
  let t = trackers.get(db);
  // A handle not opened by openDb (none in the app): nothing is tracked, so every stamp
  // changes on each call and nothing is ever served from a cache.
  if (!t) {
    t = new UntrackedTracker();
    trackers.set(db, t);
  }
  return t;
}

class UntrackedTracker extends ChangeTracker {
  #n = 0;
  override stamp(): string {
    return `untracked.${this.#n++}`;
  }
}

/** READ_CACHE=0 in the environment turns every read cache off (each read then goes to the database); benchmarks flip it to compare. */
export const readCaches = { enabled: process.env.READ_CACHE !== "0" };

const caches = new WeakMap<ChangeTracker, Map<string, ReadCache>>();
/** The named read cache of a database handle (one per name and database). */
export function readCache(db: object, name: string, opts: { maxEntries: number; maxAgeMs: number }): ReadCache {
  const tracker = trackerOf(db);
  let byName = caches.get(tracker);
  if (!byName) caches.set(tracker, (byName = new Map()));
  let c = byName.get(name);
  if (!c) byName.set(name, (c = new ReadCache(tracker, opts)));
  return c;
}

/** The named read caches of a database handle so far (their hits and misses are metrics). */
export function readCachesOf(db: object): ReadonlyMap<string, ReadCache> {
  return caches.get(trackerOf(db)) ?? new Map();
}
