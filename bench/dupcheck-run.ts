/**
 * The duplicate-check benchmark's logic (npm run bench:dupcheck runs it at full size,
 * tests/unit/dupcheck-bench.test.ts at a tiny one): builds the fixed-seed synthetic corpus of
 * ./dupcheck-corpus.ts into a real database through the real engine, then measures.
 *
 * 1. Build: every work is prepared (normalised, shingled, anchors) and written with
 *    writeEntries in batches of 1000 as the rebuild's extraction phase does (deferBands: the
 *    entries, their dup_band rows come from the band phase), then the rebuild's two phases run:
 *    the ignored (very common) shingles from a sample, and every signature and band key under
 *    them (recomputeBands). buildSeconds is all of it; rebuildSeconds the two phases alone
 *    (a "full rebuild" from the stored shingle sets, as the admin page's rebuild does).
 * 2. Add: ADD_WORKS new works (fresh originals and copies) added one at a time, each
 *    prepareText + writeEntries (one transaction), then removed again.
 * 3. Checks: a sample of lightly edited copies, 10 % rewrites, originals (same-topic and
 *    school-template works) and exact copies is checked with checkWork against every year,
 *    reporting every candidate (minSimilarity 0); each check is timed including the database.
 *    - recallAt05: of the pairs (query, w) with exact Jaccard ≥ 0.5 (on the sets without the
 *      ignored shingles, as the engine reports), the share the check returned. The truth is
 *      brute force over the whole corpus when it has at most `bruteLimit` works, else the
 *      planted family (the original and every work derived from it: unrelated synthetic
 *      works never reach J 0.5; the small runs check that by brute force).
 *    - lightEditsFound / rewritesFound: the share of light edits / 10 % rewrites whose
 *      original is reported at or above the suspect threshold.
 *    - originalsFlagged: the share of originals with a match at or above the suspect
 *      threshold that is not of their planted family.
 *    - rewrites20Found / rewrites30Found: the same for 30 sampled 20 % and 30 % rewrites.
 *    - pairAgreement: over sampled pairs (each checked work with every member of its planted
 *      family and with up to 5 works of its topic), the share where the check (the pair
 *      reported at ≥ suspect) and the comparison (exact similarity of the two sets, as
 *      GET /Backend/DupCheck/pair/:a/:b computes it, ≥ suspect) agree.
 */
import type { DupBenchmarkFigures } from "../src/shared/dupcheck/schema";
import { cpus, totalmem } from "node:os";
import { PostgresAdapter, sql } from "kysely";
import type { Db } from "../src/server/db/index";
import { computeIgnored } from "../src/server/dupcheck/ignored";
import { checkWork } from "../src/server/dupcheck/match";
import { prepareText } from "../src/server/dupcheck/prepare";
import { recomputeBands } from "../src/server/dupcheck/rebuild-bands";
import { withRebuildCache } from "../src/server/dupcheck/store";
import { removeWorks, writeEntries, type EntryWrite } from "../src/server/dupcheck/write";
import { getSettings, ignoredSet } from "../src/server/dupcheck/settings";
import { decodeSet, intersectionSize, without } from "../src/server/dupcheck/shingles";
import { CorpusGenerator, corpus, type Kind } from "./dupcheck-corpus";

export interface DupBenchOptions {
  works: number;
  /** queries per kind (light, rewrite10, original, exact) */
  queries?: number;
  /** brute-force truth for recall up to this many works */
  bruteLimit?: number;
  addWorks?: number;
  log?: (line: string) => void;
}

/** The issue's nine keys, in the order printed (the admin page's type adds the run's context). */
export type DupBenchFigures = Required<Omit<DupBenchmarkFigures, "dialect" | "date" | "rebuildSeconds" | "machine">>;

export interface DupBenchDetails {
  rebuildSeconds: number;
  truth: "brute force" | "planted";
  truthPairs: number;
  /** brute-force truth pairs outside the planted families (small runs) */
  unplantedTruthPairs: number;
  exactFound: number;
  templateWorksFlagged: number;
  checks: number;
  bandRows: number;
  ignored: number;
}

const KIND_CODES: Kind[] = ["original", "exact", "light", "rewrite10", "rewrite20", "rewrite30", "template"];
const FIRST_ID = 2015000001;
const isPg = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] : 0;
}

/** A seeded choice of up to k items. */
export function sample<T>(xs: T[], k: number, seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const a = xs.slice();
  for (let i = 0; i < Math.min(k, a.length); i++) {
    const j = i + Math.floor(rand() * (a.length - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, k);
}

function jaccard(a: Uint32Array, b: Uint32Array): number {
  const shared = intersectionSize(a, b);
  const union = a.length + b.length - shared;
  return union ? shared / union : 0;
}

export async function runDupBench(
  db: Db,
  opts: DupBenchOptions,
): Promise<{ figures: DupBenchFigures; details: DupBenchDetails }> {
  const log = opts.log ?? (() => undefined);
  const n = opts.works;
  const perKind = opts.queries ?? 300;
  const bruteLimit = opts.bruteLimit ?? 5_000;
  const settings = await getSettings(db);
  const kind = new Uint8Array(n);
  const topicOf = new Uint16Array(n);
  const root = new Int32Array(n); // index of the planted original (itself for an original)
  const noIgnored = new Uint32Array(0);

  // ── 1. build ──
  const t0 = performance.now();
  let batch: EntryWrite[] = [];
  let i = 0;
  let lastLog = t0;
  // As the rebuild's extraction phase: the writes run with the rebuild's page cache.
  await withRebuildCache(db, async () => {
    for (const w of corpus(n)) {
      kind[i] = KIND_CODES.indexOf(w.kind);
      topicOf[i] = w.topic;
      root[i] = w.source === null ? i : root[w.source - FIRST_ID];
      batch.push({
        workId: w.id,
        year: w.year,
        contestId: w.contestId,
        status: "indexed",
        reasons: [],
        prepared: prepareText(w.text, noIgnored),
      });
      i++;
      if (batch.length === 1000) {
        await writeEntries(db, batch, settings, { deferBands: true });
        batch = [];
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          log(`  写入 ${i}/${n}（${round((lastLog - t0) / 1000, 1)} s）`);
        }
      }
    }
    if (batch.length) await writeEntries(db, batch, settings, { deferBands: true });
  });
  const written = performance.now();
  log(`写入 ${n} 件作品的索引（文字 → 三元组、锚点、签名、段键）：${round((written - t0) / 1000, 1)} s`);
  const ignoredInfo = await computeIgnored(db, null, settings);
  const afterIgnored = performance.now();
  log(
    `统计常见片段：${ignoredInfo.ignored} 个（抽样 ${ignoredInfo.sampleWorks} 件），${round((afterIgnored - written) / 1000, 1)} s`,
  );
  let lastBandLog = afterIgnored;
  const changed = await recomputeBands(db, settings, (d, t) => {
    if (performance.now() - lastBandLog > 10_000) {
      lastBandLog = performance.now();
      log(`  重算签名 ${d}/${t}`);
    }
  });
  // SQLite: the build's writes (hundreds of MB at 100,000 works) wait in the WAL for the
  // checkpointer thread; moving them into the database file is part of the build (else the
  // checks below would be timed while that thread copies them on the same two cores).
  if (!isPg(db)) {
    const c0 = performance.now();
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    log(`WAL 检查点：${round((performance.now() - c0) / 1000, 1)} s`);
  }
  const built = performance.now();
  const buildSeconds = round((built - t0) / 1000, 1);
  const rebuildSeconds = round((built - written) / 1000, 1);
  log(
    `重算签名与段键：${changed} 件有变化，${round((built - afterIgnored) / 1000, 1)} s；建索引共 ${buildSeconds} s（其中全量重建 ${rebuildSeconds} s）`,
  );
  const bandRows = Number(
    (
      await db
        .selectFrom("dup_band")
        .select((eb) => eb.fn.countAll().as("c"))
        .executeTakeFirst()
    )?.c ?? 0,
  );
  log(`dup_band：${bandRows} 行（每件 ${round(bandRows / n, 1)}）`);

  // ── 2. add ──
  const ignored = await ignoredSet(db);
  const addWorks = opts.addWorks ?? 200;
  const g = new CorpusGenerator(7);
  const addTimes: number[] = [];
  const added: number[] = [];
  for (let k = 0; k < addWorks; k++) {
    const id = FIRST_ID + n + k;
    const topic = k % g.topics;
    const original = g.original(topic, null);
    const text = k % 2 ? g.edit(original, topic, 0.03, false) : original;
    const a = performance.now();
    await writeEntries(
      db,
      [{ workId: id, year: 2026, contestId: 1, status: "indexed", reasons: [], prepared: prepareText(text, ignored) }],
      settings,
    );
    addTimes.push(performance.now() - a);
    added.push(id);
  }
  await removeWorks(db, added);
  addTimes.sort((x, y) => x - y);
  const addMs = round(percentile(addTimes, 0.5), 2);
  log(`新增一件（准备文字 + 写入一个事务）：${addWorks} 次，p50 ${addMs} ms，p99 ${round(percentile(addTimes, 0.99), 2)} ms`);

  // ── 3. checks ──
  const byKind = (k: Kind) => {
    const code = KIND_CODES.indexOf(k);
    const out: number[] = [];
    for (let j = 0; j < n; j++) if (kind[j] === code) out.push(j);
    return out;
  };
  const lights = sample(byKind("light"), perKind, 1);
  const rewrites = sample(byKind("rewrite10"), perKind, 2);
  const originals = sample(byKind("original"), perKind, 3);
  const templates = sample(byKind("template"), Math.ceil(perKind / 3), 4);
  const exacts = sample(byKind("exact"), Math.ceil(perKind / 3), 5);
  const rewrites20 = perKind ? sample(byKind("rewrite20"), 30, 6) : [];
  const rewrites30 = perKind ? sample(byKind("rewrite30"), 30, 7) : [];
  const queries = [...new Set([...lights, ...rewrites, ...originals, ...templates, ...exacts, ...rewrites20, ...rewrites30])];

  // The truth: J ≥ 0.5 pairs of every query.
  const effOf = new Map<number, Uint32Array>();
  const loadEff = async (idx: number[]) => {
    const want = idx.filter((x) => !effOf.has(x));
    for (let s = 0; s < want.length; s += 500) {
      const part = want.slice(s, s + 500);
      const rows = await db
        .selectFrom("dup_set")
        .select(["work_id", "shingles"])
        .where(
          "work_id",
          "in",
          part.map((x) => FIRST_ID + x),
        )
        .execute();
      for (const r of rows) effOf.set(Number(r.work_id) - FIRST_ID, without(decodeSet(r.shingles as Uint8Array), ignored));
    }
  };
  const family = new Map<number, number[]>();
  for (let j = 0; j < n; j++) {
    if (root[j] === j && kind[j] !== KIND_CODES.indexOf("original") && kind[j] !== KIND_CODES.indexOf("template")) continue;
    const list = family.get(root[j]);
    if (list) list.push(j);
    else family.set(root[j], [j]);
  }
  const truth = new Map<number, Set<number>>();
  const brute = n <= bruteLimit;
  let unplanted = 0;
  if (brute) {
    await loadEff(Array.from({ length: n }, (_, j) => j));
    for (const q of queries) {
      const t = new Set<number>();
      const a = effOf.get(q)!;
      for (let j = 0; j < n; j++) {
        if (j === q) continue;
        const b = effOf.get(j);
        if (b && jaccard(a, b) >= 0.5) {
          t.add(j);
          if (root[j] !== root[q]) unplanted++;
        }
      }
      truth.set(q, t);
    }
  } else {
    await loadEff([...queries, ...queries.flatMap((q) => family.get(root[q]) ?? [])]);
    for (const q of queries) {
      const t = new Set<number>();
      for (const j of family.get(root[q]) ?? []) if (j !== q && jaccard(effOf.get(q)!, effOf.get(j)!) >= 0.5) t.add(j);
      truth.set(q, t);
    }
  }

  const checkTimes: number[] = [];
  let truthPairs = 0;
  let truthFound = 0;
  const flaggedOf = new Map<number, Map<number, number>>();
  for (const q of queries) {
    const a = performance.now();
    const r = await checkWork(db, FIRST_ID + q, { allYears: true, minSimilarity: 0, limit: 1000 });
    checkTimes.push(performance.now() - a);
    const got = new Map(r.matches.map((m) => [m.workId - FIRST_ID, m.similarity]));
    for (const j of truth.get(q)!) {
      truthPairs++;
      if (got.has(j)) truthFound++;
    }
    flaggedOf.set(q, got);
  }
  checkTimes.sort((x, y) => x - y);
  const suspect = settings.suspect;
  // The pair sample: each query with its planted family and up to 5 works of its topic.
  const byTopic = new Map<number, number[]>();
  for (let j = 0; j < n; j++) {
    const list = byTopic.get(topicOf[j]);
    if (list) list.push(j);
    else byTopic.set(topicOf[j], [j]);
  }
  const pairs: Array<[number, number]> = [];
  for (const q of queries) {
    const others = new Set([...(family.get(root[q]) ?? []), ...sample(byTopic.get(topicOf[q]) ?? [], 5, q + 11)]);
    others.delete(q);
    for (const j of others) pairs.push([q, j]);
  }
  await loadEff(pairs.map(([, j]) => j));
  let agree = 0;
  for (const [q, j] of pairs) {
    const a = effOf.get(q);
    const b = effOf.get(j);
    if (!a || !b) continue;
    const shared = intersectionSize(a, b);
    const exact = Math.max(shared / a.length, shared / b.length, shared / (a.length + b.length - shared));
    const byCheck = (flaggedOf.get(q)!.get(j) ?? 0) >= suspect;
    if (byCheck === exact >= suspect) agree++;
  }
  const foundShare = (qs: number[]) =>
    qs.length ? qs.filter((q) => (flaggedOf.get(q)!.get(root[q]) ?? 0) >= suspect).length / qs.length : 1;
  const wronglyFlagged = (qs: number[]) =>
    qs.length
      ? qs.filter((q) => [...flaggedOf.get(q)!].some(([j, s]) => s >= suspect && root[j] !== root[q])).length / qs.length
      : 0;
  const figures: DupBenchFigures = {
    works: n,
    buildSeconds,
    addMs,
    checkP50Ms: round(percentile(checkTimes, 0.5), 2),
    checkP99Ms: round(percentile(checkTimes, 0.99), 2),
    recallAt05: truthPairs ? round(truthFound / truthPairs, 4) : 1,
    lightEditsFound: round(foundShare(lights), 4),
    rewritesFound: round(foundShare(rewrites), 4),
    originalsFlagged: round(wronglyFlagged(originals), 4),
    rewrites20Found: round(foundShare(rewrites20), 4),
    rewrites30Found: round(foundShare(rewrites30), 4),
    pairAgreement: pairs.length ? round(agree / pairs.length, 4) : 1,
  };
  const details: DupBenchDetails = {
    rebuildSeconds,
    truth: brute ? "brute force" : "planted",
    truthPairs,
    unplantedTruthPairs: unplanted,
    exactFound: round(foundShare(exacts), 4),
    templateWorksFlagged: round(wronglyFlagged(templates), 4),
    checks: queries.length,
    bandRows,
    ignored: ignoredInfo.ignored,
  };
  log(
    `查重 ${queries.length} 次（所有年份、全部候选）：p50 ${figures.checkP50Ms} ms，p99 ${figures.checkP99Ms} ms，最长 ${round(checkTimes.at(-1) ?? 0, 1)} ms`,
  );
  log(
    `候选召回率（J ≥ 0.5，真值：${brute ? "全库暴力计算" : "植入的同源作品"}）：${truthFound}/${truthPairs}${brute ? `，其中非植入的 ${unplanted} 对` : ""}`,
  );
  log(
    `原样复制检出 ${details.exactFound}，轻度修改检出 ${figures.lightEditsFound}（${lights.length} 件），10% 改写检出 ${figures.rewritesFound}（${rewrites.length} 件，阈值 ${suspect}）`,
  );
  log(
    `20% 改写检出 ${figures.rewrites20Found}（${rewrites20.length} 件），30% 改写检出 ${figures.rewrites30Found}（${rewrites30.length} 件）；查重与比对一致 ${figures.pairAgreement}（${pairs.length} 对）`,
  );
  log(
    `同题原创误报 ${figures.originalsFlagged}（${originals.length} 件），同校模板作品误报 ${details.templateWorksFlagged}（${templates.length} 件）`,
  );
  return { figures, details };
}

/** Date and machine facts recorded with the figures. */
export function machineFacts(): string {
  const c = cpus();
  return `${c.length} 核 ${c[0]?.model?.trim() ?? ""}，内存 ${Math.round(totalmem() / 2 ** 30)} GB，Node ${process.version}`;
}
