import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { exportXlsx, sheetFile, uploadXlsx, xlsxBuffer } from "../helpers/xlsx";
import { lockedFieldsOf } from "../../src/server/contest/lock-store";

const P = "/Backend/Admin/contest";
const L = "/Backend/Admin/entry-lock";

const stage = (s: string, startsAt: string, endsAt: string) => ({ stage: s, startsAt, endsAt });

describe.each(DIALECTS)("contests on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, sadmin: Client;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    cadmin = new Client(t);
    sadmin = new Client(t);
    await root.login("root", "admin");
    await cadmin.login("contest_admin", "admin");
    await sadmin.login("school_admin", "admin");
    for (const c of await t.db.selectFrom("contest").select(["id", "code"]).execute()) ids[c.code!] = c.id;
  });
  afterAll(async () => t?.close());

  const school = async (name: string) =>
    (await t.db.selectFrom("school").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
  const user = async (username: string) =>
    (await t.db.selectFrom("app_user").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
  const contestCount = async () =>
    Number(
      (
        await t.db
          .selectFrom("contest")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("lists the demo contests with parent, stages, quotas, open categories and members", async () => {
    expect(Object.keys(ids).sort()).toEqual(["2026-CN", "2026-JS", "2026-ZJ", "2026-ZJ-10337"]);
    const all = await root.get(`${P}?pageSize=50`);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(4);
    const zj = all.body.data.list.find((c: { code: string }) => c.code === "2026-ZJ");
    expect(zj).toMatchObject({
      level: "provincial",
      year: 2026,
      province: "浙江省",
      parentName: "2026年（第19届）中国大学生计算机设计大赛",
      childCount: 1,
      recommendQuota: 200,
    });
    expect(zj.categories).toHaveLength(11);
    expect(zj.categoryNames).toContain("软件应用与开发");
    expect(zj.stages.map((s: { stage: string }) => s.stage)).toEqual([
      "registration",
      "school_review",
      "format_review",
      "online_judging",
      "offline_judging",
      "publicity",
      "complaint",
    ]);
    const reg = zj.stages[0];
    expect(Date.parse(reg.startsAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(reg.endsAt)).toBeGreaterThan(Date.now());
    expect(zj.admins).toEqual([{ id: await user("contest_admin"), name: "赵赛务", username: "contest_admin" }]);
    expect(zj.reviewers.map((r: { name: string }) => r.name)).toEqual(["孙审核"]);
    const sch = all.body.data.list.find((c: { code: string }) => c.code === "2026-ZJ-10337");
    expect(sch).toMatchObject({ level: "school", schoolName: "浙江工业大学", parentCode: "2026-ZJ", province: "浙江省" });

    const prov = await root.get(`${P}?level=provincial&sort=-id`);
    expect(prov.body.data.list.map((c: { province: string }) => c.province)).toEqual(["江苏省", "浙江省"]);
    expect(prov.body.data.total).toBe(2);
    const kids = await root.get(`${P}?parentId=${ids["2026-CN"]}`);
    expect(kids.body.data.list.map((c: { code: string }) => c.code).sort()).toEqual(["2026-JS", "2026-ZJ"]);
    const kw = await root.get(`${P}?keyword=${encodeURIComponent("浙江工业")}`);
    expect(kw.body.data.list.map((c: { code: string }) => c.code)).toEqual(["2026-ZJ-10337"]);
    expect((await root.get(`${P}?year=2025`)).body.data.total).toBe(0);
    expect((await root.get(`${P}?sort=bogus`)).status).toBe(422);
  });

  it("validates the level chain, stage times, categories and members, naming the field, and creates nothing", async () => {
    const base = { name: "测试赛事", year: 2026 };
    const reviewer = await user("reviewer");
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, level: "provincial", province: "安徽省" }, "parentId", "省赛必须选择上级国赛"],
      [{ ...base, level: "provincial", province: "安徽省", parentId: ids["2026-ZJ"] }, "parentId", "省赛的上级赛事必须是国赛"],
      [{ ...base, level: "provincial", province: "安徽省", parentId: ids["2026-CN"], year: 2025 }, "year", "须与上级赛事"],
      [{ ...base, level: "provincial", parentId: ids["2026-CN"] }, "province", "省赛必须填写省份"],
      [{ ...base, level: "national", parentId: ids["2026-CN"] }, "parentId", "国赛是最高级别的赛事"],
      [{ ...base, level: "school", parentId: ids["2026-CN"], schoolId: 1 }, "parentId", "校赛的上级赛事必须是省赛"],
      [{ ...base, level: "school", parentId: ids["2026-ZJ"] }, "schoolId", "校赛必须选择学校"],
      [{ ...base, level: "school", parentId: ids["2026-ZJ"], schoolId: -1 }, "schoolId", ""],
      [{ ...base, level: "provincial", province: "安徽省", parentId: 99999 }, "parentId", "不存在"],
      [
        { ...base, level: "national", stages: [stage("registration", "2026-03-01 08:00", "2026-02-01 08:00")] },
        "stages.0.endsAt",
        "“报名”阶段的结束时间必须晚于开始时间",
      ],
      [
        {
          ...base,
          level: "national",
          stages: [stage("publicity", "2026-09-01 08:00", "2026-09-10 08:00"), stage("online_judging", "明天上午", "2026-06-30")],
        },
        "stages.1.startsAt",
        "“网络评审”阶段的开始时间格式不正确",
      ],
      [
        {
          ...base,
          level: "national",
          stages: [stage("complaint", "2026-09-01", "2026-09-30"), stage("complaint", "2026-10-01", "2026-10-30")],
        },
        "stages.1.stage",
        "阶段“申诉”重复设置",
      ],
      [{ ...base, level: "national", stages: [stage("judging", "2026-09-01", "2026-09-30")] }, "stages.0.stage", ""],
      [{ ...base, level: "national", categories: [99999] }, "categories", "不存在"],
      [
        { ...base, level: "national", categories: [], categoryQuotas: [{ categoryId: 1, quota: 5 }] },
        "categoryQuotas.0.categoryId",
        "未开放",
      ],
      [{ ...base, level: "national", adminIds: [reviewer] }, "adminIds", "“孙审核”不是赛事管理员"],
    ];
    const before = await contestCount();
    for (const [body, field, info] of cases) {
      const r = await root.post(P, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      if (field) expect(r.body.data?.field, JSON.stringify(r.body)).toBe(field);
      expect(r.body.info).toContain(info);
    }
    const js = await root.post(P, { ...base, level: "school", parentId: ids["2026-ZJ"], schoolId: await school("南京大学") });
    expect(js.status).toBe(422);
    expect(js.body.data.field).toBe("schoolId");
    expect(js.body.info).toBe(
      "学校“南京大学”位于江苏省，与上级省赛“2026年中国大学生计算机设计大赛浙江省级赛”的省份（浙江省）不一致",
    );
    expect(await contestCount()).toBe(before);
    expect(
      await t.db.selectFrom("contest_stage").select("id").where("contest_id", "not in", Object.values(ids)).execute(),
    ).toEqual([]);

    const ok = await root.post(P, {
      name: "2026年浙江大学计算机设计大赛校级赛",
      level: "school",
      year: 2026,
      parentId: ids["2026-ZJ"],
      schoolId: await school("浙江大学"),
      stages: [
        stage("registration", "2026-03-01 08:00", "2026-04-30 18:00"),
        stage("school_review", "2026-05-01T00:00:00+08:00", "2026-05-10T00:00:00+08:00"),
      ],
      recommendQuota: 25,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({
      province: "浙江省",
      schoolName: "浙江大学",
      parentCode: "2026-ZJ",
      code: `2026-${ok.body.data.id}`,
      recommendQuota: 25,
    });
    expect(ok.body.data.stages).toEqual([
      stage("registration", "2026-03-01T00:00:00.000Z", "2026-04-30T10:00:00.000Z"),
      stage("school_review", "2026-04-30T16:00:00.000Z", "2026-05-09T16:00:00.000Z"),
    ]);
    const dup = await root.post(P, { name: "重复代码国赛", level: "national", year: 2027, code: "2026-ZJ" });
    expect(dup.status).toBe(422);
    expect(dup.body).toMatchObject({ info: "赛事代码 2026-ZJ 已被使用", data: { field: "code" } });
    // A contest with children keeps its year.
    const year = await root.req("PATCH", `${P}/${ids["2026-ZJ"]}`, { year: 2027 });
    expect(year.status).toBe(422);
  });

  it("keeps a contest admin to the own contest and its children", async () => {
    const list = await cadmin.get(`${P}?pageSize=50`);
    expect(list.status).toBe(200);
    const codes: string[] = list.body.data.list.map((c: { code: string }) => c.code);
    expect(codes).toContain("2026-ZJ");
    expect(codes).toContain("2026-ZJ-10337");
    expect(codes).not.toContain("2026-JS");
    expect(codes).not.toContain("2026-CN");
    expect(list.body.data.list.every((c: { province: string }) => c.province === "浙江省")).toBe(true);

    const js = ids["2026-JS"];
    expect((await cadmin.get(`${P}/${js}`)).status).toBe(404);
    expect((await cadmin.get(`${P}/${ids["2026-CN"]}`)).status).toBe(404);
    const w = await cadmin.req("PATCH", `${P}/${js}`, { name: "被改掉的江苏省赛" });
    expect(w.status).toBe(404);
    expect((await t.db.selectFrom("contest").select("name").where("id", "=", js).executeTakeFirstOrThrow()).name).toBe(
      "2026年中国大学生计算机设计大赛江苏省级赛",
    );
    expect((await cadmin.post(P, { name: "自建国赛", level: "national", year: 2026 })).status).toBe(403);
    expect((await cadmin.del(`${P}/${ids["2026-ZJ-10337"]}`)).status).toBe(403);
    expect((await sadmin.get(P)).status).toBe(403);

    const zj = ids["2026-ZJ"];
    const other = await t.db
      .insertInto("app_user")
      .values({
        username: "cadmin2",
        password_hash: "x",
        name: "钱赛务",
        user_type: 1,
        email: null,
        email_verified: 0,
        phone: null,
        school_id: null,
        member_no: null,
        has_complaint_right: 0,
        is_school_contest_judge: 0,
        locked: 0,
        created_at: "2026-01-01",
        updated_at: "2026-01-01",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const admins = await cadmin.req("PATCH", `${P}/${zj}`, { adminIds: [await user("contest_admin"), other.id] });
    expect(admins.status).toBe(403);
    expect(admins.body.info).toBe("只有超级管理员可以指定赛事管理员");
    expect(
      (
        await t.db
          .selectFrom("contest_member")
          .select("user_id")
          .where("contest_id", "=", zj)
          .where("role", "=", "admin")
          .execute()
      ).map((m) => m.user_id),
    ).toEqual([await user("contest_admin")]);
    expect((await cadmin.req("PATCH", `${P}/${zj}`, { level: "national" })).body.info).toBe(
      "赛事管理员不能修改赛事级别，请联系超级管理员",
    );
    const parent = await cadmin.req("PATCH", `${P}/${ids["2026-ZJ-10337"]}`, { parentId: js });
    expect(parent.status).toBe(403);
    expect(parent.body.info).toBe("赛事管理员不能修改上级赛事，请联系超级管理员");
    expect((await cadmin.req("PATCH", `${P}/${zj}`, { archived: true })).status).toBe(403);

    // The same form sent back unchanged, with new times and reviewers, is fine.
    const mine = (await cadmin.get(`${P}/${zj}`)).body.data;
    const saved = await cadmin.req("PATCH", `${P}/${zj}`, {
      level: mine.level,
      parentId: mine.parentId,
      adminIds: mine.admins.map((a: { id: number }) => a.id),
      description: "浙江省级赛由浙江省教育厅主办。",
      stages: [stage("registration", "2026-01-01 00:00", "2027-01-31 23:59")],
      reviewerIds: [],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      description: "浙江省级赛由浙江省教育厅主办。",
      reviewers: [],
      stages: [stage("registration", "2025-12-31T16:00:00.000Z", "2027-01-31T15:59:00.000Z")],
    });
    const log = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("entity", "=", "contest")
      .where("entity_id", "=", String(zj))
      .execute();
    expect(log.map((l) => l.action)).toEqual(["update"]);
    expect(JSON.parse(log[0].changes).description).toEqual([null, "浙江省级赛由浙江省教育厅主办。"]);

    const own = await cadmin.get("/Backend/ContestAdmin/contest/mine");
    expect(own.status).toBe(200);
    expect(own.body.data.map((c: { code: string }) => c.code)).toEqual(["2026-ZJ"]);
    expect((await sadmin.get("/Backend/ContestAdmin/contest/mine")).status).toBe(403);

    // Root assigns admins; the new admin then sees the contest.
    const assign = await root.req("PATCH", `${P}/${js}`, { adminIds: [other.id] });
    expect(assign.status).toBe(200);
    expect(assign.body.data.admins.map((a: { name: string }) => a.name)).toEqual(["钱赛务"]);
  });

  it("archives a contest that has children or members, and deletes an unused one", async () => {
    const n = await root.post(P, { name: "2031年测试国赛", level: "national", year: 2031 });
    const p = await root.post(P, {
      name: "2031年测试省赛",
      level: "provincial",
      year: 2031,
      parentId: n.body.data.id,
      province: "浙江省",
      reviewerIds: [await user("reviewer")],
    });
    expect(p.status).toBe(201);
    const d1 = await root.del(`${P}/${n.body.data.id}`);
    expect(d1.body).toMatchObject({ info: "赛事已被引用，已归档", data: { result: "archived" } });
    expect((await root.get(`${P}/${n.body.data.id}`)).body.data.archived).toBe(true);
    expect((await root.del(`${P}/${n.body.data.id}`)).status).toBe(400);
    // An archived parent takes no new children.
    const late = await root.post(P, {
      name: "2031年另一省赛",
      level: "provincial",
      year: 2031,
      parentId: n.body.data.id,
      province: "江苏省",
    });
    expect(late.status).toBe(422);
    expect(late.body.info).toContain("已归档");
    const d2 = await root.del(`${P}/${p.body.data.id}`);
    expect(d2.body.data.result).toBe("archived");
    const bare = await root.post(P, {
      name: "2032年空国赛",
      level: "national",
      year: 2032,
      stages: [stage("registration", "2032-01-01", "2032-03-01")],
    });
    const d3 = await root.del(`${P}/${bare.body.data.id}`);
    expect(d3.body.data.result).toBe("deleted");
    expect((await root.get(`${P}/${bare.body.data.id}`)).status).toBe(404);
    expect(await t.db.selectFrom("contest_stage").select("id").where("contest_id", "=", bare.body.data.id).execute()).toEqual([]);
    // Root can bring an archived contest back.
    const back = await root.req("PATCH", `${P}/${n.body.data.id}`, { archived: false });
    expect(back.body.data.archived).toBe(false);
  });

  it("exports contests and imports them back: Chinese content, a diff, then all rows at once", async () => {
    const { wb } = await exportXlsx(root, P, { year: 2026, province: "浙江省" });
    const ws = wb.worksheets[0];
    const headers = (ws.getRow(1).values as string[]).slice(1);
    expect(headers).toEqual([
      "赛事代码",
      "赛事名称",
      "级别",
      "年份",
      "上级赛事代码",
      "上级赛事",
      "省份",
      "学校代码",
      "学校",
      "简介",
      "开放大类（以、分隔）",
      "推荐名额",
      "分大类名额（大类：名额，以；分隔）",
      "阶段时间（每行一个阶段，北京时间）",
      "赛事管理员（用户名，以、分隔）",
      "审核员（用户名，以、分隔）",
      "已归档",
    ]);
    const col = (h: string) => headers.indexOf(h) + 1;
    const rows = new Map<string, ExcelJS.Row>();
    ws.eachRow((row, i) => i > 1 && rows.set(String(row.getCell(1).value), row));
    expect([...rows.keys()]).toContain("2026-ZJ");
    expect([...rows.keys()]).not.toContain("2026-JS");
    const zjRow = rows.get("2026-ZJ")!;
    expect(zjRow.getCell(col("级别")).value).toBe("省赛");
    expect(zjRow.getCell(col("赛事管理员（用户名，以、分隔）")).value).toBe("contest_admin");
    expect(String(zjRow.getCell(col("分大类名额（大类：名额，以；分隔）")).value)).toContain("软件应用与开发：40");
    const sch = rows.get("2026-ZJ-10337")!;
    expect(String(sch.getCell(col("阶段时间（每行一个阶段，北京时间）")).value)).toMatch(
      /^报名：2026-01-01 00:00 ~ \d{4}-\d{2}-\d{2} \d{2}:\d{2}\n校内审核：/,
    );

    zjRow.getCell(col("简介")).value = "浙江省级赛：面向全省本科生，鼓励“AI+”创新。";
    ws.addRow([
      "2026-ZJ-10345",
      "2026年浙江师范大学计算机设计大赛校级赛",
      "校赛",
      2026,
      "2026-ZJ",
      "",
      "",
      "10345",
      "",
      "师范生专场",
      "软件应用与开发、微课与AI辅助教学",
      12,
      "微课与AI辅助教学：8",
      "报名：2026-02-01 08:00 ~ 2026-03-31 18:00\n校内审核：2026-04-01 08:00 ~ 2026-04-15 18:00",
      "",
      "reviewer",
    ]);
    const up = await uploadXlsx(root, `${P}/import`, await xlsxBuffer(wb), "赛事.xlsx");
    expect(up.status).toBe(202);
    const dry = await waitJob(root, up.body.data.jobId);
    expect(dry.status).toBe("ready");
    expect(dry.result).toMatchObject({ created: 1, changed: 1, errors: [] });
    expect(dry.result.unchanged).toBe(dry.result.total - 2);
    expect(dry.result.changedRows[0]).toMatchObject({
      key: "2026-ZJ",
      changes: { 简介: ["浙江省级赛由浙江省教育厅主办。", "浙江省级赛：面向全省本科生，鼓励“AI+”创新。"] },
    });
    expect(await t.db.selectFrom("contest").select("id").where("code", "=", "2026-ZJ-10345").executeTakeFirst()).toBeUndefined();
    await root.post(`${P}/import/${up.body.data.jobId}/confirm`);
    expect((await waitJob(root, up.body.data.jobId)).status).toBe("done");

    const created = (await root.get(`${P}?keyword=2026-ZJ-10345`)).body.data.list[0];
    expect(created).toMatchObject({
      name: "2026年浙江师范大学计算机设计大赛校级赛",
      level: "school",
      parentCode: "2026-ZJ",
      province: "浙江省",
      schoolName: "浙江师范大学",
      description: "师范生专场",
      categoryNames: ["软件应用与开发", "微课与AI辅助教学"],
      recommendQuota: 12,
      categoryQuotas: [{ categoryName: "微课与AI辅助教学", quota: 8 }],
      stages: [
        stage("registration", "2026-02-01T00:00:00.000Z", "2026-03-31T10:00:00.000Z"),
        stage("school_review", "2026-04-01T00:00:00.000Z", "2026-04-15T10:00:00.000Z"),
      ],
      reviewers: [{ username: "reviewer" }],
    });
    expect(
      (await t.db.selectFrom("contest").select("description").where("code", "=", "2026-ZJ").executeTakeFirstOrThrow())
        .description,
    ).toBe("浙江省级赛：面向全省本科生，鼓励“AI+”创新。");
    const log = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "contest")
      .where("entity_id", "=", String(created.id))
      .execute();
    expect(log.map((l) => l.action)).toEqual(["import"]);
  });

  it("reports bad contest rows with row, column and reason, and imports nothing", async () => {
    const file = await sheetFile("赛事", [
      [
        "赛事代码",
        "赛事名称",
        "级别",
        "年份",
        "上级赛事代码",
        "省份",
        "学校代码",
        "简介",
        "开放大类（以、分隔）",
        "推荐名额",
        "分大类名额（大类：名额，以；分隔）",
        "阶段时间（每行一个阶段，北京时间）",
        "赛事管理员（用户名，以、分隔）",
        "审核员（用户名，以、分隔）",
      ],
      ["2026-AH", "安徽省级赛", "市赛", 2026, "2026-CN", "安徽省", "", "", "", "", "", "", "", ""],
      ["2026-FJ", "福建省级赛", "省赛", 2026, "2099-XX", "福建省", "", "", "", "", "", "", "", ""],
      [
        "2026-HN",
        "湖南省级赛",
        "省赛",
        2026,
        "2026-CN",
        "湖南省",
        "",
        "",
        "绘画",
        "",
        "",
        "报名：2026-05-01 ~ 2026-04-01",
        "reviewer",
        "",
      ],
    ]);
    const up = await uploadXlsx(root, `${P}/import`, file, "赛事.xlsx");
    const dry = await waitJob(root, up.body.data.jobId);
    expect(dry.result.errors).toEqual([
      { row: 2, column: "级别", reason: "级别只能是国赛、省赛或校赛" },
      { row: 3, column: "上级赛事代码", reason: "赛事代码 2099-XX 不存在" },
      { row: 4, column: "开放大类（以、分隔）", reason: "没有名为“绘画”的作品大类" },
      { row: 4, column: "阶段时间（每行一个阶段，北京时间）", reason: "“报名”的结束时间必须晚于开始时间" },
      { row: 4, column: "赛事管理员（用户名，以、分隔）", reason: "用户 reviewer 不是赛事管理员" },
    ]);
    expect((await root.post(`${P}/import/${up.body.data.jobId}/confirm`)).status).toBe(400);
    expect(
      await t.db.selectFrom("contest").select("id").where("code", "in", ["2026-AH", "2026-FJ", "2026-HN"]).execute(),
    ).toEqual([]);
  });

  it("manages field locks: root only, one per field and contest, applied from the stage on", async () => {
    const zj = ids["2026-ZJ"];
    const g = await root.post(L, { field: "name", fromStage: "format_review" });
    expect(g.status).toBe(201);
    expect(g.body.data).toMatchObject({
      contestId: null,
      contestName: null,
      field: "name",
      fieldName: "作品名称",
      fromStage: "format_review",
      stageName: "形式审查",
    });
    const dup = await root.post(L, { field: "name", fromStage: "registration", contestId: null });
    expect(dup.status).toBe(422);
    expect(dup.body).toMatchObject({ info: "“作品名称”对全部赛事已设置锁定，请修改原有设置", data: { field: "field" } });
    const own = await root.post(L, { field: "summary", fromStage: "registration", contestId: zj });
    expect(own.status).toBe(201);
    expect(own.body.data.contestName).toBe("2026年中国大学生计算机设计大赛浙江省级赛");
    expect((await root.post(L, { field: "colour", fromStage: "registration" })).status).toBe(422);
    const missing = await root.post(L, { field: "teachers", fromStage: "registration", contestId: 99999 });
    expect(missing.body).toMatchObject({ error: 422, data: { field: "contestId" } });

    expect((await root.get(`${L}?global=true`)).body.data.list.map((l: { field: string }) => l.field)).toEqual(["name"]);
    expect((await root.get(`${L}?contestId=${zj}`)).body.data.total).toBe(1);
    // Registration is open now, format review has not started.
    expect(await lockedFieldsOf(t.db, zj)).toEqual(new Set(["summary"]));
    const moved = await root.req("PATCH", `${L}/${g.body.data.id}`, { fromStage: "registration" });
    expect(moved.body.data.stageName).toBe("报名");
    expect(await lockedFieldsOf(t.db, zj)).toEqual(new Set(["summary", "name"]));
    expect(await lockedFieldsOf(t.db, ids["2026-JS"])).toEqual(new Set(["name"]));

    expect((await cadmin.get(L)).status).toBe(403);
    expect((await cadmin.post(L, { field: "authors", fromStage: "registration" })).status).toBe(403);
    const del = await root.del(`${L}/${g.body.data.id}`);
    expect(del.body.data.result).toBe("deleted");
    expect((await root.get(`${L}/${g.body.data.id}`)).status).toBe(404);
    const log = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "entry_lock")
      .where("entity_id", "=", String(g.body.data.id))
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["create", "update", "delete"]);
  });
});
