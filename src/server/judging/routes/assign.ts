/**
 * Assignment of works to judges and the check report (/ContestAdmin/Group,
 * /contest-admin/check-group-setting): automatic assignment, manual assignment, removal,
 * replacement, the list. Contest admins and root. Refusals carry the reasons as data.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../../shared/envelope";
import {
  AssignBody,
  AssignmentFilters,
  AssignmentParam,
  AssignmentView,
  AssignOutcome,
  CheckReport,
  ContestParam,
  ManualAssignBody,
  ReplaceBody,
} from "../../../shared/judging/schema";
import type { Db } from "../../db";
import { AssignRefused } from "../service/apply";
import { autoAssign, listAssignments, manualAssign, removeAssignment, replaceAssignment } from "../service/assign";
import { checkReport } from "../service/report";
import { A } from "./groups";
import { ok } from "../../common/http";

const tags = ["评委分配"];

/** A refused write: the first reason as the sentence, every reason as data. */
async function orRefused<T>(reply: FastifyReply, run: () => Promise<T>, info: (d: T) => string, code = 200) {
  try {
    const data = await run();
    return reply.code(code).send(ok(data, info(data)));
  } catch (e) {
    if (e instanceof AssignRefused) return reply.code(400).send({ error: 400, info: e.info, data: { problems: e.problems } });
    throw e;
  }
}

export function assignRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const acc = (act: "read" | "create" | "delete") => ["api.assignments", act] as const;

  r.post(
    `${A}/:contestId/assign`,
    {
      schema: {
        tags,
        summary:
          "自动分配评委（最小费用流）：每件作品 N 位无回避评委、工作量均衡；已有分配保留、只补足缺额。无法完全分配时返回确切原因且不写入，除非确认部分分配（confirmPartial）",
        params: ContestParam,
        body: AssignBody,
        response: { 200: Envelope(AssignOutcome), 400: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req, reply) => {
      try {
        const data = await autoAssign(db, req.user!, req.params.contestId, req.body);
        if (!data.applied)
          return reply.code(400).send({
            error: 400,
            info: `无法为全部作品分配足够的评委，未写入任何分配：${data.issues[0]?.message ?? "评委不足"}`,
            data,
          });
        const info = data.complete
          ? `已分配 ${data.added} 条，每件作品均有足够评委，工作量最多与最少相差 ${data.loadSpread}`
          : `已按确认写入部分分配 ${data.added} 条，仍有 ${data.shortfalls.length} 件作品评委不足`;
        return ok(data, info);
      } catch (e) {
        if (e instanceof AssignRefused) return reply.code(400).send({ error: 400, info: e.info, data: { problems: e.problems } });
        throw e;
      }
    },
  );

  r.get(
    `${A}/:contestId/assignments`,
    {
      schema: {
        tags,
        summary: "分配列表（可按作品、评委、评审组筛选）",
        params: ContestParam,
        querystring: AssignmentFilters,
        response: { 200: Envelope(Type.Array(AssignmentView)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await listAssignments(db, req.user!, req.params.contestId, req.query)),
  );

  r.post(
    `${A}/:contestId/assignments`,
    {
      schema: {
        tags,
        summary: "手动分配一位评委（与自动分配同样检查回避、评审组、容量和评审次数）",
        params: ContestParam,
        body: ManualAssignBody,
        response: { 201: Envelope(AssignmentView), 400: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req, reply) =>
      orRefused(
        reply,
        () => manualAssign(db, req.user!, req.params.contestId, req.body.workId, req.body.judgeId),
        (d) => `已把作品 ${d.workId} 分配给评委「${d.judgeName}」`,
        201,
      ),
  );

  r.delete(
    `${A}/assignment/:assignmentId`,
    {
      schema: { tags, summary: "移除一条分配", params: AssignmentParam, response: { 200: Envelope(AssignmentView) } },
      config: { access: acc("delete") },
    },
    async (req) => ok(await removeAssignment(db, req.user!, req.params.assignmentId), "分配已移除"),
  );

  r.post(
    `${A}/assignment/:assignmentId/replace`,
    {
      schema: {
        tags,
        summary: "替换一条分配的评委（新评委同样检查；不通过时原分配保留）",
        params: AssignmentParam,
        body: ReplaceBody,
        response: { 200: Envelope(AssignmentView), 400: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req, reply) =>
      orRefused(
        reply,
        () => replaceAssignment(db, req.user!, req.params.assignmentId, req.body.judgeId),
        (d) => `已改由评委「${d.judgeName}」评审作品 ${d.workId}`,
      ),
  );

  r.get(
    `${A}/:contestId/check`,
    {
      schema: {
        tags,
        summary: "分组与回避检查报告：回避冲突及原因、不符合分组的分配、评委和评审组的工作量、评委不足的作品、未分组的评委和作品",
        params: ContestParam,
        response: { 200: Envelope(CheckReport) },
      },
      config: { access: acc("read") },
    },
    async (req) => {
      const data = await checkReport(db, req.user!, req.params.contestId);
      const s = data.summary;
      const fine = !s.conflicts && !s.misplaced && !s.shortWorks && !s.worksWithoutGroup;
      return ok(
        data,
        fine
          ? "检查通过：没有回避冲突，每件作品均有足够评委"
          : `发现 ${s.conflicts} 条回避冲突、${s.misplaced} 条不符合分组的分配、${s.shortWorks} 件评委不足的作品、${s.worksWithoutGroup} 件未分组的作品`,
      );
    },
  );
}
