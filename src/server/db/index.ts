/** Opens the database: embedded SQLite (libsql) by default, PostgreSQL for postgres:// URLs. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, Migrator, PostgresDialect, type Dialect as KyselyDialect, type MigrationProvider } from "kysely";
import pg from "pg";
import { ChangeBus } from "./change-bus";
import { ChangeTracker, registerTracker, trackChanges } from "./changes";
import { LibsqlDialect } from "./libsql-dialect";
import { migrations } from "./migrations/index";
import type { DB } from "./schema";

export type Db = Kysely<DB>;
export type Dialect = "sqlite" | "postgres";

export interface OpenedDb {
  db: Db;
  dialect: Dialect;
}

// PostgreSQL returns int8 (count(*)) and numeric as strings; the values we count fit a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** Whether a DATABASE_URL names a PostgreSQL database (anything else is an embedded SQLite file). */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

export function openDb(url: string): OpenedDb {
  if (isPostgresUrl(url)) {
    // A server that does not answer at all (a network partition) fails a request after 10 s
    // (a 503, db/unavailable.ts) instead of holding it until the operating system gives up;
    // so does a request that waited 10 s for one of the pool's connections.
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle connection the server ends (restart, failover, a dropped database) must not
    // crash the process: the pool replaces it on the next query.
    pool.on("error", (err) => console.error(`PostgreSQL 连接中断：${err.message}`));
    // Nor one that dies while checked out: the pool listens only to idle clients, and pg
    // emits the socket's error on the client besides failing its running query with it. The
    // query's caller gets the error (a 503); the pool drops the broken client on release.
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = tracked(new PostgresDialect({ pool }), url);
    pools.set(db, pool);
    return { db, dialect: "postgres" };
  }
  const file = url.replace(/^file:/, "");
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  return { db: tracked(new LibsqlDialect(`file:${file}`)), dialect: "sqlite" };
}

const pools = new WeakMap<Db, pg.Pool>();
/** The connection pool behind a PostgreSQL handle opened by openDb (its counts are metrics); undefined on SQLite. */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/**
 * A handle whose writes are tracked per table, for the read caches (./changes.ts); on
 * PostgreSQL (`pgUrl`) also announced to and heard from other processes (./change-bus.ts,
 * listening starts with watchChanges).
 */
function tracked(dialect: KyselyDialect, pgUrl?: string): Db {
  const tracker = new ChangeTracker();
  const bus = pgUrl ? new ChangeBus(pgUrl, tracker) : undefined;
  const db = new Kysely<DB>({ dialect: trackChanges(dialect, tracker, bus) });
  registerTracker(db, tracker, bus);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Db): Promise<string[]> {
  // Migrations are applied by name; one written later with a lower number still runs.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
