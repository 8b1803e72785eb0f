/**
 * Migration 0034 (the shingle sets from dup_entry.shingles to dup_set), both ways: works
 * indexed with the sets in dup_entry (after 0034's down) are found by a check after its up,
 * with the same bytes in dup_set. SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, type Db } from "../../src/server/db";
import { migrations } from "../../src/server/db/migrations/index";
import { checkWork } from "../../src/server/dupcheck/match";
import { prepareText } from "../../src/server/dupcheck/prepare";
import { writeEntries } from "../../src/server/dupcheck/write";
import { DEFAULT_SETTINGS } from "../../src/server/dupcheck/settings";
import { corpus } from "../../bench/dupcheck-corpus";
import { openScratchDb } from "../helpers/scratch-db";

const DIALECTS = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
const none = new Uint32Array(0);
const hex = (v: unknown) => Buffer.from(v as Uint8Array).toString("hex");

describe.each(DIALECTS)("migration 0034 (dup_set) on %s", (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await openScratchDb(dialect, "saiwu_dupset");
    db = scratch.db;
    cleanup = scratch.close;
  }, 60_000);
  afterAll(() => cleanup?.());

  it("moves the stored sets both ways; a work indexed before the move is still found", { timeout: 60_000 }, async () => {
    const works = [...corpus(200)];
    const copy = works.findIndex((w) => w.kind === "exact" || w.kind === "light");
    const original = works.findIndex((w) => w.id === works[copy].source);
    expect(copy).toBeGreaterThanOrEqual(0);
    expect(original).toBeGreaterThanOrEqual(0);
    const id = (i: number) => 3_000_000_000 + i;
    await writeEntries(
      db,
      works.map((w, i) => ({
        workId: id(i),
        year: 2026,
        contestId: 1,
        status: "indexed" as const,
        reasons: [],
        prepared: prepareText(w.text, none),
      })),
      DEFAULT_SETTINGS,
    );
    const sets = async () =>
      (await db.selectFrom("dup_set").select(["work_id", "shingles"]).orderBy("work_id").execute()).map(
        (r) => `${r.work_id}:${hex(r.shingles)}`,
      );
    const before = await sets();
    expect(before).toHaveLength(works.length);

    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
    // Down step by step until 0034 is undone (later migrations go down first).
    const undone: string[] = [];
    while (!undone.includes("0034-dupcheck-sets")) {
      const down = await migrator.migrateDown();
      expect(down.error).toBeUndefined();
      expect(down.results?.length).toBe(1);
      undone.push(...(down.results ?? []).map((r) => r.migrationName));
    }
    const old = await sql<{
      work_id: number | string;
      shingles: Uint8Array;
    }>`select work_id, shingles from dup_entry order by work_id`.execute(db);
    expect(old.rows.map((r) => `${r.work_id}:${hex(r.shingles)}`)).toEqual(before);
    // A pending work without a set stays without one.
    await sql`insert into dup_entry (work_id, year, contest_id, status, updated_at) values (${id(works.length)}, 2026, 1, 'pending', '2026-01-01')`.execute(
      db,
    );

    expect((await migrate(db)).sort()).toEqual(undone.sort());
    expect(await sets()).toEqual(before);
    const r = await checkWork(db, id(original), { allYears: true });
    expect(r.matches.map((m) => m.workId)).toContain(id(copy));
    expect((await checkWork(db, id(works.length))).tooShort).toBe(true);
  });
});
