/**
 * A Kysely dialect over @libsql/client for the embedded SQLite file.
 * One connection behind a mutex (SQLite has one writer anyway); transactions use
 * libsql's own transaction object so BEGIN/COMMIT stay on that connection.
 */
import { createClient, type Client, type InArgs, type Transaction } from "@libsql/client";
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

class LibsqlConnection implements DatabaseConnection {
  tx: Transaction | null = null;
  constructor(readonly client: Client) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const target = this.tx ?? this.client;
    const rs = await target.execute({ sql: q.sql, args: q.parameters as InArgs });
    const isSelectLike = rs.columns.length > 0;
    return {
      rows: rs.rows.map((row) => {
        const o: Record<string, unknown> = {};
        rs.columns.forEach((c, i) => (o[c] = row[i]));
        return o as R;
      }),
      numAffectedRows: isSelectLike ? undefined : BigInt(rs.rowsAffected),
      insertId: rs.lastInsertRowid,
    };
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const r = await this.executeQuery<R>(q);
    for (const row of r.rows) yield { rows: [row] };
  }
}

class LibsqlDriver implements Driver {
  #client: Client | null = null;
  #conn: LibsqlConnection | null = null;
  #mutex = new Mutex();
  #release: (() => void) | null = null;
  constructor(private readonly url: string) {}

  async init() {
    this.#client = createClient({ url: this.url, intMode: "number", concurrency: 1 });
    await this.#client.execute("PRAGMA foreign_keys = ON");
    await this.#client.execute("PRAGMA busy_timeout = 5000");
    if (!this.url.includes(":memory:")) {
      await this.#client.execute("PRAGMA journal_mode = WAL");
      await this.#client.execute("PRAGMA synchronous = NORMAL");
    }
    this.#conn = new LibsqlConnection(this.#client);
  }
  async acquireConnection() {
    this.#release = await this.#mutex.lock();
    return this.#conn!;
  }
  async beginTransaction(c: DatabaseConnection) {
    (c as LibsqlConnection).tx = await this.#client!.transaction("write");
  }
  async commitTransaction(c: DatabaseConnection) {
    const conn = c as LibsqlConnection;
    await conn.tx!.commit();
    conn.tx = null;
  }
  async rollbackTransaction(c: DatabaseConnection) {
    const conn = c as LibsqlConnection;
    try {
      await conn.tx?.rollback();
    } finally {
      conn.tx?.close();
      conn.tx = null;
    }
  }
  async releaseConnection() {
    const r = this.#release;
    this.#release = null;
    r?.();
  }
  async destroy() {
    this.#client?.close();
  }
}

export class LibsqlDialect implements Dialect {
  constructor(private readonly url: string) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver() {
    return new LibsqlDriver(this.url);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
