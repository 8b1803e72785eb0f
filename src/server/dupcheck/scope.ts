/**
 * Whose works a duplicate check may show to whom. Root: every work. A contest admin: the
 * works of the own contests and their children (src/server/scope.ts). A judge: the works
 * assigned to them (judge_assignment). A format reviewer: the works of the contests they
 * review and of those contests' school-level children. Everyone else: none.
 *
 * A work checked by id (or side a of the side by side view) must be in scope, else 404 with
 * the same text as a missing work; matches outside the scope are reduced to a fact by the
 * callers (views.ts).
 */
import { notFound } from "../../shared/errors";
import { ROLE } from "../../shared/roles";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { adminContestIds, reviewerContestIds } from "../scope";

export const NOT_IN_SCOPE = "作品不存在或不在您的查重范围内";

export type DupScope = { all: true } | { all: false; contests: Set<number>; works: Set<number> };

export interface WorkFacts {
  id: number;
  name: string;
  year: number;
  contest_id: number;
  contest_name: string;
  status: string;
}

export async function dupScope(db: Db, user: User): Promise<DupScope> {
  if (user.user_type === ROLE.root) return { all: true };
  const contests = new Set<number>();
  const works = new Set<number>();
  if (user.user_type === ROLE.contestAdmin) {
    const ids = await adminContestIds(db, user);
    if (ids === "all") return { all: true };
    for (const id of ids) contests.add(id);
  } else if (user.user_type === ROLE.judge) {
    const rows = await db.selectFrom("judge_assignment").select("work_id").where("judge_id", "=", user.id).execute();
    for (const r of rows) works.add(Number(r.work_id));
  } else if (user.user_type === ROLE.contestReviewer) {
    const reviewed = await reviewerContestIds(db, user);
    if (reviewed.length) {
      const children = await db
        .selectFrom("contest")
        .select("id")
        .where("parent_id", "in", reviewed)
        .where("level", "=", "school")
        .execute();
      for (const id of [...reviewed, ...children.map((c) => c.id)]) contests.add(Number(id));
    }
  }
  return { all: false, contests, works };
}

export const inScope = (scope: DupScope, w: { id: number; contest_id: number }) =>
  scope.all || scope.works.has(w.id) || scope.contests.has(w.contest_id);

/** The facts of works by id (name, year, contest), for the result lists. */
export async function factsOf(db: Db, ids: number[]): Promise<Map<number, WorkFacts>> {
  const out = new Map<number, WorkFacts>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom("work")
      .innerJoin("contest", "contest.id", "work.contest_id")
      .select(["work.id", "work.name", "work.year", "work.contest_id", "contest.name as contest_name", "work.status"])
      .where("work.id", "in", unique.slice(i, i + 500))
      .execute();
    for (const r of rows)
      out.set(Number(r.id), { ...r, id: Number(r.id), year: Number(r.year), contest_id: Number(r.contest_id) });
  }
  return out;
}

/** The work, when it exists and is in the caller's scope; 404 with one text otherwise. */
export async function requireInScope(db: Db, scope: DupScope, workId: number): Promise<WorkFacts> {
  const w = (await factsOf(db, [workId])).get(workId);
  if (!w || !inScope(scope, w)) throw notFound(NOT_IN_SCOPE);
  return w;
}
