/**
 * The judge's side (/judge, /judge/Online/:contestId list and view) and declared
 * conflicts (judges for themselves, contest admins for their contests' judges, root).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../../shared/envelope";
import {
  ConflictFilters,
  ConflictParam,
  ContestParam,
  DeclaredConflictCreate,
  DeclaredConflictView,
  JudgeContest,
  JudgeFileParam,
  JudgeWorkItem,
  JudgeWorkParam,
  JudgeWorkView,
} from "../../../shared/judging/schema";
import type { Db } from "../../db";
import type { BlobStore } from "../../storage";
import { createConflict, deleteConflict, listConflicts } from "../service/conflicts";
import { judgeFile, judgeWorkView, myAssignedWorks, myJudgeContests } from "../service/judge";
import { contentDisposition, ok } from "../../common/http";

const J = "/Backend/Judge";

export function judgeRoutes(app: FastifyInstance, deps: { db: Db; store: BlobStore }) {
  const { db, store } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["评审"];
  const read = ["api.judging", "read"] as const;

  r.get(
    `${J}/contests`,
    {
      schema: {
        tags,
        summary: "我评审的赛事（评委；校赛评委为本校的校级赛）及分配给我的作品数",
        response: { 200: Envelope(Type.Array(JudgeContest)) },
      },
      config: { access: read },
    },
    async (req) => {
      const data = await myJudgeContests(db, req.user!);
      return ok(data, data.length ? "成功" : "您目前没有参加评审的赛事");
    },
  );

  r.get(
    `${J}/contest/:contestId/works`,
    {
      schema: {
        tags,
        summary: "分配给我的作品（仅列表；只有分配给本人的作品）",
        params: ContestParam,
        response: { 200: Envelope(Type.Array(JudgeWorkItem)) },
      },
      config: { access: read },
    },
    async (req) => ok(await myAssignedWorks(db, req.user!, req.params.contestId)),
  );

  r.get(
    `${J}/contest/:contestId/work/:workId`,
    {
      schema: {
        tags,
        summary: "评审视图：作品内容、附件和本类别的评分标准（不含作者、指导教师和学校）；未分配给本人的作品 404",
        params: JudgeWorkParam,
        response: { 200: Envelope(JudgeWorkView) },
      },
      config: { access: read },
    },
    async (req) => ok(await judgeWorkView(db, req.user!, req.params.contestId, req.params.workId)),
  );

  r.get(
    `${J}/contest/:contestId/work/:workId/file/:fileId`,
    {
      schema: { tags, summary: "下载分配给我的作品的附件", params: JudgeFileParam },
      config: { access: read },
    },
    async (req, reply) => {
      const f = await judgeFile(db, req.user!, req.params.contestId, req.params.workId, req.params.fileId);
      const stream = await store.get(f.sha256);
      return reply
        .header("content-type", f.mime)
        .header("content-length", String(f.size))
        .header("content-disposition", contentDisposition(f.filename))
        .header("cache-control", "private, no-store")
        .send(stream);
    },
  );

  const ctags = ["回避申报"];
  const C = "/Backend/Judging/conflicts";
  r.get(
    C,
    {
      schema: {
        tags: ctags,
        summary: "申报的回避关系：评委看本人的；赛事管理员看本赛事评委的（可按赛事、评委筛选）",
        querystring: ConflictFilters,
        response: { 200: Envelope(Type.Array(DeclaredConflictView)) },
      },
      config: { access: ["api.conflicts", "read"] },
    },
    async (req) => ok(await listConflicts(db, req.user!, req.query)),
  );

  r.post(
    C,
    {
      schema: {
        tags: ctags,
        summary: "申报回避：评委与一件作品、一所学校或一名学生（三选一；学生：其参与的所有作品都回避），附说明",
        body: DeclaredConflictCreate,
        response: { 201: Envelope(DeclaredConflictView) },
      },
      config: { access: ["api.conflicts", "create"] },
    },
    async (req, reply) => {
      const data = await createConflict(db, req.user!, req.body);
      return reply
        .code(201)
        .send(
          ok(
            data,
            `已申报回避：${data.work ? `作品 ${data.work.id}` : data.student ? `学生「${data.student.name}」` : `学校「${data.school!.name}」`}`,
          ),
        );
    },
  );

  r.delete(
    `${C}/:conflictId`,
    {
      schema: {
        tags: ctags,
        summary: "撤销申报的回避关系",
        params: ConflictParam,
        response: { 200: Envelope(DeclaredConflictView) },
      },
      config: { access: ["api.conflicts", "delete"] },
    },
    async (req) => ok(await deleteConflict(db, req.user!, req.params.conflictId), "已撤销回避申报"),
  );
}
