/**
 * What an import job runs: the dry run (every row checked against the resource's columns and
 * schemas, a plan and a report stored, nothing written) and, once confirmed, the apply (the
 * plan and the job's `done` in one transaction, each row recorded in the audit log).
 */
import { rm } from "node:fs/promises";
import { Value } from "typebox/value";
import type { ImportChange, ImportReport } from "../../shared/crud/list";
import { badRequest } from "../../shared/errors";
import { validationMessage } from "../plugins/errors";
import { diff, record } from "../common/audit";
import { JobGone, type RunCtx } from "../jobs/user-jobs";
import { readXlsx } from "./excel";
import { planFromText, planToText, type Plan as ImportPlan } from "./plan";
import { inTrx, type Ctx, type ExcelDef, type ResourceParts } from "./resource-def";

const MAX_REPORT_ROWS = 500;
const PROGRESS_EVERY = 500;

const cellOf = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** The dry run: reads the upload, checks every row, stores the plan and the report; nothing is written. */
export async function dryRunImport<V extends { id: number }, C, U>(
  { jobs, def }: ResourceParts<V, C, U>,
  excel: ExcelDef<V, C, U>,
  ctx: Ctx,
  rc: RunCtx,
) {
  const importable = excel.columns.filter((c) => !c.readOnly);
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
  const plan: ImportPlan<C, U> = { creates: [], updates: [] };
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

/**
 * The apply: every row and the job's `done` in one transaction, so it happens exactly
 * once — a retry after a crash finds `done` (or a rolled-back import to start again).
 */
export async function applyImport<V extends { id: number }, C, U>(
  { db, jobs, def }: ResourceParts<V, C, U>,
  excel: ExcelDef<V, C, U>,
  ctx: Ctx,
  rc: RunCtx,
) {
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
