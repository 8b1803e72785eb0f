/**
 * Checking against the index: candidates by shared band keys and passage anchors (counted by
 * the database), each compared exactly with its stored shingle set; a work by its stored set,
 * a text prepared on the spot.
 */
import { sql } from "kysely";
import type { Db } from "../db/index";
import type { DupCheckResult, DupMatch, DupReason, DupSettings } from "../../shared/dupcheck/schema";
import { MIN_BAND_MATCHES, decodeKeys } from "./minhash";
import { TOO_SHORT_MESSAGE, bandsOf, prepareText } from "./prepare";
import { getSettings, ignoredSet, levelOf } from "./settings";
import { U32Set, compareStored, decodeSet, similarityOf, without } from "./shingles";
import { chunks, fromBytes, idArray, isPg } from "./store";

/**
 * A work sharing at least this many passage anchors is a candidate: a copied passage of ~60+
 * characters, or a copy with 20–30 % of its characters substituted (a 2,000-character work
 * shares ~12 of its ~100 anchors with its 30 % copy, ~26 with a 20 % one; see anchorKeys).
 */
export const MIN_ANCHOR_MATCHES = 3;
/** An anchor held by more works than this is boilerplate, not a sign of copying: skipped in a check. */
export const ANCHOR_MAX_WORKS = 200;

export interface CheckOptions {
  maxYear?: number;
  allYears?: boolean;
  excludeWorkIds?: number[];
  minSimilarity?: number;
  limit?: number;
}

const emptyResult = (
  status: DupCheckResult["status"],
  reasons: DupReason[],
  tooShort: boolean,
  reason: string | null,
  shingles = 0,
): DupCheckResult => ({
  tooShort,
  reason,
  status,
  reasons,
  shingles,
  candidates: 0,
  matches: [],
  more: 0,
});

/** A check's anchor statement has a multiple of this many arms (padded). */
const ANCHOR_ARMS = 32;
/** At most this many arms a statement (SQLite refuses a compound select of more than 500 terms). */
const MAX_ARMS = 14 * ANCHOR_ARMS;
/** A key no anchor has (anchors are negative): pads a check's anchor list (its band keys are always BANDS). */
const PAD_KEY = Number.MAX_SAFE_INTEGER;
const ID_LIST_SIZES = [8, 32, 128, 500];

const ignoredLookups = new WeakMap<Uint32Array, U32Set>();
/** The ignored list as a hash set (one per list: ignoredSet gives the same array until the list changes). */
function ignoredLookup(ignored: Uint32Array): U32Set {
  let u = ignoredLookups.get(ignored);
  if (!u) ignoredLookups.set(ignored, (u = new U32Set(ignored)));
  return u;
}

/** Compares an effective set with every work sharing enough band keys or passage anchors (negative keys). */
async function matchSet(
  db: Db,
  eff: Uint32Array,
  keys: number[],
  opts: CheckOptions & { selfId?: number },
  settings: DupSettings,
  ignored: Uint32Array,
): Promise<{ candidates: number; matches: DupMatch[]; more: number }> {
  const exclude = new Set(opts.excludeWorkIds ?? []);
  if (opts.selfId !== undefined) exclude.add(opts.selfId);
  // Works sharing at least MIN_BAND_MATCHES band keys (one row per shared key).
  const bandKeyList = keys.filter((k) => k >= 0);
  const anchorList = keys.filter((k) => k < 0);
  let effSet: U32Set | undefined;
  const compare = (r: { work_id: number | string; year: number; contest_id: number; shingles: unknown }, all: DupMatch[]) => {
    // eff holds no ignored shingle, so |eff ∩ b| = |eff ∩ (b − ignored)|.
    const { shared, size: sizeB } = compareStored(fromBytes(r.shingles), (effSet ??= new U32Set(eff)), ignoredLookup(ignored));
    const s = similarityOf(shared, eff.length, sizeB);
    if (s.similarity < minSimilarity || shared === 0) return;
    all.push({
      workId: Number(r.work_id),
      year: r.year,
      contestId: r.contest_id,
      jaccard: s.jaccard,
      containmentAB: s.containmentAB,
      containmentBA: s.containmentBA,
      similarity: s.similarity,
      level: levelOf(s.similarity, settings),
      shared,
    });
  };
  const minSimilarity = opts.minSimilarity ?? 0.1;
  const limit = Math.max(1, Math.min(opts.limit ?? 50, 1000));
  const finish = (all: DupMatch[], candidates: number) => {
    all.sort((a, b) => b.similarity - a.similarity || b.jaccard - a.jaccard || a.workId - b.workId);
    return { candidates, matches: all.slice(0, limit), more: Math.max(0, all.length - limit) };
  };
  if (isPg(db)) {
    // PostgreSQL: one statement finds the candidates (the same rules as below, counted by the
    // database) and returns their sets: one round trip instead of one per step. Each key is
    // looked up on its own (lateral), so the plan is index lookups whatever the statistics say.
    const yearCut = !opts.allYears && opts.maxYear !== undefined ? sql`and e.year <= ${opts.maxYear}` : sql``;
    const rows = (
      await sql<{ work_id: number | string; year: number; contest_id: number; shingles: Uint8Array }>`with
        bh as (select b.work_id from unnest(cast(${idArray(bandKeyList)} as bigint[])) as a(k) cross join lateral (select work_id from dup_band where band_key = a.k offset 0) as b group by b.work_id having count(*) >= ${sql.lit(MIN_BAND_MATCHES)}),
        ak as (select a.k, b.work_id, count(*) over (partition by a.k) as n from unnest(cast(${idArray(anchorList)} as bigint[])) as a(k) cross join lateral (select work_id from dup_band where band_key = a.k limit ${sql.lit(ANCHOR_MAX_WORKS + 1)}) as b),
        ah as (select work_id from ak where n <= ${sql.lit(ANCHOR_MAX_WORKS)} group by work_id having count(*) >= ${sql.lit(MIN_ANCHOR_MATCHES)})
      select e.work_id, e.year, e.contest_id, s.shingles from dup_entry as e join dup_set as s on s.work_id = e.work_id
      where e.work_id in (select work_id from bh union select work_id from ah) and e.work_id <> all(cast(${idArray([...exclude])} as bigint[])) ${yearCut}`.execute(
        db,
      )
    ).rows;
    const all: DupMatch[] = [];
    for (const r of rows) compare(r, all);
    return finish(all, rows.length);
  }
  // SQLite: the database counts (only candidates come back, not every posting row): works
  // sharing ≥ MIN_BAND_MATCHES band keys, and works sharing ≥ MIN_ANCHOR_MATCHES anchors of
  // at most ANCHOR_MAX_WORKS works each (each anchor read to at most that many + 1 rows).
  // Few statement shapes (prepared once per connection): BANDS band keys, the anchors padded
  // to a multiple of ANCHOR_ARMS arms.
  const anchorPadded = anchorList.concat(
    new Array<number>((ANCHOR_ARMS - (anchorList.length % ANCHOR_ARMS)) % ANCHOR_ARMS).fill(PAD_KEY),
  );
  const armsOf = (keys: number[]) =>
    keys.map(
      (k, i) =>
        sql`select * from (select band_key, work_id from dup_band where band_key = ${k} limit ${sql.lit(ANCHOR_MAX_WORKS + 1)}) as a${sql.raw(String(i))}`,
    );
  // Anchors of at most ANCHOR_MAX_WORKS works each, counted per work (CTE `a`: the arms' rows).
  const sharedCte = sql`a where band_key in (select band_key from a group by band_key having count(*) <= ${sql.lit(ANCHOR_MAX_WORKS)}) group by work_id`;
  // One statement when the arms fit SQLite's compound-select limit (nearly every work).
  const single = anchorPadded.length <= MAX_ARMS;
  const arms = single ? armsOf(anchorPadded) : [];
  const anchorPart = arms.length ? sql` union select work_id from ah` : sql``;
  const anchorCtes = arms.length
    ? sql`, a as materialized (${sql.join(arms, sql` union all `)}),
      ah as (select work_id from ${sharedCte} having count(*) >= ${sql.lit(MIN_ANCHOR_MATCHES)})`
    : sql``;
  const found = await sql<{
    work_id: number | string;
  }>`with bh as (select work_id from dup_band where band_key in (${sql.join(bandKeyList)}) group by work_id having count(*) >= ${sql.lit(MIN_BAND_MATCHES)})${anchorCtes}
    select work_id from bh${anchorPart}`.execute(db);
  const idSet = new Set<number>();
  for (const r of found.rows) idSet.add(Number(r.work_id));
  if (!single) {
    // A long text (over MAX_ARMS anchors, ~9,000 characters): its anchors a statement of MAX_ARMS at a time, the counts summed.
    const counts = new Map<number, number>();
    for (const part of chunks(anchorPadded, MAX_ARMS)) {
      const rows = await sql<{
        work_id: number | string;
        n: number | string;
      }>`with a as materialized (${sql.join(armsOf(part), sql` union all `)}) select work_id, count(*) as n from ${sharedCte}`.execute(
        db,
      );
      for (const r of rows.rows) counts.set(Number(r.work_id), (counts.get(Number(r.work_id)) ?? 0) + Number(r.n));
    }
    for (const [id, n] of counts) if (n >= MIN_ANCHOR_MATCHES) idSet.add(id);
  }
  const ids: number[] = [];
  for (const id of idSet) if (!exclude.has(id)) ids.push(id);
  const all: DupMatch[] = [];
  let candidates = 0;
  for (const part of chunks(ids, 500)) {
    // The id list padded to a few fixed lengths (with -1, no work's id): few statement texts to prepare.
    const size = ID_LIST_SIZES.find((n) => n >= part.length) ?? part.length;
    const padded = part.concat(new Array<number>(size - part.length).fill(-1));
    let q = db
      .selectFrom("dup_set as s")
      .innerJoin("dup_entry as e", "e.work_id", "s.work_id")
      .select(["s.work_id", "e.year", "e.contest_id", "s.shingles"])
      .where("s.work_id", "in", padded);
    if (!opts.allYears && opts.maxYear !== undefined) q = q.where("e.year", "<=", opts.maxYear);
    for (const r of await q.execute()) {
      candidates++;
      compare(r, all);
    }
  }
  return finish(all, candidates);
}

export async function checkWork(db: Db, workId: number, opts: CheckOptions = {}): Promise<DupCheckResult> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  const e = await db
    .selectFrom("dup_entry as e")
    .leftJoin("dup_set as s", "s.work_id", "e.work_id")
    .select(["e.year", "e.status", "e.reasons", "s.shingles", "e.bands"])
    .where("e.work_id", "=", workId)
    .executeTakeFirst();
  if (!e) return emptyResult("missing", [], true, "作品尚未建立查重索引，请稍后再查");
  const reasons = JSON.parse(e.reasons) as DupReason[];
  const visible = reasons.filter((r) => r.code !== "too_short");
  if (!e.shingles)
    return emptyResult(
      e.status,
      visible,
      true,
      e.status === "failed" ? (reasons[0]?.message ?? "查重索引失败") : "作品正在建立查重索引，请稍后再查",
    );
  const eff = without(decodeSet(fromBytes(e.shingles)), ignored);
  const keys = bandsOf(eff, settings);
  if (!keys) return emptyResult(e.status, visible, true, TOO_SHORT_MESSAGE, eff.length);
  const anchors = e.bands ? decodeKeys(fromBytes(e.bands)).filter((k) => k < 0) : [];
  const r = await matchSet(
    db,
    eff,
    [...keys, ...anchors],
    { ...opts, maxYear: opts.maxYear ?? e.year, selfId: workId },
    settings,
    ignored,
  );
  return { tooShort: false, reason: null, status: e.status, reasons: visible, shingles: eff.length, ...r };
}

export async function checkText(db: Db, text: string, opts: CheckOptions = {}): Promise<DupCheckResult> {
  const [settings, ignored] = await Promise.all([getSettings(db), ignoredSet(db)]);
  const p = prepareText(text, ignored);
  const keys = bandsOf(p.eff, settings);
  if (!keys) return emptyResult("text", [], true, TOO_SHORT_MESSAGE, p.eff.length);
  const r = await matchSet(db, p.eff, [...keys, ...p.anchors], opts, settings, ignored);
  return { tooShort: false, reason: null, status: "text", reasons: [], shingles: p.eff.length, ...r };
}
