/** Published news for the public pages: only items whose publish time has come (visible: also the main page, src/server/mainpage). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { sql } from "kysely";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import { notFound } from "../../shared/errors";
import { PublicNewsDetail, PublicNewsItem, PublicNewsQuery } from "../../shared/news/schema";
import type { Db } from "../db";
import { plainText } from "../richtext/sanitize";
import { MAX_ID } from "../../shared/bounds";

const tags = ["新闻"];
const SUMMARY_CHARS = 120;

export const visible = (db: Db) =>
  db
    .selectFrom("news")
    .leftJoin("contest", "contest.id", "news.contest_id")
    .where("news.status", "=", "published")
    .where("news.publish_at", "is not", null)
    .where("news.publish_at", "<=", new Date().toISOString());

const item = (r: {
  id: number;
  contest_id: number | null;
  contest_name: string | null;
  title: string;
  cover: string | null;
  publish_at: string | null;
  head: string;
}) => ({
  id: r.id,
  contestId: r.contest_id,
  contestName: r.contest_name,
  title: r.title,
  cover: r.cover,
  publishAt: r.publish_at!,
  summary: plainText(r.head, SUMMARY_CHARS),
});

const COLUMNS = [
  "news.id",
  "news.contest_id",
  "contest.name as contest_name",
  "news.title",
  "news.cover",
  "news.publish_at",
] as const;

export function newsPublicRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    "/Backend/Public/news",
    {
      schema: {
        tags,
        summary: "已发布的新闻（不带赛事时为全国/平台新闻），最新在前",
        querystring: PublicNewsQuery,
        response: { 200: Envelope(Page(PublicNewsItem)) },
      },
      config: { access: "public" },
    },
    async (req) => {
      const { contestId, current = 1, pageSize = 10 } = req.query;
      const q = contestId
        ? visible(db).where("news.contest_id", "=", contestId)
        : visible(db).where("news.contest_id", "is", null);
      const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const rows = await q
        .select(COLUMNS)
        // Enough of the body for a summary, without reading whole bodies with inline images.
        .select(sql<string>`substr(news.body, 1, 4000)`.as("head"))
        .orderBy("news.publish_at", "desc")
        .orderBy("news.id", "desc")
        .offset((current - 1) * pageSize)
        .limit(pageSize)
        .execute();
      return { error: 0, info: "成功", data: { list: rows.map(item), total: Number(total.n) } };
    },
  );

  r.get(
    "/Backend/Public/news/:id",
    {
      schema: {
        tags,
        summary: "一条已发布的新闻",
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "编号" }) }),
        response: { 200: Envelope(PublicNewsDetail) },
      },
      config: { access: "public" },
    },
    async (req) => {
      const row = await visible(db).select(COLUMNS).select("news.body").where("news.id", "=", req.params.id).executeTakeFirst();
      if (!row) throw notFound("新闻不存在或尚未发布");
      return { error: 0, info: "成功", data: { ...item({ ...row, head: row.body }), body: row.body } };
    },
  );
}
