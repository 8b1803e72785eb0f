/**
 * One page of a works list in two queries — the total, then the page's rows with their
 * names — fast on a large table. It is the platform's busiest query, so:
 *
 * - A contest admin's or root's list is scope (contest_id IN …) × status (IN …) ordered by
 *   one column. As one plain query the database reads every matching row and sorts them:
 *   cheap for a few thousand rows, slow for tens of thousands. For a long list each
 *   (contest, status) pair is read instead from an index already in the requested order —
 *   (contest_id, status, column, id) or (status, column, id) — taking only offset + limit
 *   rows, and the branches are merged: the cost follows the page, not the number of works.
 *   Short lists (author, teacher, school and small scopes), other sorts, deep pages and
 *   very wide scopes use the plain query.
 * - The page's ids and the names of just those rows come in one query (a join on the page).
 * - A page past the end is answered from the count alone; a page in the second half of the
 *   list is read from its end (nearerEnd), so a deep page costs at most half the list.
 * - Every sort of root's whole list has an index in its order (migrations 0007, 0008, 0037).
 */
import { PostgresAdapter, sql, type SelectQueryBuilder } from "kysely";
import type { WorkFilters } from "../../shared/work/schema";
import { WORK_STATES } from "../../shared/work/states";
import type { DB } from "../db/schema";
import type { Handle } from "./repository";

type Q = SelectQueryBuilder<DB, "work", object>;
type Order = [string, "asc" | "desc"][];
export type ListScopeLike = { kind: "contests"; ids: number[] | "all" } | { kind: "author" | "teacher" | "school" };

/** Sort keys with the indexes a branch needs (migrations 0007 and 0008). */
const MERGEABLE = new Set(["id", "status", "submittedAt", "updatedAt", "name"]);
const MAX_BRANCHES = 64;
/** Beyond this many rows from the top a single sort is cheaper than many branches. */
const MAX_DEPTH = 2000;
/**
 * Up to `plainUpTo` matching rows the plain query's sort is cheaper than merging branches:
 * measured on 100k works, the embedded SQLite pays for preparing the longer statement,
 * PostgreSQL barely (tests change it to check both plans).
 */
export const LIST_TUNING = { plainUpTo: { sqlite: 5000, postgres: 500 } };

/** The (contest, status) branches to merge, or null when the plain query is the better plan. */
export function branchesOf(
  scope: ListScopeLike,
  f: WorkFilters,
  order: Order,
  depth: number,
): { contest: number | null; status: string }[] | null {
  const [field, dir] = order[0];
  if (scope.kind !== "contests" || !MERGEABLE.has(field) || depth > MAX_DEPTH) return null;
  if (order.length > 2 || (order.length === 2 && (order[1][0] !== "id" || order[1][1] !== dir))) return null;
  if (f.id !== undefined || /^\d{10}$/.test(f.keyword?.trim() ?? "")) return null;
  const statuses = f.status?.length ? [...new Set(f.status)] : [...WORK_STATES];
  let contests: (number | null)[] = f.contestId !== undefined ? [f.contestId] : scope.ids === "all" ? [null] : scope.ids;
  if (contests.length * statuses.length > MAX_BRANCHES) contests = [null];
  if (statuses.length > MAX_BRANCHES) return null;
  return contests.flatMap((contest) => statuses.map((status) => ({ contest, status })));
}

/**
 * A page in the second half of a list is the same rows read from the other end: the order
 * reversed (the id breaks every tie, and each dialect places NULLs at opposite ends for the
 * two directions, so the reversed order is exactly the list backwards), from `total - offset
 * - limit`. The caller orders the page's rows in the requested order again. So no page reads
 * more than half of the list before its rows — the last page of 100,000 works reads 20.
 */
export function nearerEnd(order: Order, offset: number, limit: number, total: number) {
  const fromEnd = total - offset - limit;
  if (offset <= fromEnd) return { order, offset, limit };
  const flip = (d: "asc" | "desc") => (d === "asc" ? "desc" : "asc");
  return {
    order: order.map(([field, dir]): [string, "asc" | "desc"] => [field, flip(dir)]),
    offset: Math.max(0, fromEnd),
    limit: limit + Math.min(0, fromEnd),
  };
}

type Page = SelectQueryBuilder<DB, never, { id: number; k0: unknown; k1: unknown }>;

/**
 * The page's ids with their sort keys (k0, k1: the order's columns). `base()` is the scoped,
 * filtered query (a new builder each call); every branch keeps all its conditions.
 */
function pageQuery(
  db: Handle,
  base: () => Q,
  scope: ListScopeLike,
  f: WorkFilters,
  order: Order,
  columns: Record<string, string>,
  offset: number,
  limit: number,
  total: number,
): { page: Page; keys: number } {
  const plainUpTo =
    db.getExecutor().adapter instanceof PostgresAdapter ? LIST_TUNING.plainUpTo.postgres : LIST_TUNING.plainUpTo.sqlite;
  ({ order, offset, limit } = nearerEnd(order, offset, limit, total));
  const branches = total > plainUpTo ? branchesOf(scope, f, order, offset + limit) : null;
  if (!branches) {
    let page = base().select(
      (eb) => ["work.id as id", ...order.map(([field], i) => eb.ref(columns[field] as "work.id").as(`k${i}`))] as never,
    ) as unknown as SelectQueryBuilder<DB, "work", { id: number }>;
    for (const [field, dir] of order) page = page.orderBy(sql.ref(columns[field]), dir);
    return { page: page.offset(offset).limit(limit) as unknown as Page, keys: order.length };
  }
  const [field, dir] = order[0];
  const column = columns[field];
  const members = branches.map((b, i) => {
    let q = base().where("work.status", "=", b.status as never);
    if (b.contest !== null) q = q.where("work.contest_id", "=", b.contest);
    const top = q
      .select(["work.id as id", sql.ref(column).as("k0"), "work.id as k1"])
      .orderBy(sql.ref(column), dir)
      .orderBy("work.id", dir)
      .limit(offset + limit);
    return db
      .selectFrom(top.as(`b${i}`))
      .select([`b${i}.id as id`, `b${i}.k0 as k0`, `b${i}.k1 as k1`] as never[]) as unknown as Page;
  });
  let union = members[0];
  for (const m of members.slice(1)) union = union.unionAll(m);
  const page = db
    .selectFrom(union.as("u"))
    .select(["u.id as id", "u.k0 as k0", "u.k1 as k1"] as never[])
    .orderBy("u.k0" as never, dir)
    .orderBy("u.k1" as never, dir)
    .offset(offset)
    .limit(limit);
  return { page: page as unknown as Page, keys: 2 };
}

/**
 * The rows of the page in order, with the names `withNames` adds (joined to "work"), and
 * the total of the filtered list.
 */
export async function listPage<R extends { id: number }>(
  db: Handle,
  base: () => Q,
  scope: ListScopeLike,
  f: WorkFilters,
  order: Order,
  columns: Record<string, string>,
  offset: number,
  limit: number,
  withNames: (q: Q) => SelectQueryBuilder<DB, any, R>,
): Promise<{ rows: R[]; total: number }> {
  const total = Number(
    (
      await base()
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (offset >= total) return { rows: [], total };
  const { page, keys } = pageQuery(db, base, scope, f, order, columns, offset, limit, total);
  let q = withNames(db.selectFrom("work").innerJoin(page.as("p"), "p.id" as never, "work.id") as unknown as Q);
  for (let i = 0; i < keys; i++) q = q.orderBy(`p.k${i}` as never, i < order.length ? order[i][1] : order[0][1]);
  return { rows: await q.execute(), total };
}
