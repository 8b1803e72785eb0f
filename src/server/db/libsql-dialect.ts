/**
 * A Kysely dialect for the embedded SQLite file over `libsql` (the engine under
 * @libsql/client, with a better-sqlite3-style synchronous API).
 *
 * - One connection behind a mutex: SQLite has one writer anyway, and a transaction holds the
 *   connection from BEGIN to COMMIT, so inside a transaction every query must use the trx.
 * - Prepared statements are kept in a bounded cache keyed by their SQL: Kysely compiles the
 *   same few hundred statements over and over, and preparing was about a third of the CPU
 *   time of a busy list.
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

class LibsqlConnection implements DatabaseConnection {
  #cache = new Map<string, Prepared>();
  constructor(readonly db: Db) {}

  #prepare(sql: string): Prepared {
    const hit = this.#cache.get(sql);
    if (hit) return hit;
    const stmt = this.db.prepare(sql);
    stmt.safeIntegers(true);
    let columns: string[] | null = null;
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

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    // A schema change may change what a cached statement returns (`select t.*`): start afresh.
    if (/^(Create|Alter|Drop)/.test(q.query?.kind ?? "") || /^\s*(create|alter|drop)\b/i.test(q.sql)) this.#cache.clear();
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

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const r = await this.executeQuery<R>(q);
    for (const row of r.rows) yield { rows: [row] };
  }

  close() {
    this.#cache.clear();
    this.db.close();
  }
}

class LibsqlDriver implements Driver {
  #conn: LibsqlConnection | null = null;
  #mutex = new Mutex();
  #release: (() => void) | null = null;
  constructor(private readonly file: string) {}

  async init() {
    const db = new Database(this.file);
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA busy_timeout = 5000");
    if (this.file !== ":memory:") {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    this.#conn = new LibsqlConnection(db);
  }
  async acquireConnection() {
    this.#release = await this.#mutex.lock();
    return this.#conn!;
  }
  async beginTransaction(c: DatabaseConnection) {
    (c as LibsqlConnection).db.exec("BEGIN IMMEDIATE");
  }
  async commitTransaction(c: DatabaseConnection) {
    (c as LibsqlConnection).db.exec("COMMIT");
  }
  async rollbackTransaction(c: DatabaseConnection) {
    const db = (c as LibsqlConnection).db;
    // SQLite may already have rolled back on its own (e.g. after SQLITE_FULL).
    if (db.inTransaction) db.exec("ROLLBACK");
  }
  async releaseConnection() {
    const r = this.#release;
    this.#release = null;
    r?.();
  }
  async destroy() {
    this.#conn?.close();
    this.#conn = null;
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
