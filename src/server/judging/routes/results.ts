/**
 * Results of a contest (/ContestAdmin/ContestResult): compute, ranking per group, the fit,
 * awards, promotion, publication, extra judges for flagged works, export, and the teacher and
 * school honours (优秀指导教师, 优秀组织奖: ../service/results/honours.ts). Contest admins
 * (own contests and their children) and root; any other contest answers 404. The rules are
 * in ../service/results/ and ../results.ts.
 * Registered by one plugin in route groups: computing and reading the results, extra
 * judges, awards and publication, honours, export.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { EmptyEnvelope, Envelope } from "../../../shared/envelope";
import {
  AllocateBody,
  AllocateOutcome,
  ComputeBody,
  ComputeOutcome,
  ExtraJudgeBody,
  ExtraJudgeOutcome,
  ExtraJudgeProposal,
  FitView,
  GroupQuery,
  PromoteBody,
  PromoteOutcome,
  PublicationView,
  PublishBody,
  ResultContestItem,
  ResultContestParam,
  ResultPatch,
  ResultRow,
  ResultsOverview,
  ResultWorkParam,
  UnpublishBody,
} from "../../../shared/judging/result-schema";
import type { Db } from "../../db";
import { AssignRefused } from "../service/apply";
import {
  addExtraJudge,
  allocateResults,
  computeResults,
  exportResults,
  extraJudgeProposals,
  groupRanking,
  patchResult,
  promoteResults,
  publishResults,
  resultContests,
  resultFit,
  resultsOverview,
  unpublishResults,
} from "../service/results";
import { A } from "./groups";
import { ok, utf8Attachment } from "../../common/http";
import { ResultVersionDetail, ResultVersionView, VersionParam, VersionsQuery } from "../../../shared/complaint/schema";
import { requireManagedContest } from "../service/contest";
import { resultVersion, resultVersions } from "../service/results/versions";
import {
  HonourAdd,
  HonourContestParam,
  HonourParam,
  HonourPropose,
  HonourRemoveQuery,
  HonourView,
} from "../../../shared/certificate/print-schema";
import { addHonour, honoursView, proposeHonours, removeHonour } from "../service/results/honours";

const tags = ["比赛结果"];
const R = `${A}/:contestId/results`;
const acc = (act: "read" | "create" | "update") => ["api.results", act] as const;

/** The contests to choose from, computing the results, and reading them: overview, versions, ranking, fit. */
function computeAndViewRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    `${A}/result-contests`,
    {
      schema: {
        tags,
        summary: "我管理的赛事（选择赛事）：是否已计算成绩、是否已发布",
        response: { 200: Envelope(Type.Array(ResultContestItem)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await resultContests(db, req.user!)),
  );

  r.post(
    `${R}/compute`,
    {
      schema: {
        tags,
        summary:
          "计算成绩：按评审组（未分组作品按大类）把已提交的网评成绩做评委效应标准化（最小二乘），标出分歧作品并排名；手动设置的奖项保留，排名有变化时清除自动分配的奖项和晋级。结果发布后不能计算",
        params: ResultContestParam,
        body: ComputeBody,
        response: {
          200: Envelope(Type.Intersect([ComputeOutcome, Type.Object({ awardsCleared: Type.Boolean() })])),
          400: EmptyEnvelope,
          409: EmptyEnvelope,
        },
      },
      config: { access: acc("create") },
    },
    async (req) => {
      const d = await computeResults(db, req.user!, req.params.contestId, req.body ?? {});
      const parts = [`已计算 ${d.works} 件作品的成绩，${d.ranked} 件排名`];
      if (d.unscored) parts.push(`${d.unscored} 件尚无评分`);
      if (d.incomplete) parts.push(`${d.incomplete} 件评分未完成（评分完成前不参与排名，单独列出）`);
      if (d.flagged) parts.push(`${d.flagged} 件评委分歧较大`);
      if (d.manualKept) parts.push(`保留 ${d.manualKept} 件手动设置的奖项`);
      if (d.awardsCleared) parts.push("排名有变化，已清除自动分配的奖项和晋级，请重新分配");
      return ok(d, parts.join("，"));
    },
  );

  r.get(
    R,
    {
      schema: {
        tags,
        summary: "结果概况：各结果分组的作品数、排名、分歧、未完成、奖项和晋级数，计算选项，发布记录，晋级名额",
        params: ResultContestParam,
        response: { 200: Envelope(ResultsOverview) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await resultsOverview(db, req.user!, req.params.contestId)),
  );

  r.get(
    `${R}/versions`,
    {
      schema: {
        tags,
        summary: "发布后变更产生的结果版本（每个结果分组：发布时为第 1 版，每次因申诉变更加一版，含原因和申诉编号），最新在前",
        params: ResultContestParam,
        querystring: VersionsQuery,
        response: { 200: Envelope(Type.Array(ResultVersionView)) },
      },
      config: { access: acc("read") },
    },
    async (req) => {
      const c = await requireManagedContest(db, req.user!, req.params.contestId);
      return ok(await resultVersions(db, c.id, req.query.group));
    },
  );

  r.get(
    `${R}/versions/:versionId`,
    {
      schema: {
        tags,
        summary: "一个结果版本：该分组当时的排名、奖项、晋级和取消资格情况",
        params: VersionParam,
        response: { 200: Envelope(ResultVersionDetail) },
      },
      config: { access: acc("read") },
    },
    async (req) => {
      const c = await requireManagedContest(db, req.user!, req.params.contestId);
      return ok(await resultVersion(db, c.id, req.params.versionId));
    },
  );

  r.get(
    `${R}/ranking`,
    {
      schema: {
        tags,
        summary: "一个结果分组的排名：原始平均分、标准化成绩、分差与分歧、评委数、答辩成绩、奖项、晋级",
        params: ResultContestParam,
        querystring: GroupQuery,
        response: { 200: Envelope(Type.Array(ResultRow)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await groupRanking(db, req.user!, req.params.contestId, req.query.group)),
  );

  r.get(
    `${R}/fit`,
    {
      schema: {
        tags,
        summary: "标准化模型的拟合参数：每组的迭代、残差、面板数和评委效应（正为偏松，负为偏严）",
        params: ResultContestParam,
        response: { 200: Envelope(FitView) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await resultFit(db, req.user!, req.params.contestId)),
  );
}

/** Extra judges for works flagged for disagreement: the proposals and adding one. */
function extraJudgeRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    `${R}/extra-judges`,
    {
      schema: {
        tags,
        summary: "分歧作品的增加评委建议：已有评委、建议增加的无回避评委（或无法增加的原因）",
        params: ResultContestParam,
        response: { 200: Envelope(Type.Array(ExtraJudgeProposal)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await extraJudgeProposals(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${R}/extra-judge`,
    {
      schema: {
        tags,
        summary: "为分歧作品增加一位评委（经评委分配的同一检查：回避、评审组、容量）",
        params: ResultContestParam,
        body: ExtraJudgeBody,
        response: { 201: Envelope(ExtraJudgeOutcome), 400: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req, reply) => {
      try {
        const d = await addExtraJudge(db, req.user!, req.params.contestId, req.body);
        return reply.code(201).send(ok(d, `已为作品 ${d.workId} 增加评委「${d.judge.name}」，评分提交后请重新计算成绩`));
      } catch (e) {
        if (e instanceof AssignRefused) return reply.code(400).send({ error: 400, info: e.info, data: { problems: e.problems } });
        throw e;
      }
    },
  );
}

/** Awards (by ratio or count, or set by hand), promotion, publication and its withdrawal. */
function awardRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    `${R}/allocate`,
    {
      schema: {
        tags,
        summary:
          "按奖项比例或名额分配奖项（每组按排名；并列作品获同一奖项；手动设置的保留；默认只计评分完成的作品，includeIncomplete 明确包含评分未完成的作品）",
        params: ResultContestParam,
        body: AllocateBody,
        response: { 200: Envelope(AllocateOutcome), 400: EmptyEnvelope, 409: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req) => {
      const d = await allocateResults(db, req.user!, req.params.contestId, req.body ?? {});
      const total = d.groups.reduce((s, g) => s + g.awards.reduce((x, a) => x + a.count, 0), 0);
      const left = d.groups.reduce((s, g) => s + g.left, 0);
      const note = req.body?.includeIncomplete
        ? "；评分未完成的作品按当前成绩一并参与了分配"
        : left
          ? `；${left} 件评分未完成的作品未参与分配`
          : "";
      return ok(
        d,
        `已为 ${d.groups.length} 个分组分配奖项，共 ${total} 件作品获奖${d.manualKept ? `（含 ${d.manualKept} 件手动设置）` : ""}${note}${d.warnings.length ? `。注意：${d.warnings.join("；")}` : ""}`,
      );
    },
  );

  r.patch(
    `${R}/work/:workId`,
    {
      schema: {
        tags,
        summary: "手动调整一件作品：设置奖项（以后按比例分配时保留）、恢复按比例分配、晋级（在名额内）",
        params: ResultWorkParam,
        body: ResultPatch,
        response: { 200: Envelope(ResultRow), 400: EmptyEnvelope, 409: EmptyEnvelope, 422: EmptyEnvelope },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await patchResult(db, req.user!, req.params.contestId, req.params.workId, req.body), "已保存"),
  );

  r.post(
    `${R}/promote`,
    {
      schema: {
        tags,
        summary:
          "推荐晋级：按奖项和组内排名在本赛事向上级赛事的推荐名额（总数和各大类）内标记晋级作品；国赛没有上级赛事，不能推荐晋级（422）",
        params: ResultContestParam,
        body: PromoteBody,
        response: { 200: Envelope(PromoteOutcome), 400: EmptyEnvelope, 409: EmptyEnvelope, 422: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req) => {
      const d = await promoteResults(db, req.user!, req.params.contestId, req.body ?? {});
      return ok(
        d,
        `已推荐 ${d.promoted} 件作品晋级「${d.parentName}」${d.notFitting ? `，${d.notFitting} 件获奖作品超出名额` : ""}`,
      );
    },
  );

  r.post(
    `${R}/publish`,
    {
      schema: {
        tags,
        summary: "发布结果：保存标准化模型、参数、所用评分和评分日志链头，赛事进入公示期；公众作品查询显示奖项",
        params: ResultContestParam,
        body: PublishBody,
        response: { 200: Envelope(PublicationView), 400: EmptyEnvelope, 409: EmptyEnvelope },
      },
      config: { access: acc("create") },
    },
    async (req) => ok(await publishResults(db, req.user!, req.params.contestId, req.body ?? {}), "结果已发布，公示期开始"),
  );

  r.post(
    `${R}/unpublish`,
    {
      schema: {
        tags,
        summary: "撤回发布（须填写原因）：发布记录保留，公众查询不再显示奖项，之后可重新计算和分配",
        params: ResultContestParam,
        body: UnpublishBody,
        response: { 200: Envelope(PublicationView), 400: EmptyEnvelope },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await unpublishResults(db, req.user!, req.params.contestId, req.body.reason), "已撤回发布"),
  );
}

/** The teacher and school honours (优秀指导教师, 优秀组织奖): view, propose by rule, add and remove by hand. */
function honourRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  const H = `${A}/:contestId/honours`;
  const honourTags = ["比赛结果", "证书"];
  const honourReply = { 200: Envelope(HonourView), 400: EmptyEnvelope, 404: EmptyEnvelope };

  r.get(
    H,
    {
      schema: {
        tags: honourTags,
        summary: "优秀指导教师、优秀组织奖：各奖项的名额和规则、获奖名单，以及可选的指导教师和学校",
        params: HonourContestParam,
        response: { 200: Envelope(HonourView) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await honoursView(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${H}/propose`,
    {
      schema: {
        tags: honourTags,
        summary:
          "按规则生成一个奖项的名单（优秀指导教师：获奖作品的指导教师按奖项和名次；优秀组织奖：学校按获奖作品计分），名额 = min(最多人数, 获奖作品数 × 比例)；手动添加的保留。结果已发布时生成结果版本并同步证书",
        params: HonourContestParam,
        body: HonourPropose,
        response: honourReply,
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const d = await proposeHonours(db, req.user!, req.params.contestId, req.body);
      return ok(d.view, d.info);
    },
  );

  r.post(
    H,
    {
      schema: {
        tags: honourTags,
        summary:
          "手动添加一位优秀指导教师（须指导本赛事的作品）或一所优秀组织奖学校（须有本赛事的作品）；重复或超出名额时拒绝。结果已发布时生成结果版本并同步证书",
        params: HonourContestParam,
        body: HonourAdd,
        response: honourReply,
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const d = await addHonour(db, req.user!, req.params.contestId, req.body);
      return ok(d.view, d.info);
    },
  );

  r.delete(
    `${H}/:id`,
    {
      schema: {
        tags: honourTags,
        summary: "移除一项优秀指导教师或优秀组织奖；结果已发布时生成结果版本并撤销对应证书",
        params: HonourParam,
        querystring: HonourRemoveQuery,
        response: honourReply,
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const d = await removeHonour(db, req.user!, req.params.contestId, req.params.id, req.query.reason);
      return ok(d.view, d.info);
    },
  );
}

/** The ranking as a spreadsheet. */
function exportRoute(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    `${R}/export`,
    {
      schema: { tags, summary: "导出成绩排名 (.xlsx)", params: ResultContestParam },
      config: { access: acc("read") },
    },
    async (req, reply) => {
      const f = await exportResults(db, req.user!, req.params.contestId);
      return reply
        .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .header("content-disposition", utf8Attachment(f.filename))
        .header("cache-control", "private, no-store")
        .send(f.buffer);
    },
  );
}

export function resultRoutes(app: FastifyInstance, db: Db) {
  computeAndViewRoutes(app, db);
  extraJudgeRoutes(app, db);
  awardRoutes(app, db);
  honourRoutes(app, db);
  exportRoute(app, db);
}
