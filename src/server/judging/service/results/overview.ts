/**
 * What the results page reads: the contests to choose from, a contest's result groups with
 * their counts, options, publications and quota, one group's ranking, and the last
 * computation's fit.
 */
import type {
  FitView,
  ResultContestItem,
  ResultGroup,
  ResultRow,
  ResultsOverview,
} from "../../../../shared/judging/result-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { adminContestIds } from "../../../scope";
import { SCORING_MODEL, SCORING_MODEL_VERSION } from "../../scoring";
import { requireManagedContest, settingsOf } from "../contest";
import {
  LEVEL_ORDER,
  assignedCounts,
  categoryNames,
  isIncomplete,
  judgeGroups,
  judgeNames,
  loadSetting,
  quotaState,
  resultGroupNames,
  resultGroupOf,
  tally,
  workAwardLevels,
} from "./load";
import { publications } from "./publish";
import { parseKey, rowQuery, storedRows, toRows } from "./rows";

/** The contests the user manages, for the chooser, newest year first. */
export async function resultContests(db: Db, user: User): Promise<ResultContestItem[]> {
  const scope = await adminContestIds(db, user);
  if (scope !== "all" && !scope.length) return [];
  let q = db
    .selectFrom("contest")
    .leftJoin("result_setting", "result_setting.contest_id", "contest.id")
    .select(["contest.id", "contest.name", "contest.level", "contest.year", "result_setting.computed_at"])
    .where("contest.archived", "=", 0);
  if (scope !== "all") q = q.where("contest.id", "in", scope);
  const rows = await q.execute();
  const pubs = rows.length
    ? await db
        .selectFrom("result_publication")
        .select(["contest_id", "published_at"])
        .where("withdrawn_at", "is", null)
        .where(
          "contest_id",
          "in",
          rows.map((r) => r.id),
        )
        .execute()
    : [];
  return rows
    .map((r) => ({
      id: r.id,
      name: r.name,
      level: r.level,
      year: r.year,
      computedAt: r.computed_at ?? null,
      publishedAt: pubs.find((p) => p.contest_id === r.id)?.published_at ?? null,
    }))
    .sort((a, b) => b.year - a.year || LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || a.id - b.id);
}

/** Result groups with their counts, the options, the publications and the quota. */
export async function resultsOverview(db: Db, user: User, contestId: number): Promise<ResultsOverview> {
  const c = await requireManagedContest(db, user, contestId);
  const { year } = await db.selectFrom("contest").select("year").where("id", "=", c.id).executeTakeFirstOrThrow();
  const quota = await quotaState(db, c.id);
  const setting = await loadSetting(db, c.id);
  const needed = (await settingsOf(db, c.id)).reviewsPerWork;
  const levels = await workAwardLevels(db, c.level);
  const rows = await storedRows(db, c.id);
  const assigned = await assignedCounts(db, c.id);
  const judging = await judgeGroups(db, c.id);
  const quotaCats = Object.keys(quota.perCategory).map(Number);
  const cats = await categoryNames(db, [...new Set([...rows.map((r) => r.category_id), ...quotaCats])]);
  const catName = (id: number) => cats.get(id) ?? `大类 ${id}`;
  const levelName = new Map(levels.map((l) => [l.id, l.name]));
  const groups = new Map<string, ResultGroup>();
  for (const r of rows) {
    const meta = resultGroupOf(judging, r.group_id, r.category_id, catName(r.category_id));
    let g = groups.get(meta.key);
    if (!g) {
      g = {
        ...meta,
        basis: setting.basis[meta.key] ?? "online",
        works: 0,
        ranked: 0,
        flagged: 0,
        incomplete: 0,
        withDefence: 0,
        includeIncomplete: setting.includeIncomplete.includes(meta.key),
        awards: [],
        promoted: 0,
      };
      groups.set(meta.key, g);
    }
    g.works++;
    if (r.rank !== null) g.ranked++;
    if (r.flagged) g.flagged++;
    if (isIncomplete(r.judge_count, needed, assigned.get(r.work_id) ?? 0)) g.incomplete++;
    if (r.defence_count > 0) g.withDefence++;
    if (r.promoted) g.promoted++;
    if (r.award_level_id !== null) {
      const a = g.awards.find((x) => x.awardLevelId === r.award_level_id);
      if (a) a.count++;
      else g.awards.push({ awardLevelId: r.award_level_id, name: levelName.get(r.award_level_id) ?? "", count: 1 });
    }
  }
  const sortOf = new Map(levels.map((l) => [l.id, l.sort]));
  for (const g of groups.values())
    g.awards.sort((a, b) => (sortOf.get(a.awardLevelId) ?? 99) - (sortOf.get(b.awardLevelId) ?? 99));
  const pubs = await publications(db, c.id);
  const promoted = rows.filter((r) => r.promoted);
  const promotedBy = new Map<number, number>();
  for (const r of promoted) tally(promotedBy, r.category_id);
  const computedBy =
    setting.computedBy !== null
      ? await db.selectFrom("app_user").select("name").where("id", "=", setting.computedBy).executeTakeFirst()
      : undefined;
  const list = [...groups.values()].sort(
    (a, b) => a.categoryId - b.categoryId || (a.groupId ?? Number.MAX_SAFE_INTEGER) - (b.groupId ?? Number.MAX_SAFE_INTEGER),
  );
  return {
    contest: { id: c.id, name: c.name, level: c.level, year },
    computedAt: setting.computedAt,
    computedBy: computedBy?.name ?? null,
    disagreementThreshold: setting.threshold,
    reviewsPerWork: needed,
    published: pubs.find((p) => !p.withdrawnAt) ?? null,
    history: pubs,
    groups: list,
    awardLevels: levels,
    quota: {
      parentName: quota.parent?.name ?? null,
      total: quota.total,
      promoted: promoted.length,
      categories: [...new Set([...quotaCats, ...promotedBy.keys()])]
        .sort((a, b) => a - b)
        .map((id) => ({
          categoryId: id,
          name: catName(id),
          quota: quota.perCategory[String(id)] ?? null,
          promoted: promotedBy.get(id) ?? 0,
        })),
    },
    totals: {
      works: rows.length,
      ranked: rows.filter((r) => r.rank !== null).length,
      flagged: rows.filter((r) => r.flagged).length,
      incomplete: list.reduce((s, g) => s + g.incomplete, 0),
      awarded: rows.filter((r) => r.award_level_id !== null).length,
      promoted: promoted.length,
    },
  };
}

/** One group's ranking: ranked works by rank, then the unranked, by work id. */
export async function groupRanking(db: Db, user: User, contestId: number, key: string): Promise<ResultRow[]> {
  const c = await requireManagedContest(db, user, contestId);
  const k = parseKey(key);
  let q = rowQuery(db, c.id);
  q =
    "groupId" in k
      ? q.where("contest_result.group_id", "=", k.groupId)
      : q.where("contest_result.group_id", "is", null).where("work.category_id", "=", k.categoryId);
  const list = (await q.execute()).sort(
    (a, b) =>
      (a.rank === null ? 1 : 0) - (b.rank === null ? 1 : 0) ||
      Number(a.rank ?? 0) - Number(b.rank ?? 0) ||
      Number(a.work_id) - Number(b.work_id),
  );
  return toRows(db, c.id, list);
}

/** The last computation's fit per group, with the judges' names. */
export async function resultFit(db: Db, user: User, contestId: number): Promise<FitView> {
  const c = await requireManagedContest(db, user, contestId);
  const setting = await loadSetting(db, c.id);
  const fits = setting.fit ?? [];
  const names = await judgeNames(db, [...new Set(fits.flatMap((f) => f.judges.map((j) => j.judgeId)))]);
  const groupNames = await resultGroupNames(
    db,
    c.id,
    fits.map((f) => f.key),
  );
  return {
    model: SCORING_MODEL,
    version: SCORING_MODEL_VERSION,
    disagreementThreshold: setting.threshold,
    groups: fits.map((f) => ({
      key: f.key,
      name: groupNames.get(f.key) ?? f.key,
      basis: f.basis,
      fit: {
        method: f.fit.method,
        iterations: f.fit.iterations,
        residual: f.fit.residual,
        converged: f.fit.converged,
        components: f.fit.components,
        rmse: f.fit.rmse,
        scores: f.fit.scores,
        works: f.fit.works,
        judges: f.fit.judges,
        scoresDigest: f.fit.scoresDigest,
      },
      judges: f.judges
        .map((j) => ({ ...j, name: names.get(j.judgeId) ?? `评委 ${j.judgeId}` }))
        .sort((a, b) => a.effect - b.effect),
    })),
  };
}
