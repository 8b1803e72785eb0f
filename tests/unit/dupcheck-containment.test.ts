/**
 * A work that copies three paragraphs of a much longer work: the whole-document Jaccard is
 * low (the MinHash bands alone would find the pair with probability ≈ 0.002), but the copied
 * share of the short work is high. The passage anchors (content-defined 12-character grams
 * stored in dup_band as negative keys) make the longer work a candidate, so the check reports
 * it with its containment — in both directions, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/server/db";
import { checkText, checkWork } from "../../src/server/dupcheck/match";
import { prepareText } from "../../src/server/dupcheck/prepare";
import { writeEntries, type EntryWrite } from "../../src/server/dupcheck/write";
import { candidateProbability } from "../../src/server/dupcheck/minhash";
import { DEFAULT_SETTINGS } from "../../src/server/dupcheck/settings";
import { compareSets } from "../../src/server/dupcheck/shingles";
import { CorpusGenerator } from "../../bench/dupcheck-corpus";
import { openScratchDb } from "../helpers/scratch-db";

const DIALECTS = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
const none = new Uint32Array(0);

describe.each(DIALECTS)("a copy of three paragraphs of a long work on %s", (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const g = new CorpusGenerator(99);
  const topic = 5;
  // The long work: 60 paragraphs of ~300 characters of one topic.
  const paragraphs = Array.from({ length: 60 }, () => g.paragraph(topic, 300));
  const long = paragraphs.join("\n\n");
  // The copy: its own two paragraphs around paragraphs 7, 8 and 9 of the long work.
  const copy = [g.paragraph(topic, 300), paragraphs[7], paragraphs[8], paragraphs[9], g.paragraph(topic, 300)].join("\n\n");
  const write = (workId: number, text: string): EntryWrite => ({
    workId,
    year: 2026,
    contestId: 1,
    status: "indexed",
    reasons: [],
    prepared: prepareText(text, none),
  });

  beforeAll(async () => {
    const scratch = await openScratchDb(dialect, "saiwu_dupc");
    db = scratch.db;
    cleanup = scratch.close;
    // The long work, the copy and 40 other works of the same topic.
    const others = Array.from({ length: 40 }, (_, i) => write(300 + i, g.original(topic, null)));
    await writeEntries(db, [write(100, long), write(200, copy), ...others], DEFAULT_SETTINGS);
  });
  afterAll(() => cleanup?.());

  it("has a low whole-document Jaccard, so the bands alone would miss it", () => {
    const s = compareSets(prepareText(copy, none).eff, prepareText(long, none).eff);
    expect(s.jaccard).toBeLessThan(0.15);
    expect(s.containmentAB).toBeGreaterThan(0.5);
    expect(candidateProbability(s.jaccard)).toBeLessThan(0.02);
  });

  it("finds the long work when the copy is checked, with the copy's share in it", async () => {
    const r = await checkWork(db, 200);
    const m = r.matches.find((x) => x.workId === 100);
    expect(m, JSON.stringify(r.matches)).toBeDefined();
    expect(m!.jaccard).toBeLessThan(0.15);
    expect(m!.containmentAB).toBeGreaterThan(0.5);
    expect(m!.level).not.toBe("none");
    // Same-topic originals are not reported as copies.
    expect(r.matches.filter((x) => x.workId >= 300 && x.level !== "none")).toEqual([]);
  });

  it("finds the copy when the long work is checked, and when the passage is pasted", async () => {
    const r = await checkWork(db, 100);
    const m = r.matches.find((x) => x.workId === 200);
    expect(m, JSON.stringify(r.matches)).toBeDefined();
    expect(m!.containmentBA).toBeGreaterThan(0.5);
    const pasted = await checkText(db, [paragraphs[8], paragraphs[9], paragraphs[10]].join("\n"));
    expect(pasted.matches.map((x) => x.workId)).toContain(100);
    expect(pasted.matches.find((x) => x.workId === 100)!.containmentAB).toBeGreaterThan(0.9);
  });
});
