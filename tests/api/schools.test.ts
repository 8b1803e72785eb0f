import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { exportXlsx, loadWorkbook, sheetFile, uploadXlsx, xlsxBuffer } from "../helpers/xlsx";

const P = "/Backend/Admin/school";

describe.each(DIALECTS)("schools on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, sadmin: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    cadmin = new Client(t);
    sadmin = new Client(t);
    await root.login("root", "admin");
    await cadmin.login("contest_admin", "admin");
    await sadmin.login("school_admin", "admin");
  });
  afterAll(async () => t?.close());

  const idOf = async (name: string) =>
    (await t.db.selectFrom("school").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;

  it("lists schools paginated, filtered and sorted, each within the user's scope", async () => {
    const all = await root.get(`${P}?current=1&pageSize=5&sort=-code`);
    expect(all.body.data.total).toBe(20);
    expect(all.body.data.list).toHaveLength(5);
    const codes = all.body.data.list.map((s: { code: string }) => s.code);
    expect(codes).toEqual([...codes].sort().reverse());
    const zj = await cadmin.get(`${P}?pageSize=100`);
    expect(zj.body.data.total).toBe(10);
    expect(new Set(zj.body.data.list.map((s: { province: string }) => s.province))).toEqual(new Set(["浙江省"]));
    const own = await sadmin.get(P);
    expect(own.body.data.list.map((s: { name: string }) => s.name)).toEqual(["浙江工业大学"]);
    const kw = await root.get(`${P}?keyword=${encodeURIComponent("无锡轻工")}`);
    expect(kw.body.data.list.map((s: { name: string }) => s.name)).toEqual(["江南大学"]);
  });

  it("does not let a school admin read or change another school by id", async () => {
    const other = await idOf("浙江大学");
    const r = await sadmin.get(`${P}/${other}`);
    expect(r.status).toBe(404);
    const w = await sadmin.req("PATCH", `${P}/${other}`, { contact: "hacked" });
    expect(w.status).toBe(404);
    const row = await t.db.selectFrom("school").select("contact").where("id", "=", other).executeTakeFirstOrThrow();
    expect(row.contact).toBeNull();
    const own = await idOf("浙江工业大学");
    const rename = await sadmin.req("PATCH", `${P}/${own}`, { name: "新名字大学" });
    expect(rename.status).toBe(403);
    const ok = await sadmin.req("PATCH", `${P}/${own}`, { contact: "0571-88320000" });
    expect(ok.body.data.contact).toBe("0571-88320000");
    // A cleared field is null, not an empty string.
    const cleared = await sadmin.req("PATCH", `${P}/${own}`, { contact: null });
    expect(cleared.body.data.contact).toBeNull();
  });

  it("keeps a municipal school out of reach of another province's contest admin", async () => {
    const js = await idOf("南京大学");
    expect((await cadmin.get(`${P}/${js}`)).status).toBe(404);
    const create = await cadmin.post(P, { name: "南京某某学院", code: "99901", province: "江苏省" });
    expect(create.status).toBe(403);
    const mine = await cadmin.post(P, { name: "杭州某某学院", code: "99902", province: "浙江省" });
    expect(mine.status).toBe(201);
  });

  it("renaming keeps the earlier name as a former name, and the change is logged", async () => {
    const c = await root.post(P, { name: "杭州测试学院", code: "88801", province: "浙江省" });
    expect(c.status).toBe(201);
    const id = c.body.data.id;
    const r = await root.req("PATCH", `${P}/${id}`, { name: "杭州测试大学" });
    expect(r.body.data).toMatchObject({ name: "杭州测试大学", formerNames: ["杭州测试学院"] });
    const log = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("entity", "=", "school")
      .where("entity_id", "=", String(id))
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["create", "update"]);
    expect(JSON.parse(log[1].changes).name).toEqual(["杭州测试学院", "杭州测试大学"]);
    const dup = await root.post(P, { name: "重复代码学校", code: "88801", province: "浙江省" });
    expect(dup.status).toBe(422);
    expect(dup.body.info).toContain("已被使用");
  });

  it("archives a school that has accounts instead of deleting it, and deletes an unused one", async () => {
    const used = await idOf("浙江工业大学");
    const d = await root.del(`${P}/${used}`);
    expect(d.body.data.result).toBe("archived");
    expect((await root.get(`${P}/${used}`)).body.data.archived).toBe(true);
    const again = await root.del(`${P}/${used}`);
    expect(again.status).toBe(400);
    const fresh = await root.post(P, { name: "无人学院", code: "77701", province: "江苏省" });
    const del = await root.del(`${P}/${fresh.body.data.id}`);
    expect(del.body.data.result).toBe("deleted");
    expect((await root.get(`${P}/${fresh.body.data.id}`)).status).toBe(404);
  });

  it("exports the filtered view and imports it back: dry run with a diff, then all rows in one go", async () => {
    const { wb, jobId: exportJob } = await exportXlsx(root, P, { province: "江苏省" });
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(2).value).toBe("学校名称");
    const names: string[] = [];
    ws.eachRow((row, n) => n > 1 && names.push(String(row.getCell(2).value)));
    expect(names).toHaveLength(10);
    expect(names).toContain("南京大学");
    // Someone else cannot read my export.
    expect((await sadmin.get(`/Backend/Common/job/${exportJob}`)).status).toBe(404);

    // Change one row, add one, keep the rest.
    const nju = ws.getRow(2);
    const njuCode = String(nju.getCell(1).value);
    nju.getCell(5).value = "025-83593186 教务处";
    ws.addRow(["66601", "苏州新建学院", "江苏省", "苏州旧名学院", "联系人 张老师"]);
    const buf = await xlsxBuffer(wb);
    const up = await uploadXlsx(root, `${P}/import`, buf, "学校.xlsx");
    expect(up.status).toBe(202);
    const dry = await waitJob(root, up.body.data.jobId);
    expect(dry.status).toBe("ready");
    expect(dry.result).toMatchObject({ total: 11, created: 1, changed: 1, unchanged: 9, errors: [] });
    expect(dry.result.changedRows[0]).toMatchObject({ key: njuCode, changes: { 联系方式: [null, "025-83593186 教务处"] } });
    // Nothing changed yet.
    expect(await t.db.selectFrom("school").select("id").where("code", "=", "66601").executeTakeFirst()).toBeUndefined();
    const ok = await root.post(`${P}/import/${up.body.data.jobId}/confirm`);
    expect(ok.status).toBe(202);
    const done = await waitJob(root, up.body.data.jobId);
    expect(done.status).toBe("done");
    const created = await t.db.selectFrom("school").selectAll().where("code", "=", "66601").executeTakeFirstOrThrow();
    expect(created).toMatchObject({ name: "苏州新建学院", province: "江苏省", former_names: JSON.stringify(["苏州旧名学院"]) });
    const again = await root.post(`${P}/import/${up.body.data.jobId}/confirm`);
    expect(again.status).toBe(400);
  });

  it("reports every bad row with its row, column and reason, and imports nothing", async () => {
    const buf = await sheetFile("学校", [
      ["学校代码", "学校名称", "省份", "曾用名（以、分隔）", "联系方式"],
      ["55501", "好学院", "浙江省", "", ""],
      ["55502", "X", "浙江省", "", ""],
      ["55501", "重复学院", "浙江省", "", ""],
      ["", "无代码学院", "浙江省", "", ""],
    ]);
    const up = await uploadXlsx(root, `${P}/import`, buf, "学校.xlsx");
    const dry = await waitJob(root, up.body.data.jobId);
    expect(dry.result.errors).toEqual([
      { row: 3, column: "学校名称", reason: expect.stringContaining("不能少于 2") },
      { row: 4, column: "学校代码", reason: "与第 2 行重复" },
      { row: 5, column: "学校代码", reason: "不能为空" },
    ]);
    const confirm = await root.post(`${P}/import/${up.body.data.jobId}/confirm`);
    expect(confirm.status).toBe(400);
    expect(await t.db.selectFrom("school").select("id").where("code", "=", "55501").executeTakeFirst()).toBeUndefined();
    const wrong = await uploadXlsx(
      root,
      `${P}/import`,
      await sheetFile("学校", [
        ["甲", "乙"],
        ["1", "2"],
      ]),
      "学校.xlsx",
    );
    const failed = await waitJob(root, wrong.body.data.jobId);
    expect(failed.status).toBe("failed");
    expect(failed.message).toContain("缺少列");
  });

  it("serves an import template with the Chinese headers", async () => {
    const r = await t.app.inject({ method: "GET", url: `${P}/template`, headers: { cookie: root.cookie } });
    expect(r.statusCode).toBe(200);
    const wb = await loadWorkbook(r.rawPayload);
    expect((wb.worksheets[0].getRow(1).values as string[]).slice(1)).toEqual([
      "学校代码",
      "学校名称",
      "省份",
      "曾用名（以、分隔）",
      "联系方式",
    ]);
  });
});
