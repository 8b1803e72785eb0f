/** The change log of master data for root: who changed what, when, newest first. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Envelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import { AuditQuery, AuditView } from "../../shared/audit/schema";
import type { Db } from "../db";

const tags = ["变更记录"];

function parseChanges(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function auditRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    "/Backend/Admin/audit",
    {
      schema: {
        tags,
        summary: "变更记录（谁、何时、改了什么），最新在前",
        querystring: AuditQuery,
        response: { 200: Envelope(Page(AuditView)) },
      },
      config: { access: ["api.audit", "read"] },
    },
    async (req) => {
      const { entity, entityId, userId, action, current = 1, pageSize = 20 } = req.query;
      let q = db.selectFrom("audit_log").leftJoin("app_user", "app_user.id", "audit_log.user_id");
      if (entity) q = q.where("audit_log.entity", "=", entity);
      if (entityId) q = q.where("audit_log.entity_id", "=", entityId);
      if (userId) q = q.where("audit_log.user_id", "=", userId);
      if (action) q = q.where("audit_log.action", "=", action);
      const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const rows = await q
        .select([
          "audit_log.id",
          "audit_log.at",
          "audit_log.user_id",
          "app_user.name as user_name",
          "app_user.username",
          "audit_log.entity",
          "audit_log.entity_id",
          "audit_log.action",
          "audit_log.changes",
          "audit_log.token_name",
        ])
        .orderBy("audit_log.id", "desc")
        .offset((current - 1) * pageSize)
        .limit(pageSize)
        .execute();
      return {
        error: 0,
        info: "成功",
        data: {
          total: Number(total.n),
          list: rows.map((a) => ({
            id: a.id,
            at: a.at,
            userId: a.user_id,
            userName: a.user_name,
            username: a.username,
            entity: a.entity,
            entityId: a.entity_id,
            action: a.action,
            changes: parseChanges(a.changes),
            tokenName: a.token_name ?? null,
          })),
        },
      };
    },
  );
}
