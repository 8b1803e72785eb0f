/**
 * Arbitration (/Backend/Arbitrate/complaints, api.arbitration): the arbitrator's list, detail and ruling;
 * and its review by the super administrator (/Backend/ArbitrateManagement/complaints,
 * api.arbitrationReview): list, detail, confirm or return. Registered from routes.ts.
 */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { ListParams, Page } from "../../shared/crud/list";
import {
  ArbitrationBody,
  ComplaintFilters,
  ComplaintIdParam,
  ComplaintListItem,
  HandlerComplaintView,
  StepBody,
  StepOutcome,
} from "../../shared/complaint/schema";
import { arbitrationReviewList, arbitratorList, handlerView } from "./views";
import { type ComplaintRouteKit, tags, ok } from "./route-kit";

export function arbitrationRoutes(kit: ComplaintRouteKit) {
  const { r, db, userCaller, list, step } = kit;
  // ---- Arbitration ----
  const AR = "/Backend/Arbitrate/complaints";
  r.get(
    AR,
    {
      schema: {
        tags,
        summary: "待我仲裁的申诉（所仲裁赛事的、申请了仲裁的；回避的不显示）",
        querystring: Type.Intersect([ListParams, ComplaintFilters]),
        response: { 200: Envelope(Page(ComplaintListItem)) },
      },
      config: { access: ["api.arbitration", "read"] },
    },
    async (req) => {
      const { offset, limit } = list(req.query);
      return ok(await arbitratorList(db, req.user!, req.query, offset, limit));
    },
  );
  r.get(
    `${AR}/:id`,
    {
      schema: { tags, summary: "仲裁的申诉详情", params: ComplaintIdParam, response: { 200: Envelope(HandlerComplaintView) } },
      config: { access: ["api.arbitration", "read"] },
    },
    async (req) => ok(await handlerView(db, req.user!, req.params.id)),
  );
  r.post(
    `${AR}/:id/decision`,
    {
      schema: {
        tags,
        summary: "仲裁裁决：维持原决定或变更决定（结论和处理方式）；经超级管理员确认后生效",
        params: ComplaintIdParam,
        body: ArbitrationBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: ["api.arbitration", "update"] },
    },
    async (req) => step(userCaller(req), req.params.id, "arbitrate", { ...req.body, reason: req.body.text }),
  );

  // ---- Arbitration review (root) ----
  const AM = "/Backend/ArbitrateManagement/complaints";
  r.get(
    AM,
    {
      schema: {
        tags,
        summary: "仲裁审核：所有申请过仲裁的申诉",
        querystring: Type.Intersect([ListParams, ComplaintFilters]),
        response: { 200: Envelope(Page(ComplaintListItem)) },
      },
      config: { access: ["api.arbitrationReview", "read"] },
    },
    async (req) => {
      const { offset, limit } = list(req.query);
      return ok(await arbitrationReviewList(db, req.query, offset, limit));
    },
  );
  r.get(
    `${AM}/:id`,
    {
      schema: {
        tags,
        summary: "仲裁审核的申诉详情",
        params: ComplaintIdParam,
        response: { 200: Envelope(HandlerComplaintView) },
      },
      config: { access: ["api.arbitrationReview", "read"] },
    },
    async (req) => ok(await handlerView(db, req.user!, req.params.id)),
  );
  r.post(
    `${AM}/:id/confirm`,
    {
      schema: {
        tags,
        summary: "确认仲裁结果：变更的决定此时执行；结案并通知双方",
        params: ComplaintIdParam,
        body: StepBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: ["api.arbitrationReview", "update"] },
    },
    async (req) => step(userCaller(req), req.params.id, "confirm", req.body),
  );
  r.post(
    `${AM}/:id/return`,
    {
      schema: {
        tags,
        summary: "退回仲裁（须填写理由）：仲裁员重新裁决",
        params: ComplaintIdParam,
        body: StepBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: ["api.arbitrationReview", "update"] },
    },
    async (req) => step(userCaller(req), req.params.id, "return", req.body),
  );
}
