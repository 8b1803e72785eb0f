/**
 * The judge pool through the API, on SQLite and PostgreSQL: judge accounts get their records,
 * the filters (category with 大类/小类, expertise, province, school, availability, history,
 * account, keyword), the contact scope of a contest admin (null in lists, 404 with the same
 * text as a missing record, visible for the own contest's judges and after an invitation),
 * merging duplicates (histories add up, the duplicate leaves the list, the judge's own record
 * follows), the Excel import (dry run with row errors, then confirm), the judge's own record,
 * and a declared student conflict respected by the automatic assignment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { importXlsx, sheetFile, exportXlsx, rowsOf } from "../helpers/xlsx";
import { waitJob } from "../helpers/jobs";
import { insertWork, makeJudge } from "./judging-fixtures";
import { catId, login, schoolId } from "./works-fixtures";
import { makeGroup, setReviewsPerWork, submitScores } from "./results-fixtures";

const P = "/Backend/JudgePool";
const NOT_FOUND = "评委不存在或不在您的管理范围内";
const YEAR = new Date(Date.now() + 8 * 3600_000).getUTCFullYear();

describe.each(DIALECTS)("judge pool on %s", (dialect) => {
  let t: TestApp;
  let root: Client;
  let cadmin: Client;
  let zj: number;
  let js: number;
  let ai: number;
  let aiSub: number;
  let soft: number;
  let softSub: number;
  const ids: Record<string, number> = {};

  const list = async (c: Client, q: Record<string, string | number | boolean> = {}) => {
    const r = await c.get(
      `${P}/persons?${new URLSearchParams(Object.entries({ pageSize: 100, ...q }).map(([k, v]) => [k, String(v)]))}`,
    );
    expect(r.body.error, r.body.info).toBe(0);
    return r.body.data as { list: any[]; total: number };
  };
  const names = async (c: Client, q: Record<string, string | number | boolean> = {}) =>
    (await list(c, q)).list.map((p) => p.name).sort();
  const personOf = async (userId: number) =>
    (await t.db.selectFrom("judge_person").select(["id", "merged_into"]).where("user_id", "=", userId).executeTakeFirstOrThrow())
      .id;

  beforeAll(async () => {
    t = await makeApp(dialect);
    root = await login(t, "root");
    cadmin = await login(t, "contest_admin");
    zj = (
      await t.db
        .selectFrom("contest")
        .select("id")
        .where("level", "=", "provincial")
        .where("province", "=", "浙江省")
        .executeTakeFirstOrThrow()
    ).id;
    js = (
      await t.db
        .selectFrom("contest")
        .select("id")
        .where("level", "=", "provincial")
        .where("province", "=", "江苏省")
        .executeTakeFirstOrThrow()
    ).id;
    ai = await catId(t, "人工智能应用");
    soft = await catId(t, "软件应用与开发");
    aiSub = (
      await t.db
        .selectFrom("work_category")
        .select("id")
        .where("parent_id", "=", ai)
        .where("name", "=", "人工智能挑战赛")
        .executeTakeFirstOrThrow()
    ).id;
    softSub = (
      await t.db
        .selectFrom("work_category")
        .select("id")
        .where("parent_id", "=", soft)
        .where("name", "=", "Web应用与开发")
        .executeTakeFirstOrThrow()
    ).id;
    // A judge of the Jiangsu contest, which the demo contest admin does not manage.
    ids.jsJudge = await makeJudge(t, "pool_js", "江评委", "南京大学", js);
  });
  afterAll(async () => t?.close());

  it("every judge account gets a pool record on first need, matched by email", async () => {
    // An unlinked record with the judge's email is linked instead of a new one being created.
    const pre = await root.post(`${P}/persons`, { name: "陈评审（旧）", email: "JUDGE2@demo.saiwu.local", title: "教授" });
    expect(pre.status, pre.body.info).toBe(201);
    const all = await list(root, { hasAccount: true });
    const usernames = all.list.map((p) => p.account.username).sort();
    expect(usernames).toEqual(["judge", "judge2", "judge3", "judge4", "judge5", "pool_js"]);
    const j2 = all.list.find((p) => p.account.username === "judge2");
    expect(j2).toMatchObject({ id: pre.body.data.id, name: "陈评审（旧）", title: "教授", email: "judge2@demo.saiwu.local" });
    // Listing again creates nothing more.
    expect((await list(root, { hasAccount: true })).total).toBe(6);
  });

  it("creates persons and filters by category (大类 includes 小类), tag, province, school, availability, history, account, keyword; sorts", async () => {
    const mk = async (body: Record<string, unknown>) => {
      const r = await root.post(`${P}/persons`, body);
      expect(r.status, r.body.info).toBe(201);
      return r.body.data;
    };
    const a = await mk({
      name: "甲专家",
      schoolId: await schoolId(t, "浙江大学"),
      title: "教授",
      email: "jia@pool.test",
      categoryIds: [ai],
      tags: ["计算机视觉", "机器学习"],
      available: true,
      availabilityNote: "7 月可参加",
    });
    expect(a).toMatchObject({
      province: "浙江省",
      schoolName: "浙江大学",
      available: true,
      availabilityNote: "7 月可参加",
      year: YEAR,
      tags: ["机器学习", "计算机视觉"],
      categories: [{ id: ai, parentId: null }],
      contactVisible: true,
    });
    const b = await mk({
      name: "乙专家",
      schoolName: "南京大学",
      email: "yi@pool.test",
      categoryIds: [softSub],
      tags: ["Web 开发"],
      available: false,
    });
    expect(b).toMatchObject({
      school: { name: "南京大学" },
      province: "江苏省",
      available: false,
      categories: [{ id: softSub, parentId: soft, parentName: "软件应用与开发" }],
    });
    const c = await mk({ name: "丙专家", schoolName: "某科技有限公司", province: "上海市", categoryIds: [aiSub] });
    expect(c).toMatchObject({ school: null, schoolName: "某科技有限公司", available: null });
    Object.assign(ids, { a: a.id, b: b.id, c: c.id });

    expect(await names(root, { categoryId: ai })).toEqual(["丙专家", "甲专家"]);
    expect(await names(root, { categoryId: aiSub })).toEqual(["丙专家", "甲专家"]);
    expect(await names(root, { categoryId: soft })).toEqual(["乙专家"]);
    expect(await names(root, { tag: "计算机视觉" })).toEqual(["甲专家"]);
    expect(await names(root, { province: "上海市" })).toEqual(["丙专家"]);
    expect(await names(root, { schoolId: await schoolId(t, "南京大学") })).toEqual(["乙专家", "江评委"]);
    expect(await names(root, { available: "yes" })).toEqual(["甲专家"]);
    expect(await names(root, { available: "no" })).toEqual(["乙专家"]);
    expect(await names(root, { keyword: "科技有限" })).toEqual(["丙专家"]);
    expect(await names(root, { keyword: "yi@pool" })).toEqual(["乙专家"]);
    expect((await names(root, { history: "any" })).length).toBe(6);
    expect(await names(root, { history: "none", hasAccount: false })).toEqual(["丙专家", "乙专家", "甲专家"]);
    expect((await names(root, { judgedYear: 2026 })).length).toBe(6);
    expect(await names(root, { judgedYear: 2001 })).toEqual([]);
    const sorted = (await list(root, { sort: "-worksScored", pageSize: 3 })).list;
    expect(sorted.map((p) => p.worksScored)).toEqual([...sorted.map((p) => p.worksScored)].sort((x, y) => y - x));
    const byName = await list(root, { sort: "name", keyword: "专家" });
    expect(byName.list.map((p) => p.name)).toEqual([...byName.list.map((p) => p.name)].sort((x, y) => (x < y ? -1 : 1)));
    // Bad input changes nothing.
    expect((await root.post(`${P}/persons`, { name: "丁", categoryIds: [999999] })).status).toBe(422);
    expect((await root.post(`${P}/persons`, { name: "丁", email: "jia@pool.test" })).body).toMatchObject({
      error: 422,
      info: expect.stringContaining("已在评委库中"),
    });
    expect((await list(root, { keyword: "丁" })).total).toBe(0);
    expect((await root.get(`${P}/persons?sort=email`)).status).toBe(422);
  });

  it("a contest admin sees public fields of everyone, contacts only in scope; the contact route answers 404 with the same text as a missing record", async () => {
    const all = await list(cadmin);
    const js = all.list.find((p) => p.name === "江评委");
    const judge = all.list.find((p) => p.account?.username === "judge");
    const a = all.list.find((p) => p.name === "甲专家");
    expect(js).toMatchObject({ contactVisible: false, email: null, phone: null, schoolName: "南京大学" });
    expect(judge).toMatchObject({ contactVisible: true, email: "judge@demo.saiwu.local" });
    expect(a).toMatchObject({ contactVisible: false, email: null });

    const outside = await cadmin.get(`${P}/persons/${js.id}/contact`);
    const missing = await cadmin.get(`${P}/persons/2000000000/contact`);
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual(missing.body);
    expect(outside.body.info).toBe(NOT_FOUND);
    expect((await cadmin.get(`${P}/persons/${judge.id}/contact`)).body).toMatchObject({
      error: 0,
      data: { email: "judge@demo.saiwu.local" },
    });
    expect((await root.get(`${P}/persons/${js.id}/contact`)).body).toMatchObject({
      error: 0,
      data: { email: "pool_js@test.local" },
    });
    // A search by email does not reveal an email the admin cannot see.
    expect(await names(cadmin, { keyword: "pool_js@" })).toEqual([]);
    expect(await names(root, { keyword: "pool_js@" })).toEqual(["江评委"]);
    // Public fields may be edited, contacts outside the scope may not.
    expect((await cadmin.req("PATCH", `${P}/persons/${a.id}`, { title: "研究员" })).body).toMatchObject({
      error: 0,
      data: { title: "研究员", email: null },
    });
    const refused = await cadmin.req("PATCH", `${P}/persons/${a.id}`, { phone: "13800000000" });
    expect(refused.status).toBe(403);
    expect(
      (await t.db.selectFrom("judge_person").select("phone").where("id", "=", a.id).executeTakeFirstOrThrow()).phone,
    ).toBeNull();

    // Invited by the admin: in scope once the person accepted, never while the invitation is open or after it
    // was withdrawn (inviting and withdrawing must not be a way to read someone's contacts).
    const admin = await t.db
      .selectFrom("app_user")
      .select("id")
      .where("username", "=", "contest_admin")
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await t.db
      .insertInto("judge_invitation")
      .values({
        contest_id: zj,
        person_id: a.id,
        email: "jia@pool.test",
        name: "甲专家",
        categories: JSON.stringify([ai]),
        message: "",
        answer_by: now,
        code_hash: `h-${dialect}-1`,
        status: "sent",
        status_reason: null,
        sent_at: now,
        opened_at: null,
        answered_at: null,
        reminded_at: null,
        accepted_user_id: null,
        invited_by: admin.id,
        created_at: now,
      })
      .execute();
    const contact = async () => (await cadmin.get(`${P}/persons/${a.id}/contact`)).body;
    const setStatus = (status: "sent" | "accepted" | "withdrawn") =>
      t.db.updateTable("judge_invitation").set({ status }).where("person_id", "=", a.id).execute();
    expect(await contact()).toMatchObject({ error: 404, info: NOT_FOUND });
    await setStatus("withdrawn");
    expect(await contact()).toMatchObject({ error: 404, info: NOT_FOUND });
    expect((await list(cadmin, { keyword: "甲专家" })).list[0]).toMatchObject({ contactVisible: false, email: null });
    await setStatus("accepted");
    expect(await contact()).toMatchObject({ error: 0, data: { email: "jia@pool.test" } });
    // Entered by the admin: in scope too.
    const own = await cadmin.post(`${P}/persons`, { name: "戊专家", email: "wu@pool.test", phone: "13900000000" });
    // In scope, but the reply masks the phone: the full number is on the audited contact route.
    expect(own.body.data).toMatchObject({ contactVisible: true, phone: "139****0000" });
    // Other roles have no access at all.
    expect((await (await login(t, "reviewer")).get(`${P}/persons`)).status).toBe(403);
    expect((await (await login(t, "judge")).get(`${P}/persons`)).status).toBe(403);
  });

  it("merge keeps one record with both histories: works scored add up, the duplicate leaves the list", async () => {
    // One person with two accounts, both judges of the Zhejiang contest with submitted scores.
    const x1 = await makeJudge(t, "pool_x1", "双账号", "温州大学", zj);
    const x2 = await makeJudge(t, "pool_x2", "双账号", "温州大学", zj);
    const works = [];
    for (let i = 0; i < 3; i++)
      works.push(await insertWork(t, { contest: zj, school: "浙江财经大学", category: "人工智能应用", status: "format_passed" }));
    await submitScores(t, zj, [
      [works[0], x1, 80],
      [works[1], x1, 70],
      [works[2], x2, 75],
    ]);
    await list(root); // links both accounts
    const [p1, p2] = [await personOf(x1), await personOf(x2)];
    await root.req("PATCH", `${P}/persons/${p1}`, { categoryIds: [ai], tags: ["大数据"] });
    await root.req("PATCH", `${P}/persons/${p2}`, { categoryIds: [soft], tags: ["Web 开发"], available: true });
    const h1 = (await root.get(`${P}/persons/${p1}/history`)).body.data;
    const h2 = (await root.get(`${P}/persons/${p2}/history`)).body.data;
    expect([h1.worksScored, h2.worksScored]).toEqual([2, 1]);

    const merged = await cadmin.post(`${P}/persons/merge`, { keepId: p1, mergeId: p2 });
    expect(merged.body, merged.body.info).toMatchObject({
      error: 0,
      data: { id: p1, tags: ["Web 开发", "大数据"], available: true, worksScored: 3 },
    });
    expect(merged.body.data.categories.map((c: { id: number }) => c.id).sort()).toEqual([ai, soft].sort());
    const h = (await root.get(`${P}/persons/${p1}/history`)).body.data;
    expect(h.worksScored).toBe(3);
    expect(h.accountIds.sort()).toEqual([x1, x2].sort());
    expect(h.contests.find((c: { contest: { id: number } }) => c.contest.id === zj).worksScored).toBe(3);
    expect((await list(root, { keyword: "双账号" })).list.map((p) => p.id)).toEqual([p1]);
    expect((await root.get(`${P}/persons/${p2}`)).body).toMatchObject({ error: 404, info: NOT_FOUND });
    // Merging a merged record again is a 404; a record with itself is refused.
    expect((await root.post(`${P}/persons/merge`, { keepId: p1, mergeId: p2 })).status).toBe(404);
    expect((await root.post(`${P}/persons/merge`, { keepId: p1, mergeId: p1 })).status).toBe(400);
    // The second account's judge opens their own record: the kept one.
    const judgeX2 = await login(t, "pool_x2");
    expect((await judgeX2.get(`${P}/self`)).body.data).toMatchObject({ person: { id: p1 }, history: { worksScored: 3 } });
  });

  it("a merge never shows a contest admin contacts they could not see before", async () => {
    const js = (await list(root, { keyword: "江评委" })).list[0];
    const a = (await list(root, { keyword: "甲专家" })).list[0];
    // 甲专家 is visible to the admin only through the admin's invitation; moving it onto 江评委 would reveal 江评委's contacts.
    const refused = await cadmin.post(`${P}/persons/merge`, { keepId: js.id, mergeId: a.id });
    expect(refused.status).toBe(403);
    expect(
      (await t.db.selectFrom("judge_person").select("merged_into").where("id", "=", a.id).executeTakeFirstOrThrow()).merged_into,
    ).toBeNull();
    expect(
      (
        await t.db
          .selectFrom("judge_invitation")
          .select("person_id")
          .where("email", "=", "jia@pool.test")
          .executeTakeFirstOrThrow()
      ).person_id,
    ).toBe(a.id);
    // A duplicate outside the scope does not fill the admin's record with its email and phone.
    const hidden = (
      await root.post(`${P}/persons`, { name: "己专家", email: "ji@pool.test", phone: "13600000000", title: "研究员" })
    ).body.data;
    const own = (await cadmin.post(`${P}/persons`, { name: "己专家" })).body.data;
    const merged = await cadmin.post(`${P}/persons/merge`, { keepId: own.id, mergeId: hidden.id });
    expect(merged.body).toMatchObject({
      error: 0,
      data: { id: own.id, title: "研究员", contactVisible: true, email: null, phone: null },
    });
  });

  it("history: on-time rate against the 网络评审 deadline, judge effect and disagreement rate from the published fit (null before)", async () => {
    const j = await personOf(
      (await t.db.selectFrom("app_user").select("id").where("username", "=", "pool_x1").executeTakeFirstOrThrow()).id,
    );
    const before = (await root.get(`${P}/persons/${j}/history`)).body.data;
    expect(before).toMatchObject({ effect: null, disagreementRate: null });
    const stageEnds = async (endsAt: string) => {
      await t.db.deleteFrom("contest_stage").where("contest_id", "=", zj).where("stage", "=", "online_judging").execute();
      await t.db
        .insertInto("contest_stage")
        .values({ contest_id: zj, stage: "online_judging", starts_at: "2020-01-01T00:00:00.000Z", ends_at: endsAt })
        .execute();
      return (await root.get(`${P}/persons/${j}/history`)).body.data;
    };
    // The scores were submitted now: late for a stage that ended in 2021, on time for one ending in 2100.
    expect((await stageEnds("2021-01-01T00:00:00.000Z")).onTimeRate).toBe(0);
    const at = await stageEnds("2100-01-01T00:00:00.000Z");
    expect(at.onTimeRate).toBe(1);
    expect(at.contests.find((c: { contest: { id: number } }) => c.contest.id === zj)).toMatchObject({
      worksScored: 3,
      onTime: 3,
      deadline: "2100-01-01T00:00:00.000Z",
    });
    // A publication whose fit has this person's accounts.
    const [x1, x2] = at.accountIds;
    const admin = await t.db.selectFrom("app_user").select("id").where("username", "=", "root").executeTakeFirstOrThrow();
    const params = {
      model: "additive",
      version: 1,
      options: { disagreementThreshold: 15, tolerance: 1e-10, maxIterations: 1000, center: "judges" },
      publicity: null,
      groups: [
        {
          key: "c1",
          name: "组",
          basis: "online",
          fit: {},
          judges: [
            { judgeId: x1, effect: 2, count: 2 },
            { judgeId: x2, effect: -4, count: 1 },
            { judgeId: 999, effect: 1, count: 3 },
          ],
          scores: [
            [1, x1, 80],
            [1, 999, 60],
            [2, x1, 70],
            [2, 999, 72],
            [3, x2, 75],
            [3, 999, 74],
          ],
        },
      ],
    };
    await t.db
      .insertInto("result_publication")
      .values({
        contest_id: zj,
        published_at: new Date().toISOString(),
        published_by: admin.id,
        model: "additive",
        model_version: 1,
        params: JSON.stringify(params),
        log_head: "x",
        log_seq: 0,
        note: null,
        withdrawn_at: null,
        withdrawn_by: null,
        withdraw_reason: null,
      })
      .execute();
    const after = (await root.get(`${P}/persons/${j}/history`)).body.data;
    expect(after.effect).toBeCloseTo((2 * 2 - 4 * 1) / 3, 3);
    expect(after.disagreementRate).toBeCloseTo(1 / 3, 3);
    expect(after.publishedScores).toBe(3);
  });

  it("imports from Excel: the dry run lists row errors and writes nothing; the corrected file is confirmed and imported", async () => {
    const header = [
      "姓名",
      "学校",
      "省份",
      "职称",
      "邮箱",
      "手机",
      "评审类别（以、分隔；小类可写“大类/小类”）",
      "专业特长（以、分隔）",
      "本年度可参评",
    ];
    const bad = await sheetFile("评委库", [
      header,
      [
        "导入一",
        "浙江大学",
        "",
        "教授",
        "imp1@pool.test",
        "13700000001",
        "人工智能应用、软件应用与开发/Web应用与开发",
        "机器学习、大数据",
        "是",
      ],
      ["导入二", "某研究院", "北京市", "研究员", "imp2@pool.test", "", "不存在的类别", "", "也许"],
      ["", "浙江大学", "", "", "imp3@pool.test", "", "", "", ""],
      ["江评委", "", "", "", "pool_js@test.local", "", "", "", ""],
    ]);
    const { dry } = await importXlsx(cadmin, `${P}/persons`, bad);
    expect(dry.status).toBe("ready");
    const errors = dry.result.errors.map((e: { row: number; column: string }) => `${e.row}:${e.column}`);
    expect(errors).toEqual(
      expect.arrayContaining(["3:评审类别（以、分隔；小类可写“大类/小类”）", "3:本年度可参评", "4:姓名", "5:邮箱"]),
    );
    expect(dry.result.errors.find((e: { row: number }) => e.row === 5).reason).toContain("不在您的管理范围内");
    const refused = await cadmin.post(`${P}/persons/import/${dry.id}/confirm`);
    expect(refused.status).toBe(400);
    expect(await names(root, { keyword: "导入" })).toEqual([]);

    const good = await sheetFile("评委库", [
      header,
      [
        "导入一",
        "浙江大学",
        "",
        "教授",
        "imp1@pool.test",
        "13700000001",
        "人工智能应用、软件应用与开发/Web应用与开发",
        "机器学习、大数据",
        "是",
      ],
      ["导入二", "某研究院", "北京市", "研究员", "imp2@pool.test", "", "Web应用与开发", "", "否"],
    ]);
    const second = await importXlsx(cadmin, `${P}/persons`, good);
    expect(second.dry.result).toMatchObject({ created: 2, errors: [] });
    const ok = await cadmin.post(`${P}/persons/import/${second.jobId}/confirm`);
    expect(ok.status).toBe(202);
    expect((await waitJob(cadmin, second.jobId)).status).toBe("done");
    const imported = (await list(cadmin, { keyword: "导入" })).list;
    expect(imported.map((p) => [p.name, p.schoolName, p.province, p.available, p.contactVisible, p.email])).toEqual([
      ["导入一", "浙江大学", "浙江省", true, true, "imp1@pool.test"],
      ["导入二", "某研究院", "北京市", false, true, "imp2@pool.test"],
    ]);
    expect(imported[0].categories.map((c: { id: number }) => c.id).sort()).toEqual([ai, softSub].sort());
    // The export holds what the list shows (contacts outside the scope empty).
    const { wb } = await exportXlsx(cadmin, `${P}/persons`, {});
    const rows = rowsOf(wb.worksheets[0]);
    const jsRow = rows.find((r) => r[0] === "江评委")!;
    expect(jsRow[4]).toBe("");
    expect(rows.find((r) => r[0] === "李评审")![4]).toBe("judge@demo.saiwu.local");
  });

  it("a judge edits their own record; a declared student conflict keeps the assignment off every work the student authors", async () => {
    const jc = await login(t, "judge");
    const mine = (await jc.get(`${P}/self`)).body.data;
    expect(mine.person).toMatchObject({
      name: "李评审",
      schoolName: "浙江大学",
      email: "judge@demo.saiwu.local",
      contactVisible: true,
    });
    const saved = await jc.req("PUT", `${P}/self`, {
      tags: ["软件工程"],
      categoryIds: [soft],
      available: false,
      availabilityNote: "今年 7 月出国",
      title: "副教授",
    });
    expect(saved.body).toMatchObject({
      error: 0,
      data: { person: { tags: ["软件工程"], available: false, availabilityNote: "今年 7 月出国", title: "副教授" } },
    });
    expect((await jc.req("PUT", `${P}/self`, { categoryIds: [999999] })).status).toBe(422);
    expect((await jc.get(`${P}/self`)).body.data.person.categories.map((c: { id: number }) => c.id)).toEqual([soft]);
    expect(await names(root, { available: "no", tag: "软件工程" })).toEqual(["李评审"]);

    // Four judges for a group whose works need four reviews each: without conflicts every
    // judge gets every work; with a declared student, that judge loses exactly the student's work.
    const judges = [];
    for (let i = 1; i <= 4; i++) judges.push(await makeJudge(t, `pool_sc${i}`, `回避${i}`, null, zj));
    const works = [];
    for (const school of ["温州大学", "浙江理工大学", "中国计量大学", "浙江工商大学"])
      works.push(await insertWork(t, { contest: zj, school, category: "(AI+)数媒静态设计", status: "format_passed" }));
    const group = await makeGroup(t, zj, "静态设计回避测试组", await catId(t, "(AI+)数媒静态设计"), judges, works);
    const student = (
      await t.db
        .selectFrom("work_author")
        .select("user_id")
        .where("work_id", "=", works[1])
        .where("rank", "=", 1)
        .executeTakeFirstOrThrow()
    ).user_id;
    const sc1 = await login(t, "pool_sc1");
    const school = await t.db.selectFrom("app_user").select("school_id").where("id", "=", student).executeTakeFirstOrThrow();
    // The student is found by full name or student number within the school, never by a part of
    // the name, and only name and school come back.
    const search = async (keyword: string) =>
      (await sc1.get(`${P}/self/students?schoolId=${school.school_id}&keyword=${encodeURIComponent(keyword)}`)).body.data;
    const who = await t.db.selectFrom("app_user").select(["name"]).where("id", "=", student).executeTakeFirstOrThrow();
    await t.db.updateTable("app_user").set({ member_no: "2024990001" }).where("id", "=", student).execute();
    const found = await search(who.name);
    expect(found).toEqual([{ id: student, name: who.name, school: "浙江理工大学" }]);
    expect(await search("2024990001")).toEqual(found);
    expect(await search("作者甲")).toEqual([]);
    expect(await search(who.name.slice(0, -1))).toEqual([]);
    // And not without end: 20 searches a minute.
    const statuses: number[] = [];
    for (let i = 0; i < 18; i++)
      statuses.push((await sc1.get(`${P}/self/students?schoolId=${school.school_id}&keyword=x${i}`)).status);
    expect(statuses.slice(0, 16).every((c) => c === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const declared = await sc1.post("/Backend/Judging/conflicts", { userId: student, note: "指导过的学生" });
    expect(declared.status, declared.body.info).toBe(201);
    expect(declared.body.data).toMatchObject({ student: { id: student, school: "浙江理工大学" }, work: null, school: null });
    expect((await sc1.post("/Backend/Judging/conflicts", { userId: student })).status).toBe(409);
    expect((await sc1.post("/Backend/Judging/conflicts", { userId: judges[1] })).status).toBe(422);

    await setReviewsPerWork(t, zj, 4);
    const refused = await cadmin.post(`/Backend/ContestAdmin/judging/${zj}/assign`, { groupId: group });
    expect(refused.status).toBe(400);
    expect(refused.body.data.shortfalls).toEqual([{ workId: works[1], needed: 4, proposed: 3 }]);
    const partial = await cadmin.post(`/Backend/ContestAdmin/judging/${zj}/assign`, { groupId: group, confirmPartial: true });
    expect(partial.body, partial.body.info).toMatchObject({ error: 0, data: { applied: true, added: 15 } });
    const of = async (judgeId: number) =>
      (
        await t.db
          .selectFrom("judge_assignment")
          .select("work_id")
          .where("contest_id", "=", zj)
          .where("judge_id", "=", judgeId)
          .execute()
      )
        .map((r) => Number(r.work_id))
        .sort();
    expect(await of(judges[0])).toEqual([works[0], works[2], works[3]].sort());
    for (const j of judges.slice(1)) expect(await of(j)).toEqual([...works].sort());
    // The check report agrees: no assignment in conflict.
    const report = (await cadmin.get(`/Backend/ContestAdmin/judging/${zj}/check`)).body;
    expect(JSON.stringify(report.data ?? {})).not.toContain(`"judgeId":${judges[0]},"workId":${works[1]}`);
  });
});
