/**
 * Issue 29: the passage anchors changed (spaced seeds), and anchors come from the text, so an
 * index prepared under an older layout is prepared again: the sweep's first step marks every
 * indexed entry pending (each keeps its set and keys meanwhile) and records the layout; an
 * index without entries, or one already current, is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/server/db";
import { layoutCurrent, migrateLayout } from "../../src/server/dupcheck/layout";
import { PARAMS_TAG, prepareText } from "../../src/server/dupcheck/prepare";
import { DEFAULT_SETTINGS, readSetting } from "../../src/server/dupcheck/settings";
import { writeEntries } from "../../src/server/dupcheck/write";
import { checkWork } from "../../src/server/dupcheck/match";
import { CorpusGenerator } from "../../bench/dupcheck-corpus";
import { openScratchDb } from "../helpers/scratch-db";

const DIALECTS = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

describe.each(DIALECTS)("the index layout's migration on %s", (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await openScratchDb(dialect, "saiwu_dupl");
    db = scratch.db;
    cleanup = scratch.close;
  });
  afterAll(() => cleanup?.());

  it("an empty index is current and stays untagged; one prepared under another layout is marked pending once", async () => {
    expect(await layoutCurrent(db)).toBe(true);
    expect(await migrateLayout(db)).toBe(0);
    // A new database holds no row here (a backup restores into it as into any empty database).
    expect(await readSetting(db, "layout")).toBeNull();
    const g = new CorpusGenerator(5);
    const text = g.original(1, null);
    await writeEntries(
      db,
      [1, 2].map((workId) => ({
        workId,
        year: 2026,
        contestId: 1,
        status: "indexed" as const,
        reasons: [],
        prepared: prepareText(text, new Uint32Array(0)),
      })),
      DEFAULT_SETTINGS,
    );
    // Entries indexed by this code: the sweep records the current tag.
    expect(await migrateLayout(db)).toBe(0);
    expect(await readSetting(db, "layout")).toBe(PARAMS_TAG);
    // An installation from before: another tag.
    await db
      .updateTable("dup_setting")
      .set({ value: JSON.stringify("dupcheck-v2;anchors=12/48") })
      .where("key", "=", "layout")
      .execute();
    expect(await layoutCurrent(db)).toBe(false);
    expect(await migrateLayout(db)).toBe(2);
    const rows = await db.selectFrom("dup_entry").select(["work_id", "status"]).orderBy("work_id").execute();
    expect(rows.map((r) => r.status)).toEqual(["pending", "pending"]);
    expect(await readSetting(db, "layout")).toBe(PARAMS_TAG);
    expect(await migrateLayout(db)).toBe(0);
    // Pending, the works are still checked and found with their stored sets.
    const r = await checkWork(db, 1, { allYears: true });
    expect(r.status).toBe("pending");
    expect(r.matches.map((m) => m.workId)).toEqual([2]);
  });
});
