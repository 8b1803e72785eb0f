/**
 * The results of a contest (/ContestAdmin/ContestResult), for its admins and root; any other
 * contest answers 404. The decisions are the pure module ../results.ts; here they are
 * loaded, checked and stored, each use case in one transaction:
 *
 * - compute: the pool's works per result group, their submitted online scores (judge_score
 *   "submitted") normalised per group, the defence scores, ranks → contest_result (one row
 *   per work of the pool). Awards set by hand are kept; automatic awards and promotions are
 *   cleared only when the ranking changed. The options and the fit go to result_setting.
 * - allocate: the contest level's work awards per group over the ranking.
 * - patch: an award by hand (kept by later allocations) or back to the allocation; a
 *   promotion by hand within the quota.
 * - promote: the best awarded works within the contest's quota to its parent contest
 *   (recommend_quota in all, category_quotas per 大类). There is no flow that moves a
 *   provincial work into the national contest, so promotion marks the works (contest_result
 *   .promoted) and the national contest receives them from that list; for a school-level
 *   contest the school admin then recommends the marked works through the existing
 *   recommend flow, which checks the same quota.
 * - publish: refused while the scores changed since the computation (everything is
 *   recomputed and compared) or, unless confirmed, while works lack scores. Stores the model,
 *   its version, the options, per group the fit, the judges' effects and the scores it was
 *   fitted on (so normaliseScores on them gives the published scores again), and the head of
 *   the score log; the contest's publicity stage starts now (it is created, moved forward or
 *   reopened for 7 days as needed). The public work lookup shows the awards from then on.
 * - unpublish: the admin withdraws the publication with a reason (the row stays), the
 *   publicity stage gets back its earlier times if nobody changed them since; the results
 *   can then be computed and allocated again.
 * While a publication is in force every change of the results is refused.
 */
import { rm, readFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Transaction } from "kysely";
import { badRequest, conflict, notFound } from "../../../shared/errors";
import { CONTEST_LEVEL_NAMES } from "../../../shared/contest/stages";
import type {
  AllocateBody,
  AllocateOutcome,
  AwardLevelRef,
  Basis,
  ComputeBody,
  ComputeOutcome,
  ExtraJudgeBody,
  ExtraJudgeOutcome,
  ExtraJudgeProposal,
  FitView,
  PromoteBody,
  PromoteOutcome,
  PublicationView,
  PublishBody,
  ResultContestItem,
  ResultGroup,
  ResultPatch,
  ResultRow,
  ResultsOverview,
} from "../../../shared/judging/result-schema";
import { RECOMMENDATION_NAMES } from "../../../shared/judging/result-schema";
import type { Db } from "../../db";
import type { DB, User } from "../../db/schema";
import { record } from "../../crud/audit";
import { writeXlsx } from "../../crud/excel";
import { adminContestIds } from "../../scope";
import { lockContest, type Handle } from "../../work/repository";
import { minCostFlow } from "../assign";
import { allocateAwards, choosePromotions, computeGroup, groupKeyOf, type ComputedGroup } from "../results";
import { NORMALISE_DEFAULTS, SCORING_MODEL, SCORING_MODEL_VERSION, type ExtraJudgeRequest, type FitParameters, type Score } from "../scoring";
import { applyAssignments } from "./apply";
import { poolWorks, requireManagedContest, settingsOf, type ContestInfo } from "./contest";
import { scoreLogHead } from "./score-log-store";
import { loadSnapshot } from "./snapshot";

const DAY = 86_400_000;
/** A publicity period the publication opens when the contest has none running. */
export const PUBLICITY_DAYS = 7;
const CHUNK = 500;
const chunks = <T>(list: readonly T[], n = CHUNK) => Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));
/** Appends to the list of a key (created when missing). */
function push<K, V>(m: Map<K, V[]>, key: K, value: V) {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

export const PUBLISHED_REFUSAL = "本赛事的结果已发布，不能再修改；如需更正，请先撤回发布（须填写原因）";

/* ------------------------------------------------------------------ loading */

interface PoolWork {
  id: number;
  name: string;
  categoryId: number;
  categoryName: string;
  schoolName: string;
  groupId: number | null;
  key: string;
}

interface GroupMeta {
  key: string;
  groupId: number | null;
  categoryId: number;
  name: string;
}

interface Inputs {
  works: Map<number, PoolWork>;
  groups: Map<string, GroupMeta>;
  scores: Score[];
  assigned: Map<number, number>;
  defence: Map<number, { mean: number; count: number; strong: number; recommend: number; not: number }>;
}

interface Setting {
  threshold: number;
  basis: Record<string, Basis>;
  computedAt: string | null;
  computedBy: number | null;
  fit: StoredFit[] | null;
}

interface StoredFit {
  key: string;
  basis: Basis;
  fit: FitParameters;
  judges: { judgeId: number; count: number; mean: number; sd: number; effect: number; identified: boolean }[];
}

async function loadSetting(db: Handle, contestId: number): Promise<Setting> {
  const s = await db.selectFrom("result_setting").selectAll().where("contest_id", "=", contestId).executeTakeFirst();
  return {
    threshold: s ? Number(s.disagreement_threshold) : NORMALISE_DEFAULTS.disagreementThreshold,
    basis: s ? (JSON.parse(s.group_basis) as Record<string, Basis>) : {},
    computedAt: s?.computed_at ?? null,
    computedBy: s?.computed_by ?? null,
    fit: s?.fit ? (JSON.parse(s.fit) as StoredFit[]) : null,
  };
}

const categoryGroupName = (name: string) => `${name}（未分组作品）`;

/** The pool's works with their result group, the submitted scores, assignment counts and defence scores. */
async function loadInputs(db: Handle, c: ContestInfo): Promise<Inputs> {
  const pool = await poolWorks(db, c)
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .select(["work.id", "work.name", "work.category_id", "cat.name as category_name", "school.name as school_name"])
    .orderBy("work.id")
    .execute();
  const placed = new Map((await db.selectFrom("judge_group_work").select(["work_id", "group_id"]).where("contest_id", "=", c.id).execute()).map((r) => [Number(r.work_id), r.group_id]));
  const judgeGroups = new Map((await db.selectFrom("judge_group").select(["id", "name", "category_id"]).where("contest_id", "=", c.id).execute()).map((g) => [g.id, g]));
  const works = new Map<number, PoolWork>();
  const groups = new Map<string, GroupMeta>();
  for (const w of pool) {
    const id = Number(w.id);
    const gid = placed.get(id);
    const groupId = gid !== undefined && judgeGroups.has(gid) ? gid : null;
    const key = groupKeyOf(groupId, w.category_id);
    works.set(id, { id, name: w.name, categoryId: w.category_id, categoryName: w.category_name, schoolName: w.school_name, groupId, key });
    if (!groups.has(key)) {
      const g = groupId !== null ? judgeGroups.get(groupId)! : null;
      groups.set(key, { key, groupId, categoryId: g ? g.category_id : w.category_id, name: g ? g.name : categoryGroupName(w.category_name) });
    }
  }
  const scores = (
    await db.selectFrom("judge_score").select(["work_id", "judge_id", "total"]).where("contest_id", "=", c.id).where("status", "=", "submitted").where("total", "is not", null).execute()
  )
    .map((s) => ({ workId: Number(s.work_id), judgeId: s.judge_id, score: Number(s.total) }))
    .filter((s) => works.has(s.workId));
  const assigned = new Map<number, number>();
  for (const a of await db.selectFrom("judge_assignment").select("work_id").where("contest_id", "=", c.id).execute()) assigned.set(Number(a.work_id), (assigned.get(Number(a.work_id)) ?? 0) + 1);
  const defence = new Map<number, { mean: number; count: number; strong: number; recommend: number; not: number }>();
  const drows = await db
    .selectFrom("defence_score")
    .innerJoin("defence_slot", "defence_slot.id", "defence_score.slot_id")
    .innerJoin("defence_session", "defence_session.id", "defence_slot.session_id")
    .select(["defence_slot.work_id", "defence_score.score", "defence_score.recommendation"])
    .where("defence_session.contest_id", "=", c.id)
    .execute();
  for (const d of drows) {
    const id = Number(d.work_id);
    if (!works.has(id)) continue;
    const x = defence.get(id) ?? { mean: 0, count: 0, strong: 0, recommend: 0, not: 0 };
    x.mean += Number(d.score);
    x.count++;
    x[d.recommendation]++;
    defence.set(id, x);
  }
  for (const x of defence.values()) x.mean /= x.count;
  return { works, groups, scores, assigned, defence };
}

function computeAll(inputs: Inputs, threshold: number, basis: Record<string, Basis>): ComputedGroup[] {
  const byGroup = new Map<string, number[]>();
  for (const w of inputs.works.values()) push(byGroup, w.key, w.id);
  const scoresBy = new Map<string, Score[]>();
  for (const s of inputs.scores) {
    const key = inputs.works.get(s.workId)!.key;
    push(scoresBy, key, s);
  }
  return [...byGroup.keys()].sort().map((key) =>
    computeGroup({ key, workIds: byGroup.get(key)!, scores: scoresBy.get(key) ?? [], defence: inputs.defence, basis: basis[key] ?? "online" }, { disagreementThreshold: threshold }),
  );
}

/** The publication in force, if any. */
async function activePublication(db: Handle, contestId: number) {
  return db.selectFrom("result_publication").selectAll().where("contest_id", "=", contestId).where("withdrawn_at", "is", null).orderBy("id", "desc").limit(1).executeTakeFirst();
}

async function refuseIfPublished(db: Handle, contestId: number) {
  if (await activePublication(db, contestId)) throw conflict(PUBLISHED_REFUSAL);
}

async function workAwardLevels(db: Handle, level: ContestInfo["level"]): Promise<AwardLevelRef[]> {
  const rows = await db.selectFrom("award_level").select(["id", "name", "ratio", "max_count", "sort"]).where("contest_level", "=", level).where("kind", "=", "work").where("archived", "=", 0).orderBy("sort").orderBy("id").execute();
  return rows.map((r) => ({ id: r.id, name: r.name, ratio: r.ratio === null ? null : Number(r.ratio), maxCount: r.max_count, sort: r.sort }));
}

interface StoredRow {
  work_id: number;
  group_id: number | null;
  category_id: number;
  rank: number | null;
  raw_mean: number | null;
  normalised: number | null;
  judge_count: number;
  flagged: number;
  defence_mean: number | null;
  defence_count: number;
  award_level_id: number | null;
  award_manual: number;
  promoted: number;
}

async function storedRows(db: Handle, contestId: number): Promise<StoredRow[]> {
  const rows = await db
    .selectFrom("contest_result")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .select([
      "contest_result.work_id",
      "contest_result.group_id",
      "work.category_id",
      "contest_result.rank",
      "contest_result.raw_mean",
      "contest_result.normalised",
      "contest_result.judge_count",
      "contest_result.flagged",
      "contest_result.defence_mean",
      "contest_result.defence_count",
      "contest_result.award_level_id",
      "contest_result.award_manual",
      "contest_result.promoted",
    ])
    .where("contest_result.contest_id", "=", contestId)
    .execute();
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    ...r,
    work_id: Number(r.work_id),
    rank: num(r.rank),
    raw_mean: num(r.raw_mean),
    normalised: num(r.normalised),
    judge_count: Number(r.judge_count),
    flagged: Number(r.flagged),
    defence_mean: num(r.defence_mean),
    defence_count: Number(r.defence_count),
    award_manual: Number(r.award_manual),
    promoted: Number(r.promoted),
  }));
}

const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)));

/** Works whose stored result differs from the computed one (or that came or went). */
function changedWorks(stored: readonly StoredRow[], computed: readonly ComputedGroup[], works: Map<number, PoolWork>): number[] {
  const byWork = new Map(stored.map((r) => [r.work_id, r]));
  const out: number[] = [];
  const seen = new Set<number>();
  for (const g of computed) {
    for (const c of g.rows) {
      seen.add(c.workId);
      const s = byWork.get(c.workId);
      const w = works.get(c.workId)!;
      if (
        !s ||
        s.group_id !== w.groupId ||
        s.judge_count !== c.judgeCount ||
        !same(s.raw_mean, c.rawMean) ||
        !same(s.normalised, c.normalised) ||
        !same(s.defence_mean, c.defenceMean) ||
        s.rank !== c.rank ||
        !!s.flagged !== c.flagged
      ) out.push(c.workId);
    }
  }
  for (const s of stored) if (!seen.has(s.work_id)) out.push(s.work_id);
  return out;
}

/* ------------------------------------------------------------------ use cases */

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
    ? await db.selectFrom("result_publication").select(["contest_id", "published_at"]).where("withdrawn_at", "is", null).where("contest_id", "in", rows.map((r) => r.id)).execute()
    : [];
  const order = { national: 0, provincial: 1, school: 2 } as const;
  return rows
    .map((r) => ({ id: r.id, name: r.name, level: r.level, year: r.year, computedAt: r.computed_at ?? null, publishedAt: pubs.find((p) => p.contest_id === r.id)?.published_at ?? null }))
    .sort((a, b) => b.year - a.year || order[a.level] - order[b.level] || a.id - b.id);
}

export async function computeResults(db: Db, user: User, contestId: number, body: ComputeBody): Promise<ComputeOutcome & { awardsCleared: boolean }> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    await refuseIfPublished(trx, c.id);
    const setting = await loadSetting(trx, c.id);
    const threshold = body.disagreementThreshold ?? setting.threshold;
    const inputs = await loadInputs(trx, c);
    if (!inputs.works.size) throw badRequest("本赛事还没有参加评审的作品（省级及以上赛事须已通过形式审查）");
    const basis: Record<string, Basis> = {};
    for (const [key, b] of Object.entries({ ...setting.basis, ...(body.basis ?? {}) })) {
      if (b !== "defence") continue;
      const g = inputs.groups.get(key);
      if (!g) {
        if (body.basis?.[key]) throw badRequest(`结果分组 ${key} 不存在或没有作品`);
        continue;
      }
      const withDefence = [...inputs.works.values()].some((w) => w.key === key && inputs.defence.has(w.id));
      if (!withDefence) {
        if (body.basis?.[key]) throw badRequest(`「${g.name}」还没有答辩成绩，不能按答辩成绩排名`);
        continue;
      }
      basis[key] = "defence";
    }
    const groups = computeAll(inputs, threshold, basis);
    const stored = await storedRows(trx, c.id);
    const rankingChanged = changedWorks(stored, groups, inputs.works).length > 0;
    const keep = new Map(stored.map((r) => [r.work_id, r]));
    const at = new Date().toISOString();
    let manualKept = 0;
    const rows = groups.flatMap((g) =>
      g.rows.map((r) => {
        const before = keep.get(r.workId);
        const manual = !!before?.award_manual;
        if (manual) manualKept++;
        const keepAuto = !rankingChanged && !!before;
        return {
          contest_id: c.id,
          work_id: r.workId,
          group_id: inputs.works.get(r.workId)!.groupId,
          raw_mean: r.rawMean,
          normalised: r.normalised,
          judge_count: r.judgeCount,
          spread: r.spread,
          flagged: r.flagged ? 1 : 0,
          rank: r.rank,
          award_level_id: manual || keepAuto ? (before?.award_level_id ?? null) : null,
          award_manual: manual ? 1 : 0,
          promoted: keepAuto ? (before?.promoted ?? 0) : 0,
          defence_mean: r.defenceMean,
          defence_count: r.defenceCount,
          updated_at: at,
        };
      }),
    );
    await trx.deleteFrom("contest_result").where("contest_id", "=", c.id).execute();
    for (const part of chunks(rows)) await trx.insertInto("contest_result").values(part).execute();

    const fit: StoredFit[] = groups.map((g) => ({ key: g.key, basis: g.basis, fit: g.fit, judges: g.judges.map((j) => ({ judgeId: j.judgeId, count: j.count, mean: j.mean, sd: j.sd, effect: j.effect, identified: j.identified })) }));
    const values = { disagreement_threshold: threshold, group_basis: JSON.stringify(basis), fit: JSON.stringify(fit), computed_at: at, computed_by: user.id, updated_at: at };
    await trx.insertInto("result_setting").values({ contest_id: c.id, ...values }).onConflict((oc) => oc.column("contest_id").doUpdateSet(values)).execute();

    const needed = (await settingsOf(trx, c.id)).reviewsPerWork;
    const incomplete = rows.filter((r) => r.judge_count < Math.max(needed, inputs.assigned.get(r.work_id) ?? 0)).length;
    const outcome = {
      works: rows.length,
      ranked: rows.filter((r) => r.rank !== null).length,
      unscored: rows.filter((r) => r.judge_count === 0).length,
      flagged: rows.filter((r) => r.flagged).length,
      incomplete,
      groups: groups.length,
      manualKept,
      awardsCleared: rankingChanged && stored.some((r) => (r.award_level_id !== null && !r.award_manual) || r.promoted),
    };
    await record(trx, user.id, { entity: "contest_result", entityId: c.id, action: "compute", changes: { threshold: [setting.threshold, threshold], basis: [setting.basis, basis], works: [stored.length, rows.length] } });
    return outcome;
  });
}

/** Result groups with their counts, the options, the publications and the quota. */
export async function resultsOverview(db: Db, user: User, contestId: number): Promise<ResultsOverview> {
  const c = await requireManagedContest(db, user, contestId);
  const contest = await db.selectFrom("contest").select(["id", "name", "level", "year", "parent_id", "recommend_quota", "category_quotas"]).where("id", "=", c.id).executeTakeFirstOrThrow();
  const setting = await loadSetting(db, c.id);
  const needed = (await settingsOf(db, c.id)).reviewsPerWork;
  const levels = await workAwardLevels(db, c.level);
  const rows = await storedRows(db, c.id);
  const assigned = await assignedCounts(db, c.id);
  const groupNames = new Map((await db.selectFrom("judge_group").select(["id", "name", "category_id"]).where("contest_id", "=", c.id).execute()).map((g) => [g.id, g]));
  const catIds = [...new Set(rows.map((r) => r.category_id))];
  const quotas = JSON.parse(contest.category_quotas) as Record<string, number>;
  const quotaCats = Object.keys(quotas).map(Number);
  const cats = new Map(
    (catIds.length || quotaCats.length ? await db.selectFrom("work_category").select(["id", "name"]).where("id", "in", [...new Set([...catIds, ...quotaCats])]).execute() : []).map((x) => [x.id, x.name]),
  );
  const levelName = new Map(levels.map((l) => [l.id, l.name]));
  const groups = new Map<string, ResultGroup>();
  for (const r of rows) {
    const groupId = r.group_id !== null && groupNames.has(r.group_id) ? r.group_id : null;
    const key = groupKeyOf(groupId, r.category_id);
    let g = groups.get(key);
    if (!g) {
      const jg = groupId !== null ? groupNames.get(groupId)! : null;
      g = {
        key,
        groupId,
        categoryId: jg ? jg.category_id : r.category_id,
        name: jg ? jg.name : categoryGroupName(cats.get(r.category_id) ?? `大类 ${r.category_id}`),
        basis: setting.basis[key] ?? "online",
        works: 0,
        ranked: 0,
        flagged: 0,
        incomplete: 0,
        withDefence: 0,
        awards: [],
        promoted: 0,
      };
      groups.set(key, g);
    }
    g.works++;
    if (r.rank !== null) g.ranked++;
    if (r.flagged) g.flagged++;
    if (r.judge_count < Math.max(needed, assigned.get(r.work_id) ?? 0)) g.incomplete++;
    if (r.defence_count > 0) g.withDefence++;
    if (r.promoted) g.promoted++;
    if (r.award_level_id !== null) {
      const a = g.awards.find((x) => x.awardLevelId === r.award_level_id);
      if (a) a.count++;
      else g.awards.push({ awardLevelId: r.award_level_id, name: levelName.get(r.award_level_id) ?? "", count: 1 });
    }
  }
  const sortOf = new Map(levels.map((l) => [l.id, l.sort]));
  for (const g of groups.values()) g.awards.sort((a, b) => (sortOf.get(a.awardLevelId) ?? 99) - (sortOf.get(b.awardLevelId) ?? 99));
  const pubs = await publications(db, c.id);
  const parent = contest.parent_id ? await db.selectFrom("contest").select("name").where("id", "=", contest.parent_id).executeTakeFirst() : undefined;
  const promotedBy = new Map<number, number>();
  for (const r of rows) if (r.promoted) promotedBy.set(r.category_id, (promotedBy.get(r.category_id) ?? 0) + 1);
  const computedBy = setting.computedBy !== null ? await db.selectFrom("app_user").select("name").where("id", "=", setting.computedBy).executeTakeFirst() : undefined;
  const list = [...groups.values()].sort((a, b) => a.categoryId - b.categoryId || (a.groupId ?? Number.MAX_SAFE_INTEGER) - (b.groupId ?? Number.MAX_SAFE_INTEGER));
  return {
    contest: { id: contest.id, name: contest.name, level: contest.level, year: contest.year },
    computedAt: setting.computedAt,
    computedBy: computedBy?.name ?? null,
    disagreementThreshold: setting.threshold,
    reviewsPerWork: needed,
    published: pubs.find((p) => !p.withdrawnAt) ?? null,
    history: pubs,
    groups: list,
    awardLevels: levels,
    quota: {
      parentName: parent?.name ?? null,
      total: contest.recommend_quota,
      promoted: rows.filter((r) => r.promoted).length,
      categories: [...new Set([...quotaCats, ...promotedBy.keys()])].sort((a, b) => a - b).map((id) => ({ categoryId: id, name: cats.get(id) ?? `大类 ${id}`, quota: quotas[String(id)] ?? null, promoted: promotedBy.get(id) ?? 0 })),
    },
    totals: {
      works: rows.length,
      ranked: rows.filter((r) => r.rank !== null).length,
      flagged: rows.filter((r) => r.flagged).length,
      incomplete: list.reduce((s, g) => s + g.incomplete, 0),
      awarded: rows.filter((r) => r.award_level_id !== null).length,
      promoted: rows.filter((r) => r.promoted).length,
    },
  };
}

async function assignedCounts(db: Handle, contestId: number, workIds?: number[]) {
  const out = new Map<number, number>();
  const run = async (ids?: number[]) => {
    let q = db.selectFrom("judge_assignment").select(["work_id", (eb) => eb.fn.countAll<number>().as("n")]).where("contest_id", "=", contestId);
    if (ids) q = q.where("work_id", "in", ids);
    for (const r of await q.groupBy("work_id").execute()) out.set(Number(r.work_id), Number(r.n));
  };
  if (workIds) for (const part of chunks(workIds)) await run(part);
  else await run();
  return out;
}

async function publications(db: Handle, contestId: number): Promise<PublicationView[]> {
  const rows = await db
    .selectFrom("result_publication")
    .innerJoin("app_user as p", "p.id", "result_publication.published_by")
    .leftJoin("app_user as w", "w.id", "result_publication.withdrawn_by")
    .select([
      "result_publication.id",
      "result_publication.published_at",
      "p.name as published_by",
      "result_publication.model",
      "result_publication.model_version",
      "result_publication.log_head",
      "result_publication.log_seq",
      "result_publication.note",
      "result_publication.withdrawn_at",
      "w.name as withdrawn_by",
      "result_publication.withdraw_reason",
    ])
    .where("result_publication.contest_id", "=", contestId)
    .orderBy("result_publication.id", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    publishedAt: r.published_at,
    publishedBy: r.published_by,
    model: r.model,
    modelVersion: Number(r.model_version),
    logHead: r.log_head,
    logSeq: Number(r.log_seq),
    note: r.note,
    withdrawnAt: r.withdrawn_at,
    withdrawnBy: r.withdrawn_by ?? null,
    withdrawReason: r.withdraw_reason,
  }));
}

/** Parses a group key; the rows of that group are filtered by it. */
function parseKey(key: string): { groupId: number } | { categoryId: number } {
  const n = Number(key.slice(1));
  return key.startsWith("g") ? { groupId: n } : { categoryId: n };
}

const rowQuery = (db: Handle, contestId: number) =>
  db
    .selectFrom("contest_result")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .leftJoin("judge_group", "judge_group.id", "contest_result.group_id")
    .select([
      "contest_result.work_id",
      "work.name as work_name",
      "school.name as school_name",
      "cat.name as category_name",
      "work.category_id",
      "contest_result.group_id",
      "judge_group.name as group_name",
      "contest_result.rank",
      "contest_result.judge_count",
      "contest_result.raw_mean",
      "contest_result.normalised",
      "contest_result.spread",
      "contest_result.flagged",
      "contest_result.defence_mean",
      "contest_result.defence_count",
      "contest_result.award_level_id",
      "award_level.name as award_name",
      "contest_result.award_manual",
      "contest_result.promoted",
    ])
    .where("contest_result.contest_id", "=", contestId);

type RowRecord = Awaited<ReturnType<ReturnType<typeof rowQuery>["execute"]>>[number];

async function toRows(db: Handle, contestId: number, list: RowRecord[]): Promise<ResultRow[]> {
  const ids = list.map((r) => Number(r.work_id));
  const needed = (await settingsOf(db, contestId)).reviewsPerWork;
  const assigned = await assignedCounts(db, contestId, ids);
  const recs = new Map<number, { strong: number; recommend: number; not: number }>();
  for (const part of chunks(ids)) {
    const d = await db
      .selectFrom("defence_score")
      .innerJoin("defence_slot", "defence_slot.id", "defence_score.slot_id")
      .innerJoin("defence_session", "defence_session.id", "defence_slot.session_id")
      .select(["defence_slot.work_id", "defence_score.recommendation"])
      .where("defence_session.contest_id", "=", contestId)
      .where("defence_slot.work_id", "in", part)
      .execute();
    for (const x of d) {
      const r = recs.get(Number(x.work_id)) ?? { strong: 0, recommend: 0, not: 0 };
      r[x.recommendation]++;
      recs.set(Number(x.work_id), r);
    }
  }
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return list.map((r) => {
    const id = Number(r.work_id);
    const judgeCount = Number(r.judge_count);
    const a = assigned.get(id) ?? 0;
    return {
      workId: id,
      workName: r.work_name,
      schoolName: r.school_name,
      categoryName: r.category_name,
      rank: num(r.rank),
      judgeCount,
      assigned: a,
      rawMean: num(r.raw_mean),
      normalised: num(r.normalised),
      spread: num(r.spread),
      flagged: !!Number(r.flagged),
      incomplete: judgeCount < Math.max(needed, a),
      defenceMean: num(r.defence_mean),
      defenceCount: Number(r.defence_count),
      recommendations: recs.get(id) ?? { strong: 0, recommend: 0, not: 0 },
      award: r.award_level_id !== null ? { id: r.award_level_id, name: r.award_name ?? "" } : null,
      awardManual: !!Number(r.award_manual),
      promoted: !!Number(r.promoted),
    };
  });
}

/** One group's ranking: ranked works by rank, then the unranked, by work id. */
export async function groupRanking(db: Db, user: User, contestId: number, key: string): Promise<ResultRow[]> {
  const c = await requireManagedContest(db, user, contestId);
  const k = parseKey(key);
  let q = rowQuery(db, c.id);
  q = "groupId" in k ? q.where("contest_result.group_id", "=", k.groupId) : q.where("contest_result.group_id", "is", null).where("work.category_id", "=", k.categoryId);
  const list = (await q.execute()).sort((a, b) => (a.rank === null ? 1 : 0) - (b.rank === null ? 1 : 0) || Number(a.rank ?? 0) - Number(b.rank ?? 0) || Number(a.work_id) - Number(b.work_id));
  return toRows(db, c.id, list);
}

/** The last computation's fit per group, with the judges' names. */
export async function resultFit(db: Db, user: User, contestId: number): Promise<FitView> {
  const c = await requireManagedContest(db, user, contestId);
  const setting = await loadSetting(db, c.id);
  const fits = setting.fit ?? [];
  const judgeIds = [...new Set(fits.flatMap((f) => f.judges.map((j) => j.judgeId)))];
  const names = new Map<number, string>();
  for (const part of chunks(judgeIds)) for (const u of await db.selectFrom("app_user").select(["id", "name"]).where("id", "in", part).execute()) names.set(u.id, u.name);
  const groupNames = await resultGroupNames(db, c.id, fits.map((f) => f.key));
  return {
    model: SCORING_MODEL,
    version: SCORING_MODEL_VERSION,
    disagreementThreshold: setting.threshold,
    groups: fits.map((f) => ({
      key: f.key,
      name: groupNames.get(f.key) ?? f.key,
      basis: f.basis,
      fit: { method: f.fit.method, iterations: f.fit.iterations, residual: f.fit.residual, converged: f.fit.converged, components: f.fit.components, rmse: f.fit.rmse, scores: f.fit.scores, works: f.fit.works, judges: f.fit.judges, scoresDigest: f.fit.scoresDigest },
      judges: f.judges.map((j) => ({ ...j, name: names.get(j.judgeId) ?? `评委 ${j.judgeId}` })).sort((a, b) => a.effect - b.effect),
    })),
  };
}

async function resultGroupNames(db: Handle, contestId: number, keys: string[]) {
  const out = new Map<string, string>();
  const gids = keys.filter((k) => k.startsWith("g")).map((k) => Number(k.slice(1)));
  const cids = keys.filter((k) => k.startsWith("c")).map((k) => Number(k.slice(1)));
  if (gids.length) for (const g of await db.selectFrom("judge_group").select(["id", "name"]).where("contest_id", "=", contestId).where("id", "in", gids).execute()) out.set(`g${g.id}`, g.name);
  if (cids.length) for (const x of await db.selectFrom("work_category").select(["id", "name"]).where("id", "in", cids).execute()) out.set(`c${x.id}`, categoryGroupName(x.name));
  return out;
}

const keyOfRow = (r: { group_id: number | null; category_id: number }) => groupKeyOf(r.group_id, r.category_id);

export async function allocateResults(db: Db, user: User, contestId: number, body: AllocateBody): Promise<AllocateOutcome> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    await refuseIfPublished(trx, c.id);
    const rows = await storedRows(trx, c.id);
    if (!rows.length) throw badRequest("请先计算成绩，再分配奖项");
    const levels = await workAwardLevels(trx, c.level);
    const rules = levels.filter((l) => l.ratio !== null || l.maxCount !== null);
    if (!rules.length) throw badRequest(`${CONTEST_LEVEL_NAMES[c.level]}的作品奖项都没有设置比例或名额，请在奖项管理中设置后再分配，或逐件手动设置`);
    const byGroup = new Map<string, StoredRow[]>();
    for (const r of rows) push(byGroup, keyOfRow(r), r);
    const wanted = body.groups?.length ? body.groups : [...byGroup.keys()];
    for (const k of wanted) if (!byGroup.has(k)) throw badRequest(`结果分组 ${k} 不存在，请刷新后重试`);
    const names = await resultGroupNames(trx, c.id, wanted);
    const levelName = new Map(levels.map((l) => [l.id, l.name]));
    const at = new Date().toISOString();
    const out: AllocateOutcome = { groups: [], manualKept: 0, manualOnly: levels.filter((l) => l.ratio === null && l.maxCount === null).map((l) => l.name) };
    let changed = 0;
    for (const key of wanted.sort()) {
      const list = byGroup.get(key)!;
      const alloc = allocateAwards(list.map((r) => ({ workId: r.work_id, rank: r.rank, manual: !!r.award_manual, awardLevelId: r.award_level_id })), rules);
      out.manualKept += list.filter((r) => r.award_manual).length;
      const updates = new Map<number | null, number[]>();
      for (const r of list) {
        if (r.award_manual) continue;
        const award = alloc.get(r.work_id) ?? null;
        if (award === r.award_level_id) continue;
        push(updates, award, r.work_id);
        changed++;
      }
      for (const [award, ids] of updates) {
        for (const part of chunks(ids)) {
          await trx
            .updateTable("contest_result")
            .set({ award_level_id: award, updated_at: at, ...(award === null ? { promoted: 0 } : {}) })
            .where("contest_id", "=", c.id)
            .where("work_id", "in", part)
            .where("award_manual", "=", 0)
            .execute();
        }
      }
      const counts = new Map<number, number>();
      for (const r of list) {
        const a = r.award_manual ? r.award_level_id : (alloc.get(r.work_id) ?? null);
        if (a !== null) counts.set(a, (counts.get(a) ?? 0) + 1);
      }
      out.groups.push({
        key,
        name: names.get(key) ?? key,
        works: list.length,
        awards: levels.filter((l) => counts.has(l.id)).map((l) => ({ awardLevelId: l.id, name: levelName.get(l.id)!, count: counts.get(l.id)! })),
      });
    }
    await record(trx, user.id, { entity: "contest_result", entityId: c.id, action: "allocate", changes: { groups: [null, wanted], changed: [null, changed] } });
    return out;
  });
}

async function quotaState(db: Handle, contestId: number) {
  const contest = await db.selectFrom("contest").select(["level", "parent_id", "recommend_quota", "category_quotas"]).where("id", "=", contestId).executeTakeFirstOrThrow();
  const parent = contest.parent_id ? await db.selectFrom("contest").select(["id", "name"]).where("id", "=", contest.parent_id).executeTakeFirst() : undefined;
  return { parent, total: contest.recommend_quota, perCategory: JSON.parse(contest.category_quotas) as Record<string, number> };
}

const NO_PARENT = "国赛是最高级别的赛事，没有可晋级的上级赛事";

export async function patchResult(db: Db, user: User, contestId: number, workId: number, body: ResultPatch): Promise<ResultRow> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    await refuseIfPublished(trx, c.id);
    const row = (await storedRows(trx, c.id)).find((r) => r.work_id === workId);
    if (!row) throw notFound(`作品 ${workId} 没有本赛事的成绩记录，请先计算成绩`);
    if (body.awardLevelId === undefined && body.manual === undefined && body.promoted === undefined) throw badRequest("请指定要修改的奖项或晋级");
    const set: { award_level_id?: number | null; award_manual?: number; promoted?: number; updated_at: string } = { updated_at: new Date().toISOString() };
    const changes: Record<string, [unknown, unknown]> = {};
    if (body.awardLevelId !== undefined) {
      if (body.awardLevelId !== null) {
        const levels = await workAwardLevels(trx, c.level);
        if (!levels.some((l) => l.id === body.awardLevelId)) throw badRequest(`奖项 ${body.awardLevelId} 不是${CONTEST_LEVEL_NAMES[c.level]}的作品奖项`);
      }
      set.award_level_id = body.awardLevelId;
      set.award_manual = 1;
      changes.award = [row.award_level_id, body.awardLevelId];
      changes.manual = [row.award_manual, 1];
    } else if (body.manual === false) {
      set.award_level_id = null;
      set.award_manual = 0;
      changes.award = [row.award_level_id, null];
      changes.manual = [row.award_manual, 0];
    }
    if (body.promoted !== undefined && body.promoted !== !!row.promoted) {
      if (body.promoted) {
        const q = await quotaState(trx, c.id);
        if (!q.parent) throw badRequest(NO_PARENT);
        if (row.rank === null) throw badRequest(`作品 ${workId} 没有成绩排名，不能晋级`);
        const rows = await storedRows(trx, c.id);
        const promoted = rows.filter((r) => r.promoted);
        if (q.total !== null && promoted.length >= q.total) throw badRequest(`晋级名额已用完（共 ${q.total} 个，已晋级 ${promoted.length} 件）`);
        const cap = q.perCategory[String(row.category_id)];
        const inCat = promoted.filter((r) => r.category_id === row.category_id).length;
        if (cap !== undefined && inCat >= cap) {
          const cat = await trx.selectFrom("work_category").select("name").where("id", "=", row.category_id).executeTakeFirst();
          throw badRequest(`大类「${cat?.name ?? row.category_id}」的晋级名额已用完（共 ${cap} 个，已晋级 ${inCat} 件）`);
        }
      }
      set.promoted = body.promoted ? 1 : 0;
      changes.promoted = [row.promoted, set.promoted];
    }
    await trx.updateTable("contest_result").set(set).where("contest_id", "=", c.id).where("work_id", "=", workId).execute();
    await record(trx, user.id, { entity: "contest_result", entityId: `${c.id}:${workId}`, action: "update", changes });
    return (await toRows(trx, c.id, await rowQuery(trx, c.id).where("contest_result.work_id", "=", workId).execute()))[0];
  });
}

export async function promoteResults(db: Db, user: User, contestId: number, body: PromoteBody): Promise<PromoteOutcome> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    await refuseIfPublished(trx, c.id);
    const q = await quotaState(trx, c.id);
    if (!q.parent) throw badRequest(NO_PARENT);
    const rows = await storedRows(trx, c.id);
    if (!rows.length) throw badRequest("请先计算成绩并分配奖项，再推荐晋级");
    const levels = await workAwardLevels(trx, c.level);
    const sortOf = new Map(levels.map((l) => [l.id, l.sort]));
    let lowest = Number.POSITIVE_INFINITY;
    if (body.lowestAwardLevelId !== undefined) {
      const l = levels.find((x) => x.id === body.lowestAwardLevelId);
      if (!l) throw badRequest(`奖项 ${body.lowestAwardLevelId} 不是${CONTEST_LEVEL_NAMES[c.level]}的作品奖项`);
      lowest = l.sort;
    }
    const size = new Map<string, number>();
    for (const r of rows) size.set(keyOfRow(r), (size.get(keyOfRow(r)) ?? 0) + 1);
    const candidates = rows
      .filter((r) => r.award_level_id !== null && r.rank !== null && sortOf.has(r.award_level_id) && sortOf.get(r.award_level_id)! <= lowest)
      .map((r) => ({ workId: r.work_id, categoryId: r.category_id, awardSort: sortOf.get(r.award_level_id!)!, rank: r.rank!, groupSize: size.get(keyOfRow(r))!, score: Number(r.normalised ?? r.defence_mean ?? 0) }));
    if (!candidates.length) throw badRequest(rows.some((r) => r.award_level_id !== null) ? "没有符合条件的获奖作品可以晋级" : "请先分配奖项，再推荐晋级");
    const choice = choosePromotions(candidates, q.total, q.perCategory);
    const at = new Date().toISOString();
    await trx.updateTable("contest_result").set({ promoted: 0, updated_at: at }).where("contest_id", "=", c.id).where("promoted", "=", 1).execute();
    for (const part of chunks(choice.promoted)) await trx.updateTable("contest_result").set({ promoted: 1, updated_at: at }).where("contest_id", "=", c.id).where("work_id", "in", part).execute();
    const catIds = [...new Set(candidates.map((x) => x.categoryId))];
    const names = new Map((await trx.selectFrom("work_category").select(["id", "name"]).where("id", "in", catIds).execute()).map((x) => [x.id, x.name]));
    const chosen = new Set(choice.promoted);
    await record(trx, user.id, { entity: "contest_result", entityId: c.id, action: "promote", changes: { promoted: [null, choice.promoted.length <= 50 ? choice.promoted : `${choice.promoted.length} 件`] } });
    return {
      parentName: q.parent.name,
      total: q.total,
      candidates: candidates.length,
      promoted: choice.promoted.length,
      notFitting: choice.left.length,
      categories: catIds.sort((a, b) => a - b).map((id) => ({
        categoryId: id,
        name: names.get(id) ?? `大类 ${id}`,
        quota: q.perCategory[String(id)] ?? null,
        candidates: candidates.filter((x) => x.categoryId === id).length,
        promoted: candidates.filter((x) => x.categoryId === id && chosen.has(x.workId)).length,
      })),
    };
  });
}

/** What a publication stores in params: enough to recompute every published score. */
export interface PublishedParams {
  model: string;
  version: number;
  options: { disagreementThreshold: number; tolerance: number; maxIterations: number; center: string };
  groups: {
    key: string;
    name: string;
    basis: Basis;
    fit: FitParameters;
    judges: { judgeId: number; effect: number; count: number }[];
    /** [workId, judgeId, score] */
    scores: [number, number, number][];
  }[];
  /** the publicity stage before and after the publication (null: not changed) */
  publicity: { before: { startsAt: string; endsAt: string } | null; after: { startsAt: string; endsAt: string } } | null;
}

async function openPublicity(trx: Transaction<DB>, contestId: number, now: Date): Promise<PublishedParams["publicity"]> {
  const stage = await trx.selectFrom("contest_stage").select(["id", "starts_at", "ends_at"]).where("contest_id", "=", contestId).where("stage", "=", "publicity").executeTakeFirst();
  const t = now.getTime();
  const startsAt = now.toISOString();
  const week = new Date(t + PUBLICITY_DAYS * DAY).toISOString();
  if (!stage) {
    await trx.insertInto("contest_stage").values({ contest_id: contestId, stage: "publicity", starts_at: startsAt, ends_at: week }).execute();
    return { before: null, after: { startsAt, endsAt: week } };
  }
  const before = { startsAt: stage.starts_at, endsAt: stage.ends_at };
  if (Date.parse(stage.starts_at) <= t && t < Date.parse(stage.ends_at)) return null;
  const after = { startsAt, endsAt: Date.parse(stage.ends_at) > t ? stage.ends_at : week };
  await trx.updateTable("contest_stage").set({ starts_at: after.startsAt, ends_at: after.endsAt }).where("id", "=", stage.id).execute();
  return { before, after };
}

export async function publishResults(db: Db, user: User, contestId: number, body: PublishBody): Promise<PublicationView> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    await refuseIfPublished(trx, c.id);
    const setting = await loadSetting(trx, c.id);
    const stored = await storedRows(trx, c.id);
    if (!stored.length || !setting.computedAt) throw badRequest("请先计算成绩并分配奖项，再发布结果");
    const inputs = await loadInputs(trx, c);
    const groups = computeAll(inputs, setting.threshold, setting.basis);
    const changed = changedWorks(stored, groups, inputs.works);
    if (changed.length) throw conflict(`计算成绩之后评分有变化（${changed.length} 件作品，如作品 ${changed.slice(0, 3).join("、")}），请重新计算成绩并核对奖项后再发布`);
    if (!stored.some((r) => r.award_level_id !== null)) throw badRequest("还没有作品获奖，请先分配奖项再发布结果");
    const needed = (await settingsOf(trx, c.id)).reviewsPerWork;
    const incomplete = stored.filter((r) => r.judge_count < Math.max(needed, inputs.assigned.get(r.work_id) ?? 0));
    if (incomplete.length && !body.confirmIncomplete) {
      throw badRequest(`有 ${incomplete.length} 件作品的网评评分未完成（如作品 ${incomplete.slice(0, 3).map((r) => r.work_id).join("、")}）；确认仍要发布请勾选“评分未完成时仍发布”`);
    }
    const names = await resultGroupNames(trx, c.id, groups.map((g) => g.key));
    const now = new Date();
    const publicity = await openPublicity(trx, c.id, now);
    const scoresBy = new Map<string, [number, number, number][]>();
    for (const s of [...inputs.scores].sort((a, b) => a.workId - b.workId || a.judgeId - b.judgeId)) {
      const key = inputs.works.get(s.workId)!.key;
      push(scoresBy, key, [s.workId, s.judgeId, s.score]);
    }
    const params: PublishedParams = {
      model: SCORING_MODEL,
      version: SCORING_MODEL_VERSION,
      options: { disagreementThreshold: setting.threshold, tolerance: NORMALISE_DEFAULTS.tolerance, maxIterations: NORMALISE_DEFAULTS.maxIterations, center: NORMALISE_DEFAULTS.center },
      groups: groups.map((g) => ({ key: g.key, name: names.get(g.key) ?? g.key, basis: g.basis, fit: g.fit, judges: g.judges.map((j) => ({ judgeId: j.judgeId, effect: j.effect, count: j.count })), scores: scoresBy.get(g.key) ?? [] })),
      publicity,
    };
    const head = await scoreLogHead(trx, c.id);
    const row = await trx
      .insertInto("result_publication")
      .values({ contest_id: c.id, published_at: now.toISOString(), published_by: user.id, model: SCORING_MODEL, model_version: SCORING_MODEL_VERSION, params: JSON.stringify(params), log_head: head.hash, log_seq: head.seq, note: body.note?.trim() || null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await record(trx, user.id, { entity: "result_publication", entityId: row.id, action: "publish", changes: { contest: [null, c.id], logHead: [null, head.hash], logSeq: [null, head.seq], publicity: [publicity?.before ?? null, publicity?.after ?? null] } });
    return (await publications(trx, c.id)).find((p) => p.id === row.id)!;
  });
}

export async function unpublishResults(db: Db, user: User, contestId: number, reason: string): Promise<PublicationView> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    const pub = await activePublication(trx, c.id);
    if (!pub) throw badRequest("本赛事的结果尚未发布，无需撤回");
    const text = reason.trim();
    if (text.length < 2) throw badRequest("请填写撤回发布的原因");
    const at = new Date().toISOString();
    await trx.updateTable("result_publication").set({ withdrawn_at: at, withdrawn_by: user.id, withdraw_reason: text }).where("id", "=", pub.id).execute();
    const params = JSON.parse(pub.params) as PublishedParams;
    if (params.publicity) {
      const stage = await trx.selectFrom("contest_stage").select(["id", "starts_at", "ends_at"]).where("contest_id", "=", c.id).where("stage", "=", "publicity").executeTakeFirst();
      // Only when nobody changed the stage since the publication set it.
      if (stage && stage.starts_at === params.publicity.after.startsAt && stage.ends_at === params.publicity.after.endsAt) {
        const before = params.publicity.before;
        if (before) await trx.updateTable("contest_stage").set({ starts_at: before.startsAt, ends_at: before.endsAt }).where("id", "=", stage.id).execute();
        else await trx.deleteFrom("contest_stage").where("id", "=", stage.id).execute();
      }
    }
    await record(trx, user.id, { entity: "result_publication", entityId: pub.id, action: "withdraw", changes: { withdrawn: [null, at], reason: [null, text] } });
    return (await publications(trx, c.id)).find((p) => p.id === pub.id)!;
  });
}

/** The stored params of a publication (for the reproduction check and audits). */
export async function publicationParams(db: Handle, publicationId: number): Promise<PublishedParams> {
  const row = await db.selectFrom("result_publication").select("params").where("id", "=", publicationId).executeTakeFirstOrThrow();
  return JSON.parse(row.params) as PublishedParams;
}

/**
 * The award shown by the public work lookup: the published awards of the work (in contests
 * whose publication is in force), highest contest level first, e.g. "省赛一等奖，推荐晋级国赛";
 * null when none.
 */
export async function publishedAward(db: Handle, workId: number): Promise<string | null> {
  const rows = await db
    .selectFrom("contest_result")
    .innerJoin("contest", "contest.id", "contest_result.contest_id")
    .leftJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .leftJoin("contest as parent", "parent.id", "contest.parent_id")
    .select(["contest.level", "award_level.name as award", "contest_result.promoted", "parent.level as parent_level"])
    .where("contest_result.work_id", "=", workId)
    .where((eb) => eb.or([eb("contest_result.award_level_id", "is not", null), eb("contest_result.promoted", "=", 1)]))
    .where((eb) => eb.exists(eb.selectFrom("result_publication").select("result_publication.id").whereRef("result_publication.contest_id", "=", "contest_result.contest_id").where("result_publication.withdrawn_at", "is", null)))
    .execute();
  if (!rows.length) return null;
  const order = { national: 0, provincial: 1, school: 2 } as const;
  return rows
    .sort((a, b) => order[a.level] - order[b.level])
    .map((r) => {
      const parts = [r.award ? `${CONTEST_LEVEL_NAMES[r.level]}${r.award}` : null, Number(r.promoted) && r.parent_level ? `推荐晋级${CONTEST_LEVEL_NAMES[r.parent_level]}` : null].filter(Boolean);
      return parts.join("，");
    })
    .join("；");
}

/* ------------------------------------------------------------------ extra judges */

async function judgeNames(db: Handle, ids: number[]) {
  const out = new Map<number, string>();
  for (const part of chunks(ids)) for (const u of await db.selectFrom("app_user").select(["id", "name"]).where("id", "in", part).execute()) out.set(u.id, u.name);
  return out;
}

/** Flagged works: their judges and the conflict-free judge the assigner would add (or why none). */
export async function extraJudgeProposals(db: Db, user: User, contestId: number): Promise<ExtraJudgeProposal[]> {
  const c = await requireManagedContest(db, user, contestId);
  const flagged = await rowQuery(db, c.id).where("contest_result.flagged", "=", 1).orderBy("contest_result.work_id").execute();
  if (!flagged.length) return [];
  const ids = flagged.map((r) => Number(r.work_id));
  const settings = await settingsOf(db, c.id);
  const snap = await loadSnapshot(db, c, settings, ids);
  const requests: ExtraJudgeRequest[] = [];
  const pending = new Map<number, string>();
  for (const r of flagged) {
    const id = Number(r.work_id);
    const w = snap.input.works.find((x) => x.id === id);
    const existing = [...(w?.existingJudgeIds ?? [])];
    if (!w) pending.set(id, "作品已不在本赛事的评审作品中");
    else if (existing.length > Number(r.judge_count)) pending.set(id, `已有 ${existing.length - Number(r.judge_count)} 位评委尚未提交评分，请等待评分后重新计算`);
    else requests.push({ workId: id, existingJudgeIds: existing, needed: existing.length + 1 });
  }
  const need = new Map(requests.map((q) => [q.workId, q.needed]));
  const input = { ...snap.input, works: snap.input.works.filter((w) => need.has(w.id)).map((w) => ({ ...w, needed: need.get(w.id)! })) };
  const proposal = input.works.length ? minCostFlow.propose(input, minCostFlow.defaults) : { rows: [], issues: [] };
  const names = await judgeNames(db, [...new Set([...snap.assignments.map((a) => a.judge_id), ...proposal.rows.map((p) => p.judgeId)])]);
  return flagged.map((r) => {
    const id = Number(r.work_id);
    const existing = snap.assignments.filter((a) => a.work_id === id).map((a) => ({ id: a.judge_id, name: names.get(a.judge_id) ?? `评委 ${a.judge_id}` }));
    const p = proposal.rows.find((x) => x.workId === id);
    const issue = proposal.issues.find((i) => ("workId" in i && i.workId === id) || ("workIds" in i && i.workIds.includes(id)));
    return {
      workId: id,
      workName: r.work_name,
      groupKey: groupKeyOf(r.group_id, r.category_id),
      spread: r.spread === null ? null : Number(r.spread),
      existingJudges: existing,
      needed: need.get(id) ?? existing.length,
      proposed: p ? { id: p.judgeId, name: names.get(p.judgeId) ?? `评委 ${p.judgeId}` } : null,
      problem: pending.get(id) ?? (p ? null : (issue?.message ?? "没有可增加的无回避评委")),
    };
  });
}

/** Adds one conflict-free judge to a flagged work, through applyAssignments (the single writer). */
export async function addExtraJudge(db: Db, user: User, contestId: number, body: ExtraJudgeBody): Promise<ExtraJudgeOutcome> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    await refuseIfPublished(trx, c.id);
    const row = (await storedRows(trx, c.id)).find((r) => r.work_id === body.workId);
    if (!row) throw notFound(`作品 ${body.workId} 没有本赛事的成绩记录，请先计算成绩`);
    if (!row.flagged) throw badRequest(`作品 ${body.workId} 的评委评分没有明显分歧（分差未超过阈值），无需增加评委`);
    const settings = await settingsOf(trx, c.id);
    const snap = await loadSnapshot(trx, c, settings, [body.workId]);
    const w = snap.input.works.find((x) => x.id === body.workId);
    if (!w) throw badRequest(`作品 ${body.workId} 已不在本赛事的评审作品中，或尚未分入评审组`);
    const existing = w.existingJudgeIds ?? [];
    if (existing.length > row.judge_count) throw badRequest(`作品 ${body.workId} 已增加评委，尚有 ${existing.length - row.judge_count} 位评委未提交评分，请等待评分后重新计算成绩`);
    const needed = existing.length + 1;
    const request: ExtraJudgeRequest = { workId: w.id, existingJudgeIds: [...existing], needed };
    let add = body.judgeId !== undefined ? [{ workId: w.id, judgeId: body.judgeId }] : [];
    if (!add.length) {
      const proposal = minCostFlow.propose({ ...snap.input, works: [{ ...w, needed: request.needed }] }, minCostFlow.defaults);
      if (!proposal.rows.length) throw badRequest(`没有可为作品 ${w.id} 增加的无回避评委：${proposal.issues[0]?.message ?? "评审组内的评委都已评过或存在回避"}`);
      add = proposal.rows.slice(0, 1);
    }
    await applyAssignments(trx, { contest: c, userId: user.id, add, settings: { ...settings, reviewsPerWork: Math.max(settings.reviewsPerWork, needed) } });
    const judge = await trx.selectFrom("app_user").select(["id", "name"]).where("id", "=", add[0].judgeId).executeTakeFirstOrThrow();
    await record(trx, user.id, { entity: "contest_result", entityId: `${c.id}:${w.id}`, action: "extra_judge", changes: { judges: [existing, [...existing, judge.id]] } });
    return { workId: w.id, judge, judges: needed };
  });
}

/* ------------------------------------------------------------------ export */

const COLUMNS = [
  { header: "结果分组", width: 24 },
  { header: "排名", width: 8 },
  { header: "作品编号", width: 14 },
  { header: "作品名称", width: 30 },
  { header: "学校", width: 20 },
  { header: "大类", width: 16 },
  { header: "评委数", width: 8 },
  { header: "原始平均分", width: 12 },
  { header: "标准化成绩", width: 12 },
  { header: "分差", width: 8 },
  { header: "分歧", width: 8 },
  { header: "评分未完成", width: 10 },
  { header: "答辩平均分", width: 12 },
  { header: RECOMMENDATION_NAMES.strong, width: 10 },
  { header: RECOMMENDATION_NAMES.recommend, width: 8 },
  { header: RECOMMENDATION_NAMES.not, width: 8 },
  { header: "奖项", width: 10 },
  { header: "手动设置奖项", width: 12 },
  { header: "晋级", width: 8 },
];

const round = (v: number | null, d = 2) => (v === null ? null : Math.round(v * 10 ** d) / 10 ** d);

/** The whole ranking as .xlsx (one row per work, groups in order, ranked works first). */
export async function exportResults(db: Db, user: User, contestId: number): Promise<{ filename: string; buffer: Buffer }> {
  const overview = await resultsOverview(db, user, contestId);
  if (!overview.groups.length) throw badRequest("请先计算成绩，再导出");
  const dir = await mkdtemp(join(tmpdir(), "saiwu-results-"));
  const file = join(dir, "results.xlsx");
  try {
    await writeXlsx(file, "成绩排名", COLUMNS, (async function* () {
      for (const g of overview.groups) {
        const rows = await groupRanking(db, user, contestId, g.key);
        yield rows.map((r) => [
          g.name,
          r.rank,
          r.workId,
          r.workName,
          r.schoolName,
          r.categoryName,
          r.judgeCount,
          round(r.rawMean),
          round(r.normalised),
          round(r.spread),
          r.flagged ? "是" : "",
          r.incomplete ? "是" : "",
          round(r.defenceMean),
          r.recommendations.strong,
          r.recommendations.recommend,
          r.recommendations.not,
          r.award?.name ?? "",
          r.awardManual ? "是" : "",
          r.promoted ? "是" : "",
        ]);
      }
    })());
    return { filename: `${overview.contest.name}成绩排名.xlsx`, buffer: await readFile(file) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
