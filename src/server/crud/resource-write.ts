/** A resource's write routes: create, update and delete/archive, each in one transaction with its audit row. */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { notFound } from "../../shared/errors";
import { diff, record } from "../common/audit";
import { IdParam, inTrx, type ResourceParts } from "./resource-def";

export function registerWriteRoutes<V extends { id: number }, C, U>({ app, db, def, ctxOf }: ResourceParts<V, C, U>) {
  const tags = def.tags;

  app.post(
    def.path,
    {
      schema: { tags, summary: `新建${def.label}`, body: def.createSchema, response: { 201: Envelope(def.view) } },
      config: { access: [def.object, "create"] },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const row = await db.transaction().execute(async (trx) => {
        const created = await def.create(inTrx(ctx, trx), trx, req.body as C);
        await record(trx, ctx.user.id, {
          entity: def.entity,
          entityId: created.id,
          action: "create",
          changes: diff(null, created as Record<string, unknown>),
        });
        return created;
      });
      return reply.code(201).send({ error: 0, info: `${def.label}已创建`, data: row });
    },
  );

  app.patch(
    `${def.path}/:id`,
    {
      schema: {
        tags,
        summary: `修改${def.label}`,
        params: IdParam,
        body: def.updateSchema,
        response: { 200: Envelope(def.view) },
      },
      config: { access: [def.object, "update"] },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const id = (req.params as { id: number }).id;
      const row = await db.transaction().execute(async (trx) => {
        const before = await def.get(inTrx(ctx, trx), id);
        if (!before) throw notFound(`${def.label}不存在或不在您的管理范围内`);
        const after = await def.update(inTrx(ctx, trx), trx, before, req.body as U);
        await record(trx, ctx.user.id, {
          entity: def.entity,
          entityId: id,
          action: "update",
          changes: diff(before as Record<string, unknown>, after as Record<string, unknown>),
        });
        return after;
      });
      return { error: 0, info: `${def.label}已保存`, data: row };
    },
  );

  if (def.remove) {
    const remove = def.remove;
    app.delete(
      `${def.path}/:id`,
      {
        schema: {
          tags,
          summary: `删除${def.label}（被引用时归档）`,
          params: IdParam,
          response: { 200: Envelope(Type.Object({ result: Type.String() })) },
        },
        config: { access: [def.object, "delete"] },
      },
      async (req) => {
        const ctx = ctxOf(req);
        const id = (req.params as { id: number }).id;
        const result = await db.transaction().execute(async (trx) => {
          const before = await def.get(inTrx(ctx, trx), id);
          if (!before) throw notFound(`${def.label}不存在或不在您的管理范围内`);
          const r = await remove(inTrx(ctx, trx), trx, before);
          await record(trx, ctx.user.id, {
            entity: def.entity,
            entityId: id,
            action: r === "deleted" ? "delete" : "archive",
            changes: r === "deleted" ? diff(before as Record<string, unknown>, null) : { archived: [0, 1] },
          });
          return r;
        });
        return { error: 0, info: result === "deleted" ? `${def.label}已删除` : `${def.label}已被引用，已归档`, data: { result } };
      },
    );
  }
}
