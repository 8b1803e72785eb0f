/**
 * Scores and awards (GET /Backend/Stats/scores), over the submitted, not superseded online
 * scores of the contests in scope, per result group (the work's judge group in that contest,
 * else its 大类: groupKeyOf, as the results are computed):
 * - the distribution: five numbers for a box plot and a 10-bin histogram;
 * - each judge's severity and spread: the additive judge-effect model of judging/scoring.ts
 *   (normaliseScores, the same fit the results use) run on the group's scores — effect b_j
 *   (+ lenient, − harsh), the judge's mean and standard deviation;
 * - the disagreement flags: works whose raw scores spread more than the contest's threshold
 *   (result_setting.disagreement_threshold, else the model's default);
 * - awards per level against the quota: contest_result rows per award level, and the quota the
 *   allocation gives (levelCounts over each result group's works, summed).
 * A school admin gets the awards of the own works only (no groups, judges or flags).
 */
import { levelCounts } from "../../shared/judging/award-quota";
import type { AwardRow, BoxPlot, DisagreementFlag, GroupScores, JudgeSeverity, ScoresReply } from "../../shared/stats/schema";
import type { Handle } from "../work/repository";
import { groupKeyOf } from "../judging/results";
import { NORMALISE_DEFAULTS, normaliseScores, type Score } from "../judging/scoring";
import { workAwardLevels } from "../judging/service/results/load";
import { contestIn, narrowed, num, worksOf, type Scope } from "./scope";

const BINS = 10;
const MAX_FLAGS = 200;

/** The value at quantile p of sorted values (linear interpolation between closest ranks). */
export function quantile(sorted: readonly number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export function boxPlot(sorted: readonly number[]): BoxPlot | null {
  if (!sorted.length) return null;
  return {
    min: sorted[0],
    q1: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    q3: quantile(sorted, 0.75),
    max: sorted[sorted.length - 1],
  };
}

/** BINS equal bins from the lowest to the highest value, the last one closed. */
export function histogram(sorted: readonly number[]) {
  if (!sorted.length) return [];
  const lo = sorted[0];
  const hi = sorted[sorted.length - 1];
  const width = (hi - lo) / BINS || 1;
  const bins = Array.from({ length: BINS }, (_, i) => ({ from: lo + i * width, to: lo + (i + 1) * width, count: 0 }));
  for (const v of sorted) bins[Math.min(BINS - 1, Math.floor((v - lo) / width))].count++;
  return bins;
}

interface Row {
  contestId: number;
  key: string;
  groupId: number | null;
  categoryId: number;
  workId: number;
  judgeId: number;
  total: number;
}

export async function scores(db: Handle, s: Scope): Promise<Omit<ScoresReply, "scope">> {
  const f = s.current;
  const [thresholds, awards] = await Promise.all([
    db
      .selectFrom("result_setting")
      .select(["contest_id", "disagreement_threshold"])
      .where(contestIn(f, "result_setting.contest_id"))
      .execute(),
    awardRows(db, s),
  ]);
  const thresholdOf = new Map(thresholds.map((t) => [Number(t.contest_id), Number(t.disagreement_threshold)]));
  const threshold = thresholds.length ? Math.min(...thresholdOf.values()) : NORMALISE_DEFAULTS.disagreementThreshold;
  if (s.schoolOnly) return { groups: [], judges: [], flags: [], threshold, awards };
  const raw = await db
    .selectFrom("judge_score as js")
    .innerJoin("work", "work.id", "js.work_id")
    .leftJoin("judge_group_work as gw", (j) =>
      j.onRef("gw.contest_id", "=", "js.contest_id").onRef("gw.work_id", "=", "js.work_id"),
    )
    .select(["js.contest_id", "js.work_id", "js.judge_id", "js.total", "gw.group_id", "work.category_id"])
    .where(contestIn(f, "js.contest_id"))
    .where("js.status", "=", "submitted")
    .where("js.superseded_at", "is", null)
    .where("js.total", "is not", null)
    .$if(narrowed(f), (q) => q.where("js.work_id", "in", worksOf(db, f).select("work.id")))
    .execute();
  const rows: Row[] = raw.map((r) => {
    const groupId = r.group_id === null ? null : Number(r.group_id);
    const categoryId = Number(r.category_id);
    return {
      contestId: Number(r.contest_id),
      key: `${r.contest_id}:${groupKeyOf(groupId, categoryId)}`,
      groupId,
      categoryId,
      workId: Number(r.work_id),
      judgeId: Number(r.judge_id),
      total: Number(r.total),
    };
  });
  const byGroup = new Map<string, Row[]>();
  for (const r of rows) {
    const list = byGroup.get(r.key);
    if (list) list.push(r);
    else byGroup.set(r.key, [r]);
  }
  const names = await groupNames(db, rows);
  const groups: GroupScores[] = [];
  const judges: JudgeSeverity[] = [];
  const flags: DisagreementFlag[] = [];
  for (const [key, list] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const first = list[0];
    const name = first.groupId !== null ? names.groups.get(first.groupId) : names.categories.get(first.categoryId);
    const groupName = name ?? key;
    const t = thresholdOf.get(first.contestId) ?? NORMALISE_DEFAULTS.disagreementThreshold;
    const fit = normaliseScores(
      list.map((r): Score => ({ workId: r.workId, judgeId: r.judgeId, score: r.total })),
      { disagreementThreshold: t },
    );
    const sorted = list.map((r) => r.total).sort((a, b) => a - b);
    const flagged = fit.works.filter((w) => w.disagreement);
    groups.push({
      key,
      groupId: first.groupId,
      name: groupName,
      contestId: first.contestId,
      scores: list.length,
      works: fit.works.length,
      box: boxPlot(sorted),
      bins: histogram(sorted),
      flagged: flagged.length,
    });
    for (const j of fit.judges)
      judges.push({
        judgeId: j.judgeId,
        name: names.users.get(j.judgeId) ?? String(j.judgeId),
        groupKey: key,
        groupId: first.groupId,
        groupName,
        count: j.count,
        mean: j.mean,
        sd: j.sd,
        effect: j.effect,
        identified: j.identified,
      });
    for (const w of flagged)
      flags.push({
        workId: w.workId,
        workName: String(w.workId),
        groupKey: key,
        groupId: first.groupId,
        groupName,
        judgeCount: w.count,
        min: w.min,
        max: w.max,
        spread: w.spread,
      });
  }
  judges.sort((a, b) => a.effect - b.effect || a.judgeId - b.judgeId);
  flags.sort((a, b) => b.spread - a.spread || a.workId - b.workId);
  const shown = flags.slice(0, MAX_FLAGS);
  if (shown.length) {
    const works = await db
      .selectFrom("work")
      .select(["id", "name"])
      .where(
        "id",
        "in",
        shown.map((x) => x.workId),
      )
      .execute();
    const workNames = new Map(works.map((w) => [Number(w.id), w.name]));
    for (const x of shown) x.workName = workNames.get(x.workId) ?? x.workName;
  }
  return { groups, judges, flags: shown, threshold, awards };
}

async function groupNames(db: Handle, rows: Row[]) {
  const groupIds = [...new Set(rows.map((r) => r.groupId).filter((g): g is number => g !== null))];
  const catIds = [...new Set(rows.filter((r) => r.groupId === null).map((r) => r.categoryId))];
  const judgeIds = [...new Set(rows.map((r) => r.judgeId))];
  const [groups, cats, users] = await Promise.all([
    groupIds.length ? db.selectFrom("judge_group").select(["id", "name"]).where("id", "in", groupIds).execute() : [],
    catIds.length ? db.selectFrom("work_category").select(["id", "name"]).where("id", "in", catIds).execute() : [],
    inChunks(judgeIds, (part) => db.selectFrom("app_user").select(["id", "name"]).where("id", "in", part).execute()),
  ]);
  return {
    groups: new Map(groups.map((g) => [Number(g.id), g.name])),
    categories: new Map(cats.map((c) => [Number(c.id), c.name])),
    users: new Map(users.map((u) => [Number(u.id), u.name])),
  };
}

async function inChunks<T>(ids: number[], run: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await run(ids.slice(i, i + 500))));
  return out;
}

/** Awards per contest and level: contest_result rows holding the level, and the level's quota summed over the result groups. */
async function awardRows(db: Handle, s: Scope): Promise<AwardRow[]> {
  const f = s.current;
  const results = await db
    .selectFrom("contest_result as r")
    .innerJoin("work", "work.id", "r.work_id")
    .innerJoin("contest as c", "c.id", "r.contest_id")
    .select([
      "r.contest_id",
      "c.name as contest_name",
      "c.level",
      "r.group_id",
      "work.category_id",
      "r.award_level_id",
      (eb) => eb.fn.countAll<number>().as("n"),
    ])
    .where(contestIn(f, "r.contest_id"))
    .$if(narrowed(f), (q) => q.where("r.work_id", "in", worksOf(db, f).select("work.id")))
    .groupBy(["r.contest_id", "c.name", "c.level", "r.group_id", "work.category_id", "r.award_level_id"])
    .execute();
  const contests = new Map<number, { name: string; level: string; groups: Map<string, number>; awards: Map<number, number> }>();
  for (const r of results) {
    const id = Number(r.contest_id);
    let c = contests.get(id);
    if (!c) contests.set(id, (c = { name: r.contest_name, level: r.level, groups: new Map(), awards: new Map() }));
    const key = groupKeyOf(r.group_id === null ? null : Number(r.group_id), Number(r.category_id));
    c.groups.set(key, (c.groups.get(key) ?? 0) + num(r.n));
    if (r.award_level_id !== null)
      c.awards.set(Number(r.award_level_id), (c.awards.get(Number(r.award_level_id)) ?? 0) + num(r.n));
  }
  const out: AwardRow[] = [];
  const levelsOf = new Map<string, Awaited<ReturnType<typeof workAwardLevels>>>();
  for (const [contestId, c] of [...contests].sort(([a], [b]) => a - b)) {
    let levels = levelsOf.get(c.level);
    if (!levels) levelsOf.set(c.level, (levels = await workAwardLevels(db, c.level as "national" | "provincial" | "school")));
    // The quota is the allocation's over the whole groups: a school's share of it is not defined.
    const quotas = levels.map(() => 0 as number | null);
    if (!narrowed(f))
      for (const n of c.groups.values())
        levelCounts(levels, n).forEach((q, i) => (quotas[i] = q === null || quotas[i] === null ? null : quotas[i]! + q));
    levels.forEach((l, i) =>
      out.push({
        contestId,
        contestName: c.name,
        levelId: l.id,
        levelName: l.name,
        count: c.awards.get(l.id) ?? 0,
        quota: narrowed(f) ? null : quotas[i],
      }),
    );
  }
  return out;
}
