/**
 * A Kysely dialect for the embedded SQLite file over `libsql` (the engine under
 * @libsql/client, with a better-sqlite3-style synchronous API).
 *
 * - One writer and, in WAL mode, one reader connection. Every write, and every statement
 *   inside a transaction, runs on the writer, which is held behind a mutex from the first
 *   write (or BEGIN) until the connection is released; SQLite has one writer anyway. A
 *   statement outside a transaction that only reads (SELECT, or WITH … SELECT without a
 *   write) runs on the writer when no one holds it, else on the reader (opened when first
 *   needed), so a long write transaction (a 50k-row import) no longer holds up every other
 *   request: in WAL mode a reader sees the last commit as of its statement's start and never
 *   waits for the writer. A statement runs synchronously to its end, so one reader is never
 *   busy when the next statement comes (a pool of readers would only help with reads on
 *   worker threads). The reader is `query_only`: a statement wrongly taken for a read is
 *   refused there before it changes anything and runs on the writer instead.
 * - A long chain of statements on one connection yields the event loop every SLICE_MS (see
 *   Lease.pace), and WAL checkpoints run on a thread of their own (./checkpointer.ts), so a
 *   big write does not stop the process from answering in between.
 * - A `:memory:` database cannot be shared between connections: there the writer serves all.
 * - Prepared statements are kept in a bounded cache per connection keyed by their SQL:
 *   Kysely compiles the same few hundred statements over and over, and preparing was about
 *   a third of the CPU time of a busy list. A schema change clears every connection's cache.
 * - Integers come back as JS numbers; one outside the safe range is an error, not a silently
 *   rounded value.
 */
import Database from "libsql";
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";
import { rawWrites } from "./changes";
import { Checkpointer } from "./checkpointer";

type Db = InstanceType<typeof Database>;
type Statement = ReturnType<Db["prepare"]>;

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.#tail;
    this.#tail = prev.then(() => next);
    return prev.then(() => release);
  }
}

const MIN = BigInt(Number.MIN_SAFE_INTEGER);
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

function fromSql(v: unknown): unknown {
  if (typeof v === "bigint") {
    if (v < MIN || v > MAX) throw new RangeError(`数据库返回的整数 ${v} 超出 JavaScript 安全整数范围`);
    return Number(v);
  }
  return v;
}

function toSql(v: unknown): unknown {
  if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError("不能把 Infinity 或 NaN 写入数据库");
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.valueOf();
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  if (v === undefined) throw new TypeError("不能把 undefined 写入数据库");
  return v;
}

interface Prepared {
  stmt: Statement;
  /** column names when the statement returns rows, else null */
  columns: string[] | null;
}

const CACHE_SIZE = 500;

class LibsqlConnection {
  #cache = new Map<string, Prepared>();
  constructor(readonly db: Db) {}

  #prepare(sql: string): Prepared {
    const hit = this.#cache.get(sql);
    if (hit) return hit;
    const stmt = this.db.prepare(sql);
    stmt.safeIntegers(true);
    let columns: string[] | null;
    try {
      stmt.raw(true); // throws when the statement returns no rows
      columns = stmt.columns().map((c: { name: string }) => c.name);
    } catch {
      columns = null;
    }
    const p = { stmt, columns };
    this.#cache.set(sql, p);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    return p;
  }

  /** Runs one statement to its end (synchronously: nothing else runs meanwhile). */
  run<R>(q: CompiledQuery): QueryResult<R> {
    const { stmt, columns } = this.#prepare(q.sql);
    const args = q.parameters.map(toSql);
    if (columns) {
      const rows = (stmt.all(args) as unknown[][]).map((raw) => {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) o[columns[i]] = fromSql(raw[i]);
        return o as R;
      });
      return { rows };
    }
    const info = stmt.run(args) as { changes: number; lastInsertRowid: number | bigint };
    return { rows: [], numAffectedRows: BigInt(info.changes), insertId: BigInt(info.lastInsertRowid) };
  }

  clearCache() {
    this.#cache.clear();
  }

  close() {
    this.#cache.clear();
    this.db.close();
  }
}

/** Whether a statement only reads and may run on the reader; PRAGMA, SAVEPOINT, ANALYZE and the like go to the writer. */
export function readsOnly(sql: string): boolean {
  return /^\s*select\b/i.test(sql) || (/^\s*with\b/i.test(sql) && !rawWrites(sql));
}

/** How long one connection's chain of statements may keep the event loop before it waits for the next turn. */
const SLICE_MS = 10;

const isSchemaChange = (q: CompiledQuery) =>
  /^(Create|Alter|Drop)/.test(q.query?.kind ?? "") || /^\s*(create|alter|drop)\b/i.test(q.sql);

/**
 * What Kysely sees as a connection: it takes the writer on its first write or BEGIN and keeps
 * it until released; until then its reads go to the idle writer or, while another holds it,
 * to the reader.
 */
class Lease implements DatabaseConnection {
  #release: (() => void) | null = null;
  /** the event loop turn in which this connection's current run of statements began, and when */
  #runTurn = -1;
  #runStart = 0;
  constructor(private readonly driver: LibsqlDriver) {}

  get holdsWriter() {
    return this.#release !== null;
  }

  async takeWriter(): Promise<LibsqlConnection> {
    if (!this.#release) {
      this.#release = await this.driver.mutex.lock();
      this.driver.writerHeld = true;
    }
    return this.driver.writer;
  }

  /**
   * Every statement here runs synchronously and resolves at once, so a long chain of them on
   * one connection (a 50k-row import: thousands of awaited statements in one transaction) is
   * one run of microtasks that never lets the event loop turn — no other request, not even
   * one the reader could answer, would be read until it ends. Once this connection's chain
   * has held the event loop for SLICE_MS, its next statement first waits for the loop's next
   * turn (a promise to await). A short request's statements never wait.
   */
  pace(): Promise<void> | undefined {
    const d = this.driver;
    d.watchTurns();
    const now = performance.now();
    if (this.#runTurn !== d.turn) {
      this.#runTurn = d.turn;
      this.#runStart = now;
      return undefined;
    }
    if (now - this.#runStart < SLICE_MS) return undefined;
    return new Promise((r) => setImmediate(r));
  }

  release() {
    this.#runTurn = -1;
    const r = this.#release;
    if (!r) return;
    this.#release = null;
    this.driver.writerHeld = false;
    r();
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const turn = this.pace();
    if (turn) await turn;
    if (!this.#release && readsOnly(q.sql)) {
      const d = this.driver;
      // An idle writer (no transaction open) answers at once and sees the last commit.
      if (!d.writerHeld && !d.writer.db.inTransaction) return d.writer.run<R>(q);
      const reader = d.reader();
      if (reader) {
        try {
          return reader.run<R>(q);
        } catch (err) {
          if ((err as { code?: string }).code !== "SQLITE_READONLY") throw err;
        }
      }
    }
    const writer = await this.takeWriter();
    // Leaving WAL mode needs the file to itself (a backup's snapshot does): the writer serves all from here on.
    if (/^\s*pragma\s+(main\.)?journal_mode\s*=/i.test(q.sql)) await this.driver.alone();
    // A schema change may change what a cached statement returns (`select t.*`): start afresh.
    if (isSchemaChange(q)) this.driver.clearCaches();
    const result = writer.run<R>(q);
    // Another connection reads new statistics only when it loads the schema afresh, and
    // ANALYZE does not make it: without them the reader's plans for the big lists are poor.
    if (/^\s*analyze\b/i.test(q.sql)) this.driver.reopenReader();
    return result;
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const r = await this.executeQuery<R>(q);
    for (const row of r.rows) yield { rows: [row] };
  }
}

function open(file: string, pragmas: string[]): Db {
  const db = new Database(file);
  for (const p of pragmas) db.exec(`PRAGMA ${p}`);
  return db;
}

const WRITER_PRAGMAS = ["foreign_keys = ON", "busy_timeout = 5000"];
const READER_PRAGMAS = [...WRITER_PRAGMAS, "query_only = ON"];

class LibsqlDriver implements Driver {
  turn = 0;
  #watching = false;
  #checkpointer: Checkpointer | null = null;
  /** whether a connection holds the writer (see Lease.takeWriter) */
  writerHeld = false;
  #wal = false;
  #writer: LibsqlConnection | null = null;
  #reader: LibsqlConnection | null = null;
  #free: Lease[] = [];
  readonly mutex = new Mutex();
  constructor(private readonly file: string) {}

  get writer() {
    return this.#writer!;
  }
  /** The read connection, opened when first needed; null where there is none (`:memory:`, no WAL). */
  reader(): LibsqlConnection | null {
    if (!this.#reader && this.#wal) this.#reader = new LibsqlConnection(open(this.file, READER_PRAGMAS));
    return this.#reader;
  }

  async init() {
    const db = open(this.file, WRITER_PRAGMAS);
    this.#writer = new LibsqlConnection(db);
    if (this.file === ":memory:" || this.file === "") return;
    // Once per file (the mode is stored in it); a file system without WAL support keeps the
    // rollback journal, and then a reader would wait for writers: the writer serves all.
    const mode = (db.prepare("PRAGMA journal_mode = WAL").all([]) as { journal_mode: string }[])[0]?.journal_mode;
    db.exec("PRAGMA synchronous = NORMAL");
    if (mode?.toLowerCase() !== "wal") return;
    this.#wal = true;
    // Checkpoints on a thread of their own (./checkpointer.ts); after a big transaction the
    // WAL file is cut back to this size once it has been copied.
    db.exec("PRAGMA journal_size_limit = 67108864");
    db.exec("PRAGMA wal_autocheckpoint = 0");
    this.#checkpointer = new Checkpointer(this.file, () => {
      this.#checkpointer = null;
      this.#writer?.db.exec("PRAGMA wal_autocheckpoint = 1000");
    });
  }
  async acquireConnection() {
    return this.#free.pop() ?? new Lease(this);
  }
  async beginTransaction(c: DatabaseConnection) {
    (await (c as Lease).takeWriter()).db.exec("BEGIN IMMEDIATE");
  }
  async commitTransaction(c: DatabaseConnection) {
    (await (c as Lease).takeWriter()).db.exec("COMMIT");
  }
  async rollbackTransaction(c: DatabaseConnection) {
    const db = (await (c as Lease).takeWriter()).db;
    // SQLite may already have rolled back on its own (e.g. after SQLITE_FULL).
    if (db.inTransaction) db.exec("ROLLBACK");
  }
  async releaseConnection(c: DatabaseConnection) {
    const lease = c as Lease;
    lease.release();
    if (this.#free.length < 64) this.#free.push(lease);
  }
  /** Counts the event loop's turns while statements run (see Lease.pace). */
  watchTurns() {
    if (this.#watching) return;
    this.#watching = true;
    setImmediate(() => {
      this.#watching = false;
      this.turn++;
    });
  }
  /** Closes the reader and the checkpointer, so the writer is the file's only connection. */
  async alone() {
    await this.#checkpointer?.stop();
    this.#checkpointer = null;
    this.#wal = false;
    this.#reader?.close();
    this.#reader = null;
    this.#writer?.db.exec("PRAGMA wal_autocheckpoint = 1000");
  }
  /** Drops the read connection; the next read that needs one opens it afresh. */
  reopenReader() {
    this.#reader?.close();
    this.#reader = null;
  }
  clearCaches() {
    this.#writer?.clearCache();
    this.#reader?.clearCache();
  }
  async destroy() {
    await this.#checkpointer?.stop();
    this.#checkpointer = null;
    this.#reader?.close();
    this.#writer?.close();
    this.#reader = this.#writer = null;
  }
}

export class LibsqlDialect implements Dialect {
  /** `url`: file:<path> or :memory: */
  constructor(private readonly url: string) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver() {
    return new LibsqlDriver(this.url.replace(/^file:/, ""));
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
