/**
 * Reading what the results are computed from and shown with: the options (result_setting),
 * the pool's works with their result group, the submitted scores, the assignments, the
 * defence scores, the award levels, the quota and the names; plus the small helpers the
 * other modules of results/ share.
 */
import { badRequest } from "../../../../shared/errors";
import { CONTEST_LEVEL_NAMES } from "../../../../shared/contest/stages";
import type { AwardLevelRef, Basis } from "../../../../shared/judging/result-schema";
import type { Handle } from "../../../work/repository";
import { groupKeyOf } from "../../results";
import { NORMALISE_DEFAULTS, type FitParameters, type Score } from "../../scoring";
import { poolWorks, settingsOf, type ContestInfo } from "../contest";

const CHUNK = 500;
export const chunks = <T>(list: readonly T[], n = CHUNK) =>
  Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/** Runs a query for all works (no ids) or for the given works, in chunks. */
async function forWorks(workIds: readonly number[] | undefined, run: (ids?: readonly number[]) => Promise<void>) {
  if (workIds) for (const part of chunks(workIds)) await run(part);
  else await run();
}

/** Appends to the list of a key (created when missing). */
export function push<K, V>(m: Map<K, V[]>, key: K, value: V) {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

/** Counts one more for a key. */
export function tally<K>(m: Map<K, number>, key: K) {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/** A nullable number column (PostgreSQL may answer numerics as strings). */
export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Contest levels, highest first. */
export const LEVEL_ORDER = { national: 0, provincial: 1, school: 2 } as const;

/** The works of the inputs whose online scores are incomplete. */
export function incompleteWorks(inputs: Pick<Inputs, "works" | "scores" | "assigned" | "needed">): Set<number> {
  const count = new Map<number, number>();
  for (const s of inputs.scores) tally(count, s.workId);
  return new Set(
    [...inputs.works.keys()].filter((id) => isIncomplete(count.get(id) ?? 0, inputs.needed, inputs.assigned.get(id) ?? 0)),
  );
}

/** Fewer submitted scores than the contest's reviews per work or than the work's judges. */
export const isIncomplete = (judgeCount: number, reviewsPerWork: number, assigned: number) =>
  judgeCount < Math.max(reviewsPerWork, assigned);

export interface PoolWork {
  id: number;
  name: string;
  categoryId: number;
  categoryName: string;
  schoolName: string;
  groupId: number | null;
  key: string;
}

export interface GroupMeta {
  key: string;
  groupId: number | null;
  categoryId: number;
  name: string;
}

/** A work's defence scores: their mean and count and the judges' recommendations. */
export interface DefenceSummary {
  mean: number;
  count: number;
  strong: number;
  recommend: number;
  not: number;
}

export interface Inputs {
  works: Map<number, PoolWork>;
  groups: Map<string, GroupMeta>;
  scores: Score[];
  assigned: Map<number, number>;
  defence: Map<number, DefenceSummary>;
  /** the contest's reviews per work */
  needed: number;
}

export interface Setting {
  threshold: number;
  basis: Record<string, Basis>;
  computedAt: string | null;
  computedBy: number | null;
  fit: StoredFit[] | null;
  /** group keys whose last allocation included the incomplete works */
  includeIncomplete: string[];
}

export interface StoredFit {
  key: string;
  basis: Basis;
  fit: FitParameters;
  judges: { judgeId: number; count: number; mean: number; sd: number; effect: number; identified: boolean }[];
}

export async function loadSetting(db: Handle, contestId: number): Promise<Setting> {
  const s = await db.selectFrom("result_setting").selectAll().where("contest_id", "=", contestId).executeTakeFirst();
  return {
    threshold: s ? Number(s.disagreement_threshold) : NORMALISE_DEFAULTS.disagreementThreshold,
    basis: s ? (JSON.parse(s.group_basis) as Record<string, Basis>) : {},
    computedAt: s?.computed_at ?? null,
    computedBy: s?.computed_by ?? null,
    fit: s?.fit ? (JSON.parse(s.fit) as StoredFit[]) : null,
    includeIncomplete: s ? (JSON.parse(s.include_incomplete) as string[]) : [],
  };
}

const categoryGroupName = (name: string) => `${name}（未分组作品）`;

/** The contest's judge groups by id. */
export async function judgeGroups(db: Handle, contestId: number) {
  return new Map(
    (await db.selectFrom("judge_group").select(["id", "name", "category_id"]).where("contest_id", "=", contestId).execute()).map(
      (g) => [g.id, g],
    ),
  );
}

/** The result group of a work: its judge group while that exists, else the works of its 大类 not in a group. */
export function resultGroupOf(
  groups: Awaited<ReturnType<typeof judgeGroups>>,
  groupId: number | null | undefined,
  categoryId: number,
  categoryName: string,
): GroupMeta {
  const g = groupId !== null && groupId !== undefined ? groups.get(groupId) : undefined;
  return g
    ? { key: groupKeyOf(g.id, categoryId), groupId: g.id, categoryId: g.category_id, name: g.name }
    : { key: groupKeyOf(null, categoryId), groupId: null, categoryId, name: categoryGroupName(categoryName) };
}

/** The pool's works with their result group, the submitted scores, assignment counts and defence scores. */
export async function loadInputs(db: Handle, c: ContestInfo): Promise<Inputs> {
  const pool = await poolWorks(db, c)
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .select(["work.id", "work.name", "work.category_id", "cat.name as category_name", "school.name as school_name"])
    .orderBy("work.id")
    .execute();
  const placed = new Map(
    (await db.selectFrom("judge_group_work").select(["work_id", "group_id"]).where("contest_id", "=", c.id).execute()).map(
      (r) => [Number(r.work_id), r.group_id],
    ),
  );
  const judging = await judgeGroups(db, c.id);
  const works = new Map<number, PoolWork>();
  const groups = new Map<string, GroupMeta>();
  for (const w of pool) {
    const id = Number(w.id);
    const g = resultGroupOf(judging, placed.get(id), w.category_id, w.category_name);
    works.set(id, {
      id,
      name: w.name,
      categoryId: w.category_id,
      categoryName: w.category_name,
      schoolName: w.school_name,
      groupId: g.groupId,
      key: g.key,
    });
    if (!groups.has(g.key)) groups.set(g.key, g);
  }
  // Scores a re-judge replaced (a complaint's decision) no longer count.
  const scores = (
    await db
      .selectFrom("judge_score")
      .select(["work_id", "judge_id", "total"])
      .where("contest_id", "=", c.id)
      .where("status", "=", "submitted")
      .where("total", "is not", null)
      .where("superseded_at", "is", null)
      .execute()
  )
    .map((s) => ({ workId: Number(s.work_id), judgeId: s.judge_id, score: Number(s.total) }))
    .filter((s) => works.has(s.workId));
  const assigned = await assignedCounts(db, c.id);
  const defence = await defenceSummaries(db, c.id);
  for (const id of defence.keys()) if (!works.has(id)) defence.delete(id);
  const needed = (await settingsOf(db, c.id)).reviewsPerWork;
  return { works, groups, scores, assigned, defence, needed };
}

/** The judges assigned per work (of the given works, or of all). */
export async function assignedCounts(db: Handle, contestId: number, workIds?: readonly number[]) {
  const out = new Map<number, number>();
  await forWorks(workIds, async (ids) => {
    // An assignment whose score a re-judge replaced is no longer one the work waits for.
    let q = db
      .selectFrom("judge_assignment")
      .select(["work_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("contest_id", "=", contestId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("judge_score")
              .select("judge_score.id")
              .whereRef("judge_score.assignment_id", "=", "judge_assignment.id")
              .where("judge_score.superseded_at", "is not", null),
          ),
        ),
      );
    if (ids) q = q.where("work_id", "in", ids);
    for (const r of await q.groupBy("work_id").execute()) out.set(Number(r.work_id), Number(r.n));
  });
  return out;
}

/** The defence scores per work (of the given works, or of all) of the contest's defence sessions. */
export async function defenceSummaries(db: Handle, contestId: number, workIds?: readonly number[]) {
  const out = new Map<number, DefenceSummary>();
  await forWorks(workIds, async (ids) => {
    let q = db
      .selectFrom("defence_score")
      .innerJoin("defence_slot", "defence_slot.id", "defence_score.slot_id")
      .innerJoin("defence_session", "defence_session.id", "defence_slot.session_id")
      .select(["defence_slot.work_id", "defence_score.score", "defence_score.recommendation"])
      .where("defence_session.contest_id", "=", contestId);
    if (ids) q = q.where("defence_slot.work_id", "in", ids);
    for (const d of await q.execute()) {
      const id = Number(d.work_id);
      const x = out.get(id) ?? { mean: 0, count: 0, strong: 0, recommend: 0, not: 0 };
      x.mean += Number(d.score);
      x.count++;
      x[d.recommendation]++;
      out.set(id, x);
    }
  });
  for (const x of out.values()) x.mean /= x.count;
  return out;
}

/** The contest level's work awards, in order. */
export async function workAwardLevels(db: Handle, level: ContestInfo["level"]): Promise<AwardLevelRef[]> {
  const rows = await db
    .selectFrom("award_level")
    .select(["id", "name", "ratio", "max_count", "sort"])
    .where("contest_level", "=", level)
    .where("kind", "=", "work")
    .where("archived", "=", 0)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ratio: r.ratio === null ? null : Number(r.ratio),
    maxCount: r.max_count,
    sort: r.sort,
  }));
}

/** The award level of that id among the contest level's work awards; 400 otherwise. */
export function requireWorkAwardLevel(levels: readonly AwardLevelRef[], id: number, level: ContestInfo["level"]): AwardLevelRef {
  const l = levels.find((x) => x.id === id);
  if (!l) throw badRequest(`奖项 ${id} 不是${CONTEST_LEVEL_NAMES[level]}的作品奖项`);
  return l;
}

/** The parent contest and the promotion quota (in all and per 大类). */
export async function quotaState(db: Handle, contestId: number) {
  const contest = await db
    .selectFrom("contest")
    .select(["level", "parent_id", "recommend_quota", "category_quotas"])
    .where("id", "=", contestId)
    .executeTakeFirstOrThrow();
  const parent = contest.parent_id
    ? await db.selectFrom("contest").select(["id", "name"]).where("id", "=", contest.parent_id).executeTakeFirst()
    : undefined;
  return { parent, total: contest.recommend_quota, perCategory: JSON.parse(contest.category_quotas) as Record<string, number> };
}

/** The names of users by id. */
export async function judgeNames(db: Handle, ids: readonly number[]) {
  const out = new Map<number, string>();
  for (const part of chunks(ids))
    for (const u of await db.selectFrom("app_user").select(["id", "name"]).where("id", "in", part).execute())
      out.set(u.id, u.name);
  return out;
}

/** The names of 大类 by id (none asked: none read). */
export async function categoryNames(db: Handle, ids: readonly number[]) {
  return new Map(
    (ids.length ? await db.selectFrom("work_category").select(["id", "name"]).where("id", "in", ids).execute() : []).map((x) => [
      x.id,
      x.name,
    ]),
  );
}

/** The names of result groups by key. */
export async function resultGroupNames(db: Handle, contestId: number, keys: string[]) {
  const out = new Map<string, string>();
  const gids = keys.filter((k) => k.startsWith("g")).map((k) => Number(k.slice(1)));
  const cids = keys.filter((k) => k.startsWith("c")).map((k) => Number(k.slice(1)));
  if (gids.length)
    for (const g of await db
      .selectFrom("judge_group")
      .select(["id", "name"])
      .where("contest_id", "=", contestId)
      .where("id", "in", gids)
      .execute())
      out.set(`g${g.id}`, g.name);
  for (const [id, name] of await categoryNames(db, cids)) out.set(`c${id}`, categoryGroupName(name));
  return out;
}
