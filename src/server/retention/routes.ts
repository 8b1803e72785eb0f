/** Root's retention period (GET/PUT /Backend/Admin/retention); the purge itself is scheduled (service.ts). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Db } from "../db";
import { Envelope } from "../../shared/envelope";
import { RetentionBody, RetentionView } from "../../shared/retention/schema";
import { ok } from "../common/http";
import { retentionView, setRetention } from "./service";

const tags = ["个人信息"];
export const RETENTION_PATH = "/Backend/Admin/retention";

export function retentionRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    RETENTION_PATH,
    {
      schema: { tags, summary: "个人信息保留期限与最近一次清除", response: { 200: Envelope(RetentionView) } },
      config: { access: ["api.retention", "read"] },
    },
    async () => ok(await retentionView(db)),
  );
  r.put(
    RETENTION_PATH,
    {
      schema: {
        tags,
        summary: "设置个人信息保留期限（天；null 为不清除）",
        body: RetentionBody,
        response: { 200: Envelope(RetentionView) },
      },
      config: { access: ["api.retention", "update"] },
    },
    async (req) =>
      ok(await setRetention(db, req.user!.id, req.body.days), req.body.days === null ? "已关闭自动清除" : "保留期限已保存"),
  );
}
