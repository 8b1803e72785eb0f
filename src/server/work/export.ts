/**
 * /work/export: the filtered works in the caller's scope with their authors and teachers,
 * as a streaming .xlsx written by a background job. Pages are read by keyset (id > last),
 * so memory stays bounded whatever the number of works, and the rows are in id order.
 *
 * Phones are masked (138****5678): the export serves counting, checking and filing entries,
 * not calling people, and a sheet travels further than the screen. An admin who must call a
 * team reveals that one number through the audited user route (user/phone.ts); the team and
 * its school have the numbers in full on the printed 报名表 (service/print.ts).
 */
import { MAX_AUTHORS, MAX_TEACHERS } from "../../shared/work-type/schema";
import { GROUP_NAMES } from "../../shared/work/fields";
import type { WorkFilters } from "../../shared/work/schema";
import { WORK_STATE_NAMES } from "../../shared/work/states";
import type { SheetColumn } from "../crud/excel";
import type { Jobs } from "../jobs/user-jobs";
import type { Db } from "../db";
import { entryOverlay, worksQuery, type ListScope } from "./list";
import { withListColumns } from "./list-columns";
import { authorsOfWorks, teachersOfWorks, type AuthorRow, type TeacherRow } from "./repository";
import { beijingTime } from "../../shared/time";
import { writeXlsx } from "../crud/excel";
import { rm } from "node:fs/promises";
import { maskPhone } from "../../shared/mask";

/**
 * Works per page. Small on purpose: a page's rows live while its ~100 rows are written (~5 MB
 * of exceljs garbage, under one young generation of `--max-semi-space-size=8`), so they die
 * young; at 1,000 they outlived two scavenges and ~3.6 KB a work went to the old generation,
 * which V8 then let grow to ~140 MB between full collections (bench:export, docs/performance.md).
 */
export const EXPORT_BATCH = 100;

const CONTEST_LEVELS: Record<string, string> = { national: "国赛", provincial: "省级赛", school: "校级赛" };
const time = (iso: string | null) => (iso ? beijingTime(iso) : "");

export const EXPORT_COLUMNS: SheetColumn[] = [
  { header: "作品编号", width: 13 },
  { header: "作品名称", width: 32 },
  { header: "状态", width: 12 },
  { header: "赛事", width: 36 },
  { header: "赛事级别", width: 9 },
  { header: "学校", width: 22 },
  { header: "作品大类", width: 18 },
  { header: "作品小类", width: 18 },
  { header: "组别", width: 8 },
  { header: "作者", width: 28 },
  { header: "指导教师", width: 16 },
  ...Array.from({ length: MAX_AUTHORS }, (_, i) =>
    ["姓名", "学号", "专业", "手机", "邮箱"].map((h) => ({
      header: `作者${i + 1}${h}`,
      width: h === "邮箱" ? 26 : h === "专业" ? 18 : 14,
    })),
  ).flat(),
  ...Array.from({ length: MAX_TEACHERS }, (_, i) =>
    ["姓名", "工号", "手机", "邮箱"].map((h) => ({ header: `指导教师${i + 1}${h}`, width: h === "邮箱" ? 26 : 14 })),
  ).flat(),
  { header: "创建时间", width: 17 },
  { header: "提交时间", width: 17 },
  { header: "更新时间", width: 17 },
];

const authorCells = (a: AuthorRow | undefined) =>
  a
    ? [a.name, a.member_no ?? "", a.major_name ?? a.major_code ?? "", maskPhone(a.phone) ?? "", a.email ?? ""]
    : ["", "", "", "", ""];
const teacherCells = (t: TeacherRow | undefined) =>
  t ? [t.name, t.member_no ?? "", maskPhone(t.phone) ?? "", t.email ?? ""] : ["", "", "", ""];

function groupBy<T extends { work_id: number }>(rows: T[]) {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.work_id);
    if (list) list.push(r);
    else out.set(r.work_id, [r]);
  }
  return out;
}

/**
 * The export's rows, a page of works at a time; a page's cells are made row by row as the
 * writer takes them (not 1,000 × 47 at once), so little lives long enough to leave V8's young generation.
 */
export async function* exportPages(
  db: Db,
  scope: ListScope,
  filters: WorkFilters,
  onPage?: (done: number) => void,
): AsyncGenerator<Iterable<(string | number)[]>> {
  let last = 0;
  let done = 0;
  for (;;) {
    const ids = (
      await worksQuery(db, scope, filters)
        .select("work.id")
        .where("work.id", ">", last)
        .orderBy("work.id")
        .limit(EXPORT_BATCH)
        .execute()
    ).map((r) => Number(r.id));
    if (!ids.length) return;
    last = ids[ids.length - 1];
    const rows = await withListColumns(db.selectFrom("work").where("work.id", "in", ids))
      .orderBy("work.id")
      .execute();
    const authors = groupBy(await authorsOfWorks(db, ids));
    const teachers = groupBy(await teachersOfWorks(db, ids));
    // Under a national contest's filter its entries show as in the list: the national state, contest and name.
    const national = filters.contestId !== undefined ? await entryOverlay(db, filters.contestId, ids) : new Map();
    const cells = (w: (typeof rows)[number]) => {
      const as = authors.get(w.id) ?? [];
      const ts = teachers.get(w.id) ?? [];
      const n = national.get(w.id);
      return [
        w.id,
        n?.name ?? w.name,
        n ? n.statusName : WORK_STATE_NAMES[w.status],
        n ? n.contestName : w.contest_name,
        CONTEST_LEVELS[n ? n.contestLevel : w.contest_level] ?? w.contest_level,
        w.school_name,
        w.category_name,
        w.subcategory_name ?? "",
        GROUP_NAMES[w.group_type],
        as.map((a) => a.name).join("、"),
        ts.map((t) => t.name).join("、"),
        ...Array.from({ length: MAX_AUTHORS }, (_, i) => authorCells(as[i])).flat(),
        ...Array.from({ length: MAX_TEACHERS }, (_, i) => teacherCells(ts[i])).flat(),
        time(w.created_at),
        time(w.submitted_at),
        time(w.updated_at),
      ];
    };
    yield (function* () {
      for (const w of rows) yield cells(w);
    })();
    done += ids.length;
    onPage?.(done);
    if (ids.length < EXPORT_BATCH) return;
  }
}

/** Registers the works export's runner: whichever process takes the job writes the .xlsx into the blob store. */
export function registerWorkExport(db: Db, jobs: Jobs) {
  jobs.register("export", "work", async (rc) => {
    const { scope, filters } = rc.params as { scope: ListScope; filters: WorkFilters };
    const total = await worksQuery(db, scope, filters)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    rc.progress(0, Number(total.n));
    let done = 0;
    const file = await jobs.tmpPath("xlsx");
    try {
      await writeXlsx(
        file,
        "作品",
        EXPORT_COLUMNS,
        exportPages(db, scope, filters, (n) => {
          rc.progress((done = n));
          rc.signal.throwIfAborted();
        }),
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
      message: `已导出 ${done} 件作品`,
    });
  });
}

/** Starts the export job; any process's worker writes the file. */
export async function startExport(jobs: Jobs, userId: number, scope: ListScope, filters: WorkFilters): Promise<string> {
  const jobId = await jobs.create("export", "work", userId, { scope, filters });
  await jobs.enqueue(jobId);
  return jobId;
}
