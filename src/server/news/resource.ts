/**
 * News: root writes national (platform) news and news of any contest; a contest admin
 * only news of the own contests. A published item appears publicly from publish_at on
 * (set to now when published without a time; a future time schedules it).
 */
import { sql } from "kysely";
import { invalid } from "../../shared/errors";
import {
  NewsCreate,
  NewsFilters,
  NewsUpdate,
  NewsView,
  type NewsStatus,
  type NewsCreate as TCreate,
  type NewsUpdate as TUpdate,
  type NewsView as TView,
} from "../../shared/news/schema";
import type { Db } from "../db";
import type { Ctx, ResourceDef } from "../crud/resource";
import { assertContestWritable, contestScopeFilter } from "../notice/contest-scope";
import { isBlankRichText, sanitizeRichText } from "../richtext/sanitize";
import { cleanCover } from "./cover";

const COLUMNS = [
  "news.id",
  "news.contest_id",
  "contest.name as contest_name",
  "news.title",
  "news.cover",
  "news.status",
  "news.publish_at",
  "news.created_by",
  "app_user.name as created_by_name",
  "news.created_at",
  "news.updated_at",
] as const;

const base = (db: Db, withBody: boolean) => {
  const q = db
    .selectFrom("news")
    .leftJoin("contest", "contest.id", "news.contest_id")
    .leftJoin("app_user", "app_user.id", "news.created_by")
    .select(COLUMNS);
  return withBody ? q.select("news.body") : q;
};

type Selected = {
  id: number;
  contest_id: number | null;
  contest_name: string | null;
  title: string;
  body?: string;
  cover: string | null;
  status: NewsStatus;
  publish_at: string | null;
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  updated_at: string;
};

const toView = (r: Selected): TView => ({
  id: r.id,
  contestId: r.contest_id,
  contestName: r.contest_name,
  title: r.title,
  ...(r.body !== undefined ? { body: r.body } : {}),
  cover: r.cover,
  status: r.status,
  publishAt: r.publish_at,
  createdBy: r.created_by,
  createdByName: r.created_by_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SORT: Record<string, string> = {
  id: "news.id",
  title: "news.title",
  status: "news.status",
  publishAt: "news.publish_at",
  createdAt: "news.created_at",
  updatedAt: "news.updated_at",
};

function cleanTitle(title: string) {
  const t = title.trim();
  if (!t) throw invalid("title", "标题不能为空");
  return t;
}

function cleanBody(html: string) {
  const clean = sanitizeRichText(html);
  if (isBlankRichText(clean)) throw invalid("body", "正文不能为空");
  return clean;
}

/** ISO times compare as text only in one form: UTC with milliseconds. */
const isoOf = (t: string | null | undefined) => (t ? new Date(t).toISOString() : null);

/** A published item gets a time (now unless scheduled); going back to draft clears it unless one is given. */
function publishTime(status: NewsStatus, given: string | null | undefined, before?: TView): string | null {
  if (given !== undefined) return isoOf(given) ?? (status === "published" ? new Date().toISOString() : null);
  if (status === "published")
    return before?.status === "published" && before.publishAt ? before.publishAt : new Date().toISOString();
  return before?.status === "draft" ? before.publishAt : null;
}

const get = async (ctx: Ctx, id: number) => {
  const r = (await base(ctx.db, true)
    .where("news.id", "=", id)
    .where(await contestScopeFilter(ctx, "news"))
    .executeTakeFirst()) as Selected | undefined;
  return r && toView(r);
};

export const newsResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.news",
  entity: "news",
  label: "新闻",
  path: "/Backend/Admin/news",
  tags: ["新闻"],
  view: NewsView,
  createSchema: NewsCreate,
  updateSchema: NewsUpdate,
  filters: NewsFilters,
  sortable: Object.keys(SORT),
  rest: { table: "news", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    // The list leaves out the body: a page of rich text with inline images would be large.
    let q = base(ctx.db, false).where(await contestScopeFilter(ctx, "news"));
    const f = filters as { keyword?: string; status?: NewsStatus; contestId?: number; platform?: boolean };
    if (f.status) q = q.where("news.status", "=", f.status);
    if (f.contestId) q = q.where("news.contest_id", "=", f.contestId);
    if (f.platform !== undefined) q = q.where("news.contest_id", f.platform ? "is" : "is not", null);
    if (f.keyword?.trim()) {
      const kw = `%${f.keyword.trim()}%`;
      q = q.where((eb) => eb.or([eb("news.title", "like", kw), eb("news.body", "like", kw)]));
    }
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length ? sort : ([["updatedAt", "desc"]] as const))
      page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("news.id", "desc").offset(offset).limit(limit).execute()) as Selected[];
    return { list: rows.map(toView), total: Number(total.n) };
  },

  get,

  async create(ctx, trx, input) {
    const contestId = input.contestId ?? null;
    await assertContestWritable(ctx, contestId, "新闻");
    const status = input.status ?? "draft";
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto("news")
      .values({
        contest_id: contestId,
        title: cleanTitle(input.title),
        body: cleanBody(input.body),
        cover: cleanCover(input.cover),
        status,
        publish_at: publishTime(status, input.publishAt),
        created_by: ctx.user.id,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await get(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    await assertContestWritable(ctx, before.contestId, "新闻");
    const contestId = input.contestId === undefined ? before.contestId : input.contestId;
    if (contestId !== before.contestId) await assertContestWritable(ctx, contestId, "新闻");
    const status = input.status ?? before.status;
    const next = {
      contest_id: contestId,
      title: input.title === undefined ? before.title : cleanTitle(input.title),
      body: input.body === undefined ? before.body! : cleanBody(input.body),
      cover: input.cover === undefined ? before.cover : cleanCover(input.cover),
      status,
      publish_at: publishTime(status, input.publishAt, before),
    };
    const same =
      next.contest_id === before.contestId &&
      next.title === before.title &&
      next.body === before.body &&
      next.cover === before.cover &&
      next.status === before.status &&
      next.publish_at === before.publishAt;
    if (same) return before;
    await trx
      .updateTable("news")
      .set({ ...next, updated_at: new Date().toISOString() })
      .where("id", "=", before.id)
      .execute();
    return (await get(ctx, before.id))!;
  },

  async remove(ctx, trx, before) {
    await assertContestWritable(ctx, before.contestId, "新闻");
    await trx.deleteFrom("news").where("id", "=", before.id).execute();
    return "deleted";
  },
};
