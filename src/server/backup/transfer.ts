/**
 * Restoring a SQLite backup into PostgreSQL (moving from the embedded database to a server,
 * e.g. to run several processes): the target is migrated to the same schema, then every
 * row of the snapshot is copied in one transaction — tables in foreign-key order, rows of a
 * self-referencing table (contest, work_category) parents first — and the id sequences are
 * set past the copied ids. The migrator's own rows are replaced by the backup's, so every
 * table's checksum can be compared with the manifest. Needs a build with exactly the
 * backup's migrations (checked before anything is written).
 *
 * The other direction (a pg_dump archive into SQLite) is not supported.
 */
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql, type Kysely } from "kysely";
import { migrate, openDb } from "../db";
import { MIGRATION_TABLES, OPERATIONAL_TABLES, tableRows } from "./tables";

type AnyDb = Kysely<any>;

/** Table → the tables it references (not itself), from the SQLite catalogue. */
async function references(db: AnyDb, tables: string[]) {
  const refs = new Map<string, { parents: Set<string>; selfColumns: { from: string; to: string }[] }>();
  for (const t of tables) {
    const fks = (
      await sql<{
        table: string;
        from: string;
        to: string | null;
      }>`select "table", "from", "to" from pragma_foreign_key_list(${t})`.execute(db)
    ).rows;
    refs.set(t, {
      parents: new Set(fks.filter((f) => f.table !== t).map((f) => f.table)),
      selfColumns: fks.filter((f) => f.table === t).map((f) => ({ from: f.from, to: f.to ?? "id" })),
    });
  }
  return refs;
}

/** The tables, each after the tables it references. */
function insertOrder(refs: Awaited<ReturnType<typeof references>>): string[] {
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (t: string) => {
    if (state.get(t) === "done") return;
    if (state.get(t) === "visiting") throw new Error(`表之间的外键成环（${t}），无法排定写入顺序`);
    state.set(t, "visiting");
    for (const p of refs.get(t)?.parents ?? []) if (refs.has(p)) visit(p);
    state.set(t, "done");
    order.push(t);
  };
  for (const t of [...refs.keys()].sort()) visit(t);
  return order;
}

/** Rows ordered so that a row's parent (self reference) comes before it. */
function parentsFirst(rows: Record<string, unknown>[], self: { from: string; to: string }[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const key = (col: string, v: unknown) => `${col}\u0000${String(v)}`;
  let pending = rows;
  while (pending.length) {
    const next: Record<string, unknown>[] = [];
    for (const r of pending) {
      if (
        self.every(
          (s) => r[s.from] === null || r[s.from] === undefined || seen.has(key(s.to, r[s.from])) || r[s.from] === r[s.to],
        )
      ) {
        out.push(r);
        for (const s of self) seen.add(key(s.to, r[s.to]));
      } else next.push(r);
    }
    if (next.length === pending.length) throw new Error("自引用的记录成环，无法排定写入顺序");
    pending = next;
  }
  return out;
}

async function insertRows(trx: AnyDb, table: string, rows: Record<string, unknown>[]) {
  if (!rows.length) return;
  // PostgreSQL takes at most 65535 parameters a statement.
  const per = Math.max(1, Math.floor(60000 / Object.keys(rows[0]).length));
  for (let i = 0; i < rows.length; i += per)
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + per))
      .execute();
}

export async function copySqliteIntoPostgres(snapshotFile: string, url: string): Promise<void> {
  // Opening a SQLite file changes it (WAL): read a copy, never the backup itself.
  const dir = await mkdtemp(join(tmpdir(), "saiwu-transfer-"));
  const copy = join(dir, "snapshot.sqlite");
  await copyFile(snapshotFile, copy);
  const src = openDb(`file:${copy}`).db as AnyDb;
  const dst = openDb(url).db as AnyDb;
  try {
    await migrate(dst);
    const all = (
      await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(
        src,
      )
    ).rows.map((r) => r.name);
    const tables = all.filter((t) => !MIGRATION_TABLES.includes(t));
    const refs = await references(src, tables);
    await dst.transaction().execute(async (trx) => {
      // A server that already ran on the target left its own bookkeeping rows: the backup's replace them.
      for (const t of OPERATIONAL_TABLES) if (tables.includes(t)) await sql`delete from ${sql.table(t)}`.execute(trx);
      for (const t of insertOrder(refs)) {
        const self = refs.get(t)!.selfColumns;
        if (self.length) {
          const rows: Record<string, unknown>[] = [];
          for await (const page of tableRows(src, "sqlite", t)) rows.push(...page);
          await insertRows(trx, t, parentsFirst(rows, self));
        } else {
          for await (const page of tableRows(src, "sqlite", t)) await insertRows(trx, t, page);
        }
        const hasId =
          (
            await sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = ${t} and column_name = 'id'`.execute(
              trx,
            )
          ).rows.length > 0;
        const seq = hasId
          ? (await sql<{ s: string | null }>`select pg_get_serial_sequence(${t}, 'id') as s`.execute(trx)).rows[0]?.s
          : null;
        if (seq)
          await sql`select setval(${seq}::regclass, coalesce((select max(id) from ${sql.table(t)}), 0) + 1, false)`.execute(trx);
      }
      // The migrator's record: the backup's rows (names and times) instead of this run's.
      await trx.deleteFrom("kysely_migration").execute();
      for await (const page of tableRows(src, "sqlite", "kysely_migration")) await insertRows(trx, "kysely_migration", page);
    });
  } finally {
    await src.destroy();
    await dst.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}
