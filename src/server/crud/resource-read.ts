/** A resource's read routes: the list (server pagination, sorting, filters, refine simple-rest parameters) and one row. */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { ListParams, Page } from "../../shared/crud/list";
import { notFound } from "../../shared/errors";
import { ownQuery, restListDb, restPreValidation, restQuerySchema, setTotal } from "./rest";
import { IdParam, parseSort, type Ctx, type ResourceParts } from "./resource-def";

export function registerReadRoutes<V extends { id: number }, C, U>({ app, db, def, ctxOf }: ResourceParts<V, C, U>) {
  const tags = def.tags;
  const read = [def.object, "read"] as const;
  const ListQuerySchema = Type.Intersect([ListParams, def.filters, restQuerySchema(def.rest, def.filters, def.view)]);

  const listOf = (ctx: Ctx, query: Record<string, unknown>, offset: number, limit: number) => {
    const {
      current: _c,
      pageSize: _p,
      sort,
      ...filters
    } = query as { current?: number; pageSize?: number; sort?: string[] } & Record<string, unknown>;
    return def.list(ctx, { filters, sort: parseSort(sort, def.sortable), offset, limit });
  };

  app.get(
    def.path,
    {
      schema: {
        tags,
        summary: `${def.label}列表（也接受 refine simple-rest 的 _start/_end、_sort/_order 和 <字段>_like/_gte/_lte/_ne 参数）`,
        querystring: ListQuerySchema,
        response: { 200: Envelope(Page(def.view)) },
      },
      config: { access: read },
      preValidation: restPreValidation(def.rest, def.filters),
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const q = query as { current?: number; pageSize?: number };
      const pageSize = q.pageSize ?? 20;
      const ctx = { ...ctxOf(req), db: restListDb(db, def.rest, def.filters, def.view, query) };
      const data = await listOf(ctx, ownQuery(def.rest, def.filters, query), ((q.current ?? 1) - 1) * pageSize, pageSize);
      setTotal(reply, data.total);
      return { error: 0, info: "成功", data };
    },
  );

  app.get(
    `${def.path}/:id`,
    {
      schema: { tags, summary: `${def.label}详情`, params: IdParam, response: { 200: Envelope(def.view) } },
      config: { access: read },
    },
    async (req) => {
      const row = await def.get(ctxOf(req), (req.params as { id: number }).id);
      if (!row) throw notFound(`${def.label}不存在或不在您的管理范围内`);
      return { error: 0, info: "成功", data: row };
    },
  );
}
