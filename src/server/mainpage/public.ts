/**
 * The public main page's reads (issue 14): only what is published. News and notices are the
 * news items whose publish time has come (src/server/news/routes.ts `visible`): 新闻 are the
 * platform's (no contest), 通知公告 those of a contest (filtered by its level and province).
 * Results: awards of contests whose result publication is in force (not withdrawn), with the
 * work, category, school and the author and teacher names as on the award list: no scores,
 * no judges, no contact data. Best works: published rows whose award is still published.
 */
import { sql } from "kysely";
import { notFound } from "../../shared/errors";
import { CONTEST_LEVEL_NAMES, STAGE_NAMES, currentStage, type StageKey } from "../../shared/contest/stages";
import type {
  ArticleItem,
  BestWorkCard,
  CategoryIntro,
  Edition,
  EditionItem,
  Home,
  Intro,
  PageOf,
  PublicWork,
  ResultItem,
  ResultOptions,
} from "../../shared/mainpage/schema";
import type { Db } from "../db";
import { visible } from "../news/routes";
import { plainText } from "../richtext/sanitize";
import { resultsPublished } from "../judging/service/results/publish";

export interface PageArgs {
  current?: number;
  pageSize?: number;
}
const paging = (p: PageArgs) => {
  const size = p.pageSize ?? 10;
  return { offset: ((p.current ?? 1) - 1) * size, limit: size };
};

// ---- News and notices

const ARTICLE_COLUMNS = [
  "news.id",
  "news.title",
  "news.cover",
  "news.publish_at",
  "news.contest_id",
  "contest.name as contest_name",
  "contest.level as contest_level",
  "contest.province",
] as const;
type ArticleRow = {
  id: number;
  title: string;
  cover: string | null;
  publish_at: string | null;
  contest_id: number | null;
  contest_name: string | null;
  contest_level: "national" | "provincial" | "school" | null;
  province: string | null;
  head: string;
};

const article = (r: ArticleRow, listCover = true): ArticleItem => ({
  id: r.id,
  title: r.title,
  publishAt: r.publish_at!,
  summary: plainText(r.head, 120),
  // Inline (data:) covers can be half a megabyte: lists carry only image addresses.
  cover: r.cover && (!listCover || /^https?:/i.test(r.cover)) ? r.cover : null,
  contestId: r.contest_id,
  contestName: r.contest_name,
  contestLevel: r.contest_level,
  province: r.province,
});

export async function articles(
  db: Db,
  kind: "news" | "notice",
  p: PageArgs & { level?: "national" | "provincial" | "school"; province?: string },
): Promise<PageOf<ArticleItem>> {
  let q = visible(db).where("news.contest_id", kind === "news" ? "is" : "is not", null);
  if (kind === "notice" && p.level) q = q.where("contest.level", "=", p.level);
  if (kind === "notice" && p.province?.trim()) q = q.where("contest.province", "=", p.province.trim());
  const { offset, limit } = paging(p);
  const [total, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    q
      .select(ARTICLE_COLUMNS)
      .select(sql<string>`substr(news.body, 1, 4000)`.as("head"))
      .orderBy("news.publish_at", "desc")
      .orderBy("news.id", "desc")
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return { list: (rows as ArticleRow[]).map((r) => article(r)), total: Number(total.n) };
}

export async function articleById(db: Db, kind: "news" | "notice", id: number) {
  const row = await visible(db)
    .where("news.contest_id", kind === "news" ? "is" : "is not", null)
    .where("news.id", "=", id)
    .select(ARTICLE_COLUMNS)
    .select("news.body")
    .executeTakeFirst();
  if (!row) throw notFound(kind === "news" ? "新闻不存在或尚未发布" : "通知不存在或尚未发布");
  return { ...article({ ...row, head: row.body } as ArticleRow, false), body: row.body };
}

// ---- The current edition

/** The current edition: the national contest of the latest year (else any contest of it). */
export async function currentEdition(db: Db): Promise<Edition | null> {
  const c = await db
    .selectFrom("contest")
    .select(["id", "name", "year", "level", "description"])
    .where("archived", "=", 0)
    .orderBy("year", "desc")
    .orderBy(sql`case level when 'national' then 0 when 'provincial' then 1 else 2 end`)
    .orderBy("id")
    .executeTakeFirst();
  if (!c) return null;
  const stages = await db
    .selectFrom("contest_stage")
    .select(["stage", "starts_at", "ends_at"])
    .where("contest_id", "=", c.id)
    .orderBy("starts_at")
    .execute();
  const times = stages.map((s) => ({ stage: s.stage as StageKey, startsAt: s.starts_at, endsAt: s.ends_at }));
  return {
    id: c.id,
    name: c.name,
    year: c.year,
    level: c.level,
    description: c.description,
    stages: times.map((s) => ({ ...s, name: STAGE_NAMES[s.stage] ?? s.stage })),
    currentStage: currentStage(times),
  };
}

// ---- Results

const awards = (db: Db) =>
  db
    .selectFrom("contest_result")
    .innerJoin("contest", "contest.id", "contest_result.contest_id")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .innerJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .innerJoin("work_category", "work_category.id", "work.category_id")
    .innerJoin("school", "school.id", "work.school_id")
    .where(resultsPublished("contest_result.contest_id"));

const RESULT_COLUMNS = [
  "work.id as work_id",
  "work.name as work_name",
  "contest.id as contest_id",
  "contest.name as contest_name",
  "contest.year",
  "work_category.name as category_name",
  "award_level.name as award_name",
  "school.name as school_name",
  "work.author_names",
  "work.teacher_names",
] as const;
type ResultRow = {
  work_id: number;
  work_name: string;
  contest_id: number;
  contest_name: string;
  year: number;
  category_name: string;
  award_name: string;
  school_name: string;
  author_names: string;
  teacher_names: string;
};
const resultItem = (r: ResultRow): ResultItem => ({
  workId: r.work_id,
  workName: r.work_name,
  contestId: r.contest_id,
  contestName: r.contest_name,
  year: r.year,
  categoryName: r.category_name,
  awardName: r.award_name,
  schoolName: r.school_name,
  authorNames: r.author_names,
  teacherNames: r.teacher_names,
});

export interface ResultFilters extends PageArgs {
  contestId?: number;
  categoryId?: number;
  awardLevelId?: number;
  keyword?: string;
}

export function filteredAwards(db: Db, f: ResultFilters) {
  let q = awards(db);
  if (f.contestId) q = q.where("contest.id", "=", f.contestId);
  if (f.categoryId) q = q.where("work.category_id", "=", f.categoryId);
  if (f.awardLevelId) q = q.where("award_level.id", "=", f.awardLevelId);
  const kw = f.keyword?.trim();
  if (kw) {
    const like = `%${kw.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`work.name like ${like} escape '\\'`,
        sql<boolean>`school.name like ${like} escape '\\'`,
        sql<boolean>`work.author_names like ${like} escape '\\'`,
      ]),
    );
  }
  return q;
}

export async function results(db: Db, f: ResultFilters): Promise<PageOf<ResultItem>> {
  const q = filteredAwards(db, f);
  const { offset, limit } = paging(f);
  const [total, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    q
      .select(RESULT_COLUMNS)
      .orderBy("contest.year", "desc")
      .orderBy("contest.id")
      .orderBy("award_level.sort")
      .orderBy("contest_result.rank")
      .orderBy("work.id")
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return { list: (rows as ResultRow[]).map(resultItem), total: Number(total.n) };
}

export async function resultOptions(db: Db): Promise<ResultOptions> {
  const [contests, categories, levels] = await Promise.all([
    awards(db)
      .select(["contest.id", "contest.name", "contest.year"])
      .distinct()
      .orderBy("contest.year", "desc")
      .orderBy("contest.id")
      .execute(),
    awards(db)
      .select(["work_category.id", "work_category.name", "work_category.sort"])
      .distinct()
      .orderBy("work_category.sort")
      .orderBy("work_category.id")
      .execute(),
    awards(db)
      .select(["award_level.id", "award_level.name", "award_level.sort", "contest.level"])
      .distinct()
      .orderBy("award_level.sort")
      .orderBy("award_level.id")
      .execute(),
  ]);
  return {
    contests: contests.map((c) => ({ id: c.id, name: c.name, year: c.year })),
    categories: categories.map((c) => ({ id: c.id, name: c.name })),
    awards: levels.map((a) => ({ id: a.id, name: `${CONTEST_LEVEL_NAMES[a.level]}${a.name}` })),
  };
}

// ---- Best works

export const coverUrl = (id: number, sha: string | null) =>
  sha ? `/Backend/Public/mainpage/best-work/${id}/cover?v=${sha.slice(0, 16)}` : null;

export function bestWorkBase(db: Db) {
  return db
    .selectFrom("best_work")
    .innerJoin("work", "work.id", "best_work.work_id")
    .innerJoin("contest", "contest.id", "best_work.contest_id")
    .innerJoin("work_category", "work_category.id", "work.category_id")
    .innerJoin("school", "school.id", "work.school_id")
    .leftJoin("contest_result", (j) =>
      j.onRef("contest_result.work_id", "=", "best_work.work_id").onRef("contest_result.contest_id", "=", "best_work.contest_id"),
    )
    .leftJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .select([
      "best_work.id",
      "best_work.work_id",
      "work.name as work_name",
      "contest.name as contest_name",
      "contest.year",
      "contest.level",
      "work_category.name as category_name",
      "award_level.name as award_name",
      "school.name as school_name",
      "work.author_names",
      "best_work.text",
      "work.summary",
      "best_work.cover_sha256",
      "best_work.video_url",
      "best_work.sort",
      "best_work.published",
      "best_work.published_at",
      "best_work.updated_at",
    ]);
}
export type BestWorkRow = {
  id: number;
  work_id: number;
  work_name: string;
  contest_name: string;
  year: number;
  level: "national" | "provincial" | "school";
  category_name: string;
  award_name: string | null;
  school_name: string;
  author_names: string;
  text: string;
  summary: string | null;
  cover_sha256: string | null;
  video_url: string | null;
  sort: number;
  published: number;
  published_at: string | null;
  updated_at: string;
};

export const bestWorkCard = (r: BestWorkRow): BestWorkCard => ({
  id: r.id,
  workId: r.work_id,
  workName: r.work_name,
  contestName: r.contest_name,
  year: r.year,
  categoryName: r.category_name,
  awardName: r.award_name ? `${CONTEST_LEVEL_NAMES[r.level]}${r.award_name}` : null,
  schoolName: r.school_name,
  authorNames: r.author_names,
  text: r.text,
  summary: r.summary ? plainText(r.summary, 300) : null,
  coverUrl: coverUrl(r.id, r.cover_sha256),
  videoUrl: r.video_url,
});

/** Published best works whose award is still published, in the chosen order. */
const publicBest = (db: Db) =>
  bestWorkBase(db)
    .where("best_work.published", "=", 1)
    .where("contest_result.award_level_id", "is not", null)
    .where(resultsPublished("contest_result.contest_id"));

export async function bestWorks(db: Db, p: PageArgs): Promise<PageOf<BestWorkCard>> {
  const { offset, limit } = paging(p);
  const [total, rows] = await Promise.all([
    publicBest(db)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    publicBest(db).orderBy("best_work.sort").orderBy("best_work.id").offset(offset).limit(limit).execute(),
  ]);
  return { list: (rows as BestWorkRow[]).map(bestWorkCard), total: Number(total.n) };
}

/** A published best work's cover (sha and type), or 404. */
export async function publicCover(db: Db, id: number) {
  const row = await publicBest(db)
    .where("best_work.id", "=", id)
    .clearSelect()
    .select(["best_work.cover_sha256", "best_work.cover_mime"])
    .executeTakeFirst();
  if (!row?.cover_sha256) throw notFound("图片不存在");
  return { sha256: row.cover_sha256, mime: row.cover_mime ?? "image/png" };
}

// ---- A work's public page

export async function publicWork(db: Db, workId: number): Promise<PublicWork> {
  const [aw, best] = await Promise.all([
    awards(db)
      .where("work.id", "=", workId)
      .select(["contest.id", "contest.name", "contest.level", "award_level.name as award_name"])
      .orderBy("contest.year", "desc")
      .execute(),
    publicBest(db).where("best_work.work_id", "=", workId).executeTakeFirst(),
  ]);
  if (!aw.length && !best) throw notFound("作品不存在或尚未公布获奖");
  const w = await db
    .selectFrom("work")
    .innerJoin("work_category", "work_category.id", "work.category_id")
    .innerJoin("school", "school.id", "work.school_id")
    .select([
      "work.id",
      "work.name",
      "work.year",
      "work_category.name as category_name",
      "school.name as school_name",
      "work.author_names",
      "work.teacher_names",
      "work.summary",
    ])
    .where("work.id", "=", workId)
    .executeTakeFirstOrThrow();
  const card = best ? bestWorkCard(best as BestWorkRow) : null;
  return {
    workId: w.id,
    name: w.name,
    year: w.year,
    categoryName: w.category_name,
    schoolName: w.school_name,
    authorNames: w.author_names,
    teacherNames: w.teacher_names,
    summary: w.summary ? plainText(w.summary, 2000) : null,
    awards: aw.map((a) => ({
      contestId: a.id,
      contestName: a.name,
      awardName: `${CONTEST_LEVEL_NAMES[a.level]}${a.award_name}`,
    })),
    bestWork: card && { text: card.text, coverUrl: card.coverUrl, videoUrl: card.videoUrl },
  };
}

// ---- Sections

export async function home(db: Db): Promise<Home> {
  const [edition, news, notices, best, provinces] = await Promise.all([
    currentEdition(db),
    articles(db, "news", { pageSize: 6 }),
    articles(db, "notice", { pageSize: 6 }),
    bestWorks(db, { pageSize: 4 }),
    db.selectFrom("contest").select("province").distinct().where("province", "is not", null).orderBy("province").execute(),
  ]);
  return {
    edition,
    news: news.list,
    notices: notices.list,
    bestWorks: best.list,
    provinces: provinces.map((p) => p.province!).filter(Boolean),
  };
}

export async function intro(db: Db): Promise<Intro> {
  const edition = await currentEdition(db);
  const contest = edition
    ? await db.selectFrom("contest").select("categories").where("id", "=", edition.id).executeTakeFirst()
    : undefined;
  const open: number[] = (() => {
    try {
      return JSON.parse(contest?.categories ?? "[]");
    } catch {
      return [];
    }
  })();
  const q = db
    .selectFrom("work_category")
    .select(["id", "name", "description", "min_authors", "max_authors", "max_teachers", "parent_id"])
    .where("archived", "=", 0);
  const all = await q.orderBy("sort").orderBy("id").execute();
  const tops = all.filter((c) => c.parent_id === null && (!open.length || open.includes(c.id)));
  const rubric = tops.length
    ? await db
        .selectFrom("rubric_item")
        .select(["category_id", "name", "max_points", "description"])
        .where(
          "category_id",
          "in",
          tops.map((t) => t.id),
        )
        .orderBy("sort")
        .orderBy("id")
        .execute()
    : [];
  const categories: CategoryIntro[] = tops.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    minAuthors: t.min_authors,
    maxAuthors: t.max_authors,
    maxTeachers: t.max_teachers,
    subcategories: all.filter((c) => c.parent_id === t.id).map((c) => ({ id: c.id, name: c.name })),
    rubric: rubric
      .filter((r) => r.category_id === t.id)
      .map((r) => ({ name: r.name, maxPoints: Number(r.max_points), description: r.description })),
  }));
  void q;
  return { edition, categories };
}

/** Earlier editions: contests of the years before the current edition, with their published award count. */
export async function editions(db: Db, p: PageArgs): Promise<PageOf<EditionItem>> {
  const edition = await currentEdition(db);
  const before = edition?.year ?? 9999;
  const q = db.selectFrom("contest").where("year", "<", before);
  const { offset, limit } = paging(p);
  const [total, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    q
      .select(["contest.id", "contest.name", "contest.year", "contest.level", "contest.province"])
      .select((eb) =>
        eb
          .selectFrom("contest_result")
          .whereRef("contest_result.contest_id", "=", "contest.id")
          .where("contest_result.award_level_id", "is not", null)
          .where(resultsPublished("contest_result.contest_id"))
          .select((e) => e.fn.countAll<number>().as("c"))
          .as("awards"),
      )
      .orderBy("contest.year", "desc")
      .orderBy(sql`case contest.level when 'national' then 0 when 'provincial' then 1 else 2 end`)
      .orderBy("contest.id")
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return {
    list: rows.map((r) => ({
      id: r.id,
      name: r.name,
      year: r.year,
      level: r.level,
      province: r.province,
      awards: Number(r.awards ?? 0),
    })),
    total: Number(total.n),
  };
}
