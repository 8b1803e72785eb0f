/**
 * Authors' works (/author/work-management) and teachers' advised works (/teacher/WorkManagement),
 * in route groups registered by authorRoutes: the own works, the team, the submission, the teachers'.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../../shared/envelope";
import { Page } from "../../../shared/crud/list";
import {
  MemberBody,
  MemberParam,
  OpenContest,
  ReorderBody,
  TeacherReviewBody,
  VersionBody,
  WorkCreate,
  WorkIdParam,
  WorkListItem,
  WorkUpdate,
  WorkView,
} from "../../../shared/work/schema";
import type { Db } from "../../db";
import { listWorks } from "../list";
import { createWork, deleteDraft, openContests } from "../service/create";
import { setTeacherReview, updateWork } from "../service/edit";
import {
  addAuthor,
  addTeacher,
  confirmAuthor,
  declineAuthor,
  removeAuthor,
  removeTeacher,
  reorderAuthors,
} from "../service/team";
import { transitionWork } from "../service/transition";
import { searchPeople } from "../service/people";
import { groupCheck } from "../service/group-check";
import { GroupCheckQuery, GroupCheckReply } from "../../../shared/work/group-check";
import { PeopleQuery, PeopleReply } from "../../../shared/work/people";
import { ctxOf, listArgs, sendOk, WorkListQuery } from "./common";
import { ok } from "../../common/http";

const tags = ["作品（作者）"];
const P = "/Backend/Work/work";
const works = (act: "read" | "create" | "update" | "delete") => ["api.works", act] as const;
const MaybeView = Type.Union([WorkView, Type.Null()]);
const T = "/Backend/Teacher/work";

export function authorRoutes(app: FastifyInstance, db: Db) {
  ownWorkRoutes(app, db);
  teamRoutes(app, db);
  submitRoutes(app, db);
  teacherRoutes(app, db);
  r(app).get(
    `${P}/:id/group-check`,
    {
      schema: {
        tags,
        summary: "检查组别：按当前团队和所选大类、组别套用专业组规则（与提交时的检查相同），并列出本大类的专业组专业",
        params: WorkIdParam,
        querystring: GroupCheckQuery,
        response: { 200: Envelope(GroupCheckReply) },
      },
      config: { access: works("read") },
    },
    async (req) => ok(await groupCheck(ctxOf(db, req), req.params.id, req.query)),
  );
}
const r = (app: FastifyInstance) => app.withTypeProvider<TypeBoxTypeProvider>();

/** An author's own works: the list, the open contests, create, edit and delete a draft. */
function ownWorkRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    `${P}/mine`,
    {
      schema: {
        tags,
        summary: "我的作品（我是作者的作品，含待我确认的）",
        querystring: WorkListQuery,
        response: { 200: Envelope(Page(WorkListItem)) },
      },
      config: { access: works("read") },
    },
    async (req, reply) => sendOk(reply, await listWorks(db, { kind: "author", userId: req.user!.id }, listArgs(req.query))),
  );

  r.get(
    `${P}/open-contests`,
    {
      schema: { tags, summary: "现在可以报名的赛事及其开放的大类、小类", response: { 200: Envelope(Type.Array(OpenContest)) } },
      config: { access: works("read") },
    },
    async (req) => {
      const data = await openContests(ctxOf(db, req));
      return ok(data, data.length ? "成功" : "目前没有可以报名的赛事");
    },
  );

  r.post(
    P,
    {
      schema: {
        tags,
        summary: "新建作品（草稿）：本人为第一作者，合作作者按用户名添加、由其本人确认",
        body: WorkCreate,
        response: { 201: Envelope(WorkView) },
      },
      config: { access: works("create") },
    },
    async (req, reply) => {
      const data = await createWork(ctxOf(db, req), req.body);
      return reply.code(201).send(ok(data, `作品已创建，编号 ${data.id}`));
    },
  );

  r.patch(
    `${P}/:id`,
    {
      schema: {
        tags,
        summary: "修改作品信息（第一作者；草稿或已退回；须带版本号；锁定字段不能改）",
        params: WorkIdParam,
        body: WorkUpdate,
        response: { 200: Envelope(WorkView) },
      },
      config: { access: works("update") },
    },
    async (req) => ok(await updateWork(ctxOf(db, req), req.params.id, req.body), "作品已保存"),
  );

  r.delete(
    `${P}/:id`,
    {
      schema: {
        tags,
        summary: "删除草稿（第一作者）",
        params: WorkIdParam,
        querystring: VersionBody,
        response: { 200: EmptyEnvelope },
      },
      config: { access: works("delete") },
    },
    async (req) => {
      await deleteDraft(ctxOf(db, req), req.params.id, req.query.version);
      return { error: 0, info: "草稿已删除" };
    },
  );
}

/** Finding people and changing the team: co-authors and teachers. */
function teamRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    "/Backend/Work/people",
    {
      schema: {
        tags,
        summary: "查找作品所属学校的学生（合作作者）或教师（指导教师）：按姓名、学号/工号或用户名；不含联系方式；最多 20 人",
        querystring: PeopleQuery,
        response: { 200: Envelope(PeopleReply) },
      },
      config: { access: ["api.workPeople", "read"] },
    },
    async (req) => {
      const data = await searchPeople(ctxOf(db, req), req.query);
      return ok(
        data,
        data.items.length ? "成功" : `${data.schoolName}没有符合条件的${req.query.role === "author" ? "学生" : "教师"}`,
      );
    },
  );

  r.post(
    `${P}/:id/authors`,
    {
      schema: {
        tags,
        summary: "添加合作作者（按用户名；本校学生；对方确认后生效）",
        params: WorkIdParam,
        body: MemberBody,
        response: { 200: Envelope(MaybeView) },
      },
      config: { access: works("update") },
    },
    async (req) =>
      ok(await addAuthor(ctxOf(db, req), req.params.id, req.body.username, req.body.version), "已添加作者，等待其确认"),
  );

  r.delete(
    `${P}/:id/authors/:userId`,
    {
      schema: {
        tags,
        summary: "移除合作作者（第一作者），或本人退出",
        params: MemberParam,
        querystring: VersionBody,
        response: { 200: Envelope(MaybeView) },
      },
      config: { access: works("update") },
    },
    async (req) => ok(await removeAuthor(ctxOf(db, req), req.params.id, req.params.userId, req.query.version), "已移除作者"),
  );

  r.post(
    `${P}/:id/authors/order`,
    {
      schema: {
        tags,
        summary: "调整作者顺序（第一作者须排第一）",
        params: WorkIdParam,
        body: ReorderBody,
        response: { 200: Envelope(MaybeView) },
      },
      config: { access: works("update") },
    },
    async (req) => ok(await reorderAuthors(ctxOf(db, req), req.params.id, req.body.userIds, req.body.version), "作者顺序已保存"),
  );

  r.post(
    `${P}/:id/confirm`,
    {
      schema: {
        tags,
        summary: "确认参加作品（合作作者本人）",
        params: WorkIdParam,
        body: VersionBody,
        response: { 200: Envelope(WorkView) },
      },
      config: { access: works("update") },
    },
    async (req) => ok(await confirmAuthor(ctxOf(db, req), req.params.id, req.body.version), "已确认参赛"),
  );

  r.post(
    `${P}/:id/decline`,
    {
      schema: {
        tags,
        summary: "拒绝参加或退出作品（合作作者本人）",
        params: WorkIdParam,
        body: VersionBody,
        response: { 200: EmptyEnvelope },
      },
      config: { access: works("update") },
    },
    async (req) => {
      await declineAuthor(ctxOf(db, req), req.params.id, req.body.version);
      return { error: 0, info: "您已退出该作品" };
    },
  );

  r.post(
    `${P}/:id/teachers`,
    {
      schema: {
        tags,
        summary: "添加指导教师（按用户名；本校教师）",
        params: WorkIdParam,
        body: MemberBody,
        response: { 200: Envelope(MaybeView) },
      },
      config: { access: works("update") },
    },
    async (req) => ok(await addTeacher(ctxOf(db, req), req.params.id, req.body.username, req.body.version), "已添加指导教师"),
  );

  r.delete(
    `${P}/:id/teachers/:userId`,
    {
      schema: {
        tags,
        summary: "移除指导教师（第一作者）",
        params: MemberParam,
        querystring: VersionBody,
        response: { 200: Envelope(MaybeView) },
      },
      config: { access: works("update") },
    },
    async (req) => ok(await removeTeacher(ctxOf(db, req), req.params.id, req.params.userId, req.query.version), "已移除指导教师"),
  );
}

/** Submitting a work (the first author). */
function submitRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    `${P}/:id/submit`,
    {
      schema: {
        tags,
        summary: "提交作品（第一作者；报名期内；全部作者已确认、人数和专业组符合要求）",
        params: WorkIdParam,
        body: VersionBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), status: Type.String() })) },
      },
      config: { access: works("update") },
    },
    async (req) =>
      ok(
        await transitionWork(ctxOf(db, req), req.params.id, "submit", { version: req.body.version }),
        "作品已提交，等待学校审核",
      ),
  );
}

/** A teacher's advised works and the teacher's review. */
function teacherRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    T,
    {
      schema: {
        tags: ["作品（指导教师）"],
        summary: "我指导的作品",
        querystring: WorkListQuery,
        response: { 200: Envelope(Page(WorkListItem)) },
      },
      config: { access: ["api.advisedWorks", "read"] },
    },
    async (req, reply) => sendOk(reply, await listWorks(db, { kind: "teacher", userId: req.user!.id }, listArgs(req.query))),
  );

  r.patch(
    `${T}/:id/review`,
    {
      schema: {
        tags: ["作品（指导教师）"],
        summary: "填写指导老师自评（草稿或已退回；须带版本号）",
        params: WorkIdParam,
        body: TeacherReviewBody,
        response: { 200: Envelope(WorkView) },
      },
      config: { access: ["api.advisedWorks", "update"] },
    },
    async (req) => ok(await setTeacherReview(ctxOf(db, req), req.params.id, req.body), "指导老师自评已保存"),
  );
}
