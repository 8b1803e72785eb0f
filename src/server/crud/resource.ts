/**
 * One generic resource router for master data: list (server pagination, sorting,
 * filters), one, create, update, delete/archive, .xlsx export and two-step import
 * (dry run with per-row errors and a diff, then confirm: all rows or none), each change
 * recorded in the audit log. A resource supplies only its queries and columns.
 */
import { rm, readFile } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import "@fastify/multipart";
import type { Transaction } from "kysely";
import { Type, type TObject, type TSchema } from "typebox";
import { Value } from "typebox/value";
import type { ApiObject } from "../../shared/access";
import { Envelope } from "../../shared/envelope";
import { ListParams, Page, type ImportChange, type ImportReport, type PageOf } from "../../shared/crud/list";
import { badRequest, DomainError, notFound } from "../../shared/errors";
import type { Db } from "../db";
import type { DB, User } from "../db/schema";
import { validationMessage } from "../plugins/errors";
import { auditScope, diff, record } from "./audit";
import { readXlsx, writeXlsx } from "./excel";
import { planFromText, planToText, type Plan as ImportPlan } from "./plan";
import { JobGone, type Jobs, type RunCtx } from "./jobs";
import { MAX_ID } from "../../shared/bounds";
import { ownQuery, restListDb, restPreValidation, restQuerySchema, setTotal, type RestColumns } from "./rest";

export type Trx = Transaction<DB>;
export interface Ctx {
  db: Db;
  user: User;
}

export interface ListQuery {
  filters: Record<string, unknown>;
  sort: [string, "asc" | "desc"][];
  offset: number;
  limit: number;
}

export interface ExcelColumn<V> {
  /** the create/update input field */
  key: string;
  header: string;
  width?: number;
  /** the exported cell of a row */
  get: (v: V) => string | number | null;
  /** cell text → input value; throw an Error with a Chinese reason. Default: the text. */
  parse?: (text: string, prep: any) => unknown;
  /** a column that is exported but never imported (ids, computed values) */
  readOnly?: boolean;
}

export interface ExcelDef<V, C, U> {
  sheet: string;
  columns: ExcelColumn<V>[];
  /** the input field that identifies a row (e.g. code, username) */
  keyField: string;
  /** loaded once per import, handed to every parse (lookups such as school name → id) */
  prepare?: (ctx: Ctx) => Promise<unknown>;
  /** existing rows by key; null: it exists but is outside the user's scope */
  findByKeys(ctx: Ctx, keys: string[]): Promise<Map<string, V | null>>;
  /** a check across the cells of one row, in the dry run; a Chinese reason refuses the row */
  checkRow?(
    ctx: Ctx,
    row: { input: Partial<C> & Partial<U>; before: V | undefined },
    prep: any,
  ): { column?: string; reason: string } | null;
  /** applies an import inside one transaction; the default calls create/update per row */
  apply?(ctx: Ctx, trx: Trx, creates: C[], updates: { before: V; input: U }[], progress: (done: number) => void): Promise<void>;
}

export interface ResourceDef<V extends { id: number }, C, U> {
  /** policy object: "api.<name>" */
  object: ApiObject;
  /** audit entity name */
  entity: string;
  label: string;
  path: string;
  tags: string[];
  view: TSchema;
  createSchema: TObject;
  updateSchema: TObject;
  filters: TObject;
  /** API sort field → allowed */
  sortable: readonly string[];
  /** fields refine's simple-rest filters (`<field>_like`/`_gte`/`_lte`/`_ne`, `<field>=`) may name, and their columns (./rest.ts) */
  rest?: RestColumns;
  list(ctx: Ctx, q: ListQuery): Promise<PageOf<V>>;
  get(ctx: Ctx, id: number): Promise<V | undefined>;
  create(ctx: Ctx, trx: Trx, input: C): Promise<V>;
  update(ctx: Ctx, trx: Trx, before: V, input: U): Promise<V>;
  /** deletes, or archives when others reference it; throws a clear message when neither */
  remove?(ctx: Ctx, trx: Trx, before: V): Promise<"deleted" | "archived">;
  excel?: ExcelDef<V, C, U>;
}

/**
 * Inside a transaction every query of a use case must go through it: on the embedded
 * SQLite one connection serves all, so a query outside would wait for the transaction.
 */
export const inTrx = (ctx: Ctx, trx: Trx): Ctx => ({ ...ctx, db: trx as unknown as Db });

const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "编号" }) });
const MAX_REPORT_ROWS = 500;
const PROGRESS_EVERY = 500;

function parseSort(sort: string[] | undefined, allowed: readonly string[]): [string, "asc" | "desc"][] {
  return (sort ?? []).map((s) => {
    const field = s.replace(/^-/, "");
    if (!allowed.includes(field)) throw new DomainError(422, `不能按 ${field} 排序`, "sort");
    return [field, s.startsWith("-") ? "desc" : "asc"] as [string, "asc" | "desc"];
  });
}

const cellOf = (v: unknown) => (v === null || v === undefined ? "" : String(v));

export function registerResource<V extends { id: number }, C, U>(
  app: FastifyInstance,
  deps: { db: Db; jobs: Jobs },
  def: ResourceDef<V, C, U>,
) {
  const { db, jobs } = deps;
  const ctxOf = (req: { user: User | null }): Ctx => ({ db, user: req.user! });
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

  if (!def.excel) return;
  const excel = def.excel;
  const importable = excel.columns.filter((c) => !c.readOnly);

  app.get(
    `${def.path}/template`,
    {
      schema: { tags, summary: `下载${def.label}导入模板 (.xlsx)` },
      config: { access: [def.object, "create"] },
    },
    async (_req, reply) => {
      const file = await jobs.tmpPath("xlsx");
      try {
        await writeXlsx(file, excel.sheet, importable, (async function* () {})());
        const buf = await readFile(file);
        return reply
          .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(`${def.label}导入模板.xlsx`)}`)
          .send(buf);
      } finally {
        await rm(file, { force: true });
      }
    },
  );

  app.post(
    `${def.path}/export`,
    {
      schema: {
        tags,
        summary: `导出${def.label}（当前筛选条件，后台生成 .xlsx）`,
        body: def.filters,
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: read },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const jobId = await jobs.create("export", def.entity, ctx.user.id, { filters: req.body ?? {} });
      await jobs.enqueue(jobId);
      return reply.code(202).send({ error: 0, info: "导出任务已开始", data: { jobId } });
    },
  );

  /** The export, in whichever process takes the job: the filtered rows a page at a time into an .xlsx blob. */
  async function runExport(rc: RunCtx) {
    const ctx: Ctx = { db, user: rc.user };
    const filters = (rc.params.filters ?? {}) as Record<string, unknown>;
    const first = await def.list(ctx, { filters, sort: [], offset: 0, limit: 1 });
    rc.progress(0, first.total);
    let done = 0;
    const file = await jobs.tmpPath("xlsx");
    try {
      const BATCH = 1000;
      await writeXlsx(
        file,
        excel.sheet,
        excel.columns,
        (async function* () {
          for (let offset = 0; ; offset += BATCH) {
            rc.signal.throwIfAborted();
            const page = await def.list(ctx, { filters, sort: [["id", "asc"]], offset, limit: BATCH });
            if (!page.list.length) break;
            yield page.list.map((v) => excel.columns.map((c) => c.get(v)));
            done += page.list.length;
            rc.progress(done);
            if (page.list.length < BATCH) break;
          }
        })(),
      );
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    const sha = await jobs.storeFile(file);
    await jobs.finish(rc.job.id, "running", "done", {
      output_sha256: sha,
      processed: done,
      total: done,
      message: `已导出 ${done} 条`,
    });
  }
  jobs.register("export", def.entity, runExport);

  app.post(
    `${def.path}/import`,
    {
      schema: {
        tags,
        summary: `导入${def.label}：上传 .xlsx，先试运行（逐行错误和差异）`,
        consumes: ["multipart/form-data"],
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: [def.object, "create"] },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const part = await req.file();
      if (!part) throw badRequest("请选择要导入的 .xlsx 文件");
      if (!/\.xlsx$/i.test(part.filename)) throw badRequest("只支持 .xlsx 格式的文件，请使用导入模板");
      // A token's import names the token in the audit rows its apply writes (in whichever process).
      const jobId = await jobs.create(
        "import",
        def.entity,
        ctx.user.id,
        req.apiToken ? { tokenName: req.apiToken.name } : undefined,
      );
      // The upload goes to the blob store: any process can run the dry run.
      const { sha256 } = await jobs.store.put(part.file);
      if (part.file.truncated) {
        await jobs.failNow(jobId, "文件过大");
        throw badRequest("文件过大，请拆分后再导入");
      }
      await jobs.setInput(jobId, sha256);
      await jobs.enqueue(jobId);
      return reply.code(202).send({ error: 0, info: "文件已上传，正在检查", data: { jobId } });
    },
  );

  type Plan = ImportPlan<C, U>;

  /** An import job: the dry run while it is running, the apply once confirmed. */
  jobs.register("import", def.entity, async (rc) => {
    const ctx: Ctx = { db, user: rc.user };
    if (rc.job.status === "running") {
      try {
        await dryRun(ctx, rc);
      } catch (err) {
        if (err instanceof JobGone || rc.signal.aborted) throw err;
        await jobs.finish(rc.job.id, "running", "failed", {
          message: err instanceof DomainError ? err.info : "无法读取该文件，请确认是 .xlsx 格式并使用导入模板",
        });
      }
    } else {
      const tokenName = (rc.params as { tokenName?: unknown } | undefined)?.tokenName;
      if (typeof tokenName === "string") await auditScope.run({ tokenName, rows: 0 }, () => apply(ctx, rc));
      else await apply(ctx, rc);
    }
  });

  async function dryRun(ctx: Ctx, rc: RunCtx) {
    const jobId = rc.job.id;
    if (!rc.job.input_sha256) throw badRequest("上传的文件不完整，请重新上传");
    const prep = excel.prepare ? await excel.prepare(ctx) : undefined;
    const rows: { rowNumber: number; cells: Record<string, string> }[] = [];
    const file = await jobs.blobToTmp(rc.job.input_sha256, "xlsx");
    try {
      for await (const item of readXlsx(file)) {
        if ("headers" in item) {
          const missing = importable.filter((c) => !item.headers.includes(c.header)).map((c) => c.header);
          if (missing.length) throw badRequest(`缺少列：${missing.join("、")}，请使用导入模板`);
          continue;
        }
        rows.push(item);
        if (rows.length % PROGRESS_EVERY === 0) {
          rc.progress(rows.length);
          rc.signal.throwIfAborted();
        }
      }
    } finally {
      await rm(file, { force: true });
    }
    const total = rows.length;
    rc.progress(0, total);
    const keyCol = importable.find((c) => c.key === excel.keyField)!;
    const existing = await excel.findByKeys(ctx, [...new Set(rows.map((r) => r.cells[keyCol.header]).filter(Boolean))]);
    const report: ImportReport = { total, created: 0, changed: 0, unchanged: 0, errors: [], newRows: [], changedRows: [] };
    const plan: Plan = { creates: [], updates: [] };
    const seen = new Map<string, number>();
    const err = (row: number, column: string, reason: string) => {
      report.errors.push({ row, column, reason });
    };
    rows.forEach(({ rowNumber, cells }, i) => {
      if (i % PROGRESS_EVERY === 0) rc.progress(i);
      const key = cells[keyCol.header];
      if (!key) return err(rowNumber, keyCol.header, "不能为空");
      const dup = seen.get(key);
      if (dup) return err(rowNumber, keyCol.header, `与第 ${dup} 行重复`);
      seen.set(key, rowNumber);
      const before = existing.get(key);
      if (before === null) return err(rowNumber, keyCol.header, "该记录已存在，但不在您的管理范围内");
      const input: Record<string, unknown> = {};
      const changes: ImportChange["changes"] = {};
      const errorsBefore = report.errors.length;
      for (const c of importable) {
        const text = cells[c.header] ?? "";
        if (before) {
          // Blank cells leave an existing value as it is.
          if (text === "" || text === cellOf(c.get(before))) continue;
          changes[c.header] = [c.get(before), text];
        } else if (text === "") continue;
        try {
          input[c.key] = c.parse ? c.parse(text, prep) : text;
        } catch (e) {
          err(rowNumber, c.header, e instanceof Error ? e.message : String(e));
        }
      }
      if (report.errors.length > errorsBefore) return;
      const schema = before ? def.updateSchema : def.createSchema;
      const first = [...Value.Errors(schema, input)][0];
      if (first) {
        const { field } = validationMessage(first as never);
        const col = importable.find((c) => c.key === field.split(".")[0]);
        return err(rowNumber, col?.header ?? field, validationMessage(first as never, col?.header).info);
      }
      const rowError = excel.checkRow?.(ctx, { input: input as Partial<C> & Partial<U>, before }, prep);
      if (rowError) return err(rowNumber, rowError.column ?? keyCol.header, rowError.reason);
      if (!before) {
        report.created++;
        if (report.newRows.length < MAX_REPORT_ROWS) report.newRows.push({ row: rowNumber, key });
        plan.creates.push(input as C);
      } else if (Object.keys(changes).length) {
        report.changed++;
        if (report.changedRows.length < MAX_REPORT_ROWS) report.changedRows.push({ row: rowNumber, key, changes });
        plan.updates.push({ id: before.id, input: input as U });
      } else report.unchanged++;
    });
    const errorCount = report.errors.length;
    report.errors = report.errors.slice(0, MAX_REPORT_ROWS);
    const planSha = await jobs.storeText(planToText(plan));
    await jobs.finish(jobId, "running", "ready", {
      plan_sha256: planSha,
      processed: total,
      total,
      result: report,
      message: errorCount
        ? `发现 ${errorCount} 处错误，请修正后重新上传；本次不会导入任何数据`
        : `可导入：新增 ${report.created}，修改 ${report.changed}，不变 ${report.unchanged}`,
    });
  }

  app.post(
    `${def.path}/import/:jobId/confirm`,
    {
      schema: {
        tags,
        summary: `确认导入${def.label}：在一个事务中全部导入或全部不导入`,
        params: Type.Object({ jobId: Type.String({ format: "uuid" }) }),
        response: { 202: Envelope(Type.Object({ jobId: Type.String() })) },
      },
      config: { access: [def.object, "create"] },
    },
    async (req, reply) => {
      const ctx = ctxOf(req);
      const { jobId } = req.params as { jobId: string };
      const job = await jobs.get(jobId, ctx.user.id);
      if (!job || job.kind !== "import" || job.resource !== def.entity) throw notFound("导入任务不存在");
      const refused = (status: string) =>
        badRequest(
          status === "done"
            ? "该导入已完成，不能重复确认"
            : status === "applying"
              ? "该导入已确认，正在导入，不能重复确认"
              : status === "cancelled"
                ? "该导入已取消"
                : "该导入任务尚未完成检查或已失败",
        );
      if (job.status !== "ready") throw refused(job.status);
      const report = job.result as ImportReport;
      if (report.errors.length) throw badRequest("文件中存在错误行，请修正后重新上传");
      // ready → applying in one conditional update: of two confirms exactly one wins.
      if (!(await jobs.confirm(jobId, report.created + report.changed))) {
        const now = await jobs.get(jobId, ctx.user.id);
        throw refused(now?.status ?? "failed");
      }
      return reply.code(202).send({ error: 0, info: "正在导入", data: { jobId } });
    },
  );

  /**
   * The apply: every row and the job's `done` in one transaction, so it happens exactly
   * once — a retry after a crash finds `done` (or a rolled-back import to start again).
   */
  async function apply(ctx: Ctx, rc: RunCtx) {
    const jobId = rc.job.id;
    if (!rc.job.plan_sha256) throw badRequest("导入计划丢失，请重新上传");
    const plan = await planFromText<C, U>(await jobs.readText(rc.job.plan_sha256));
    const n = plan.creates.length + plan.updates.length;
    rc.progress(0, n);
    await db.transaction().execute(async (trx) => {
      await jobs.lockForApply(trx, jobId);
      const cur = await trx.selectFrom("job").select(["status", "owner"]).where("id", "=", jobId).executeTakeFirst();
      if (cur?.status !== "applying" || cur.owner !== jobs.owner) throw new JobGone();
      const tctx = inTrx(ctx, trx);
      const beforeRows: { before: V; input: U }[] = [];
      for (const u of plan.updates) beforeRows.push({ before: (await def.get(tctx, u.id))!, input: u.input });
      if (beforeRows.some((u) => !u.before)) throw badRequest("数据在检查后已被他人修改，请重新上传");
      if (excel.apply) {
        await excel.apply(tctx, trx, plan.creates, beforeRows, (done) => {
          rc.progress(done);
          rc.signal.throwIfAborted();
        });
      } else {
        let i = 0;
        for (const c of plan.creates) {
          const v = await def.create(tctx, trx, c);
          await record(trx, ctx.user.id, {
            entity: def.entity,
            entityId: v.id,
            action: "import",
            changes: diff(null, v as Record<string, unknown>),
          });
          rc.progress(++i);
          rc.signal.throwIfAborted();
        }
        for (const u of beforeRows) {
          const v = await def.update(tctx, trx, u.before, u.input);
          await record(trx, ctx.user.id, {
            entity: def.entity,
            entityId: v.id,
            action: "import",
            changes: diff(u.before as Record<string, unknown>, v as Record<string, unknown>),
          });
          rc.progress(++i);
          rc.signal.throwIfAborted();
        }
      }
      // The rows and `done` commit together; a cancel that came first makes this a rollback.
      if (
        !(await jobs.finish(
          jobId,
          "applying",
          "done",
          { processed: n, total: n, message: `导入完成：新增 ${plan.creates.length}，修改 ${plan.updates.length}` },
          trx,
        ))
      )
        throw new JobGone();
    });
    rc.progress(n, n);
  }
}
