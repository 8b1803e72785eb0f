/**
 * Who can read and change a work: its authors (also a co-author yet to confirm), its
 * teachers, its school admin, contest admins in scope and root. Everyone else gets 404 —
 * the same answer as for a work that does not exist — in the view, the log, the print
 * data and every change, and never finds it in a list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { account, contestId, idOf, login, W } from "./works-fixtures";

describe.each(DIALECTS)("works access on %s", (dialect) => {
  let t: TestApp;
  let draft: number, submitted: number;
  let insiders: Record<string, Client>;
  let outsiders: Record<string, Client>;
  let anon: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    const works = await t.db.selectFrom("work").select(["id", "status"]).orderBy("id").execute();
    draft = works.find((w) => w.status === "draft")!.id;
    submitted = works.find((w) => w.status === "submitted")!.id;
    insiders = {
      author: await login(t, "student"),
      pendingCoAuthor: await login(t, "student3"),
      teacher: await login(t, "teacher"),
      schoolAdmin: await login(t, "school_admin"),
      contestAdmin: await login(t, "contest_admin"),
      root: await login(t, "root"),
    };
    const jsAdmin = await account(t, "js_cadmin", "江苏赛管", { role: 2 });
    await t.db.updateTable("app_user").set({ user_type: 1, school_id: null }).where("username", "=", "js_cadmin").execute();
    await t.db
      .insertInto("contest_member")
      .values({
        contest_id: await contestId(t, "2026-JS"),
        user_id: await idOf(t, "js_cadmin"),
        role: "admin",
        created_at: new Date().toISOString(),
      })
      .execute();
    outsiders = {
      otherStudent: await login(t, "student4"),
      otherSchoolAdmin: await account(t, "zju_admin", "浙大校管", { role: 2, school: "浙江大学" }),
      otherTeacher: await account(t, "zjut_t9", "不指导的老师", { role: 99 }),
      judge: await login(t, "judge"),
      reviewer: await login(t, "reviewer"),
      otherContestAdmin: jsAdmin,
    };
    anon = new Client(t);
  });
  afterAll(async () => t?.close());

  const snapshot = async () => ({
    work: await t.db.selectFrom("work").selectAll().where("id", "in", [draft, submitted]).orderBy("id").execute(),
    authors: await t.db.selectFrom("work_author").selectAll().where("work_id", "in", [draft, submitted]).orderBy("id").execute(),
    teachers: await t.db
      .selectFrom("work_teacher")
      .selectAll()
      .where("work_id", "in", [draft, submitted])
      .orderBy("id")
      .execute(),
  });

  it("shows the work to those related to it", async () => {
    for (const [who, c] of Object.entries(insiders)) {
      const r = await c.get(`${W}/${draft}`);
      expect([who, r.status]).toEqual([who, 200]);
      expect(r.body.data.name).toBe("智慧助农：乡村特产直播电商平台");
    }
    expect((await insiders.pendingCoAuthor.get(`${W}/${draft}`)).body.data.viewer.relations).toEqual(["pending_author"]);
    expect((await insiders.contestAdmin.get(`${W}/${draft}`)).body.data.viewer.relations).toEqual([
      "contest",
      "receiving_contest",
    ]);
    const print = await insiders.teacher.post(`${W}/registration`, { work: submitted });
    expect(print.status).toBe(200);
  });

  it("answers everyone else as if the work did not exist, and lists it nowhere", async () => {
    const missing = await insiders.root.get(`${W}/2026999999`);
    expect(missing.body).toEqual({ error: 404, info: "作品不存在或您无权查看" });
    for (const [who, c] of Object.entries(outsiders)) {
      for (const id of [draft, submitted]) {
        for (const r of [
          await c.get(`${W}/${id}`),
          await c.post(`${W}/registration`, { work: id }),
          await c.post(`${W}/copyright`, { work: id }),
        ]) {
          expect([who, r.status, r.body]).toEqual([who, 404, { error: 404, info: "作品不存在或您无权查看" }]);
        }
        // The log: roles the policy never lets read a log are refused before any row is read.
        const log = await c.get(`${W}/${id}/log`);
        const refused = ["otherTeacher", "judge", "reviewer"].includes(who);
        expect([who, log.body]).toEqual([
          who,
          refused ? { error: 403, info: "您没有权限进行此操作" } : { error: 404, info: "作品不存在或您无权查看" },
        ]);
      }
    }
    // Lists in every outsider's scope leave it out.
    const ids = (r: { body: { data?: { list: { id: number }[] } } }) => r.body.data!.list.map((w) => w.id);
    expect(ids(await outsiders.otherStudent.get(`${W}/mine`))).toEqual([]);
    expect(ids(await outsiders.otherTeacher.get("/Backend/Teacher/work"))).toEqual([]);
    expect(ids(await outsiders.otherSchoolAdmin.get("/Backend/School/work"))).toEqual([]);
    expect(ids(await outsiders.otherContestAdmin.get("/Backend/Admin/work"))).toEqual([]);
    expect(ids(await outsiders.otherContestAdmin.get(`/Backend/Admin/work?keyword=${draft}`))).toEqual([]);
    expect(ids(await insiders.contestAdmin.get(`/Backend/Admin/work?keyword=${draft}`))).toEqual([draft]);
    expect(ids(await insiders.schoolAdmin.get("/Backend/School/work?pageSize=100"))).toEqual(
      expect.arrayContaining([draft, submitted]),
    );
    // Anonymous visitors are asked to log in; they learn nothing of the work.
    for (const r of [
      await anon.get(`${W}/${draft}`),
      await anon.post(`${W}/registration`, { work: draft }),
      await anon.get(`${W}/${draft}/log`),
    ]) {
      expect(r.body).toEqual({ error: 401, info: "请先登录" });
    }
  });

  it("lets no one else change it, through any route", async () => {
    const before = await snapshot();
    const logs = (await t.db.selectFrom("work_log").select("id").execute()).length;
    const other = outsiders.otherStudent;
    const tries: [Client, "POST" | "PATCH" | "DELETE", string, unknown][] = [
      [other, "PATCH", `${W}/${draft}`, { version: 1, name: "被篡改" }],
      [other, "DELETE", `${W}/${draft}`, undefined],
      [other, "POST", `${W}/${draft}/authors`, { username: "student4" }],
      [other, "POST", `${W}/${draft}/confirm`, {}],
      [other, "POST", `${W}/${draft}/teachers`, { username: "teacher" }],
      [other, "DELETE", `${W}/${draft}/authors/${await idOf(t, "student2")}`, undefined],
      [other, "POST", `${W}/${draft}/submit`, {}],
      [outsiders.otherTeacher, "PATCH", `/Backend/Teacher/work/${draft}/review`, { version: 1, teacherReview: "冒充自评" }],
      [outsiders.otherSchoolAdmin, "POST", `/Backend/School/work/${submitted}/approve`, {}],
      [outsiders.otherSchoolAdmin, "POST", `/Backend/School/work/${submitted}/return`, { reason: "冒充退回" }],
      [outsiders.otherContestAdmin, "POST", `/Backend/Admin/work/${submitted}/disqualify`, { reason: "冒充取消" }],
    ];
    for (const [c, method, url, body] of tries) {
      const r = await c.req(method, url, body);
      expect([url, r.status, r.body.info]).toEqual([url, 404, "作品不存在或您无权查看"]);
    }
    const bulk = await outsiders.otherContestAdmin.post("/Backend/Admin/work/bulk-status", {
      ids: [submitted],
      action: "disqualify",
      reason: "冒充",
    });
    expect(bulk.body.data.results).toEqual([{ id: submitted, ok: false, info: "作品不存在或您无权查看", status: null }]);
    // Roles without the right are refused by the policy before any row is read.
    for (const [c, url] of [
      [outsiders.judge, `${W}/${draft}/submit`],
      [insiders.teacher, `/Backend/School/work/${submitted}/approve`],
      [insiders.author, `/Backend/Admin/work/${submitted}/accept`],
    ] as [Client, string][]) {
      expect((await c.post(url, {})).body).toEqual({ error: 403, info: "您没有权限进行此操作" });
    }
    expect((await anon.req("PATCH", `${W}/${draft}`, { version: 1, name: "匿名" })).body).toEqual({
      error: 401,
      info: "请先登录",
    });
    // Related but not allowed: a 403 with the reason.
    expect((await insiders.pendingCoAuthor.req("PATCH", `${W}/${draft}`, { version: 1, name: "合作者改名" })).body).toEqual({
      error: 403,
      info: "只有第一作者可以修改作品信息",
    });
    expect((await insiders.schoolAdmin.post(`/Backend/Admin/work/${submitted}/accept`, {})).status).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect((await t.db.selectFrom("work_log").select("id").execute()).length).toBe(logs);
  });

  it("gives those allowed the print data of the registration form and the copyright statement", async () => {
    const reg = await insiders.author.post(`${W}/registration`, { work: submitted });
    expect(reg.body.data).toMatchObject({
      work: {
        id: submitted,
        name: "校园能耗数据可视化分析系统",
        categoryName: "大数据应用",
        subcategoryName: "大数据实践赛",
        groupName: "普通组",
        statusName: "已提交",
      },
      contest: { name: "2026年浙江工业大学计算机设计大赛校级赛", levelName: "校赛", year: 2026 },
      school: { name: "浙江工业大学", code: "10337", province: "浙江省" },
    });
    expect(reg.body.data.authors).toEqual([
      {
        rank: 1,
        name: "冯同学",
        school: "浙江工业大学",
        memberNo: "202305010101",
        majorCode: "080901",
        majorName: "计算机科学与技术",
        phone: null,
        email: "student@demo.saiwu.local",
      },
      {
        rank: 2,
        name: "林雨桐",
        school: "浙江工业大学",
        memberNo: "202305010103",
        majorCode: "080910T",
        majorName: "数据科学与大数据技术",
        phone: null,
        email: "student3@demo.saiwu.local",
      },
    ]);
    expect(reg.body.data.teachers.map((x: { name: string }) => x.name)).toEqual(["王老师"]);
    expect(reg.body.data.work.aiDeclaration.tools[0].tool).toBe("通义千问");
    const cr = await insiders.schoolAdmin.post(`${W}/copyright`, { work: submitted });
    expect(cr.body.data.statement[0]).toBe(
      `我们（冯同学、林雨桐）是浙江工业大学的学生，以作品《校园能耗数据可视化分析系统》（作品编号 ${submitted}）参加2026年浙江工业大学计算机设计大赛校级赛。`,
    );
    expect(cr.body.data.statement.length).toBeGreaterThan(3);
    expect((await insiders.author.post(`${W}/registration`, { work: 12345 })).body).toMatchObject({
      error: 422,
      data: { field: "work" },
    });
  });
});
