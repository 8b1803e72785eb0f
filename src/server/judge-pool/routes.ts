/**
 * The judge pool's routes (src/shared/judge-pool/schema.ts lists them): the resource (list,
 * one, create, update, Excel import/export) through the generic router, and beside it the
 * history, the contact route (404 outside the contact scope, the same text as a missing
 * record), merge, tags, and the judge's own record.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { notFound } from "../../shared/errors";
import {
  JudgeContact,
  JudgeHistory,
  JudgePersonView,
  JudgeSelfBody,
  JudgeSelfView,
  MergeBody,
  NOT_FOUND,
  PersonIdParam,
  StudentOption,
  StudentSearch,
  TagCount,
} from "../../shared/judge-pool/schema";
import type { Db } from "../db";
import type { Jobs } from "../jobs/user-jobs";
import { registerResource } from "../crud/resource";
import { perUser } from "../plugins/limits";
import { judgePoolResource } from "./resource";
import { getPerson, tagCounts } from "./persons";
import { contactScope } from "./scope";
import { historyOf } from "./history";
import { mergePersons } from "./merge";
import { selfView, studentOptions, updateSelf } from "./self";
import { ok } from "../common/http";
import { record } from "../common/audit";
import { PHONE_REVEALS_PER_MINUTE } from "../../shared/mask";

const P = "/Backend/JudgePool";

export function judgePoolRoutes(app: FastifyInstance, deps: { db: Db; jobs: Jobs }) {
  const { db } = deps;
  registerResource(app, deps, judgePoolResource);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["评委库"];
  const read = ["api.judgePool", "read"] as const;

  /** The active record, visible to the caller (its public fields: any active record); 404 otherwise. */
  const person = async (user: NonNullable<Parameters<typeof contactScope>[1]>, id: number) => {
    const v = await getPerson(db, await contactScope(db, user), id);
    if (!v) throw notFound(NOT_FOUND);
    return v;
  };

  r.get(
    `${P}/persons/:id/history`,
    {
      schema: {
        tags,
        summary:
          "评委的评审经历：参评赛事与评审组、已评作品数、按时提交率、已发布标准化结果中的评委效应和分歧率（无法计算的为 null）",
        params: PersonIdParam,
        response: { 200: Envelope(JudgeHistory) },
      },
      config: { access: read },
    },
    async (req) => {
      const p = await person(req.user!, req.params.id);
      return ok(await historyOf(db, p.id));
    },
  );

  r.get(
    `${P}/persons/:id/contact`,
    {
      schema: {
        tags,
        summary:
          "评委的完整联系方式（列表中手机号脱敏）：超级管理员全部；赛事管理员仅本人赛事的评委、本人邀请或录入的评委，其余与不存在的记录同样答 404；每次查看记入操作日志",
        params: PersonIdParam,
        response: { 200: Envelope(JudgeContact) },
      },
      // The one place the pool's phones are shown in full (lists mask them): audited, limited per caller.
      config: { access: read, limits: [perUser("phone-reveal", PHONE_REVEALS_PER_MINUTE)] },
    },
    async (req) => {
      const p = await getPerson(db, await contactScope(db, req.user!), req.params.id);
      if (!p || !p.contactVisible) throw notFound(NOT_FOUND);
      const row = await db.selectFrom("judge_person").select(["email", "phone"]).where("id", "=", p.id).executeTakeFirstOrThrow();
      await record(db, req.user!.id, { entity: "judge_person", entityId: p.id, action: "view_phone", changes: {} });
      return ok({ id: p.id, name: p.name, email: row.email, phone: row.phone });
    },
  );

  r.post(
    `${P}/persons/merge`,
    {
      schema: {
        tags,
        summary:
          "合并重复的评委记录：保留一条，另一条的类别、特长、年度意愿、邀请和账号并入，历史合并显示；被合并的记录不再出现在列表中",
        body: MergeBody,
        response: { 200: Envelope(JudgePersonView) },
      },
      config: { access: ["api.judgePool", "update"] },
    },
    async (req) => {
      const id = await mergePersons(db, req.user!, req.body);
      return ok(await person(req.user!, id), "已合并评委记录");
    },
  );

  r.get(
    `${P}/tags`,
    {
      schema: { tags, summary: "评委库中使用的专业特长标签（按使用次数）", response: { 200: Envelope(Type.Array(TagCount)) } },
      config: { access: read },
    },
    async () => ok(await tagCounts(db)),
  );

  const self = (act: "read" | "update") => ["api.judgePoolSelf", act] as const;
  r.get(
    `${P}/self`,
    {
      schema: {
        tags,
        summary: "评委本人的评委库记录与评审经历（首次打开时按账号或邮箱关联，没有则新建）",
        response: { 200: Envelope(JudgeSelfView) },
      },
      config: { access: self("read") },
    },
    async (req) => ok(await selfView(db, req.user!)),
  );

  r.put(
    `${P}/self`,
    {
      schema: {
        tags,
        summary: "评委修改本人的职称、评审类别、专业特长和本年度参评意愿",
        body: JudgeSelfBody,
        response: { 200: Envelope(JudgeSelfView) },
      },
      config: { access: self("update") },
    },
    async (req) => ok(await updateSelf(db, req.user!, req.body), "已保存"),
  );

  r.get(
    `${P}/self/students`,
    {
      schema: {
        tags,
        summary: "在指定学校中按学生全名或学号查找学生（申报学生回避用；只返回姓名和学校）",
        querystring: StudentSearch,
        response: { 200: Envelope(Type.Array(StudentOption)) },
      },
      config: { access: self("read"), limits: [perUser("judge-student-search", 20)] },
    },
    async (req) => ok(await studentOptions(db, req.query)),
  );
}
