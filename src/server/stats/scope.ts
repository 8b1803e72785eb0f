/**
 * Whose figures a statistics request covers, decided once per request and exactly like the
 * lists: root every contest; a contest admin the contests they manage and their descendants
 * (adminContestIds, src/server/scope.ts); a school admin the works of the own school
 * (work.school_id, as /Backend/School/work). Every dashboard query narrows the work table
 * (and the judging and complaint tables) by what this module resolves.
 *
 * Refusals (403, Chinese): a contest admin naming a contest outside their contests; a school
 * admin naming another school (schoolId) or a province. A school admin gets only the own
 * school's works: the dashboards leave out names of other schools, reviewers and judges.
 *
 * The previous edition: the same contests one year earlier — each contest's counterpart of
 * year − 1 with the same level, province and school (contest.year, the edition; an archived
 * contest is only hidden from choices, its rows stay) — or, without a contest filter, every
 * work of year − 1 in the same school and province filter.
 */
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import { ROLE } from "../../shared/roles";
import { forbidden, notFound } from "../../shared/errors";
import type { StatsContest, StatsQuery, StatsScope } from "../../shared/stats/schema";
import type { DB, User } from "../db/schema";
import type { Handle } from "../work/repository";
import { readCache } from "../db/changes";
import { adminContestIds } from "../scope";

interface ContestRow {
  id: number;
  name: string;
  level: string;
  year: number;
  parentId: number | null;
  province: string | null;
  schoolId: number | null;
}

/** Which works (and judging/complaint rows) one edition's figures count. */
export interface WorkFilter {
  year: number;
  /** registration contests (work.contest_id) and judging contests; null: every contest of the year */
  contestIds: number[] | null;
  schoolId: number | null;
  province: string | null;
}

export interface Scope {
  user: User;
  role: number;
  /** a school admin: only the own works, no other schools', reviewers' or judges' names */
  schoolOnly: boolean;
  current: WorkFilter;
  /** the same scope one year earlier; null when no contest of that year matches */
  previous: WorkFilter | null;
  view: Omit<StatsScope, "computedAt">;
  /** the contests of the current year in scope (for names) */
  contests: ContestRow[];
}

/** Every contest, kept while the contest table is unchanged (a few thousand rows at most). */
async function allContests(db: Handle): Promise<ContestRow[]> {
  return readCache(db, "statsContests", { maxEntries: 2, maxAgeMs: 60_000 }).get("all", ["contest"], async () =>
    (
      await db
        .selectFrom("contest")
        .select(["id", "name", "level", "year", "parent_id", "province", "school_id"])
        .orderBy("id")
        .execute()
    ).map((c) => ({
      id: Number(c.id),
      name: c.name,
      level: c.level,
      year: Number(c.year),
      parentId: c.parent_id === null ? null : Number(c.parent_id),
      province: c.province,
      schoolId: c.school_id === null ? null : Number(c.school_id),
    })),
  );
}

/** A contest and all its descendants. */
function subtree(all: ContestRow[], id: number): number[] {
  const children = new Map<number, number[]>();
  for (const c of all) if (c.parentId !== null) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id]);
  const out: number[] = [];
  const stack = [id];
  while (stack.length) {
    const x = stack.pop()!;
    out.push(x);
    stack.push(...(children.get(x) ?? []));
  }
  return out;
}

/** The contests of `year` that are the counterparts (same level, province, school) of the given ones. */
function counterparts(all: ContestRow[], ids: number[], year: number): number[] {
  const byId = new Map(all.map((c) => [c.id, c]));
  const keys = new Set(ids.map((id) => byId.get(id)).map((c) => c && `${c.level}|${c.province ?? ""}|${c.schoolId ?? 0}`));
  return all.filter((c) => c.year === year && keys.has(`${c.level}|${c.province ?? ""}|${c.schoolId ?? 0}`)).map((c) => c.id);
}

const toView = (c: ContestRow): StatsContest => ({ id: c.id, name: c.name, level: c.level, year: c.year, parentId: c.parentId });
const newestFirst = (ys: Iterable<number>) => [...new Set(ys)].sort((a, b) => b - a);

/** Resolves the caller's scope for a dashboard request (403/404 as the top of this file says). */
export async function resolveScope(db: Handle, user: User, q: StatsQuery): Promise<Scope> {
  const all = await allContests(db);
  const role = user.user_type;
  const byId = new Map(all.map((c) => [c.id, c]));
  if (role === ROLE.schoolAdmin) return schoolScope(db, user, q, all);
  if (role !== ROLE.root && role !== ROLE.contestAdmin) throw forbidden("只有超级管理员、赛事管理员和学校管理员可以查看统计");
  const managed = await adminContestIds(db, user);
  const mine = managed === "all" ? all : all.filter((c) => managed.includes(c.id));
  const years = newestFirst(mine.map((c) => c.year));
  if (q.contestId !== undefined) {
    const c = byId.get(q.contestId);
    if (!c) throw notFound("赛事不存在");
    if (managed !== "all" && !managed.includes(c.id)) throw forbidden("只能查看您管理的赛事的统计");
  }
  const year = q.contestId !== undefined ? byId.get(q.contestId)!.year : (q.year ?? years[0] ?? new Date().getFullYear());
  let contestIds: number[] | null;
  if (q.contestId !== undefined) contestIds = subtree(all, q.contestId).filter((id) => managed === "all" || managed.includes(id));
  else contestIds = managed === "all" ? null : mine.filter((c) => c.year === year).map((c) => c.id);
  const prevIds = contestIds === null ? null : counterparts(all, contestIds, year - 1);
  const hasPrev = prevIds === null ? all.some((c) => c.year === year - 1) : prevIds.length > 0;
  const schoolId = q.schoolId ?? null;
  const province = q.province ?? null;
  const school =
    schoolId === null ? undefined : await db.selectFrom("school").select("name").where("id", "=", schoolId).executeTakeFirst();
  if (schoolId !== null && !school) throw notFound("学校不存在");
  const inYear = mine.filter((c) => c.year === year && (contestIds === null || contestIds.includes(c.id)));
  return {
    user,
    role,
    schoolOnly: false,
    current: { year, contestIds, schoolId, province },
    previous: hasPrev ? { year: year - 1, contestIds: prevIds, schoolId, province } : null,
    contests: inYear,
    view: {
      role,
      year,
      years,
      contestId: q.contestId ?? null,
      // The choices: contests above school level (hundreds of school contests would drown them).
      contests: mine.filter((c) => c.year === year && c.level !== "school").map(toView),
      schoolId,
      schoolName: school?.name ?? null,
      province,
    },
  };
}

async function schoolScope(db: Handle, user: User, q: StatsQuery, all: ContestRow[]): Promise<Scope> {
  const schoolId = user.school_id;
  if (schoolId === null || schoolId === undefined) throw forbidden("您的账号没有所属学校，不能查看统计");
  if ((q.schoolId !== undefined && q.schoolId !== schoolId) || q.province !== undefined)
    throw forbidden("学校管理员只能查看本校的统计");
  const school = await db.selectFrom("school").select("name").where("id", "=", schoolId).executeTakeFirst();
  // The years and contests the school's works were entered in.
  const entered = await db
    .selectFrom("work")
    .select(["work.year", "work.contest_id"])
    .distinct()
    .where("work.school_id", "=", schoolId)
    .execute();
  const byId = new Map(all.map((c) => [c.id, c]));
  const own = all.filter((c) => c.schoolId === schoolId);
  const years = newestFirst([...entered.map((r) => Number(r.year)), ...own.map((c) => c.year)]);
  if (q.contestId !== undefined && !byId.has(q.contestId)) throw notFound("赛事不存在");
  const year = q.contestId !== undefined ? byId.get(q.contestId)!.year : (q.year ?? years[0] ?? new Date().getFullYear());
  const contestIds = q.contestId !== undefined ? subtree(all, q.contestId) : null;
  const ids = new Set([
    ...entered.filter((r) => Number(r.year) === year).map((r) => Number(r.contest_id)),
    ...own.filter((c) => c.year === year).map((c) => c.id),
  ]);
  const inYear = [...ids].map((id) => byId.get(id)).filter((c): c is ContestRow => !!c);
  const prevIds = contestIds === null ? null : counterparts(all, contestIds, year - 1);
  const hasPrev = prevIds === null ? years.includes(year - 1) : prevIds.length > 0;
  return {
    user,
    role: user.user_type,
    schoolOnly: true,
    current: { year, contestIds, schoolId, province: null },
    previous: hasPrev ? { year: year - 1, contestIds: prevIds, schoolId, province: null } : null,
    contests: inYear,
    view: {
      role: user.user_type,
      year,
      years,
      contestId: q.contestId ?? null,
      contests: inYear.map(toView),
      schoolId,
      schoolName: school?.name ?? null,
      province: null,
    },
  };
}

/** The filter's condition on the work table (joined or selected as "work"). */
export function workWhere(f: WorkFilter) {
  return (eb: ExpressionBuilder<DB, "work">) => {
    const parts: Expression<SqlBool>[] = [eb("work.year", "=", f.year)];
    if (f.contestIds !== null) parts.push(f.contestIds.length ? eb("work.contest_id", "in", f.contestIds) : sql<boolean>`1 = 0`);
    if (f.schoolId !== null) parts.push(eb("work.school_id", "=", f.schoolId));
    if (f.province !== null)
      parts.push(
        eb("work.school_id", "in", eb.selectFrom("school").select("school.id").where("school.province", "=", f.province)),
      );
    return eb.and(parts);
  };
}

/** The works of the filter (no columns selected). */
export const worksOf = (db: Handle, f: WorkFilter): SelectQueryBuilder<DB, "work", object> =>
  db.selectFrom("work").where(workWhere(f));

/** Whether the filter narrows works below whole contests (a school or a province): judging rows then follow the works. */
export const narrowed = (f: WorkFilter) => f.schoolId !== null || f.province !== null;

/** The judging and complaint contests of the filter: the listed ones, or every contest of its year. */
export function contestIn(f: WorkFilter, column: string): Expression<SqlBool> {
  const col = sql.ref(column);
  if (f.contestIds !== null)
    return f.contestIds.length ? sql<boolean>`${col} in (${sql.join(f.contestIds)})` : sql<boolean>`1 = 0`;
  return sql<boolean>`${col} in (select contest.id from contest where contest.year = ${f.year})`;
}

/** The cache key of a scope's figures: everything that decides them. */
export const scopeKey = (s: Scope) =>
  JSON.stringify([s.schoolOnly, s.current, s.previous, s.view.contestId, s.contests.map((c) => c.id)]);

/** The dashboards' read cache (db/changes.ts): an entry lives while its tables are unchanged, at most a minute. */
export const statsCache = (db: Handle) => readCache(db, "stats", { maxEntries: 1_000, maxAgeMs: 60_000 });

export const num = (v: unknown) => Number(v ?? 0);
