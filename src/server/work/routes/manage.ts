/**
 * School admins (/school/WorkManagement) and contest admins and root (/WorkManagement,
 * /ContestAdmin/AddWork): lists in scope, decisions, quotas, bulk changes.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../../shared/envelope";
import { Page } from "../../../shared/crud/list";
import { ROLE } from "../../../shared/roles";
import {
  AdminWorkCreate,
  BulkBody,
  BulkReport,
  ContestActionParam,
  QuotaView,
  SchoolActionParam,
  TransitionBody,
  WorkListItem,
  WorkView,
} from "../../../shared/work/schema";
import { TRANSITIONS } from "../../../shared/work/states";
import type { Db } from "../../db";
import { adminContestIds } from "../../scope";
import { listWorks, type ListScope } from "../list";
import { adminCreateWork } from "../service/create";
import { bulkTransition, schoolQuotas, transitionWork } from "../service/transition";
import { ctxOf, listArgs, sendOk, WorkListQuery } from "./common";
import { ok } from "../../common/http";
import { MAX_ID } from "../../../shared/bounds";
import { WorkFilters } from "../../../shared/work/schema";
import { restPreValidation, restQuerySchema, setTotal } from "../../crud/rest";

/** refine simple-rest's paging, sorting and `<field>_like` (onto the list's own text filters) on the works lists. */
const RestWorkQuery = Type.Intersect([WorkListQuery, restQuerySchema(undefined, WorkFilters)]);
const restWork = restPreValidation(undefined, WorkFilters);

const Moved = Envelope(Type.Object({ id: Type.Integer(), status: Type.String() }));

export function manageRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  // School admin
  const S = "/Backend/School/work";
  const stags = ["作品（学校）"];
  r.get(
    S,
    {
      schema: {
        tags: stags,
        summary: "本校作品（按状态等筛选）；超级管理员为全部作品",
        querystring: RestWorkQuery,
        response: { 200: Envelope(Page(WorkListItem)) },
      },
      config: { access: ["api.schoolWorks", "read"] },
      preValidation: restWork,
    },
    async (req, reply) => {
      const u = req.user!;
      const scope: ListScope =
        u.user_type === ROLE.root ? { kind: "contests", ids: "all" } : { kind: "school", schoolId: u.school_id ?? -1 };
      const page = await listWorks(db, scope, listArgs(req.query));
      setTotal(reply, page.total);
      return sendOk(reply, page);
    },
  );

  r.get(
    `${S}/quota`,
    {
      schema: {
        tags: stags,
        summary: "推荐名额：总名额、已用、剩余，及分大类名额（本校校赛；直接报名省赛的作品不设学校名额）",
        querystring: Type.Object({ contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })) }),
        response: { 200: Envelope(Type.Array(QuotaView)) },
      },
      config: { access: ["api.schoolWorks", "read"] },
    },
    async (req) => ok(await schoolQuotas(db, req.user!, req.query.contestId)),
  );

  r.post(
    `${S}/:id/:action`,
    {
      schema: {
        tags: stags,
        summary:
          "学校审核：approve 审核通过、return 退回修改（须填原因）、withdraw_approval 撤销审核、recommend 推荐至省赛（占名额）、unrecommend 撤回推荐",
        params: SchoolActionParam,
        body: TransitionBody,
        response: { 200: Moved },
      },
      config: { access: ["api.schoolWorks", "update"] },
    },
    async (req) =>
      ok(
        await transitionWork(ctxOf(db, req), req.params.id, req.params.action, req.body),
        `已${TRANSITIONS[req.params.action].name}`,
      ),
  );

  // Contest admin and root
  const A = "/Backend/Admin/work";
  const atags = ["作品（赛事管理）"];
  r.get(
    A,
    {
      schema: {
        tags: atags,
        summary: "管理范围内的作品：按编号、名称、学校、大类、状态、作者姓名检索",
        querystring: RestWorkQuery,
        response: { 200: Envelope(Page(WorkListItem)) },
      },
      config: { access: ["api.contestWorks", "read"] },
      preValidation: restWork,
    },
    async (req, reply) => {
      const page = await listWorks(db, { kind: "contests", ids: await adminContestIds(db, req.user!) }, listArgs(req.query));
      setTotal(reply, page.total);
      return sendOk(reply, page);
    },
  );

  r.post(
    A,
    {
      schema: {
        tags: atags,
        summary: "代学校录入作品（/ContestAdmin/AddWork）：录入省级赛，作者按用户名，直接为「省赛已接收」",
        body: AdminWorkCreate,
        response: { 201: Envelope(WorkView) },
      },
      config: { access: ["api.contestWorks", "create"] },
    },
    async (req, reply) => {
      const data = await adminCreateWork(ctxOf(db, req), req.body);
      return reply.code(201).send(ok(data, `作品已录入，编号 ${data.id}`));
    },
  );

  r.post(
    `${A}/bulk-status`,
    {
      schema: {
        tags: atags,
        summary: "批量更改状态：全部作品通过检查才执行（一个事务），逐个报告结果",
        body: BulkBody,
        response: { 200: Envelope(BulkReport), 400: EmptyEnvelope },
      },
      config: { access: ["api.contestWorks", "update"] },
    },
    async (req, reply) => {
      const report = await bulkTransition(ctxOf(db, req), req.body.ids, req.body.action, req.body.reason);
      if (report.done) return ok(report, `已${TRANSITIONS[req.body.action].name} ${report.results.length} 件作品`);
      const failed = report.results.filter((x) => !x.ok).length;
      return reply.code(400).send({
        error: 400,
        info: `有 ${failed} 件作品不能「${TRANSITIONS[req.body.action].name}」，本次全部未执行`,
        data: report,
      });
    },
  );

  r.post(
    `${A}/:id/:action`,
    {
      schema: {
        tags: atags,
        summary: "赛事决定：accept 接收、reject 退回学校（须填原因）、disqualify 取消资格（须填公开原因）",
        params: ContestActionParam,
        body: TransitionBody,
        response: { 200: Moved },
      },
      config: { access: ["api.contestWorks", "update"] },
    },
    async (req) =>
      ok(
        await transitionWork(ctxOf(db, req), req.params.id, req.params.action, req.body),
        `已${TRANSITIONS[req.params.action].name}`,
      ),
  );
}
