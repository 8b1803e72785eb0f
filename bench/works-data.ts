/**
 * Shared by bench:export and bench:api: a fresh database (embedded SQLite in a temporary
 * directory, or a new PostgreSQL database next to TEST_DATABASE_URL), migrated, with the
 * demo data, 700 generated schools and N generated works (src/server/seed/works.ts).
 */
import { sql } from "kysely";
import { hashPassword } from "../src/server/account/password";
import { createScratchPgDatabase } from "../src/server/db/scratch-pg";
import { migrate, openDb, type Db, type Dialect } from "../src/server/db";
import type { FastifyInstance } from "fastify";
import { DEMO_PASSWORD, seedDemo } from "../src/server/seed/demo";
import { rng, schools as genSchools } from "../src/server/seed/generate";
import { generateWorks } from "../src/server/seed/works";

export const YEAR = new Date().getFullYear();
export const mem = () => `RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`;
export const log = (msg: string) => process.stderr.write(`${msg}（${mem()}）\n`);
export const seconds = (from: number) => Math.round((performance.now() - from) / 10) / 100;

/** A new, empty PostgreSQL database beside TEST_DATABASE_URL, and how to drop it. */
/** Logs in as the demo root through app.inject; the headers of its requests (host, our Origin, the session cookie). */
export async function rootHeaders(app: FastifyInstance): Promise<Record<string, string>> {
  const headers: Record<string, string> = { host: "localhost:80", origin: "http://localhost:80" };
  const login = await app.inject({
    method: "POST",
    url: "/Backend/Common/account/login",
    headers,
    payload: { username: "root", password: DEMO_PASSWORD, page: "admin" },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  headers.cookie = `saiwu_sid=${login.cookies.find((c) => c.name === "saiwu_sid")!.value}`;
  return headers;
}

export const createPgDatabase = (base: string) => createScratchPgDatabase(base, "saiwu_bench");

/** Migrates, seeds the demo, 700 schools and works up to `count` in all (the demo has a few); returns the handle. */
export async function seedWorksDb(url: string, count: number): Promise<{ db: Db; dialect: Dialect }> {
  const { db, dialect } = openDb(url);
  await migrate(db);
  await seedDemo(db, YEAR);
  const r = rng(42);
  const now = new Date().toISOString();
  const existing = new Set((await db.selectFrom("school").select("code").execute()).map((s) => s.code));
  const list = genSchools(r, 700).filter((s) => !existing.has(s.code));
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto("school")
      .values(list.slice(i, i + 500).map((s) => ({ ...s, former_names: "[]", contact: null, created_at: now, updated_at: now })))
      .execute();
  }
  const t0 = performance.now();
  let shown = 0;
  const demo = Number(
    (
      await db
        .selectFrom("work")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await generateWorks(db, {
    count: count - demo,
    seed: 42,
    year: YEAR,
    passwordHash: await hashPassword("Seed@2026"),
    onBatch: (done) => {
      if (done - shown >= 20_000 || done === count - demo) log(`${dialect}：已生成 ${(shown = done)} 件作品，${seconds(t0)} s`);
    },
  });
  // A freshly bulk-loaded PostgreSQL table has no visibility map yet, so index-only scans
  // (the list's count and page) would visit the heap; autovacuum sets it soon after a load
  // in production — here it is done at once.
  if (dialect === "postgres") await sql`vacuum analyze`.execute(db);
  return { db, dialect };
}
