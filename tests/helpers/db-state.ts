/**
 * A cheap fingerprint of the whole database for "nothing changed" checks: per table the
 * row count and an order-independent checksum of its rows (sum of per-row hashes).
 */
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Db, Dialect } from "../../src/server/db";

export type DbState = Map<string, { rows: number; sum: number }>;

/** Columns that change on reads by design (a session's sliding expiry): left out of the checksum. */
const VOLATILE: Record<string, string[]> = {
  user_session: ["last_seen_at", "expires_at"],
};

/**
 * Tables left out: rate_limit counts every attempt, refused ones included, by design (a
 * wrong password or an unknown work query must use up the bucket); kysely's bookkeeping.
 */
const IGNORED = new Set(["rate_limit", "kysely_migration", "kysely_migration_lock"]);

const MOD = 2 ** 48;

export async function tableNames(db: Db, dialect: Dialect): Promise<string[]> {
  const q =
    dialect === "postgres"
      ? sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  return (await q.execute(db)).rows
    .map((r) => r.name)
    .filter((n) => !IGNORED.has(n))
    .sort();
}

export async function dbState(db: Db, tables: string[]): Promise<DbState> {
  const state: DbState = new Map();
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    const skip = VOLATILE[table] ?? [];
    let sum = 0;
    for (const row of rows) {
      for (const c of skip) delete row[c];
      const h = createHash("sha1").update(JSON.stringify(row)).digest();
      sum = (sum + h.readUIntBE(0, 6)) % MOD;
    }
    state.set(table, { rows: rows.length, sum });
  }
  return state;
}

/** The tables whose count or checksum differ, e.g. ["work (rows 10 → 11)", "news (changed)"]. */
export function stateDiff(before: DbState, after: DbState): string[] {
  const out: string[] = [];
  for (const [table, a] of after) {
    const b = before.get(table);
    if (!b) out.push(`${table} (new table)`);
    else if (b.rows !== a.rows) out.push(`${table} (rows ${b.rows} → ${a.rows})`);
    else if (b.sum !== a.sum) out.push(`${table} (changed)`);
  }
  return out;
}
