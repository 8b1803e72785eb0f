/**
 * Notices: one per (section, contest) — a role's announcement or an explanation text.
 * Root: all, platform-wide and of any contest. Contest admin: only notices of the own
 * contests (contest required). A second notice for a taken slot is refused (409) with
 * the existing one's id, so the editor opens it instead: the audit log then says
 * "update", never a "create" that silently overwrote someone's text.
 */
import { sql } from "kysely";
import { DomainError, invalid } from "../../shared/errors";
import { NOTICE_SECTIONS, noticeSection, noticeSectionName } from "../../shared/notice/sections";
import {
  NoticeCreate,
  NoticeFilters,
  NoticeUpdate,
  NoticeView,
  type NoticeCreate as TCreate,
  type NoticeUpdate as TUpdate,
  type NoticeView as TView,
} from "../../shared/notice/schema";
import type { Db } from "../db";
import type { Ctx, ResourceDef } from "../crud/resource";
import { isBlankRichText, sanitizeRichText } from "../richtext/sanitize";
import { assertContestWritable, contestScopeFilter } from "./contest-scope";

const base = (db: Db) =>
  db
    .selectFrom("notice")
    .leftJoin("contest", "contest.id", "notice.contest_id")
    .leftJoin("app_user", "app_user.id", "notice.updated_by")
    .select([
      "notice.id",
      "notice.contest_id",
      "contest.name as contest_name",
      "notice.section",
      "notice.title",
      "notice.content",
      "notice.updated_at",
      "notice.updated_by",
      "app_user.name as updated_by_name",
    ]);

type Selected = {
  id: number;
  contest_id: number | null;
  contest_name: string | null;
  section: string;
  title: string;
  content: string;
  updated_at: string;
  updated_by: number | null;
  updated_by_name: string | null;
};

const toView = (r: Selected): TView => ({
  id: r.id,
  contestId: r.contest_id,
  contestName: r.contest_name,
  section: r.section,
  sectionName: noticeSectionName(r.section),
  title: r.title,
  content: r.content,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
  updatedByName: r.updated_by_name,
});

const SORT: Record<string, string> = {
  id: "notice.id",
  section: "notice.section",
  title: "notice.title",
  contestId: "notice.contest_id",
  updatedAt: "notice.updated_at",
};

function checkSection(key: string) {
  if (!noticeSection(key))
    throw invalid("section", `栏目「${key}」不存在，可选：${NOTICE_SECTIONS.map((s) => s.name).join("、")}`);
}

function cleanTitle(title: string) {
  const t = title.trim();
  if (!t) throw invalid("title", "标题不能为空");
  return t;
}

function cleanContent(html: string) {
  const clean = sanitizeRichText(html);
  if (isBlankRichText(clean)) throw invalid("content", "内容不能为空");
  return clean;
}

/** One notice per slot: a taken slot is refused, naming the notice to edit instead. */
async function ensureFree(ctx: Ctx, section: string, contestId: number | null, selfId?: number) {
  let q = ctx.db.selectFrom("notice").select("id").where("section", "=", section);
  q = contestId === null ? q.where("contest_id", "is", null) : q.where("contest_id", "=", contestId);
  if (selfId) q = q.where("id", "!=", selfId);
  const taken = await q.executeTakeFirst();
  if (taken) {
    const where = contestId === null ? "全平台" : "该赛事";
    throw new DomainError(409, `${where}的「${noticeSectionName(section)}」已存在（编号 ${taken.id}），请直接编辑它`, "section");
  }
}

export const noticeResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.notices",
  entity: "notice",
  label: "公告",
  path: "/Backend/Admin/notice",
  tags: ["公告与说明"],
  view: NoticeView,
  createSchema: NoticeCreate,
  updateSchema: NoticeUpdate,
  filters: NoticeFilters,
  sortable: Object.keys(SORT),
  rest: { table: "notice", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    let q = base(ctx.db).where(await contestScopeFilter(ctx, "notice"));
    const f = filters as { section?: string; contestId?: number; platform?: boolean; keyword?: string };
    if (f.section) q = q.where("notice.section", "=", f.section);
    if (f.contestId) q = q.where("notice.contest_id", "=", f.contestId);
    if (f.platform !== undefined) q = q.where("notice.contest_id", f.platform ? "is" : "is not", null);
    if (f.keyword?.trim()) {
      const kw = `%${f.keyword.trim()}%`;
      q = q.where((eb) => eb.or([eb("notice.title", "like", kw), eb("notice.content", "like", kw)]));
    }
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length
      ? sort
      : ([
          ["contestId", "asc"],
          ["section", "asc"],
        ] as const))
      page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("notice.id").offset(offset).limit(limit).execute()) as Selected[];
    return { list: rows.map(toView), total: Number(total.n) };
  },

  async get(ctx, id) {
    const r = (await base(ctx.db)
      .where("notice.id", "=", id)
      .where(await contestScopeFilter(ctx, "notice"))
      .executeTakeFirst()) as Selected | undefined;
    return r && toView(r);
  },

  async create(ctx, trx, input) {
    const contestId = input.contestId ?? null;
    checkSection(input.section);
    await assertContestWritable(ctx, contestId, "公告和说明");
    const title = cleanTitle(input.title);
    const content = cleanContent(input.content);
    await ensureFree(ctx, input.section, contestId);
    const { id } = await trx
      .insertInto("notice")
      .values({
        contest_id: contestId,
        section: input.section,
        title,
        content,
        updated_at: new Date().toISOString(),
        updated_by: ctx.user.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await noticeResource.get(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    await assertContestWritable(ctx, before.contestId, "公告和说明");
    const section = input.section ?? before.section;
    const contestId = input.contestId === undefined ? before.contestId : input.contestId;
    if (section !== before.section) checkSection(section);
    if (contestId !== before.contestId) await assertContestWritable(ctx, contestId, "公告和说明");
    if (section !== before.section || contestId !== before.contestId) await ensureFree(ctx, section, contestId, before.id);
    const title = input.title === undefined ? before.title : cleanTitle(input.title);
    const content = input.content === undefined ? before.content : cleanContent(input.content);
    // Saving unchanged text leaves the row (and the change log) as it was.
    if (section === before.section && contestId === before.contestId && title === before.title && content === before.content)
      return before;
    await trx
      .updateTable("notice")
      .set({ section, contest_id: contestId, title, content, updated_at: new Date().toISOString(), updated_by: ctx.user.id })
      .where("id", "=", before.id)
      .execute();
    return (await noticeResource.get(ctx, before.id))!;
  },

  async remove(ctx, trx, before) {
    await assertContestWritable(ctx, before.contestId, "公告和说明");
    await trx.deleteFrom("notice").where("id", "=", before.id).execute();
    return "deleted";
  },
};
