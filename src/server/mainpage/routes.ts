/**
 * The public main page's API (/Backend/Public/mainpage/…, anonymous: config.access "public")
 * with ETag/Last-Modified revalidation (./http-cache.ts), and the root's /admin/BestWork API
 * (/Backend/Admin/best-work…, casbin api.bestWork).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope, EmptyEnvelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import {
  Article,
  ArticleItem,
  BestWorkAdmin,
  BestWorkCard,
  BestWorkCreate,
  BestWorkOrder,
  BestWorkUpdate,
  Candidate,
  CandidateQuery,
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
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import { receiveImage } from "../storage/image-upload";
import type { AccessRule } from "../../shared/access";
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
import {
  COVER_MAX_BYTES,
  addBest,
  adminCover,
  candidates,
  listBest,
  orderBest,
  removeBest,
  setCover,
  updateBest,
} from "./best-work";
import { closeIfUnread } from "../plugins/uploads";

const tags = ["大赛主页"];
const adminTags = ["优秀作品"];
const ok = <T>(data: T, info = "成功") => ({ error: 0, info, data });
const PUB = "/Backend/Public/mainpage";
const ADM = "/Backend/Admin/best-work";

const NEWS_TABLES = ["news", "contest"];
const RESULT_TABLES = ["contest_result", "result_publication", "contest", "work", "award_level", "work_category", "school"];
const BEST_TABLES = ["best_work", ...RESULT_TABLES];

export function mainpageRoutes(app: FastifyInstance, deps: { db: Db; store: BlobStore }) {
  const { db, store } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const pub = { access: "public" as const };

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

  // ---- /admin/BestWork (root)

  const read = { access: ["api.bestWork", "read"] as AccessRule };
  const write = { access: ["api.bestWork", "update"] as AccessRule };

  r.get(
    ADM,
    {
      schema: {
        tags: adminTags,
        summary: "全部优秀作品（含未发布的），按顺序",
        response: { 200: Envelope(Type.Array(BestWorkAdmin)) },
      },
      config: read,
    },
    async () => ok(await listBest(db)),
  );

  r.get(
    `${ADM}/candidates`,
    {
      schema: {
        tags: adminTags,
        summary: "可选的作品：已发布结果的获奖作品，可按赛事、大类、奖项筛选",
        querystring: CandidateQuery,
        response: { 200: Envelope(Page(Candidate)) },
      },
      config: read,
    },
    async (req) => ok(await candidates(db, req.query)),
  );

  r.post(
    ADM,
    {
      schema: {
        tags: adminTags,
        summary: "选入优秀作品（作品须有已发布的奖项；选入后为未发布）",
        body: BestWorkCreate,
        response: { 200: Envelope(BestWorkAdmin), 409: EmptyEnvelope },
      },
      config: write,
    },
    async (req) => ok(await addBest(db, req.user!.id, req.body.workId), "已选入，设置封面和介绍后发布"),
  );

  r.put(
    `${ADM}/order`,
    {
      schema: {
        tags: adminTags,
        summary: "调整顺序：按给出的编号依次排列",
        body: BestWorkOrder,
        response: { 200: Envelope(Type.Array(BestWorkAdmin)) },
      },
      config: write,
    },
    async (req) => ok(await orderBest(db, req.user!.id, req.body.ids), "顺序已保存"),
  );

  r.put(
    `${ADM}/:id`,
    {
      schema: {
        tags: adminTags,
        summary: "修改简介、视频地址、顺序，发布或取消发布",
        params: IdParam,
        body: BestWorkUpdate,
        response: { 200: Envelope(BestWorkAdmin) },
      },
      config: write,
    },
    async (req) => {
      const out = await updateBest(db, req.user!.id, req.params.id, req.body);
      return ok(out, req.body.published === undefined ? "已保存" : out.published ? "已发布到优秀作品" : "已取消发布");
    },
  );

  r.delete(
    `${ADM}/:id`,
    {
      schema: { tags: adminTags, summary: "移出优秀作品", params: IdParam, response: { 200: EmptyEnvelope } },
      config: write,
    },
    async (req) => {
      await removeBest(db, req.user!.id, req.params.id);
      return { error: 0, info: "已移出" };
    },
  );

  r.post(
    `${ADM}/:id/cover`,
    {
      schema: {
        tags: adminTags,
        summary: "上传封面图片（multipart/form-data：file）；PNG 或 JPEG，不超过 5 MB",
        params: IdParam,
        consumes: ["multipart/form-data"],
        response: { 200: Envelope(BestWorkAdmin) },
      },
      config: write,
    },
    async (req, reply) => {
      try {
        return ok(
          await setCover(
            db,
            store,
            req.user!.id,
            req.params.id,
            await receiveImage(req, { what: "封面图片", maxBytes: COVER_MAX_BYTES }),
          ),
          "封面已上传",
        );
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.get(
    `${ADM}/:id/cover`,
    {
      schema: {
        tags: adminTags,
        summary: "封面图片（含未发布的）",
        params: IdParam,
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
      config: read,
    },
    async (req, reply) => {
      const c = await adminCover(db, req.params.id);
      return reply
        .header("content-type", c.mime)
        .header("cache-control", "private, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .send(await store.get(c.sha256));
    },
  );
}
