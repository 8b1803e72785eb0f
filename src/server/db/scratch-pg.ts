/**
 * A fresh, uniquely named PostgreSQL database on the server of `base` (a postgres:// URL
 * whose user may create databases), for tests and benchmarks; `drop` removes it even while
 * connections remain.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export async function createScratchPgDatabase(base: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const run = async (statement: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
