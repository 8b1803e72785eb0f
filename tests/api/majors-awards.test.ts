import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { exportXlsx, importXlsx, rowsOf, xlsxBuffer } from "../helpers/xlsx";

const M = "/Backend/Admin/major";
const A = "/Backend/Admin/award";

const exported = async (c: Client, base: string, filters: Record<string, unknown>) => (await exportXlsx(c, base, filters)).wb;
const importFile = async (c: Client, base: string, wb: ExcelJS.Workbook) => importXlsx(c, base, await xlsxBuffer(wb));

describe.each(DIALECTS)("majors and awards on %s", (dialect) => {
  let t: TestApp;
  let root: Client, sadmin: Client, judge: Client, anon: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    [root, sadmin, judge, anon] = [new Client(t), new Client(t), new Client(t), new Client(t)];
    await root.login("root", "admin");
    await sadmin.login("school_admin", "admin");
    await judge.login("judge", "admin");
  });
  afterAll(async () => t?.close());

  const majorId = async (code: string) =>
    (await t.db.selectFrom("major").select("id").where("code", "=", code).executeTakeFirstOrThrow()).id;
  const awardId = async (level: "national" | "provincial" | "school", name: string) =>
    (
      await t.db
        .selectFrom("award_level")
        .select("id")
        .where("contest_level", "=", level)
        .where("name", "=", name)
        .executeTakeFirstOrThrow()
    ).id;

  describe("majors", () => {
    it("lists majors by code, filtered by discipline and keyword, with their uses", async () => {
      const all = await root.get(`${M}?pageSize=5`);
      expect(all.body.data.total).toBe(20);
      expect(all.body.data.list.map((m: { code: string }) => m.code)).toEqual([
        "040104",
        "070101",
        "080717T",
        "080901",
        "080902",
      ]);
      const art = await sadmin.get(`${M}?discipline=${encodeURIComponent("艺术学")}&pageSize=50&sort=-code`);
      expect(art.status).toBe(200);
      expect(art.body.data.list.map((m: { code: string }) => m.code)).toEqual([
        "130508",
        "130503",
        "130502",
        "130310",
        "130309",
        "130305",
        "130204",
        "130203",
        "130202",
      ]);
      const kw = await judge.get(`${M}?keyword=${encodeURIComponent("数字媒体")}`);
      expect(kw.body.data.list.map((m: { name: string }) => m.name)).toEqual(["数字媒体技术", "数字媒体艺术"]);
      expect(kw.body.data.list[0]).toMatchObject({
        code: "080906",
        discipline: "工学",
        archived: false,
        userCount: 0,
        categoryCount: 3,
      });
      const byCode = await root.get(`${M}?keyword=080904k`);
      expect(byCode.body.data.list.map((m: { name: string }) => m.name)).toEqual(["信息安全"]);
    });

    it("creates a major with a letter code, and names the field of every invalid input", async () => {
      const c = await root.post(M, { code: "080911tk", name: "网络空间安全", discipline: "工学" });
      expect(c.status).toBe(201);
      expect(c.body.data).toMatchObject({ code: "080911TK", name: "网络空间安全", discipline: "工学", archived: false });
      expect((await root.get(`${M}/${c.body.data.id}`)).body.data.code).toBe("080911TK");
      const dup = await root.post(M, { code: "080906", name: "数字媒体技术（重复）" });
      expect(dup.body).toMatchObject({ error: 422, info: "专业代码 080906 已被「数字媒体技术」使用", data: { field: "code" } });
      const badCode = await root.post(M, { code: "8090", name: "短代码专业" });
      expect(badCode.body).toMatchObject({
        error: 422,
        info: "专业代码应为 6 位数字，可带 1–2 个字母，如 080906、080904K，「8090」不符合",
        data: { field: "code" },
      });
      const badDisc = await root.post(M, { code: "080999", name: "某专业", discipline: "计算机学" });
      expect(badDisc.body).toMatchObject({ error: 422, data: { field: "discipline" } });
      expect(badDisc.body.info).toContain("学科门类「计算机学」无效");
      expect(await t.db.selectFrom("major").select("id").where("code", "in", ["8090", "080999"]).execute()).toEqual([]);
    });

    it("lets everyone logged in read majors, only root write them, and no visitor", async () => {
      const id = await majorId("080901");
      expect((await sadmin.get(`${M}/${id}`)).body.data.name).toBe("计算机科学与技术");
      for (const c of [sadmin, judge]) {
        expect((await c.post(M, { code: "080998", name: "越权专业" })).status).toBe(403);
        expect((await c.req("PATCH", `${M}/${id}`, { name: "越权改名" })).status).toBe(403);
        expect((await c.del(`${M}/${id}`)).status).toBe(403);
      }
      expect((await anon.get(M)).status).toBe(401);
      expect((await t.db.selectFrom("major").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name).toBe(
        "计算机科学与技术",
      );
      expect(await t.db.selectFrom("major").select("id").where("code", "=", "080998").executeTakeFirst()).toBeUndefined();
    });

    it("archives a major that accounts or a 专业组 use, keeps its code, and deletes an unused one", async () => {
      const dm = await majorId("080906");
      const code = await root.req("PATCH", `${M}/${dm}`, { code: "080906X" });
      expect(code.body).toMatchObject({ error: 422, data: { field: "code" } });
      expect(code.body.info).toContain("3 个作品大类");
      const d = await root.del(`${M}/${dm}`);
      expect(d.body).toMatchObject({ error: 0, info: "专业已被引用，已归档", data: { result: "archived" } });
      const again = await root.del(`${M}/${dm}`);
      expect(again.body).toMatchObject({
        error: 400,
        info: "专业 080906 数字媒体技术 仍被 0 个账号、3 个作品大类的专业组使用，不能删除；它已经归档",
      });
      expect((await t.db.selectFrom("major").select("archived").where("id", "=", dm).executeTakeFirstOrThrow()).archived).toBe(1);
      // An archived major cannot join another 专业组; the lists that have it keep it.
      const soft = (
        await t.db.selectFrom("work_category").select("id").where("name", "=", "软件应用与开发").executeTakeFirstOrThrow()
      ).id;
      const join = await root.req("PATCH", `/Backend/Admin/work-type/${soft}`, {
        hasProfessionalGroup: true,
        professionalMajors: ["080906"],
      });
      expect(join.body).toMatchObject({
        error: 422,
        info: "专业 080906 已归档，不能加入专业组",
        data: { field: "professionalMajors" },
      });
      const anim = (
        await t.db.selectFrom("work_category").select("id").where("name", "=", "(AI+)数媒动漫与短片").executeTakeFirstOrThrow()
      ).id;
      expect((await root.req("PATCH", `/Backend/Admin/work-type/${anim}`, { maxTeachers: 1 })).status).toBe(200);

      const se = await majorId("080902");
      await t.db.updateTable("app_user").set({ major_code: "080902" }).where("username", "=", "student").execute();
      expect((await root.get(`${M}/${se}`)).body.data.userCount).toBe(1);
      expect((await root.del(`${M}/${se}`)).body.data.result).toBe("archived");

      const fresh = await root.post(M, { code: "071201", name: "统计学", discipline: "理学" });
      const rename = await root.req("PATCH", `${M}/${fresh.body.data.id}`, { code: "071202", name: "应用统计学" });
      expect(rename.body.data).toMatchObject({ code: "071202", name: "应用统计学" });
      const del = await root.del(`${M}/${fresh.body.data.id}`);
      expect(del.body.data.result).toBe("deleted");
      expect((await root.get(`${M}/${fresh.body.data.id}`)).status).toBe(404);
      const log = await t.db
        .selectFrom("audit_log")
        .select("action")
        .where("entity", "=", "major")
        .where("entity_id", "=", String(fresh.body.data.id))
        .orderBy("id")
        .execute();
      expect(log.map((l) => l.action)).toEqual(["create", "update", "delete"]);
    });

    it("exports majors and imports them back keyed by code: dry run with a diff, then all at once", async () => {
      const wb = await exported(root, M, { discipline: "管理学" });
      const ws = wb.worksheets[0];
      expect((ws.getRow(1).values as string[]).slice(1)).toEqual(["专业代码", "专业名称", "学科门类", "已归档", "账号数"]);
      expect(rowsOf(ws)).toEqual([["120102", "信息管理与信息系统", "管理学", "否", "0"]]);
      ws.getRow(2).getCell(2).value = "信息管理与信息系统（含大数据方向）";
      ws.addRow(["120103", "工程管理", "管理学"]);
      ws.addRow(["120108tk", "大数据管理与应用", "管理学"]);
      const { jobId, dry } = await importFile(root, M, wb);
      expect(dry.status).toBe("ready");
      expect(dry.result).toMatchObject({ total: 3, created: 2, changed: 1, unchanged: 0, errors: [] });
      expect(dry.result.changedRows[0]).toMatchObject({
        key: "120102",
        changes: { 专业名称: ["信息管理与信息系统", "信息管理与信息系统（含大数据方向）"] },
      });
      expect(await t.db.selectFrom("major").select("id").where("code", "=", "120103").executeTakeFirst()).toBeUndefined();
      expect((await root.post(`${M}/import/${jobId}/confirm`)).status).toBe(202);
      expect((await waitJob(root, jobId)).status).toBe("done");
      const rows = await t.db
        .selectFrom("major")
        .select(["code", "name"])
        .where("discipline", "=", "管理学")
        .orderBy("code")
        .execute();
      expect(rows).toEqual([
        { code: "120102", name: "信息管理与信息系统（含大数据方向）" },
        { code: "120103", name: "工程管理" },
        { code: "120108TK", name: "大数据管理与应用" },
      ]);

      const bad = new ExcelJS.Workbook();
      const sheet = bad.addWorksheet("专业");
      sheet.addRow(["专业代码", "专业名称", "学科门类"]);
      sheet.addRow(["12AB", "坏代码", "管理学"]);
      sheet.addRow(["130401", "美术学", "美术"]);
      const r = await importFile(root, M, bad);
      expect(r.dry.result.errors).toEqual([
        { row: 2, column: "专业代码", reason: "专业代码应为 6 位数字，可带 1–2 个字母，如 080906、080904K" },
      ]);
      expect(r.dry.result.created).toBe(1);
      // Validation in create (the discipline) fails the confirm: nothing is imported.
      sheet.spliceRows(2, 1);
      const r2 = await importFile(root, M, bad);
      await root.post(`${M}/import/${r2.jobId}/confirm`);
      const failed = await waitJob(root, r2.jobId);
      expect(failed.status).toBe("failed");
      expect(failed.message).toContain("学科门类「美术」无效");
      expect(await t.db.selectFrom("major").select("id").where("code", "=", "130401").executeTakeFirst()).toBeUndefined();
    });
  });

  describe("awards", () => {
    it("lists award levels per contest level and kind", async () => {
      const prov = await judge.get(`${A}?contestLevel=provincial&kind=work`);
      expect(prov.status).toBe(200);
      expect(prov.body.data.list.map((a: { name: string; ratio: number | null }) => [a.name, a.ratio])).toEqual([
        ["一等奖", 0.1],
        ["二等奖", 0.2],
        ["三等奖", 0.3],
        ["优秀奖", null],
      ]);
      const teacher = await sadmin.get(`${A}?kind=teacher`);
      expect(teacher.body.data.list.map((a: { contestLevel: string; name: string }) => `${a.contestLevel}/${a.name}`)).toEqual([
        "national/优秀指导教师",
        "provincial/优秀指导教师",
        "school/优秀指导教师",
      ]);
      expect((await anon.get(A)).status).toBe(401);
      expect((await sadmin.post(A, { contestLevel: "school", name: "越权奖", kind: "work" })).status).toBe(403);
      expect((await judge.del(`${A}/${await awardId("school", "一等奖")}`)).status).toBe(403);
    });

    it("keeps the work-award ratios of one contest level at or below 100%", async () => {
      const over = await root.post(A, { contestLevel: "provincial", name: "特等奖", kind: "work", ratio: 0.5 });
      expect(over.body).toMatchObject({
        error: 422,
        info: "省级赛作品奖项的比例之和不能超过 100%：其他作品奖项已占 60%，加上本项 50% 共 110%",
        data: { field: "ratio" },
      });
      expect(await t.db.selectFrom("award_level").select("id").where("name", "=", "特等奖").executeTakeFirst()).toBeUndefined();
      const ok = await root.post(A, { contestLevel: "provincial", name: "特等奖", kind: "work", ratio: 0.05, maxCount: 20 });
      expect(ok.status).toBe(201);
      expect(ok.body.data).toMatchObject({
        contestLevel: "provincial",
        name: "特等奖",
        kind: "work",
        ratio: 0.05,
        maxCount: 20,
        sort: 7,
        archived: false,
      });
      // Teacher awards and another contest level do not count.
      expect(
        (await root.post(A, { contestLevel: "provincial", name: "优秀指导教师（特等）", kind: "teacher", ratio: 0.5 })).status,
      ).toBe(201);
      expect((await root.post(A, { contestLevel: "national", name: "特等奖", kind: "work", ratio: 0.3 })).status).toBe(201);
      const first = await awardId("provincial", "一等奖");
      const raise = await root.req("PATCH", `${A}/${first}`, { ratio: 0.5 });
      expect(raise.body).toMatchObject({ error: 422, data: { field: "ratio" } });
      expect(raise.body.info).toContain("其他作品奖项已占 55%，加上本项 50% 共 105%");
      // Archived awards are out of the sum; restoring one is checked again.
      expect((await root.req("PATCH", `${A}/${ok.body.data.id}`, { archived: true })).body.data.archived).toBe(true);
      expect((await root.req("PATCH", `${A}/${first}`, { ratio: 0.48 })).body.data.ratio).toBe(0.48);
      const restore = await root.req("PATCH", `${A}/${ok.body.data.id}`, { archived: false });
      expect(restore.body).toMatchObject({ error: 422, data: { field: "ratio" } });
      const toWork = await root.req("PATCH", `${A}/${await awardId("provincial", "优秀指导教师（特等）")}`, { kind: "work" });
      expect(toWork.body.data.field).toBe("ratio");
    });

    it("names the field of missing or duplicate values, and deletes an award level", async () => {
      const noLevel = await root.post(A, { name: "最佳创意奖", kind: "work" });
      expect(noLevel.body).toMatchObject({
        error: 422,
        info: "请选择赛事级别（国赛、省级赛或校级赛）",
        data: { field: "contestLevel" },
      });
      const dup = await root.post(A, { contestLevel: "school", name: "一等奖", kind: "work" });
      expect(dup.body).toMatchObject({ error: 422, info: "校级赛已有奖项「一等奖」", data: { field: "name" } });
      const badRatio = await root.post(A, { contestLevel: "school", name: "最佳创意奖", kind: "work", ratio: 1.5 });
      expect(badRatio.body).toMatchObject({ error: 422, data: { field: "ratio" } });
      const badKind = await root.post(A, { contestLevel: "school", name: "最佳创意奖", kind: "medal" });
      expect(badKind.body.data.field).toBe("kind");
      const c = await root.post(A, { contestLevel: "school", name: "最佳创意奖", kind: "work", maxCount: 3 });
      expect(c.body.data).toMatchObject({ ratio: null, maxCount: 3 });
      const rename = await root.req("PATCH", `${A}/${c.body.data.id}`, { name: "二等奖" });
      expect(rename.body.data.field).toBe("name");
      const d = await root.del(`${A}/${c.body.data.id}`);
      expect(d.body).toMatchObject({ info: "奖项已删除", data: { result: "deleted" } });
      expect((await root.get(`${A}/${c.body.data.id}`)).status).toBe(404);
    });

    it("clears an award's ratio and count caps with null, not 0", async () => {
      const c = await root.post(A, { contestLevel: "school", name: "最佳设计奖", kind: "work", ratio: 0.05, maxCount: 3 });
      expect(c.body.data).toMatchObject({ ratio: 0.05, maxCount: 3 });
      const cleared = await root.req("PATCH", `${A}/${c.body.data.id}`, { ratio: null, maxCount: null });
      expect(cleared.body.data).toMatchObject({ ratio: null, maxCount: null });
      const none = await root.post(A, { contestLevel: "school", name: "最佳人气奖", kind: "work", ratio: null, maxCount: null });
      expect(none.body.data).toMatchObject({ ratio: null, maxCount: null });
      const zero = await root.req("PATCH", `${A}/${none.body.data.id}`, { ratio: 0 });
      expect(zero.body.data.ratio).toBe(0);
      await root.del(`${A}/${c.body.data.id}`);
      await root.del(`${A}/${none.body.data.id}`);
    });

    it("exports award levels and imports them back keyed by 等级/奖项, all rows or none", async () => {
      const wb = await exported(root, A, { contestLevel: "school" });
      const ws = wb.worksheets[0];
      expect((ws.getRow(1).values as string[]).slice(1)).toEqual([
        "等级/奖项",
        "奖项类别",
        "比例上限",
        "数量上限",
        "排序",
        "已归档",
      ]);
      const rows = rowsOf(ws);
      expect(rows[0]).toEqual(["校级赛/一等奖", "作品奖", "10%", "", "1", "否"]);
      expect(rows.map((r) => r[0])).toEqual([
        "校级赛/一等奖",
        "校级赛/二等奖",
        "校级赛/三等奖",
        "校级赛/优秀奖",
        "校级赛/优秀指导教师",
        "校级赛/优秀组织奖",
      ]);
      ws.getRow(2).getCell(3).value = "15%";
      ws.addRow(["校赛/最佳人气奖", "作品奖", "0.05", "10", "8"]);
      const { jobId, dry } = await importFile(root, A, wb);
      expect(dry.result).toMatchObject({ total: 7, created: 1, changed: 1, unchanged: 5, errors: [] });
      expect(dry.result.changedRows[0]).toMatchObject({ key: "校级赛/一等奖", changes: { 比例上限: ["10%", "15%"] } });
      await root.post(`${A}/import/${jobId}/confirm`);
      expect((await waitJob(root, jobId)).status).toBe("done");
      const after = await root.get(`${A}?contestLevel=school&kind=work&pageSize=50`);
      expect(
        after.body.data.list.map((a: { name: string; ratio: number | null; maxCount: number | null }) => [
          a.name,
          a.ratio,
          a.maxCount,
        ]),
      ).toEqual([
        ["一等奖", 0.15, null],
        ["二等奖", 0.2, null],
        ["三等奖", 0.3, null],
        ["优秀奖", null, null],
        ["最佳人气奖", 0.05, 10],
      ]);

      const bad = new ExcelJS.Workbook();
      const sheet = bad.addWorksheet("奖项");
      sheet.addRow(["等级/奖项", "奖项类别", "比例上限", "数量上限", "排序"]);
      sheet.addRow(["市级赛/一等奖", "作品奖", "10%", "", ""]);
      sheet.addRow(["校级赛/进步奖", "奖状", "", "", ""]);
      sheet.addRow(["校级赛/潜力奖", "作品奖", "120%", "", ""]);
      const r = await importFile(root, A, bad);
      expect(r.dry.result.errors).toEqual([
        { row: 2, column: "等级/奖项", reason: "格式应为「级别/奖项名称」，如「省级赛/一等奖」" },
        { row: 3, column: "奖项类别", reason: "应为作品奖、教师奖、组织奖之一" },
        { row: 4, column: "比例上限", reason: "应为 0% 到 100% 之间的比例，如 10% 或 0.1" },
      ]);

      // Each row alone fits, together they exceed 100%: the confirm imports nothing.
      const over = new ExcelJS.Workbook();
      const os = over.addWorksheet("奖项");
      os.addRow(["等级/奖项", "奖项类别", "比例上限", "数量上限", "排序"]);
      os.addRow(["校级赛/创意奖", "作品奖", "15%", "", ""]);
      os.addRow(["校级赛/人气奖", "作品奖", "20%", "", ""]);
      const o = await importFile(root, A, over);
      expect(o.dry.result).toMatchObject({ created: 2, errors: [] });
      await root.post(`${A}/import/${o.jobId}/confirm`);
      const failed = await waitJob(root, o.jobId);
      expect(failed.status).toBe("failed");
      expect(failed.message).toContain("校级赛作品奖项的比例之和不能超过 100%");
      expect(await t.db.selectFrom("award_level").select("id").where("name", "in", ["创意奖", "人气奖"]).execute()).toEqual([]);
    });
  });
});
