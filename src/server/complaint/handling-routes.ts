/**
 * Complaint handling (/Backend/ComplaintManagement, api.complaints): the handler's contests, list,
 * counts and detail, the review/decide workflow steps (accept, refuse, opinion, decision, close) and
 * applying a re-judging result. Registered from routes.ts.
 */
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../shared/envelope";
import { ListParams, Page } from "../../shared/crud/list";
import {
  ComplaintContest,
  ComplaintCounts,
  ComplaintFilters,
  ComplaintIdParam,
  ComplaintListItem,
  CountsQuery,
  DecisionBody,
  HandlerComplaintView,
  OpinionBody,
  StepBody,
  StepOutcome,
} from "../../shared/complaint/schema";
import { type ComplaintAction } from "../../shared/complaint/states";
import { applyRejudgeResult, type StepInput } from "./transition";
import { counts, handlerContests, handlerList, handlerView } from "./views";
import { type ComplaintRouteKit, tags, ok } from "./route-kit";

export function handlingRoutes(kit: ComplaintRouteKit) {
  const { r, db, stepDeps, userCaller, list, step } = kit;
  // ---- Complaint management ----
  const M = "/Backend/ComplaintManagement";
  const handle = (act: "read" | "update") => ["api.complaints", act] as const;

  r.get(
    `${M}/contests`,
    {
      schema: {
        tags,
        summary: "我处理申诉的赛事（超级管理员：全部）",
        response: { 200: Envelope(Type.Array(ComplaintContest)) },
      },
      config: { access: handle("read") },
    },
    async (req) => ok(await handlerContests(db, req.user!)),
  );

  r.get(
    `${M}/complaints`,
    {
      schema: {
        tags,
        summary: "申诉/投诉列表（所处理赛事的；超期的在前）：按赛事、状态、类型、超期筛选",
        querystring: Type.Intersect([ListParams, ComplaintFilters]),
        response: { 200: Envelope(Page(ComplaintListItem)) },
      },
      config: { access: handle("read") },
    },
    async (req) => {
      const { offset, limit } = list(req.query);
      return ok(await handlerList(db, req.user!, req.query, offset, limit));
    },
  );

  r.get(
    `${M}/counts`,
    {
      schema: { tags, summary: "各状态的数量和超期数量", querystring: CountsQuery, response: { 200: Envelope(ComplaintCounts) } },
      config: { access: handle("read") },
    },
    async (req) => ok(await counts(db, req.user!, req.query.contestId)),
  );

  r.get(
    `${M}/complaints/:id`,
    {
      schema: {
        tags,
        summary: "申诉/投诉详情：申诉人、作品、证据、审核意见、决定、仲裁、处理记录、可执行的操作",
        params: ComplaintIdParam,
        response: { 200: Envelope(HandlerComplaintView) },
      },
      config: { access: handle("read") },
    },
    async (req) => ok(await handlerView(db, req.user!, req.params.id)),
  );

  const stepRoute = (
    path: string,
    action: ComplaintAction,
    schemaBody: typeof StepBody | typeof OpinionBody | typeof DecisionBody,
    summary: string,
  ) =>
    r.post(
      `${M}/complaints/:id/${path}`,
      {
        schema: {
          tags,
          summary,
          params: ComplaintIdParam,
          body: schemaBody,
          response: { 200: Envelope(StepOutcome), 400: EmptyEnvelope },
        },
        config: { access: handle("update") },
      },
      async (req) => {
        const b = req.body as StepInput & { text?: string };
        return step(userCaller(req), req.params.id, action, { ...b, reason: b.text ?? b.reason });
      },
    );
  stepRoute("accept", "accept", StepBody, "受理（申诉审核员、申诉管理员、超级管理员）");
  stepRoute("refuse", "refuse", StepBody, "不予受理（须填写理由；通知申诉人）");
  stepRoute("opinion", "opinion", OpinionBody, "出具审核意见（申诉审核员、超级管理员）：建议的结论和处理方式");
  stepRoute(
    "decision",
    "decide",
    DecisionBody,
    "作出决定（申诉管理员、超级管理员）：结论和处理方式，处理立即执行；通知申诉人和作品第一作者，开始仲裁申请期",
  );
  stepRoute("close", "close", StepBody, "结案（仲裁申请期满且无人申请仲裁）");

  r.post(
    `${M}/complaints/:id/rejudge-result`,
    {
      schema: {
        tags,
        summary:
          "重新评审完成后，用新评委的评分替换原评分（申诉管理员、超级管理员）：原评分保留但不再计入，该结果分组重新计算排名，已发布时生成新的结果版本",
        params: ComplaintIdParam,
        body: StepBody,
        response: { 200: Envelope(StepOutcome), 400: EmptyEnvelope },
      },
      config: { access: handle("update") },
    },
    async (req) => {
      const o = await applyRejudgeResult(stepDeps, userCaller(req), req.params.id, req.body.version);
      return ok(o, o.effect ?? "已替换");
    },
  );
}
