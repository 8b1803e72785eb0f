/**
 * The national round's routes (issue 14): the national contest admin's incoming works per
 * province with the quota used, and the provincial admin's withdrawal of a promoted work
 * (before the national registration closes). Row scope: the contests the user manages
 * (requireManagedContest: others answer 404). Rules in ./entries.ts.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { EmptyEnvelope } from "../../shared/envelope";
import { ResultContestParam, ResultWorkParam, UnpublishBody } from "../../shared/judging/result-schema";
import type { Db } from "../db";
import { ok } from "../common/http";
import { incoming, promotedOut, withdrawEntry } from "./entries";

const A = "/Backend/ContestAdmin/national";
const tags = ["国赛晋级"];

export function nationalRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    `${A}/:contestId/incoming`,
    {
      schema: {
        tags,
        summary: "国赛：各省晋级作品及名额使用情况",
        params: ResultContestParam,
        response: { 400: EmptyEnvelope, 404: EmptyEnvelope },
      },
      config: { access: ["api.national", "read"] },
    },
    async (req) => ok(await incoming(db, req.user!, req.params.contestId)),
  );

  r.get(
    `${A}/:contestId/promoted`,
    {
      schema: {
        tags,
        summary: "省赛：本赛事晋级国赛的作品、国赛报名截止时间和能否撤回",
        params: ResultContestParam,
        response: { 404: EmptyEnvelope },
      },
      config: { access: ["api.national", "read"] },
    },
    async (req) => ok(await promotedOut(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${A}/:contestId/promoted/:workId/withdraw`,
    {
      schema: {
        tags,
        summary: "省赛：在国赛报名截止前撤回晋级作品（须填写原因，记入作品日志）",
        params: ResultWorkParam,
        body: UnpublishBody,
        response: { 400: EmptyEnvelope, 404: EmptyEnvelope },
      },
      config: { access: ["api.national", "update"] },
    },
    async (req) => ok(await withdrawEntry(db, req.user!, req.params.contestId, req.params.workId, req.body.reason), "已撤回晋级"),
  );
}
