/**
 * Times checkWork on a kept bench:dupcheck SQLite database: `npm run bench:dupcheck-check -- <file> <works> [passes]`.
 * Ends with one JSON line `{"works","checks","passes","checkP50Ms","checkP99Ms","maxMs","meanCandidates"}` (the last pass).
 * The same query sample as the bench (light edits, 10 % rewrites, originals, template works,
 * exact copies), checked against every year; per pass p50 / p99 / max, and what the checks
 * read: rows of the band-key and anchor posting lists, candidates.
 */
import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { sql } from "kysely";
import { openDb } from "../src/server/db";
import { checkWork } from "../src/server/dupcheck/match";
import { decodeKeys } from "../src/server/dupcheck/minhash";
import { corpus } from "./dupcheck-corpus";
import { percentile, sample } from "./dupcheck-run";

const file = process.argv[2];
const n = Number(process.argv[3]);
const passes = Number(process.argv[4] ?? 2);
const FIRST_ID = 2015000001;

async function main() {
  const { db } = openDb(`file:${file}`);
  const by = new Map<string, number[]>();
  const kindOf: string[] = [];
  let i = 0;
  for (const w of corpus(n)) {
    kindOf.push(w.kind);
    const l = by.get(w.kind) ?? [];
    l.push(i++);
    by.set(w.kind, l);
  }
  const queries = [
    ...new Set([
      ...sample(by.get("light")!, 300, 1),
      ...sample(by.get("rewrite10")!, 300, 2),
      ...sample(by.get("original")!, 300, 3),
      ...sample(by.get("template")!, 100, 4),
      ...sample(by.get("exact")!, 100, 5),
    ]),
  ];
  const r2 = (v: number) => Math.round(v * 100) / 100;
  const dump: string[] = [];
  let last = { checkP50Ms: 0, checkP99Ms: 0, maxMs: 0, meanCandidates: 0 };
  for (let p = 0; p < passes; p++) {
    const times: number[] = [];
    const slow: Array<[number, string]> = [];
    let cand = 0;
    for (const q of queries) {
      const a = performance.now();
      const r = await checkWork(db, FIRST_ID + q, { allYears: true, minSimilarity: 0, limit: 1000 });
      times.push(performance.now() - a);
      slow.push([performance.now() - a, `${kindOf[q]} ${r.candidates} cand`]);
      cand += r.candidates;
      if (p === 0) dump.push(JSON.stringify([q, r.candidates, r.matches.map((m) => [m.workId, m.shared, m.similarity])]));
    }
    times.sort((x, y) => x - y);
    if (process.argv.includes("--slow"))
      console.log(
        slow
          .sort((x, y) => y[0] - x[0])
          .slice(0, 12)
          .map(([t, d]) => `${r2(t)} ms ${d}`)
          .join("; "),
      );
    console.log(
      `pass ${p}: ${queries.length} checks p50 ${r2(percentile(times, 0.5))} p99 ${r2(percentile(times, 0.99))} max ${r2(times.at(-1)!)} ms, mean candidates ${r2(cand / queries.length)}; ${execSync(
        "uptime",
      )
        .toString()
        .trim()
        .replace(/.*load/, "load")}`,
    );
    last = {
      checkP50Ms: r2(percentile(times, 0.5)),
      checkP99Ms: r2(percentile(times, 0.99)),
      maxMs: r2(times.at(-1)!),
      meanCandidates: r2(cand / queries.length),
    };
  }
  const dumpAt = process.argv.indexOf("--dump");
  if (dumpAt > 0) writeFileSync(process.argv[dumpAt + 1], dump.join("\n"));
  if (process.argv.includes("--postings")) {
    // posting list sizes of a sample's keys
    let bandRows = 0;
    let anchorRows = 0;
    let anchors = 0;
    let big = 0;
    const perCheck: number[] = [];
    for (const q of queries.slice(0, 200)) {
      const e = await db
        .selectFrom("dup_entry")
        .select("bands")
        .where("work_id", "=", FIRST_ID + q)
        .executeTakeFirstOrThrow();
      const keys = decodeKeys(e.bands as Uint8Array);
      let rows = 0;
      for (const k of keys) {
        const c = Number(
          (
            await sql<{ c: number }>`select count(*) as c from (select 1 from dup_band where band_key = ${k} limit 201)`.execute(
              db,
            )
          ).rows[0].c,
        );
        rows += c;
        if (k < 0) {
          anchorRows += c;
          anchors++;
          if (c > 200) big++;
        } else bandRows += c;
      }
      perCheck.push(rows);
    }
    perCheck.sort((x, y) => x - y);
    console.log(
      `postings (200 checks): band rows/check ${r2(bandRows / 200)}, anchors/check ${r2(anchors / 200)}, anchor rows/check ${r2(anchorRows / 200)} (boilerplate anchors/check ${r2(big / 200)}), rows/check p50 ${percentile(perCheck, 0.5)} p99 ${percentile(perCheck, 0.99)}`,
    );
  }
  await db.destroy();
  console.log(JSON.stringify({ works: n, checks: queries.length, passes, ...last }));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
