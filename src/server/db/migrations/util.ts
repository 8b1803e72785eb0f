import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from "kysely";

export const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** An auto-increment integer primary key on either dialect. */
export function withId<T extends string>(db: Kysely<unknown>, t: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? t.addColumn("id", "serial", (c) => c.primaryKey())
    : t.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export const flag = (c: any) => c.notNull().defaultTo(0);
export const now = sql`CURRENT_TIMESTAMP`;
