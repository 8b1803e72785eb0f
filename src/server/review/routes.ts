/**
 * Format review routes (/ContestReviewer/SelectContest, /ContestReviewer/Review/:contestId,
 * /reviewer/reviewDetail/:workId, /reviewer/fastReview/:contestId/startFrom/:startWorkId)
 * and the authors' resubmission. Contest reviewers, contest admins and root; the row
 * rules (which contest, which work) are in scope.ts and the works' rules.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { ListParams, Page } from "../../shared/crud/list";
import { FORMAT_REASONS } from "../../shared/review/reasons";
import {
  ContestIdParam,
  NeighbourQuery,
  Neighbours,
  OutcomeBody,
  OutcomeParam,
  OutcomeResult,
  Position,
  PositionBody,
  ReasonCatalogue,
  ReviewContest,
  ReviewFilters,
  ReviewListItem,
  ReviewSheet,
} from "../../shared/review/schema";
import { VersionBody, WorkIdParam } from "../../shared/work/schema";
import { TRANSITIONS, WORK_STATE_NAMES } from "../../shared/work/states";
import type { Db } from "../db";
import { transitionWork } from "../work/service/transition";
import { getPosition, giveOutcome, listReviewWorks, myReviewContests, neighbours, setPosition } from "./service";
import { reviewSheet } from "./sheet";
import { ok } from "../common/http";

const tags = ["形式审查"];
const P = "/Backend/Review";

const OUTCOME_INFO = {
  format_pass: "形式审查通过",
  format_return: "已退回作者修改",
  format_reject: "已判定不符合要求",
  format_reopen: "已撤销形式审查结论，作品回到待审查",
} as const;

const read = ["api.formReview", "read"] as const;
const update = ["api.formReview", "update"] as const;

export function reviewRoutes(app: FastifyInstance, db: Db) {
  reviewListRoutes(app, db);
  reviewSheetRoutes(app, db);
}

/** The reviewer's contests, the works to review, and fast review's neighbours and saved position. */
function reviewListRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    `${P}/reasons`,
    {
      schema: { tags, summary: "形式审查问题类型目录", response: { 200: Envelope(ReasonCatalogue) } },
      config: { access: read },
    },
    async () => ok(FORMAT_REASONS.map((x) => ({ ...x }))),
  );

  r.get(
    `${P}/contests`,
    {
      schema: {
        tags,
        summary: "我负责形式审查的赛事及进度（已审/总数）；审核员为被指派的赛事，赛事管理员为管理范围内的省级及以上赛事",
        response: { 200: Envelope(Type.Array(ReviewContest)) },
      },
      config: { access: read },
    },
    async (req) => {
      const data = await myReviewContests(db, req.user!);
      return ok(data, data.length ? "成功" : "您目前没有负责形式审查的赛事");
    },
  );

  r.get(
    `${P}/contest/:contestId/works`,
    {
      schema: {
        tags,
        summary: "待审查作品列表：按状态、大类、关键词筛选，按作品编号升序（稳定顺序）",
        params: ContestIdParam,
        querystring: Type.Intersect([ListParams, ReviewFilters]),
        response: { 200: Envelope(Page(ReviewListItem)) },
      },
      config: { access: read },
    },
    async (req) => {
      const {
        current,
        pageSize,
        sort: _s,
        ...filters
      } = req.query as { current?: number; pageSize?: number; sort?: string[] } & ReviewFilters;
      const size = pageSize ?? 20;
      return ok(await listReviewWorks(db, req.user!, req.params.contestId, filters, ((current ?? 1) - 1) * size, size));
    },
  );

  r.get(
    `${P}/contest/:contestId/neighbours`,
    {
      schema: {
        tags,
        summary: "快速审查：同一筛选条件下某作品的上一件和下一件（按作品编号），便于预加载",
        params: ContestIdParam,
        querystring: NeighbourQuery,
        response: { 200: Envelope(Neighbours) },
      },
      config: { access: read },
    },
    async (req) => {
      const { workId, ...filters } = req.query;
      return ok(await neighbours(db, req.user!, req.params.contestId, workId, filters));
    },
  );

  r.get(
    `${P}/contest/:contestId/position`,
    {
      schema: {
        tags,
        summary: "快速审查：我在该赛事上次审查到的作品",
        params: ContestIdParam,
        response: { 200: Envelope(Position) },
      },
      config: { access: read },
    },
    async (req) => ok(await getPosition(db, req.user!, req.params.contestId)),
  );

  r.put(
    `${P}/contest/:contestId/position`,
    {
      schema: {
        tags,
        summary: "快速审查：保存我的当前位置（刷新页面后从此处继续）",
        params: ContestIdParam,
        body: PositionBody,
        response: { 200: Envelope(Position) },
      },
      config: { access: update },
    },
    async (req) => ok(await setPosition(db, req.user!, req.params.contestId, req.body.workId), "已保存审查位置"),
  );
}

/** One work's review sheet, the reviewer's outcome, and the authors' resubmission. */
function reviewSheetRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    `${P}/work/:id`,
    {
      schema: {
        tags,
        summary: "作品审查单：字段、附件、按类别要求生成的检查清单、可给出的结论和审查记录",
        params: WorkIdParam,
        response: { 200: Envelope(ReviewSheet) },
      },
      config: { access: read },
    },
    async (req) => ok(await reviewSheet(db, req.user!, req.params.id)),
  );

  r.post(
    `${P}/work/:id/:outcome`,
    {
      schema: {
        tags,
        summary:
          "形式审查结论：format_pass 通过；format_return 退回修改（须选问题类型、填写说明和修改截止时间）；format_reject 不符合要求（须填写原因）；format_reopen 撤销结论",
        params: OutcomeParam,
        body: OutcomeBody,
        response: { 200: Envelope(OutcomeResult) },
      },
      config: { access: update },
    },
    async (req) =>
      ok(
        await giveOutcome({ db, user: req.user! }, req.params.id, req.params.outcome, req.body),
        OUTCOME_INFO[req.params.outcome],
      ),
  );

  // The first author resubmits a format-returned work before its deadline.
  r.post(
    "/Backend/Work/work/:id/format-resubmit",
    {
      schema: {
        tags,
        summary: "作者重新提交形式审查（修改截止时间前）",
        params: WorkIdParam,
        body: VersionBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), status: Type.String() })) },
      },
      config: { access: ["api.works", "update"] },
    },
    async (req) => {
      const moved = await transitionWork({ db, user: req.user! }, req.params.id, "format_resubmit", {
        version: req.body.version,
      });
      return ok(moved, `已${TRANSITIONS.format_resubmit.name}，作品状态为「${WORK_STATE_NAMES[moved.status]}」`);
    },
  );
}
