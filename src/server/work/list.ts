/**
 * The works lists: one scoped, filtered, sorted, paginated query for every list (my
 * works, advised works, a school's works, works in a contest admin's scope). The scope
 * and filters narrow the work table alone (indexed columns, subqueries instead of joins)
 * so the count stays cheap; names are joined for the page rows only.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import type { PageOf } from "../../shared/crud/list";
import type { WorkFilters, WorkListItem } from "../../shared/work/schema";
import { readCache } from "../db/changes";
import type { DB } from "../db/schema";
import type { Handle } from "./repository";
import { toListItem } from "./view";
import { withListColumns } from "./list-columns";
import { listPage } from "./list-page";
import { enteredWorkIds } from "../scope";
import { entryFields } from "./repository";
import { ENTRY_FORMAT_STATE, entryFormatOf, nationalStateName } from "../../shared/national/types";
import type { WorkState } from "../../shared/work/states";

export type ListScope =
  | { kind: "author"; userId: number }
  | { kind: "teacher"; userId: number }
  | { kind: "school"; schoolId: number }
  | { kind: "contests"; ids: number[] | "all" };

type Q = SelectQueryBuilder<DB, "work", object>;

export const SORT_COLUMNS: Record<string, string> = {
  id: "work.id",
  name: "work.name",
  status: "work.status",
  createdAt: "work.created_at",
  updatedAt: "work.updated_at",
  submittedAt: "work.submitted_at",
  categoryId: "work.category_id",
  schoolId: "work.school_id",
};

const like = (s: string) => `%${s.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const likeExpr = (column: string, s: string) => sql<boolean>`${sql.ref(column)} like ${like(s)} escape '\\'`;

function scoped(db: Handle, scope: ListScope): Q {
  const q = db.selectFrom("work");
  switch (scope.kind) {
    case "author":
      return q.where(
        "work.id",
        "in",
        db.selectFrom("work_author").select("work_author.work_id").where("work_author.user_id", "=", scope.userId),
      );
    case "teacher":
      return q.where(
        "work.id",
        "in",
        db.selectFrom("work_teacher").select("work_teacher.work_id").where("work_teacher.user_id", "=", scope.userId),
      );
    case "school":
      return q.where("work.school_id", "=", scope.schoolId);
    case "contests":
      if (scope.ids === "all") return q;
      return scope.ids.length ? q.where("work.contest_id", "in", scope.ids) : q.where(sql<boolean>`1 = 0`);
  }
}

function filtered(db: Handle, q: Q, f: WorkFilters): Q {
  const kw = f.keyword?.trim();
  if (kw) q = /^\d{10}$/.test(kw) ? q.where("work.id", "=", Number(kw)) : q.where(likeExpr("work.name", kw));
  if (f.id !== undefined) q = q.where("work.id", "=", f.id);
  if (f.name?.trim()) q = q.where(likeExpr("work.name", f.name));
  // A contest's works: those registered in it, and (a national contest) those entered in it
  // (src/server/scope.ts) — whose state there is the entry's own format review, not the work's.
  if (f.contestId !== undefined) {
    const cid = f.contestId;
    const states = f.status?.length ? f.status : null;
    const entryStates = states ? states.map(entryFormatOf).filter((s) => s !== null) : null;
    q = q.where((eb) =>
      eb.or([
        states ? eb.and([eb("work.contest_id", "=", cid), eb("work.status", "in", states)]) : eb("work.contest_id", "=", cid),
        ...(entryStates?.length === 0
          ? []
          : [
              eb(
                "work.id",
                "in",
                entryStates
                  ? enteredWorkIds(db, cid).where("national_entry.format_status", "in", entryStates)
                  : enteredWorkIds(db, cid),
              ),
            ]),
      ]),
    );
  } else if (f.status?.length) q = q.where("work.status", "in", f.status);
  if (f.year !== undefined) q = q.where("work.year", "=", f.year);
  if (f.categoryId !== undefined) q = q.where("work.category_id", "=", f.categoryId);
  if (f.subcategoryId !== undefined) q = q.where("work.subcategory_id", "=", f.subcategoryId);
  if (f.group) q = q.where("work.group_type", "=", f.group);
  if (f.schoolId !== undefined) q = q.where("work.school_id", "=", f.schoolId);
  if (f.schoolName?.trim())
    q = q.where("work.school_id", "in", db.selectFrom("school").select("school.id").where(likeExpr("school.name", f.schoolName)));
  if (f.authorName?.trim()) q = q.where(likeExpr("work.author_names", f.authorName));
  return q;
}

/** The scoped, filtered works (no columns selected): for the list and the export. */
export const worksQuery = (db: Handle, scope: ListScope, f: WorkFilters): Q => filtered(db, scoped(db, scope), f);

export interface ListArgs {
  filters: WorkFilters;
  sort: [string, "asc" | "desc"][];
  offset: number;
  limit: number;
}

/** The tables a works list reads: while none of them changes, the same list is served from memory. */
const LIST_TABLES = ["work", "work_author", "work_teacher", "school", "contest", "work_category", "national_entry"];

/**
 * One page of the works in scope. The busiest read of the platform: a page is kept in memory
 * (bounded, per scope and query) until a write to one of LIST_TABLES — see db/changes.ts.
 */
export function listWorks(db: Handle, scope: ListScope, args: ListArgs): Promise<PageOf<WorkListItem>> {
  return readCache(db, "works", { maxEntries: 2_000, maxAgeMs: 30_000 }).get(JSON.stringify([scope, args]), LIST_TABLES, () =>
    readWorks(db, scope, args),
  );
}

/**
 * One page of a list, ordered with the id as tie-breaker in the same direction: the page's
 * ids from the work table alone (see list-page.ts for the merge of index-ordered branches),
 * the names of just those rows and the total, in one query.
 */
async function readWorks(
  db: Handle,
  scope: ListScope,
  { filters, sort, offset, limit }: ListArgs,
): Promise<PageOf<WorkListItem>> {
  const order: [string, "asc" | "desc"][] = sort.length ? [...sort] : [["id", "desc"]];
  if (!order.some(([f]) => f === "id")) order.push(["id", order[0][1]]);
  // A national contest's entries are registered in provincial contests: no per-contest branches for it (list-page.ts).
  const entries = filters.contestId !== undefined && !!(await enteredWorkIds(db, filters.contestId).limit(1).executeTakeFirst());
  const plan = entries ? { ...filters, contestId: undefined, status: undefined } : filters;
  const { rows, total } = await listPage(
    db,
    () => worksQuery(db, scope, filters),
    scope,
    plan,
    order,
    SORT_COLUMNS,
    offset,
    limit,
    withListColumns,
  );
  let mine = new Map<number, { rank: number; confirmed: number }>();
  if (scope.kind === "author" && rows.length) {
    const places = await db
      .selectFrom("work_author")
      .select(["work_id", "rank", "confirmed"])
      .where("user_id", "=", scope.userId)
      .where(
        "work_id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
    mine = new Map(places.map((p) => [p.work_id, p]));
  }
  const list = rows.map((r) => toListItem(r, mine.get(r.id)));
  // The team follows its work into the national round: their lists show the entry's state there.
  const team = scope.kind === "author" || scope.kind === "teacher";
  return { list: entries || team ? await asEntries(db, entries ? filters.contestId! : null, list) : list, total };
}

/**
 * Under a national contest's filter (contestId), or in the team's own lists (null: any national
 * contest), entered works show as their national entries: the entry's state
 * (its own format review), the national contest, and the entry's own name when changed in
 * the national round — not the provincial record the work row holds.
 */
async function asEntries(db: Handle, contestId: number | null, list: WorkListItem[]): Promise<WorkListItem[]> {
  const over = await entryOverlay(
    db,
    contestId,
    list.map((w) => w.id),
  );
  return list.map((w) => {
    const e = over.get(w.id);
    return e
      ? {
          ...w,
          name: e.name ?? w.name,
          status: e.status,
          statusName: e.statusName,
          contest: { ...w.contest, id: e.contestId, name: e.contestName, level: e.contestLevel },
        }
      : w;
  });
}

/** The entered national entries of the given works (in `contestId`, or any national contest), as the lists show them. */
export async function entryOverlay(db: Handle, contestId: number | null, ids: number[]) {
  const out = new Map<
    number,
    {
      status: WorkState;
      statusName: string;
      name: string | undefined;
      contestId: number;
      contestName: string;
      contestLevel: string;
    }
  >();
  if (!ids.length) return out;
  let q = db
    .selectFrom("national_entry as e")
    .innerJoin("contest as c", "c.id", "e.contest_id")
    .select(["e.work_id", "e.format_status", "e.fields", "c.id as contest_id", "c.name as contest_name", "c.level"])
    .where("e.status", "=", "entered");
  if (contestId !== null) q = q.where("e.contest_id", "=", contestId);
  for (const r of await q.where("e.work_id", "in", ids).execute()) {
    const status = ENTRY_FORMAT_STATE[r.format_status];
    out.set(Number(r.work_id), {
      status,
      statusName: nationalStateName(status),
      name: entryFields(r.fields).name,
      contestId: r.contest_id,
      contestName: r.contest_name,
      contestLevel: r.level,
    });
  }
  return out;
}
