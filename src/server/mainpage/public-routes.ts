/**
 * The public main page's routes (/Backend/Public/mainpage/…, anonymous: config.access "public"),
 * answered with ETag/Last-Modified revalidation (./http-cache.ts). Registered from routes.ts.
 */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import {
  Article,
  ArticleItem,
  BestWorkCard,
  EditionItem,
  Home,
  IdParam,
  Intro,
  NoticeQuery,
  PageQuery,
  PublicWork,
  ResultItem,
  ResultOptions,
  ResultQuery,
} from "../../shared/mainpage/schema";
import { sendCached } from "./http-cache";
import {
  articleById,
  articles,
  bestWorks,
  editions,
  home,
  intro,
  publicCover,
  publicWork,
  resultOptions,
  results,
} from "./public";
import { tags, PUB, NEWS_TABLES, RESULT_TABLES, BEST_TABLES, type MainpageRouteKit } from "./route-kit";

/** Home, news, notices and the contest introduction. */
export function mainpageArticleRoutes(kit: MainpageRouteKit) {
  const { r, db, pub } = kit;
  r.get(
    `${PUB}/home`,
    {
      schema: {
        tags,
        summary: "首页：本届赛事的阶段时间线（标出当前阶段）、最新新闻与通知、优秀作品",
        response: { 200: Envelope(Home) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, ["contest_stage", ...BEST_TABLES, ...NEWS_TABLES], () => home(db)),
  );

  r.get(
    `${PUB}/news`,
    {
      schema: {
        tags,
        summary: "新闻（全平台），最新在前，分页",
        querystring: PageQuery,
        response: { 200: Envelope(Page(ArticleItem)) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, NEWS_TABLES, () => articles(db, "news", req.query)),
  );

  r.get(
    `${PUB}/news/:id`,
    {
      schema: { tags, summary: "一篇新闻", params: IdParam, response: { 200: Envelope(Article) } },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, NEWS_TABLES, () => articleById(db, "news", req.params.id)),
  );

  r.get(
    `${PUB}/notices`,
    {
      schema: {
        tags,
        summary: "通知公告（各赛事发布的），可按赛事级别和省份筛选，分页",
        querystring: NoticeQuery,
        response: { 200: Envelope(Page(ArticleItem)) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, NEWS_TABLES, () => articles(db, "notice", req.query)),
  );

  r.get(
    `${PUB}/notices/:id`,
    {
      schema: { tags, summary: "一篇通知公告", params: IdParam, response: { 200: Envelope(Article) } },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, NEWS_TABLES, () => articleById(db, "notice", req.params.id)),
  );

  r.get(
    `${PUB}/intro`,
    {
      schema: { tags, summary: "赛事介绍：本届赛事、作品大类与小类、评分标准", response: { 200: Envelope(Intro) } },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, ["contest", "contest_stage", "work_category", "rubric_item"], () => intro(db)),
  );
}

/** Award lists and their filters, published best works (and covers), a work's public page, past editions. */
export function mainpageResultRoutes(kit: MainpageRouteKit) {
  const { r, db, store, pub } = kit;
  r.get(
    `${PUB}/results`,
    {
      schema: {
        tags,
        summary: "获奖名单：已发布结果的获奖作品，可按赛事、大类、奖项筛选，按作品、学校或作者搜索，分页",
        querystring: ResultQuery,
        response: { 200: Envelope(Page(ResultItem)) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, RESULT_TABLES, () => results(db, req.query)),
  );

  r.get(
    `${PUB}/results/options`,
    {
      schema: { tags, summary: "获奖名单的筛选项：有已发布结果的赛事、大类、奖项", response: { 200: Envelope(ResultOptions) } },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, RESULT_TABLES, () => resultOptions(db)),
  );

  r.get(
    `${PUB}/best-works`,
    {
      schema: {
        tags,
        summary: "优秀作品（已发布的），按设定顺序，分页",
        querystring: PageQuery,
        response: { 200: Envelope(Page(BestWorkCard)) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, BEST_TABLES, () => bestWorks(db, req.query)),
  );

  r.get(
    `${PUB}/best-work/:id/cover`,
    {
      schema: {
        tags,
        summary: "已发布优秀作品的封面图片",
        params: IdParam,
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
      config: pub,
    },
    async (req, reply) => {
      const c = await publicCover(db, req.params.id);
      return reply
        .header("content-type", c.mime)
        .header("cache-control", "public, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .send(await store.get(c.sha256));
    },
  );

  r.get(
    `${PUB}/works/:id`,
    {
      schema: {
        tags,
        summary: "作品的公开页：已公布的获奖和优秀作品展示",
        params: IdParam,
        response: { 200: Envelope(PublicWork) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, BEST_TABLES, () => publicWork(db, req.params.id)),
  );

  r.get(
    `${PUB}/editions`,
    {
      schema: {
        tags,
        summary: "往届赛事：本届以前各年度的赛事及已发布的获奖数，分页",
        querystring: PageQuery,
        response: { 200: Envelope(Page(EditionItem)) },
      },
      config: pub,
    },
    (req, reply) => sendCached(db, req, reply, RESULT_TABLES, () => editions(db, req.query)),
  );
}
