/**
 * Writing one work (the add path; on PostgreSQL the one-statement write): what is stored is exactly what was written — reasons
 * with quotes, backslashes and "$1", the shingle and key bytes — and dup_band holds exactly
 * the entry's keys after an add, a change and a removal. SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/server/db";
import { prepareText } from "../../src/server/dupcheck/prepare";
import { removeWorks, writeEntries } from "../../src/server/dupcheck/write";
import { decodeKeys } from "../../src/server/dupcheck/minhash";
import { DEFAULT_SETTINGS } from "../../src/server/dupcheck/settings";
import { decodeSet } from "../../src/server/dupcheck/shingles";
import { corpus } from "../../bench/dupcheck-corpus";
import { openScratchDb } from "../helpers/scratch-db";

const DIALECTS = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
const none = new Uint32Array(0);
const bytes = (v: unknown) => (v instanceof Uint8Array ? v : new Uint8Array(0));

describe.each(DIALECTS)("writing one work on %s", (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await openScratchDb(dialect, "saiwu_dupw");
    db = scratch.db;
    cleanup = scratch.close;
  }, 60_000);
  afterAll(() => cleanup?.());

  it("stores exactly what it was given, and dup_band follows the entry's keys", { timeout: 60_000 }, async () => {
    const [a, b] = [...corpus(2)];
    const reasons = [
      {
        code: "skipped" as never,
        fileId: 7,
        filename: `it's a \\ "file" $1 $2 \\x00ff 文件'; drop table dup_band; --`,
        message: "E'\\\\' ''",
      },
    ];
    const id = 2_000_000_123;
    const check = async (text: string) => {
      const p = prepareText(text, none);
      const e = await db.selectFrom("dup_entry").selectAll().where("work_id", "=", id).executeTakeFirstOrThrow();
      expect(JSON.parse(e.reasons)).toEqual(reasons);
      const set = await db.selectFrom("dup_set").select("shingles").where("work_id", "=", id).executeTakeFirstOrThrow();
      expect(Array.from(decodeSet(bytes(set.shingles)))).toEqual(Array.from(p.full));
      expect(e.text_hash).toBe(p.textHash);
      const keys = decodeKeys(bytes(e.bands));
      expect(keys.filter((k) => k < 0).sort()).toEqual([...p.anchors].sort());
      const rows = await db.selectFrom("dup_band").select(["band_key", "work_id"]).execute();
      expect(rows.map((r) => `${r.band_key}:${r.work_id}`).sort()).toEqual([...new Set(keys)].map((k) => `${k}:${id}`).sort());
    };
    await writeEntries(
      db,
      [{ workId: id, year: 2026, contestId: 1, status: "indexed", reasons, prepared: prepareText(a.text, none) }],
      DEFAULT_SETTINGS,
    );
    await check(a.text);
    await writeEntries(
      db,
      [{ workId: id, year: 2026, contestId: 1, status: "indexed", reasons, prepared: prepareText(b.text, none) }],
      DEFAULT_SETTINGS,
    );
    await check(b.text);
    await removeWorks(db, [id]);
    expect(await db.selectFrom("dup_band").select("work_id").execute()).toEqual([]);
    expect(await db.selectFrom("dup_entry").select("work_id").execute()).toEqual([]);
  });
});
