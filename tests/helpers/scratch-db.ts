/**
 * A migrated scratch database for tests that drive the engine directly (no app): SQLite in a
 * temporary folder, or a database of its own on TEST_DATABASE_URL's server. close() destroys
 * the connection and removes the database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, openDb, type Db } from "../../src/server/db";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";

export async function openScratchDb(dialect: string, name: string): Promise<{ db: Db; close: () => Promise<void> }> {
  let db: Db;
  let close: () => Promise<void>;
  if (dialect === "postgres") {
    const s = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, name);
    db = openDb(s.url).db;
    close = async () => {
      await db.destroy();
      await s.drop();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), `${name.replace(/_/g, "-")}-`));
    db = openDb(`file:${join(dir, "t.db")}`).db;
    close = async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  await migrate(db);
  return { db, close };
}
