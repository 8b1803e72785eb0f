/**
 * /work/export: the works list's filters → a job writing .xlsx with the works in the
 * caller's scope, their authors and teachers, read back through the job's download.
 * A contest admin's file holds only works of the own contests and their children.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readXlsx } from "../../src/server/crud/excel";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { XLSX_TYPE } from "../helpers/xlsx";
import { account, catId, contestId, login, makeWork } from "./works-fixtures";
import { maskPhone } from "../../src/shared/mask";
import { hashPassword } from "../../src/server/account/password";
import { generateWorks } from "../../src/server/seed/works";
import { EXPORT_BATCH } from "../../src/server/work/export";
import { authorsOfWorks } from "../../src/server/work/repository";

const X = "/Backend/Admin/work/export";

/** Starts an export, waits for the job and reads the downloaded file: headers and rows by header. */
async function exportRows(c: Client, filters: Record<string, unknown>) {
  const start = await c.post(X, filters);
  expect(start.status).toBe(202);
  const jobId = start.body.data.jobId as string;
  const job = await waitJob(c, jobId);
  expect(job).toMatchObject({
    status: "done",
    kind: "export",
    resource: "work",
    downloadUrl: `/Backend/Common/job/${jobId}/download`,
  });
  const file = await c.get(job.downloadUrl);
  expect(file.res.headers["content-type"]).toBe(XLSX_TYPE);
  const dir = mkdtempSync(join(tmpdir(), "saiwu-export-"));
  try {
    writeFileSync(join(dir, "x.xlsx"), file.res.rawPayload);
    let headers: string[] = [];
    const rows: Record<string, string>[] = [];
    for await (const r of readXlsx(join(dir, "x.xlsx"))) {
      if ("headers" in r) headers = r.headers;
      else rows.push(r.cells);
    }
    return { jobId, job, headers, rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(DIALECTS)("works export on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client;
  let zjuWork: number, jsWork: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    [cadmin, root] = await Promise.all(["contest_admin", "root"].map((u) => login(t, u)));
    const [a, b] = [
      await account(t, "exp_zju_a", "浙大甲", { school: "浙江大学" }),
      await account(t, "exp_zju_b", "浙大乙", { school: "浙江大学" }),
    ];
    zjuWork = await makeWork(t, a, {
      contest: await contestId(t, "2026-ZJ"),
      category: await catId(t, "物联网应用"),
      coAuthors: [b],
      name: "智慧农业物联网监测系统",
      files: false,
    });
    const [j, k] = [
      await account(t, "exp_js_a", "南大甲", { school: "南京大学" }),
      await account(t, "exp_js_b", "南大乙", { school: "南京大学" }),
    ];
    jsWork = await makeWork(t, j, {
      contest: await contestId(t, "2026-JS"),
      category: await catId(t, "物联网应用"),
      coAuthors: [k],
      name: "江苏的物联网作品",
      files: false,
    });
  });
  afterAll(async () => t?.close());

  it("exports the works of the contest admin's contests and their children only, with Chinese headers and content", async () => {
    const { headers, rows } = await exportRows(cadmin, {});
    expect(headers.slice(0, 11)).toEqual([
      "作品编号",
      "作品名称",
      "状态",
      "赛事",
      "赛事级别",
      "学校",
      "作品大类",
      "作品小类",
      "组别",
      "作者",
      "指导教师",
    ]);
    expect(headers).toContain("作者5邮箱");
    expect(headers).toContain("指导教师2工号");
    const scope = [await contestId(t, "2026-ZJ"), await contestId(t, "2026-ZJ-10337")];
    const inScope = (await t.db.selectFrom("work").select("id").where("contest_id", "in", scope).orderBy("id").execute()).map(
      (w) => String(w.id),
    );
    expect(rows.map((r) => r["作品编号"])).toEqual(inScope);
    expect(rows.map((r) => r["作品编号"])).toContain(String(zjuWork));
    expect(rows.map((r) => r["作品编号"])).not.toContain(String(jsWork));
    expect(rows.map((r) => r["作品名称"])).not.toContain("江苏的物联网作品");

    const energy = rows.find((r) => r["作品名称"] === "校园能耗数据可视化分析系统")!;
    const student = await t.db
      .selectFrom("app_user")
      .select(["member_no", "phone", "email"])
      .where("username", "=", "student")
      .executeTakeFirstOrThrow();
    const teacher = await t.db
      .selectFrom("app_user")
      .select(["member_no", "email"])
      .where("username", "=", "teacher")
      .executeTakeFirstOrThrow();
    expect(energy).toMatchObject({
      状态: "已提交",
      赛事: "2026年浙江工业大学计算机设计大赛校级赛",
      赛事级别: "校级赛",
      学校: "浙江工业大学",
      作品大类: "大数据应用",
      作品小类: "大数据实践赛",
      组别: "普通组",
      作者: "冯同学、林雨桐",
      指导教师: "王老师",
      作者1姓名: "冯同学",
      作者1学号: student.member_no ?? "",
      作者1专业: "计算机科学与技术",
      作者1手机: maskPhone(student.phone) ?? "",
      作者1邮箱: student.email ?? "",
      作者2姓名: "林雨桐",
      作者2学号: "202305010103",
      作者2专业: "数据科学与大数据技术",
      作者3姓名: "",
      指导教师1姓名: "王老师",
      指导教师1工号: teacher.member_no ?? "",
      指导教师1邮箱: teacher.email ?? "",
    });
    expect(energy["提交时间"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  });

  it("applies the list's filters and lets root export every work", async () => {
    const submitted = await exportRows(cadmin, { status: ["submitted", "returned"], schoolName: "工业" });
    expect(submitted.rows.map((r) => [r["作品名称"], r["状态"]]).sort()).toEqual([
      ["基于大模型的古诗词学习助手", "已退回修改"],
      ["校园能耗数据可视化分析系统", "已提交"],
    ]);
    const byAuthor = await exportRows(cadmin, { authorName: "浙大乙" });
    expect(byAuthor.rows.map((r) => r["作品编号"])).toEqual([String(zjuWork)]);
    expect(byAuthor.job).toMatchObject({ processed: 1, total: 1, message: "已导出 1 件作品" });

    const all = await exportRows(root, {});
    const count = Number(
      (
        await t.db
          .selectFrom("work")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(all.rows).toHaveLength(count);
    expect(all.rows.map((r) => r["作品名称"])).toContain("江苏的物联网作品");
  });

  it("is refused to school admins and authors, and the file is the exporter's own", async () => {
    for (const who of ["school_admin", "student", "teacher"]) {
      expect([who, (await (await login(t, who)).post(X, {})).status]).toEqual([who, 403]);
    }
    const { jobId } = await exportRows(cadmin, {});
    const other = await account(t, "exp_other_admin", "江苏赛管", { role: 2 });
    await t.db.updateTable("app_user").set({ user_type: 1, school_id: null }).where("username", "=", "exp_other_admin").execute();
    expect((await other.get(`/Backend/Common/job/${jobId}`)).body).toEqual({ error: 404, info: "任务不存在" });
    expect((await other.get(`/Backend/Common/job/${jobId}/download`)).body).toEqual({ error: 404, info: "导出任务不存在" });
    // An admin of no contest exports nothing.
    expect((await exportRows(other, {})).rows).toEqual([]);
  });

  it("exports works of many pages each exactly once, in order, with their own names and authors", async () => {
    await generateWorks(t.db, {
      count: EXPORT_BATCH * 2 + 37,
      seed: 7,
      year: new Date().getFullYear(),
      passwordHash: await hashPassword("Seed@2026"),
    });
    const works = await t.db.selectFrom("work").select(["id", "name"]).orderBy("id").execute();
    expect(works.length).toBeGreaterThan(EXPORT_BATCH * 2);
    const authors = new Map<number, string[]>();
    for (const a of await authorsOfWorks(
      t.db,
      works.map((w) => Number(w.id)),
    ))
      authors.set(a.work_id, [...(authors.get(a.work_id) ?? []), a.name]);
    const { rows, job } = await exportRows(root, {});
    expect(job).toMatchObject({ processed: works.length, total: works.length });
    expect(rows.map((r) => [r["作品编号"], r["作品名称"], r["作者"]])).toEqual(
      works.map((w) => [String(w.id), w.name, (authors.get(Number(w.id)) ?? []).join("、")]),
    );
  });
});
