/**
 * A judge sees only the works assigned to them: the contests they judge, the list of their
 * works, one work's blind judging view (no authors, teachers or school) with the rubric,
 * and its attachments. Every other work — unassigned, of the judge's own school (even if
 * an assignment row existed), still under format review, of another contest, or a made-up
 * id — answers the same 404, and so does every contest the user does not judge.
 */
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { createBlobStore } from "../../src/server/storage";
import { contestId, idOf, login } from "./works-fixtures";
import { insertUser, insertWork, makeJudge } from "./judging-fixtures";

const A = "/Backend/ContestAdmin/judging";
const J = "/Backend/Judge";
const NOT_ASSIGNED = { error: 404, info: "作品不存在或未分配给您" };

describe.each(DIALECTS)("judge access on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client, judge: Client, hdu: Client, jsJudge: Client;
  let zj: number, js: number, zjut: number;
  let zjuWorks: number[], otherWorks: number[], pending: number, jsWorkId: number;
  let mine: number[];

  beforeAll(async () => {
    t = await makeApp(dialect);
    [cadmin, root] = await Promise.all(["contest_admin", "root"].map((u) => login(t, u)));
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    zjut = await contestId(t, "2026-ZJ-10337");
    // The demo data's 软件应用与开发组 of the Zhejiang contest has the demo judge 李评审 (浙江大学)
    // and four more (浙江工业大学, 杭州电子科技大学, 宁波大学, industry); and a judge of Jiangsu.
    await makeJudge(t, "ja_js", "苏评委", "南京大学", js);
    zjuWorks = [
      await insertWork(t, {
        contest: zj,
        school: "浙江大学",
        category: "软件应用与开发",
        status: "format_passed",
        name: "浙大作品一",
      }),
      await insertWork(t, {
        contest: zj,
        school: "浙江大学",
        category: "软件应用与开发",
        status: "format_passed",
        name: "浙大作品二",
      }),
    ];
    otherWorks = [
      await insertWork(t, {
        contest: zj,
        school: "杭州电子科技大学",
        category: "软件应用与开发",
        status: "format_passed",
        name: "杭电作品",
      }),
      await insertWork(t, {
        contest: zj,
        school: "宁波大学",
        category: "软件应用与开发",
        status: "format_passed",
        name: "宁大作品",
      }),
      await insertWork(t, {
        contest: zj,
        school: "温州大学",
        category: "软件应用与开发",
        status: "format_passed",
        name: "温大作品一",
      }),
      await insertWork(t, {
        contest: zj,
        school: "温州大学",
        category: "软件应用与开发",
        status: "format_passed",
        name: "温大作品二",
      }),
    ];
    pending = await insertWork(t, {
      contest: zj,
      school: "温州大学",
      category: "软件应用与开发",
      status: "accepted",
      name: "待审查作品",
    });
    jsWorkId = await insertWork(t, {
      contest: js,
      school: "东南大学",
      category: "软件应用与开发",
      status: "format_passed",
      name: "苏州作品",
    });

    // The contest admin puts the passed works in the demo group and assigns 3 judges to each;
    // root does Jiangsu.
    const soft = (
      await t.db.selectFrom("work_category").select("id").where("name", "=", "软件应用与开发").executeTakeFirstOrThrow()
    ).id;
    expect((await cadmin.post(`${A}/${zj}/group-works/auto`, {})).body.data).toEqual({ grouped: 6, unmatched: [] });
    const run = (await cadmin.post(`${A}/${zj}/assign`, {})).body.data;
    expect(run).toMatchObject({ applied: true, complete: true, added: 18 });
    expect(run.loadSpread).toBeLessThanOrEqual(1);
    const jg = (await root.post(`${A}/${js}/groups`, { name: "江苏软件组", categoryId: soft })).body.data.id;
    await root.post(`${A}/group/${jg}/judges`, { userIds: [await idOf(t, "ja_js")] });
    await root.post(`${A}/${js}/group-works/auto`, {});
    expect((await root.post(`${A}/${js}/assign`, { reviewsPerWork: 1 })).body.data).toMatchObject({ applied: true, added: 1 });

    [judge, hdu, jsJudge] = await Promise.all(["judge", "judge3", "ja_js"].map((u) => login(t, u)));
    mine = (
      await t.db
        .selectFrom("judge_assignment")
        .select("work_id")
        .where("judge_id", "=", await idOf(t, "judge"))
        .orderBy("work_id")
        .execute()
    ).map((r) => Number(r.work_id));
  });
  afterAll(async () => t?.close());

  it("lists the contests a user judges in: judges their contests, a flagged teacher the own school contest", async () => {
    const c = await judge.get(`${J}/contests`);
    expect(c.body.data).toEqual([
      {
        id: zj,
        name: "2026年中国大学生计算机设计大赛浙江省级赛",
        level: "provincial",
        year: 2026,
        as: "judge",
        assigned: mine.length,
        groups: ["软件应用与开发组"],
      },
    ]);
    expect(
      (await jsJudge.get(`${J}/contests`)).body.data.map((x: { id: number; assigned: number }) => [x.id, x.assigned]),
    ).toEqual([[js, 1]]);
    const teacher = await login(t, "teacher");
    expect((await teacher.get(`${J}/contests`)).body.data).toEqual([
      {
        id: zjut,
        name: "2026年浙江工业大学计算机设计大赛校级赛",
        level: "school",
        year: 2026,
        as: "school_contest_judge",
        assigned: 0,
        groups: [],
      },
    ]);
    expect((await teacher.get(`${J}/contest/${zj}/works`)).body).toMatchObject({
      error: 404,
      info: "赛事不存在或您不是该赛事的评委",
    });
    for (const u of ["reviewer", "student", "school_admin"])
      expect((await (await login(t, u)).get(`${J}/contests`)).status).toBe(403);
  });

  it("lists only the judge's assigned works, never one of the own school, with no authors or school", async () => {
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine.some((id) => zjuWorks.includes(id))).toBe(false);
    const list = await judge.get(`${J}/contest/${zj}/works`);
    expect(list.body.data.map((w: { id: number }) => w.id)).toEqual(mine);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(["category", "group", "id", "judgeGroup", "name", "subcategory"]);
    expect(list.body.data[0].judgeGroup.name).toBe("软件应用与开发组");
  });

  it("shows an assigned work blind, with its fields and the rubric of its category", async () => {
    const id = mine.find((x) => otherWorks.includes(x)) ?? mine[0];
    const v = await judge.get(`${J}/contest/${zj}/work/${id}`);
    expect(v.status).toBe(200);
    expect(v.body.data).toMatchObject({
      id,
      contest: { id: zj },
      category: { name: "软件应用与开发" },
      groupName: "普通组",
      judgeGroup: { name: "软件应用与开发组" },
      files: [],
    });
    expect(v.body.data.rubric.items.map((i: { name: string; maxPoints: number }) => [i.name, i.maxPoints])).toEqual([
      ["主题与内容", 20],
      ["方案概要", 25],
      ["核心内容", 35],
      ["技术与创新", 20],
    ]);
    expect(v.body.data.rubric).toMatchObject({ total: 100, deductions: [{ name: "非原创", points: 10 }] });
    const w = await t.db
      .selectFrom("work")
      .innerJoin("school", "school.id", "work.school_id")
      .select(["work.summary", "work.author_names", "work.teacher_names", "work.teacher_review", "school.name as school_name"])
      .where("work.id", "=", id)
      .executeTakeFirstOrThrow();
    expect(v.body.data.fields.find((f: { key: string }) => f.key === "summary").value).toBe(w.summary);
    const text = JSON.stringify(v.body);
    for (const secret of [
      ...w.author_names.split("、"),
      w.teacher_names,
      w.school_name,
      w.teacher_review ?? "指导老师自评",
      "指导老师自评",
    ])
      expect(text).not.toContain(secret);
    // The full work detail stays closed to judges.
    expect((await judge.get(`/Backend/Work/work/${id}`)).status).toBe(404);
  });

  it("answers 404 for every work not assigned to the judge, whatever the id", async () => {
    const all = (await t.db.selectFrom("work").select("id").orderBy("id").execute()).map((r) => Number(r.id));
    for (const id of [...all, 2026999999]) {
      const r = await judge.get(`${J}/contest/${zj}/work/${id}`);
      if (mine.includes(id)) expect(r.status).toBe(200);
      else expect(r.body).toEqual(NOT_ASSIGNED);
    }
    for (const id of [...zjuWorks, pending, jsWorkId])
      expect((await judge.get(`${J}/contest/${zj}/work/${id}`)).body).toEqual(NOT_ASSIGNED);
    // The same works through a contest the judge does not judge.
    expect((await judge.get(`${J}/contest/${js}/work/${jsWorkId}`)).body).toEqual(NOT_ASSIGNED);
    expect((await judge.get(`${J}/contest/${js}/works`)).body).toMatchObject({
      error: 404,
      info: "赛事不存在或您不是该赛事的评委",
    });
  });

  it("never shows a work of the judge's own school, even if an assignment row existed", async () => {
    // Bad data written around applyAssignments, which would have refused it.
    await t.db
      .insertInto("judge_assignment")
      .values({
        contest_id: zj,
        work_id: zjuWorks[0],
        judge_id: await idOf(t, "judge"),
        group_id: null,
        created_at: new Date().toISOString(),
        created_by: null,
      })
      .execute();
    expect((await judge.get(`${J}/contest/${zj}/work/${zjuWorks[0]}`)).body).toEqual(NOT_ASSIGNED);
    expect((await judge.get(`${J}/contest/${zj}/works`)).body.data.map((w: { id: number }) => w.id)).toEqual(mine);
    expect((await judge.get(`${J}/contests`)).body.data[0].assigned).toBe(mine.length);
    // The check report finds the row and names the reason.
    const rep = (await cadmin.get(`${A}/${zj}/check`)).body.data;
    expect(rep.conflicts).toEqual([
      expect.objectContaining({ workId: zjuWorks[0], judgeName: "李评审", reasons: ["same_school"], reasonText: "同校" }),
    ]);
    await t.db
      .deleteFrom("judge_assignment")
      .where("work_id", "=", zjuWorks[0])
      .where("judge_id", "=", await idOf(t, "judge"))
      .execute();
  });

  it("keeps other contests' judges out of this contest's works", async () => {
    expect((await jsJudge.get(`${J}/contest/${zj}/works`)).body).toMatchObject({
      error: 404,
      info: "赛事不存在或您不是该赛事的评委",
    });
    for (const id of mine) {
      expect((await jsJudge.get(`${J}/contest/${zj}/work/${id}`)).body).toEqual(NOT_ASSIGNED);
      expect((await jsJudge.get(`${J}/contest/${js}/work/${id}`)).body).toEqual(NOT_ASSIGNED);
    }
    expect((await jsJudge.get(`${J}/contest/${js}/work/${jsWorkId}`)).status).toBe(200);
    // A judge of the same contest does not see a colleague's works either.
    const hduMine = (await hdu.get(`${J}/contest/${zj}/works`)).body.data.map((w: { id: number }) => w.id);
    for (const id of mine.filter((x) => !hduMine.includes(x)))
      expect((await hdu.get(`${J}/contest/${zj}/work/${id}`)).body).toEqual(NOT_ASSIGNED);
  });

  it("downloads the attachments of an assigned work only", async () => {
    const store = createBlobStore(t.config);
    const bytes = Buffer.from("%PDF-1.4\n% 评审测试文档\n%%EOF\n");
    const blob = await store.put(Readable.from([bytes]));
    const id = mine[0];
    const uploader = (await t.db.selectFrom("work_author").select("user_id").where("work_id", "=", id).executeTakeFirstOrThrow())
      .user_id;
    const file = await t.db
      .insertInto("work_file")
      .values({
        work_id: id,
        kind: "docs",
        filename: "设计与开发文档.pdf",
        size: bytes.length,
        mime: "application/pdf",
        sha256: blob.sha256,
        uploaded_by: uploader,
        created_at: new Date().toISOString(),
        replaced_at: null,
        deleted_at: null,
        deleted_by: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const v = (await judge.get(`${J}/contest/${zj}/work/${id}`)).body.data;
    expect(v.files).toEqual([
      expect.objectContaining({
        id: file.id,
        kind: "docs",
        kindName: "设计与开发文档",
        filename: "设计与开发文档.pdf",
        size: bytes.length,
      }),
    ]);
    expect(v.files[0].uploadedBy).toBeUndefined();
    const d = await judge.get(`${J}/contest/${zj}/work/${id}/file/${file.id}`);
    expect(d.status).toBe(200);
    expect(d.res.rawPayload.equals(bytes)).toBe(true);
    expect(d.res.headers["content-disposition"]).toContain("filename*=UTF-8''");
    const other = otherWorks.find((w) => !mine.includes(w)) ?? zjuWorks[0];
    expect((await judge.get(`${J}/contest/${zj}/work/${other}/file/${file.id}`)).status).toBe(404);
    expect((await jsJudge.get(`${J}/contest/${js}/work/${id}/file/${file.id}`)).status).toBe(404);
  });

  it("lets flagged teachers judge their school's contest, where the same school is no conflict but advising is", async () => {
    // 王老师 advises every demo work of 浙江工业大学; 钱老师 advises none.
    await insertUser(t, { username: "qian_teacher", name: "钱老师", role: 99, school: "浙江工业大学", schoolContestJudge: true });
    const data = (await t.db.selectFrom("work_category").select("id").where("name", "=", "大数据应用").executeTakeFirstOrThrow())
      .id;
    const submitted = Number(
      (
        await t.db
          .selectFrom("work")
          .select("id")
          .where("contest_id", "=", zjut)
          .where("status", "=", "submitted")
          .executeTakeFirstOrThrow()
      ).id,
    );
    const g = (await cadmin.post(`${A}/${zjut}/groups`, { name: "校赛大数据组", categoryId: data })).body.data.id;
    expect((await cadmin.post(`${A}/group/${g}/judges`, { userIds: [await idOf(t, "teacher")] })).status).toBe(200);
    expect((await cadmin.post(`${A}/${zjut}/group-works/auto`, {})).body.data.grouped).toBe(1);
    const refused = await cadmin.post(`${A}/${zjut}/assign`, { reviewsPerWork: 1 });
    expect(refused.body.data.issues.map((i: { message: string }) => i.message)).toContain(
      `作品 ${submitted} 只有 0 位无回避关系的评委可选，需要 1 位`,
    );
    const manual = await cadmin.post(`${A}/${zjut}/assignments`, { workId: submitted, judgeId: await idOf(t, "teacher") });
    expect(manual.body.info).toContain("存在回避关系（指导或参与的作品）");
    await cadmin.post(`${A}/group/${g}/judges`, { userIds: [await idOf(t, "qian_teacher")] });
    // The refused run saved nothing, its settings included: N is given again.
    expect((await cadmin.get(`${A}/${zjut}/settings`)).body.data.reviewsPerWork).toBe(3);
    expect((await cadmin.post(`${A}/${zjut}/assign`, { reviewsPerWork: 1 })).body.data).toMatchObject({
      applied: true,
      complete: true,
      added: 1,
    });
    const qian = await login(t, "qian_teacher");
    expect((await qian.get(`${J}/contests`)).body.data).toEqual([
      expect.objectContaining({ id: zjut, as: "school_contest_judge", assigned: 1, groups: ["校赛大数据组"] }),
    ]);
    expect((await qian.get(`${J}/contest/${zjut}/works`)).body.data.map((w: { id: number }) => w.id)).toEqual([submitted]);
    expect((await qian.get(`${J}/contest/${zjut}/work/${submitted}`)).body.data.rubric.total).toBe(100);
    // Not a work of the provincial contest, nor for the advising teacher.
    expect((await qian.get(`${J}/contest/${zj}/works`)).status).toBe(404);
    expect((await (await login(t, "teacher")).get(`${J}/contest/${zjut}/work/${submitted}`)).body).toEqual(NOT_ASSIGNED);
  });

  it("loses a work when its assignment is removed or the work is disqualified", async () => {
    const [first, second] = mine;
    const row = (await cadmin.get(`${A}/${zj}/assignments?workId=${first}&judgeId=${await idOf(t, "judge")}`)).body.data[0];
    expect((await cadmin.del(`${A}/assignment/${row.id}`)).status).toBe(200);
    expect((await judge.get(`${J}/contest/${zj}/work/${first}`)).body).toEqual(NOT_ASSIGNED);
    expect((await cadmin.post(`/Backend/Admin/work/${second}/disqualify`, { reason: "与往届作品雷同" })).body.data.status).toBe(
      "disqualified",
    );
    expect((await judge.get(`${J}/contest/${zj}/work/${second}`)).body).toEqual(NOT_ASSIGNED);
    expect((await judge.get(`${J}/contest/${zj}/works`)).body.data.map((w: { id: number }) => w.id)).toEqual(mine.slice(2));
    // The check report shows the disqualified work's assignments as out of the setting.
    const rep = (await cadmin.get(`${A}/${zj}/check`)).body.data;
    expect(
      rep.misplaced.filter((m: { workId: number }) => m.workId === second).map((m: { message: string }) => m.message)[0],
    ).toMatch(/已不在评审作品中（当前状态：已取消资格）$/);
  });
});
