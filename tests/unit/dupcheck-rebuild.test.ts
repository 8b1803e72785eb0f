/**
 * The full rebuild into a shadow table (recomputeBands): after it, every entry's columns and
 * dup_band hold exactly what recomputing each work on its own gives (the old in-place rebuild's
 * result), and works added, changed or removed while it runs (after their page was read, and
 * between the build and the swap) are neither lost nor left behind. SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/server/db";
import { computeIgnored } from "../../src/server/dupcheck/ignored";
import { checkWork } from "../../src/server/dupcheck/match";
import { prepareText } from "../../src/server/dupcheck/prepare";
import { rebuildPhases, recomputeBands } from "../../src/server/dupcheck/rebuild-bands";
import { removeWorks, writeEntries, type EntryWrite } from "../../src/server/dupcheck/write";
import { bandKeys, decodeKeys, signature } from "../../src/server/dupcheck/minhash";
import { DEFAULT_SETTINGS, ignoredSet } from "../../src/server/dupcheck/settings";
import { decodeSet, without } from "../../src/server/dupcheck/shingles";
import { corpus } from "../../bench/dupcheck-corpus";
import { openScratchDb } from "../helpers/scratch-db";

const DIALECTS = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
const none = new Uint32Array(0);
const settings = { ...DEFAULT_SETTINGS, ignoreMinWorks: 5, ignoreShare: 0.05 };
const bytes = (v: unknown) => (v instanceof Uint8Array ? v : new Uint8Array(0));

interface EntryRow {
  work_id: number;
  too_short: number;
  shingle_count: number;
  bands: number[] | null;
}

async function entries(db: Db): Promise<Map<number, EntryRow & { shingles: Uint32Array | null }>> {
  const rows = await db
    .selectFrom("dup_entry as e")
    .leftJoin("dup_set as s", "s.work_id", "e.work_id")
    .select(["e.work_id", "e.too_short", "e.shingle_count", "e.bands", "s.shingles"])
    .orderBy("e.work_id")
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.work_id),
      {
        work_id: Number(r.work_id),
        too_short: Number(r.too_short),
        shingle_count: Number(r.shingle_count),
        bands: r.bands ? decodeKeys(bytes(r.bands)) : null,
        shingles: r.shingles ? decodeSet(bytes(r.shingles)) : null,
      },
    ]),
  );
}

async function bandRows(db: Db): Promise<string[]> {
  const rows = await db.selectFrom("dup_band").select(["band_key", "work_id"]).execute();
  return rows.map((r) => `${r.band_key}:${r.work_id}`).sort();
}

/** What recomputing one work gives (the old rebuild, work by work): LSH keys of the effective set, then its anchors. */
function expected(e: { shingles: Uint32Array | null; bands: number[] | null }, ignored: Uint32Array) {
  const eff = without(e.shingles!, ignored);
  const sig = eff.length >= settings.minShingles ? signature(eff) : null;
  const bands = sig ? [...bandKeys(sig), ...(e.bands ?? []).filter((k) => k < 0)] : null;
  return { too_short: bands ? 0 : 1, shingle_count: eff.length, bands };
}

// "memory": the keys read are sorted in memory (the load holds only writers' rows); "load": the
// memory budget runs out after a few pages, and the load is summed up by the database.
const MODES = DIALECTS.flatMap(
  (d) =>
    [
      [d, "memory"],
      [d, "load"],
    ] as const,
);

describe.each(MODES)("the full rebuild on %s (keys sorted in %s)", (dialect, mode) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const works = [...corpus(400)];
  const write = (i: number, text: string, ignored: Uint32Array): EntryWrite => ({
    workId: i,
    year: 2026,
    contestId: 1,
    status: "indexed",
    reasons: [],
    prepared: prepareText(text, ignored),
  });

  const phases: string[] = [];
  beforeAll(async () => {
    if (mode === "load") process.env.DUP_REBUILD_SORT_MB = "0.05";
    else delete process.env.DUP_REBUILD_SORT_MB;
    rebuildPhases.log = (phase) => phases.push(phase);
    const scratch = await openScratchDb(dialect, "saiwu_dupr");
    db = scratch.db;
    cleanup = scratch.close;
    await writeEntries(
      db,
      works.map((w) => write(w.id, w.text, none)),
      settings,
    );
  }, 120_000);
  afterAll(async () => {
    delete process.env.DUP_REBUILD_SORT_MB;
    rebuildPhases.log = undefined;
    await cleanup?.();
  });

  it("gives every entry and dup_band exactly what recomputing each work gives", { timeout: 120_000 }, async () => {
    const before = await entries(db);
    await computeIgnored(db, null, settings);
    const ignored = await ignoredSet(db);
    expect(ignored.length).toBeGreaterThan(0);
    const changed = await recomputeBands(db, settings, undefined, undefined, 37);
    expect(changed).toBe(works.length);
    expect(phases.includes("build next (sorted in memory)")).toBe(mode === "memory");
    const after = await entries(db);
    const want: string[] = [];
    for (const [id, e] of before) {
      const x = expected(e, ignored);
      expect(after.get(id)).toMatchObject({ too_short: x.too_short, shingle_count: x.shingle_count, bands: x.bands });
      for (const k of new Set(x.bands ?? [])) want.push(`${k}:${id}`);
    }
    expect(await bandRows(db)).toEqual(want.sort());
    // Nothing of the shadow stays; a second rebuild changes nothing.
    const state = await db.selectFrom("dup_setting").select("value").where("key", "=", "bandShadow").executeTakeFirstOrThrow();
    expect(JSON.parse(state.value)).toMatchObject({ active: false });
    await expect(sql`select count(*) as n from dup_band_load`.execute(db)).rejects.toThrow();
    expect(await recomputeBands(db, settings)).toBe(0);
    expect(await bandRows(db)).toEqual(want.sort());
  });

  it("keeps works added, changed and removed while it runs", { timeout: 120_000 }, async () => {
    const ignored = await ignoredSet(db);
    const ids = works.map((w) => w.id);
    // (in memory mode within 32 bits: a larger work id sends the rebuild to the load)
    const addedEarly = mode === "memory" ? 2_100_000_001 : 9_000_000_001; // above the cursor: read by a later page
    const addedLate = mode === "memory" ? 2_100_000_002 : 9_000_000_002; // after the build, before the swap
    let fired = false;
    // A work's keys must change: make them differ by recomputing with a stricter minShingles first.
    await recomputeBands(
      db,
      settings,
      async () => {
        if (fired) return;
        fired = true;
        // ids[0] has been read (the first page), ids[399] not yet.
        await writeEntries(db, [write(addedEarly, works[10].text, ignored), write(ids[0], works[20].text, ignored)], settings);
        await removeWorks(db, [ids[1]]);
        await writeEntries(db, [write(ids[399], works[30].text, ignored)], settings);
      },
      undefined,
      50,
      async () => {
        await writeEntries(db, [write(addedLate, works[40].text, ignored), write(ids[2], works[50].text, ignored)], settings);
        await removeWorks(db, [ids[3], addedEarly]);
        await writeEntries(db, [write(addedEarly, works[10].text, ignored)], settings);
      },
    );
    expect(fired).toBe(true);
    const after = await entries(db);
    expect(after.has(ids[1])).toBe(false);
    expect(after.has(ids[3])).toBe(false);
    // dup_band holds exactly the stored keys of every entry (removal and the next change rely on it)…
    const want: string[] = [];
    for (const [id, e] of after) for (const k of new Set(e.bands ?? [])) want.push(`${k}:${id}`);
    expect(await bandRows(db)).toEqual(want.sort());
    // …and every LSH key is the current text's under the current ignored list.
    for (const [, e] of after) {
      const x = expected(e, ignored);
      expect((e.bands ?? []).filter((k) => k >= 0)).toEqual((x.bands ?? []).filter((k) => k >= 0));
    }
    // The works written during the rebuild are found.
    const found = async (id: number, other: number) =>
      (await checkWork(db, id, { allYears: true, minSimilarity: 0.5 })).matches.some((m) => m.workId === other);
    expect(await found(addedEarly, ids[10])).toBe(true);
    expect(await found(addedLate, ids[40])).toBe(true);
    expect(await found(ids[0], ids[20])).toBe(true);
    expect(await found(ids[2], ids[50])).toBe(true);
    expect(await found(ids[399], ids[30])).toBe(true);
  });
});
