/** GET /Backend/Common/work-type/tree: every 大类 with its rules, rubric and 小类 (forms, judging). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { WorkTypeTreeNode } from "../../shared/work-type/schema";
import type { Db } from "../db";
import { workTypeTree } from "./query";

export function workTypeRoutes(app: FastifyInstance, db: Db) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    "/Backend/Common/work-type/tree",
    {
      schema: {
        tags: ["作品类别"],
        summary: "作品类别树：大类及其人数规则、专业组、提交材料、评分标准和小类",
        querystring: Type.Object({ includeArchived: Type.Optional(Type.Boolean({ default: false, title: "包含已归档" })) }),
        response: { 200: Envelope(Type.Array(WorkTypeTreeNode)) },
      },
      config: { access: ["api.workTypes", "read"] },
    },
    async (req) => ({ error: 0, info: "成功", data: await workTypeTree(db, req.query.includeArchived ?? false) }),
  );
}
