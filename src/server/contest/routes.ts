/** The contest admin's own contest settings (/ContestAdmin/ContestSettings). */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { ContestView } from "../../shared/contest/schema";
import type { Db } from "../db";
import { ownContests } from "./view";

export function contestRoutes(app: FastifyInstance, db: Db) {
  app.get(
    "/Backend/ContestAdmin/contest/mine",
    {
      schema: {
        tags: ["赛事"],
        summary: "我管理的赛事（赛事管理员本人担任管理员的赛事，不含下级赛事）",
        response: { 200: Envelope(Type.Array(ContestView)) },
      },
      config: { access: ["api.contests", "read"] },
    },
    async (req) => {
      const data = await ownContests({ db, user: req.user! });
      return { error: 0, info: data.length ? "成功" : "您目前没有负责的赛事", data };
    },
  );
}
