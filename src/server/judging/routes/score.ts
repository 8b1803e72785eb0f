/**
 * Online scoring: the judge's own scores (/Backend/Judge/…, api.scores: judges and
 * teachers flagged as school-contest judges; rows: only works assigned to the caller, 404
 * otherwise) and the contest admin's side (/Backend/Judging/contest/…, api.scoreAdmin:
 * contest admins for their contests, root; 404 for other contests).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../../shared/envelope";
import { ContestParam } from "../../../shared/judging/schema";
import {
  JudgeProgress,
  MyScore,
  OnlineOverview,
  ReopenBody,
  ScoreAdminView,
  ScoreBody,
  ScoreLogCheck,
  ScoreParam,
  ScoreWorkParam,
} from "../../../shared/judging/score-schema";
import type { Db } from "../../db";
import { adminScores, myProgress, myScore, onlineOverview, reopenScore, saveScore, verifyContestLog } from "../service/score";
import { ok } from "../../common/http";

const J = "/Backend/Judge";
const A = "/Backend/Judging/contest";

export function scoreRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["网络评审"];
  const judge = (act: "read" | "update") => ["api.scores", act] as const;
  const admin = (act: "read" | "update") => ["api.scoreAdmin", act] as const;

  r.get(
    `${J}/progress`,
    {
      schema: {
        tags,
        summary: "我评审的各赛事的网络评审进度（已提交 / 分配）和评审时间",
        response: { 200: Envelope(Type.Array(JudgeProgress)) },
      },
      config: { access: judge("read") },
    },
    async (req) => ok(await myProgress(db, req.user!)),
  );

  r.get(
    `${J}/contest/:contestId/online`,
    {
      schema: {
        tags,
        summary: "网络评审：分配给我的作品及我的评分状态（未评 / 草稿 / 已提交）、总分和进度",
        params: ContestParam,
        response: { 200: Envelope(OnlineOverview) },
      },
      config: { access: judge("read") },
    },
    async (req) => ok(await onlineOverview(db, req.user!, req.params.contestId)),
  );

  r.get(
    `${J}/contest/:contestId/work/:workId/score`,
    {
      schema: {
        tags,
        summary: "我对一件分配给我的作品的评分（尚未评分时为空白，版本 0）",
        params: ScoreWorkParam,
        response: { 200: Envelope(MyScore) },
      },
      config: { access: judge("read") },
    },
    async (req) => ok(await myScore(db, req.user!, req.params.contestId, req.params.workId)),
  );

  r.put(
    `${J}/contest/:contestId/work/:workId/score`,
    {
      schema: {
        tags,
        summary: "保存评分草稿（可只填部分评分项）；已提交的评分不能修改",
        params: ScoreWorkParam,
        body: ScoreBody,
        response: { 200: Envelope(MyScore) },
      },
      config: { access: judge("update") },
    },
    async (req) => {
      const data = await saveScore(db, req.user!, req.params.contestId, req.params.workId, req.body, false);
      return ok(data, `草稿已保存${data.total !== null ? `（当前总分 ${data.total}）` : ""}`);
    },
  );

  r.post(
    `${J}/contest/:contestId/work/:workId/score/submit`,
    {
      schema: {
        tags,
        summary: "提交评分（须为全部评分项打分）；提交后只有赛事管理员可以退回",
        params: ScoreWorkParam,
        body: ScoreBody,
        response: { 200: Envelope(MyScore) },
      },
      config: { access: judge("update") },
    },
    async (req) => {
      const data = await saveScore(db, req.user!, req.params.contestId, req.params.workId, req.body, true);
      return ok(data, `评分已提交，总分 ${data.total}`);
    },
  );

  r.get(
    `${A}/:contestId/scores`,
    {
      schema: {
        tags,
        summary: "网络评审进度：每位评委、每件作品的分配数和已提交数，以及每条评分的状态",
        params: ContestParam,
        response: { 200: Envelope(ScoreAdminView) },
      },
      config: { access: admin("read") },
    },
    async (req) => ok(await adminScores(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${A}/:contestId/score/:scoreId/reopen`,
    {
      schema: {
        tags,
        summary: "退回已提交的评分（须填写原因），评委可再次修改并提交",
        params: ScoreParam,
        body: ReopenBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), status: Type.String(), version: Type.Integer() })) },
      },
      config: { access: admin("update") },
    },
    async (req) => {
      const { label, ...data } = await reopenScore(db, req.user!, req.params.contestId, req.params.scoreId, req.body);
      return ok(data, `已退回${label}`);
    },
  );

  r.get(
    `${A}/:contestId/score-log/verify`,
    {
      schema: {
        tags,
        summary: "校验本赛事评分日志的哈希链（发现被修改、删除、插入或调换的记录）",
        params: ContestParam,
        response: { 200: Envelope(ScoreLogCheck) },
      },
      config: { access: admin("read") },
    },
    async (req) => {
      const data = await verifyContestLog(db, req.user!, req.params.contestId);
      return ok(data, data.message);
    },
  );
}
