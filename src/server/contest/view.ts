/** Reading contests: one scoped query for rows, then stages and members of the page in two more. */
import { sql, type SelectQueryBuilder } from "kysely";
import type { ContestView } from "../../shared/contest/schema";
import { STAGE_KEYS, type StageKey } from "../../shared/contest/stages";
import type { DB } from "../db/schema";
import type { Ctx, ListQuery } from "../crud/resource";
import { adminContestIds } from "../scope";

type Q = SelectQueryBuilder<DB & { p: DB["contest"] }, "contest" | "p" | "school", object>;

export const SORT: Record<string, string> = {
  id: "contest.id",
  code: "contest.code",
  name: "contest.name",
  year: "contest.year",
  level: "contest.level",
  province: "contest.province",
  updatedAt: "contest.updated_at",
};

interface Row {
  id: number;
  code: string | null;
  name: string;
  level: ContestView["level"];
  year: number;
  parent_id: number | null;
  parent_name: string | null;
  parent_code: string | null;
  province: string | null;
  school_id: number | null;
  school_name: string | null;
  school_code: string | null;
  description: string | null;
  categories: string;
  recommend_quota: number | null;
  category_quotas: string;
  archived: number;
  updated_at: string;
  child_count: number | string | null;
}

const base = (ctx: Ctx) =>
  ctx.db
    .selectFrom("contest")
    .leftJoin("contest as p", "p.id", "contest.parent_id")
    .leftJoin("school", "school.id", "contest.school_id")
    .select([
      "contest.id",
      "contest.code",
      "contest.name",
      "contest.level",
      "contest.year",
      "contest.parent_id",
      "p.name as parent_name",
      "p.code as parent_code",
      "contest.province",
      "contest.school_id",
      "school.name as school_name",
      "school.code as school_code",
      "contest.description",
      "contest.categories",
      "contest.recommend_quota",
      "contest.category_quotas",
      "contest.archived",
      "contest.updated_at",
    ])
    .select((eb) =>
      eb
        .selectFrom("contest as c")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("c.parent_id", "=", eb.ref("contest.id"))
        .as("child_count"),
    ) as unknown as Q;

/** Contest rows the user may see: root all, a contest admin the own contests and their descendants. */
export async function scopedQuery(ctx: Ctx): Promise<Q> {
  const ids = await adminContestIds(ctx.db, ctx.user);
  const q = base(ctx);
  if (ids === "all") return q;
  return ids.length ? q.where("contest.id", "in", ids) : q.where(sql<boolean>`1 = 0`);
}

function applyFilters(q: Q, f: Record<string, unknown>): Q {
  const { keyword, level, year, parentId, province, archived } = f as {
    keyword?: string;
    level?: string;
    year?: number;
    parentId?: number;
    province?: string;
    archived?: boolean;
  };
  if (keyword?.trim()) {
    const kw = `%${keyword.trim()}%`;
    q = q.where((eb) => eb.or([eb("contest.name", "like", kw), eb("contest.code", "like", kw)]));
  }
  if (level) q = q.where("contest.level", "=", level as ContestView["level"]);
  if (year !== undefined) q = q.where("contest.year", "=", year);
  if (parentId !== undefined) q = q.where("contest.parent_id", "=", parentId);
  if (province) q = q.where("contest.province", "=", province);
  if (archived !== undefined) q = q.where("contest.archived", "=", archived ? 1 : 0);
  return q;
}

async function categoryNames(ctx: Ctx): Promise<Map<number, string>> {
  const rows = await ctx.db.selectFrom("work_category").select(["id", "name"]).where("parent_id", "is", null).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Rows → views, loading the stages, members and category names they need. */
export async function toViews(ctx: Ctx, rows: Row[]): Promise<ContestView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const stages = await ctx.db
    .selectFrom("contest_stage")
    .select(["contest_id", "stage", "starts_at", "ends_at"])
    .where("contest_id", "in", ids)
    .execute();
  const members = await ctx.db
    .selectFrom("contest_member")
    .innerJoin("app_user", "app_user.id", "contest_member.user_id")
    .select(["contest_member.contest_id", "contest_member.role", "app_user.id", "app_user.name", "app_user.username"])
    .where("contest_member.contest_id", "in", ids)
    .where("contest_member.role", "in", ["admin", "reviewer"])
    .orderBy("app_user.id")
    .execute();
  const names = await categoryNames(ctx);
  const order = (s: StageKey) => STAGE_KEYS.indexOf(s);
  return rows.map((r) => {
    const categories = JSON.parse(r.categories) as number[];
    const quotas = JSON.parse(r.category_quotas) as Record<string, number>;
    const mine = members.filter((m) => m.contest_id === r.id);
    const ref = (m: (typeof members)[number]) => ({ id: m.id, name: m.name, username: m.username });
    return {
      id: r.id,
      code: r.code ?? `${r.year}-${r.id}`,
      name: r.name,
      level: r.level,
      year: r.year,
      parentId: r.parent_id,
      parentName: r.parent_name,
      parentCode: r.parent_code,
      province: r.province,
      schoolId: r.school_id,
      schoolName: r.school_name,
      schoolCode: r.school_code,
      description: r.description,
      categories,
      categoryNames: categories.map((id) => names.get(id) ?? `#${id}`),
      stages: stages
        .filter((s) => s.contest_id === r.id)
        .sort((a, b) => order(a.stage) - order(b.stage))
        .map((s) => ({ stage: s.stage, startsAt: s.starts_at, endsAt: s.ends_at })),
      recommendQuota: r.recommend_quota,
      categoryQuotas: Object.entries(quotas).map(([id, quota]) => ({
        categoryId: Number(id),
        categoryName: names.get(Number(id)) ?? `#${id}`,
        quota,
      })),
      childCount: Number(r.child_count ?? 0),
      admins: mine.filter((m) => m.role === "admin").map(ref),
      reviewers: mine.filter((m) => m.role === "reviewer").map(ref),
      archived: !!r.archived,
      updatedAt: r.updated_at,
    };
  });
}

export async function listContests(ctx: Ctx, { filters, sort, offset, limit }: ListQuery) {
  const q = applyFilters(await scopedQuery(ctx), filters);
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  let page = q;
  const order: [string, "asc" | "desc"][] = sort.length
    ? sort
    : [
        ["year", "desc"],
        ["level", "asc"],
        ["province", "asc"],
        ["name", "asc"],
      ];
  for (const [field, dir] of order) page = page.orderBy(sql.ref(SORT[field]), dir);
  const rows = (await page.orderBy("contest.id").offset(offset).limit(limit).execute()) as unknown as Row[];
  return { list: await toViews(ctx, rows), total: Number((total as { n: number }).n) };
}

export async function getContest(ctx: Ctx, id: number): Promise<ContestView | undefined> {
  const rows = (await (await scopedQuery(ctx)).where("contest.id", "=", id).execute()) as unknown as Row[];
  return (await toViews(ctx, rows))[0];
}

/** Visible contests by code; used by import to tell "new" from "out of scope". */
export async function contestsByCodes(ctx: Ctx, codes: string[]): Promise<ContestView[]> {
  if (!codes.length) return [];
  const rows = (await (await scopedQuery(ctx)).where("contest.code", "in", codes).execute()) as unknown as Row[];
  return toViews(ctx, rows);
}

/** The contests the user is an admin of (not their descendants). */
export async function ownContests(ctx: Ctx): Promise<ContestView[]> {
  const q = base(ctx)
    .where(
      "contest.id",
      "in",
      ctx.db.selectFrom("contest_member").select("contest_id").where("user_id", "=", ctx.user.id).where("role", "=", "admin"),
    )
    .orderBy("contest.year", "desc")
    .orderBy("contest.id");
  return toViews(ctx, (await q.execute()) as unknown as Row[]);
}
