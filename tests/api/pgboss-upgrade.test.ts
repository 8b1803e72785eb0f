/**
 * Upgrading a PostgreSQL deployment whose task queue was made by pg-boss 10 (schema version
 * 24, which pg-boss 12 cannot migrate): with no unfinished task the old schema is dropped and
 * the queue starts anew; with a task still waiting (a mail to retry) the start stops with a
 * Chinese message and the old schema is left as it was.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { loadConfig } from "../../src/server/config";
import { openDb, type Db } from "../../src/server/db";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { PgBossQueue } from "../../src/server/jobs/pg-queue";

/** The parts of pg-boss 10's schema the upgrade reads (its version table and job states). */
async function oldSchema(db: Db, states: string[]) {
  await sql`create schema pgboss`.execute(db);
  await sql`create table pgboss.version (version int primary key)`.execute(db);
  await sql`insert into pgboss.version values (24)`.execute(db);
  await sql`create type pgboss.job_state as enum ('created', 'retry', 'active', 'completed', 'cancelled', 'failed')`.execute(db);
  await sql`create table pgboss.job (id uuid primary key default gen_random_uuid(), name text, state pgboss.job_state)`.execute(
    db,
  );
  for (const s of states) await sql`insert into pgboss.job (name, state) values ('mail', ${s}::pgboss.job_state)`.execute(db);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("pg-boss 10 → 12", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function scratch() {
    const { url, drop } = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_pgb");
    const { db } = openDb(url);
    cleanups.push(async () => {
      await db.destroy();
      await drop();
    });
    return { url, db };
  }

  it("drops an old queue schema with only finished tasks and starts a new one", async () => {
    const { url, db } = await scratch();
    await oldSchema(db, ["completed", "failed", "cancelled"]);
    const logged: string[] = [];
    const queue = await PgBossQueue.start(db, loadConfig({ DATABASE_URL: url }), (m) => logged.push(m));
    try {
      expect(logged.join("\n")).toContain("已删除 pg-boss 10 的队列表");
      const v = await sql<{ version: number }>`select version from pgboss.version`.execute(db);
      expect(Number(v.rows[0].version)).toBeGreaterThanOrEqual(25);
      let ran = false;
      await queue.work("upgrade-test", async () => void (ran = true));
      await queue.send("upgrade-test", {});
      for (let i = 0; i < 100 && !ran; i++) await new Promise((r) => setTimeout(r, 100));
      expect(ran).toBe(true);
    } finally {
      await queue.stop();
    }
  }, 60_000);

  it("refuses while a task is unfinished and leaves the old schema alone", async () => {
    const { url, db } = await scratch();
    await oldSchema(db, ["completed", "retry"]);
    await expect(PgBossQueue.start(db, loadConfig({ DATABASE_URL: url }), () => {})).rejects.toThrow(
      /pg-boss 12 不能原地升级，而其中还有 1 个未完成的任务/,
    );
    const v = await sql<{ version: number }>`select version from pgboss.version`.execute(db);
    expect(Number(v.rows[0].version)).toBe(24);
    const jobs = await sql<{ n: number }>`select count(*)::int as n from pgboss.job`.execute(db);
    expect(jobs.rows[0].n).toBe(2);
  }, 60_000);
});
