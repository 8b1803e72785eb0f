/** One work's full view (/workDetail/:workId), its log, all logs (root), the print data and the public lookup. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../../shared/envelope";
import { ListParams, Page } from "../../../shared/crud/list";
import { CopyrightPrint, PrintBody, RegistrationPrint } from "../../../shared/work/print";
import { QueryWorkBody, QueryWorkResult, WorkIdParam, WorkLogEntry, WorkLogFilters, WorkView } from "../../../shared/work/schema";
import type { Db } from "../../db";
import { copyrightPrint, registrationPrint } from "../service/print";
import { allLogs, queryWork, workDetail, workLog } from "../service/read";
import { ctxOf } from "./common";
import { ok } from "../../common/http";
import { MINUTE, perAddress } from "../../plugins/limits";

const tags = ["作品"];

export function readRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const detail = ["api.workDetail", "read"] as const;

  r.get(
    "/Backend/Work/work/:id",
    {
      schema: {
        tags,
        summary: "作品详情（作者、指导教师、所属学校管理员、范围内的赛事管理员、超级管理员；其他人 404）",
        params: WorkIdParam,
        response: { 200: Envelope(WorkView) },
      },
      config: { access: detail },
    },
    async (req) => ok(await workDetail(ctxOf(db, req), req.params.id)),
  );

  r.get(
    "/Backend/Work/work/:id/log",
    {
      schema: {
        tags,
        summary: "作品日志：每次修改的人、时间、字段、原值和新值（只追加）",
        params: WorkIdParam,
        response: { 200: Envelope(Type.Array(WorkLogEntry)) },
      },
      config: { access: ["api.workLog", "read"] },
    },
    async (req) => ok(await workLog(ctxOf(db, req), req.params.id)),
  );

  r.get(
    "/Backend/Admin/work-log",
    {
      schema: {
        tags,
        summary: "全部作品日志（超级管理员），最新在前",
        querystring: Type.Intersect([ListParams, WorkLogFilters]),
        response: { 200: Envelope(Page(WorkLogEntry)) },
      },
      config: { access: ["api.workLogAdmin", "read"] },
    },
    async (req) => {
      const {
        current,
        pageSize,
        sort: _s,
        ...filters
      } = req.query as { current?: number; pageSize?: number; sort?: string[] } & Record<string, unknown>;
      const size = pageSize ?? 20;
      return ok(await allLogs(db, filters, ((current ?? 1) - 1) * size, size));
    },
  );

  r.post(
    "/Backend/Work/work/registration",
    {
      schema: {
        tags,
        summary: "作品报名表打印数据（/print/Registration/:workId）",
        body: PrintBody,
        response: { 200: Envelope(RegistrationPrint) },
      },
      config: { access: detail },
    },
    async (req) => ok(await registrationPrint(ctxOf(db, req), req.body.work)),
  );

  r.post(
    "/Backend/Work/work/copyright",
    {
      schema: {
        tags,
        summary: "版权与原创声明打印数据（/print/Copyright/:workId）",
        body: PrintBody,
        response: { 200: Envelope(CopyrightPrint) },
      },
      config: { access: detail },
    },
    async (req) => ok(await copyrightPrint(ctxOf(db, req), req.body.work)),
  );

  r.post(
    "/Backend/Public/query-work",
    {
      schema: {
        tags,
        summary: "作品查询（访客）：作品编号和任一作者姓名均匹配时，返回名称、状态和奖项",
        body: QueryWorkBody,
        response: { 200: Envelope(QueryWorkResult) },
      },
      config: {
        access: "public",
        // Per address, and per work across addresses: guessing a work's author names from many addresses still meets a ceiling.
        limits: [
          perAddress("query-work", 20),
          {
            name: "query-work-id",
            max: 30,
            windowMs: MINUTE,
            key: (req) => String((req.body as { workId?: unknown } | undefined)?.workId ?? "") || null,
          },
        ],
      },
    },
    async (req) => ok(await queryWork(db, req.body.workId, req.body.authorName), "查询成功"),
  );
}
