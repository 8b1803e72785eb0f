/**
 * The rules of a work's content and team: one work per author per 大类 (also when two
 * requests race), team bounds at submit, 专业组 majors, field locks, optimistic versions,
 * and who edits what. Every refusal leaves the work as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { insertAuthor } from "../../src/server/work/service/members";
import {
  account,
  AI_NONE,
  catId,
  contestId,
  filled,
  idOf,
  login,
  logOf,
  makeWork,
  setStage,
  statusOf,
  W,
} from "./works-fixtures";

describe.each(DIALECTS)("works rules on %s", (dialect) => {
  let t: TestApp;
  let teacher: Client;
  let zjut: number, soft: number, data: number, ai: number, iot: number, design: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    teacher = await login(t, "teacher");
    zjut = await contestId(t, "2026-ZJ-10337");
    soft = await catId(t, "软件应用与开发");
    data = await catId(t, "大数据应用");
    ai = await catId(t, "人工智能应用");
    iot = await catId(t, "物联网应用");
    design = await catId(t, "(AI+)数媒静态设计");
  });
  afterAll(async () => t?.close());

  const authorRows = (id: number) =>
    t.db.selectFrom("work_author").select(["user_id", "rank", "confirmed"]).where("work_id", "=", id).orderBy("rank").execute();

  it("allows one work per author per 大类 whatever the rank, with a clear message", async () => {
    const [x, y, z] = await Promise.all(["one_x", "one_y", "one_z"].map((u, i) => account(t, u, `唯一${"甲乙丙"[i]}`)));
    const wx = await makeWork(t, x, { contest: zjut, category: soft, name: "甲的作品", coAuthors: [z] });
    const again = await x.post(W, { contestId: zjut, categoryId: soft, name: "甲的第二件" });
    expect(again.body).toMatchObject({
      error: 409,
      info: `作者「唯一甲」在本大类已有作品《甲的作品》（编号 ${wx}），每位作者每个大类只能参加一件作品`,
    });
    // As a co-author too.
    const wy = await makeWork(t, y, { contest: zjut, category: data, name: "乙的作品" });
    const before = await statusOf(t, wy);
    const add = await y.post(`${W}/${wy}/authors`, { username: "one_z" });
    expect(add.status).toBe(200);
    const zRank2 = await z.post(W, { contestId: zjut, categoryId: data, name: "丙想另报" });
    expect(zRank2.body.info).toBe(`作者「唯一丙」在本大类已有作品《乙的作品》（编号 ${wy}），每位作者每个大类只能参加一件作品`);
    const wy2 = await makeWork(t, y, { contest: zjut, category: soft, name: "乙的软件作品" });
    const dup = await y.post(`${W}/${wy2}/authors`, { username: "one_x" });
    expect(dup.body).toMatchObject({
      error: 409,
      info: `作者「唯一甲」在本大类已有作品《甲的作品》（编号 ${wx}），每位作者每个大类只能参加一件作品`,
    });
    expect((await authorRows(wy2)).length).toBe(1);
    expect((await statusOf(t, wy)).version).toBe(before.version + 1);
    // Moving a work to a 大类 where an author already has one is refused too.
    const move = await y.req("PATCH", `${W}/${wy}`, { version: before.version + 1, categoryId: soft });
    expect(move.body.error).toBe(409);
    expect(move.body.info).toMatch(
      /^作者「唯一(乙|丙)」在本大类已有作品《(乙的软件作品|甲的作品)》（编号 \d{10}），每位作者每个大类只能参加一件作品$/,
    );
    expect((await t.db.selectFrom("work").select("category_id").where("id", "=", wy).executeTakeFirstOrThrow()).category_id).toBe(
      data,
    );
    // The unique index itself refuses a second row of the same author, 大类 and year.
    const zid = await idOf(t, "one_z");
    await expect(
      t.db
        .insertInto("work_author")
        .values({ work_id: wy2, user_id: zid, rank: 2, confirmed: 0, category_id: soft, year: 2026, created_at: "x" })
        .execute(),
    ).rejects.toThrow();
  });

  it("lets only one of two racing requests put an author into a 大类", async () => {
    const [p, q, r] = await Promise.all(["race_p", "race_q", "race_r"].map((u, i) => account(t, u, `并发${"甲乙丙"[i]}`)));
    const wp = await makeWork(t, p, { contest: zjut, category: ai, name: "并发一" });
    const wq = await makeWork(t, q, { contest: zjut, category: ai, name: "并发二" });
    const results = await Promise.all([
      p.post(`${W}/${wp}/authors`, { username: "race_r" }),
      q.post(`${W}/${wq}/authors`, { username: "race_r" }),
    ]);
    expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
    const loser = results.find((x) => x.status === 409)!;
    expect(loser.body.info).toMatch(
      /^作者「并发丙」在本大类已有作品《并发(一|二)》（编号 \d{10}），每位作者每个大类只能参加一件作品$/,
    );
    const rows = await t.db
      .selectFrom("work_author")
      .select("work_id")
      .where("user_id", "=", await idOf(t, "race_r"))
      .where("category_id", "=", ai)
      .execute();
    expect(rows).toHaveLength(1);
    if (dialect === "postgres") {
      // Both requests pass the check before either has committed: the unique index decides.
      await account(t, "race_s", "并发丁");
      const s = await t.db.selectFrom("app_user").selectAll().where("username", "=", "race_s").executeTakeFirstOrThrow();
      const work = async (id: number) => ({ id, category_id: ai, year: 2026 });
      let inserted!: () => void, open!: () => void;
      const wasInserted = new Promise<void>((res) => (inserted = res));
      const gate = new Promise<void>((res) => (open = res));
      const first = t.db.transaction().execute(async (trx) => {
        await insertAuthor({ db: trx, user: s, now: new Date() }, await work(wp), s, 3, false);
        inserted();
        await gate;
      });
      await wasInserted;
      const second = t.db
        .transaction()
        .execute(async (trx) => insertAuthor({ db: trx, user: s, now: new Date() }, await work(wq), s, 3, false));
      // Its refusal can come while `first` is still being awaited: caught from the start, so it is never an unhandled rejection.
      const secondOutcome = second.then(
        () => "inserted",
        (e: unknown) => e,
      );
      await new Promise((res) => setTimeout(res, 300));
      open();
      await first;
      expect(await secondOutcome).toMatchObject({
        status: 409,
        info: `作者「并发丁」在本大类已有作品《并发一》（编号 ${wp}），每位作者每个大类只能参加一件作品`,
      });
      expect(await t.db.selectFrom("work_author").select("work_id").where("user_id", "=", s.id).execute()).toEqual([
        { work_id: wp },
      ]);
    }
    // Two works created at once by the same author in one 大类: one is refused.
    const created = await Promise.all([
      r.post(W, { contestId: zjut, categoryId: iot, name: "同时一" }),
      r.post(W, { contestId: zjut, categoryId: iot, name: "同时二" }),
    ]);
    expect(created.map((x) => x.status).sort()).toEqual([201, 409]);
    expect(await t.db.selectFrom("work").select("id").where("name", "in", ["同时一", "同时二"]).execute()).toHaveLength(1);
  });

  it("checks team size and teachers against the 大类 at submit and when adding", async () => {
    const [a, b, c] = await Promise.all(["team_a", "team_b", "team_c"].map((u, i) => account(t, u, `团队${"甲乙丙"[i]}`)));
    const solo = await makeWork(t, a, { contest: zjut, category: soft, name: "一人作品" });
    expect((await a.post(`${W}/${solo}/submit`, {})).body).toMatchObject({
      error: 400,
      info: "「软件应用与开发」每件作品须有 2–5 名作者，当前 1 名",
    });
    const w = await makeWork(t, b, { contest: zjut, category: data, coAuthors: [c], teachers: ["teacher"] });
    await t.db
      .updateTable("work_category")
      .set({ min_authors: 3, max_authors: 3, max_teachers: 1 })
      .where("id", "=", data)
      .execute();
    expect((await b.post(`${W}/${w}/submit`, {})).body.info).toBe("「大数据应用」每件作品须有 3–3 名作者，当前 2 名");
    await account(t, "team_t2", "二号老师", { role: 99 });
    expect((await b.post(`${W}/${w}/teachers`, { username: "team_t2" })).body).toMatchObject({
      error: 400,
      info: "「大数据应用」每件作品最多 1 名指导教师",
    });
    expect((await b.post(`${W}/${w}/authors`, { username: "team_a" })).status).toBe(200);
    await account(t, "team_d", "团队丁");
    expect((await b.post(`${W}/${w}/authors`, { username: "team_d" })).body.info).toBe("「大数据应用」每件作品最多 3 名作者");
    // Members must be students (authors) or teachers of the work's school.
    await account(t, "team_zju", "浙大同学", { school: "浙江大学" });
    const other = await b.post(`${W}/${w}/authors`, { username: "team_zju" });
    expect(other.body).toMatchObject({
      error: 422,
      info: "「浙大同学」（team_zju）不是浙江工业大学的学生，作者和指导教师须与作品属于同一学校",
      data: { field: "username" },
    });
    expect((await b.post(`${W}/${w}/authors`, { username: "teacher" })).body.info).toBe(
      "「王老师」（teacher）不是学生账号，不能作为作者",
    );
    expect((await b.post(`${W}/${w}/authors`, { username: "nobody_here" })).body.info).toBe(
      "用户名「nobody_here」不存在，请确认对方已注册账号",
    );
    expect((await a.post(`${W}/${w}/confirm`, {})).status).toBe(200);
    expect((await b.post(`${W}/${w}/submit`, {})).body.data.status).toBe("submitted");
    await t.db
      .updateTable("work_category")
      .set({ min_authors: 2, max_authors: 5, max_teachers: 2 })
      .where("id", "=", data)
      .execute();
  });

  it("puts a work with any author of the 大类's 专业组 majors into 专业组, and one without into 普通组", async () => {
    const a = await account(t, "pro_a", "专业甲", { major: "130508" });
    const b = await account(t, "pro_b", "专业乙", { major: "080901" });
    const c = await account(t, "pro_c", "专业丙", { major: "080902" });
    expect(
      (await a.post(W, { contestId: zjut, categoryId: soft, name: "软件专业组", group: "professional" })).body,
    ).toMatchObject({ error: 422, info: "大类「软件应用与开发」不分专业组，请选择普通组", data: { field: "group" } });
    const w = await makeWork(t, a, { contest: zjut, category: design, coAuthors: [b] });
    expect((await a.post(`${W}/${w}/submit`, {})).body.info).toBe(
      "作者「专业甲（数字媒体艺术）」的专业属于本大类的专业组专业，应报专业组",
    );
    expect((await statusOf(t, w)).status).toBe("draft");
    await a.req("PATCH", `${W}/${w}`, { version: (await statusOf(t, w)).version, group: "professional" });
    expect((await a.post(`${W}/${w}/submit`, {})).body.data.status).toBe("submitted");
    expect((await a.get(`${W}/${w}`)).body.data.groupName).toBe("专业组");
    const w2 = await makeWork(t, b, { contest: zjut, category: await catId(t, "(AI+)数媒游戏与交互设计"), coAuthors: [c] });
    await b.req("PATCH", `${W}/${w2}`, { version: (await statusOf(t, w2)).version, group: "professional" });
    expect((await b.post(`${W}/${w2}/submit`, {})).body.info).toBe(
      "专业组要求至少一位作者的专业属于本大类的专业组专业，请改报普通组",
    );
    await b.req("PATCH", `${W}/${w2}`, { version: (await statusOf(t, w2)).version, group: "normal" });
    expect((await b.post(`${W}/${w2}/submit`, {})).body.data.status).toBe("submitted");
  });

  it("refuses changes to locked fields naming the field and the stage, and changes nothing", async () => {
    const [a, b] = await Promise.all(["lock_a", "lock_b"].map((u, i) => account(t, u, `锁定${"甲乙"[i]}`)));
    const w = await makeWork(t, a, { contest: zjut, category: ai, coAuthors: [b], teachers: ["teacher"] });
    const at = new Date().toISOString();
    await t.db
      .insertInto("entry_lock")
      .values([
        { contest_id: zjut, field: "summary", from_stage: "format_review", created_at: at },
        { contest_id: null, field: "authors", from_stage: "format_review", created_at: at },
        { contest_id: null, field: "teacherReview", from_stage: "format_review", created_at: at },
      ])
      .execute();
    const before = await t.db.selectFrom("work").selectAll().where("id", "=", w).executeTakeFirstOrThrow();
    const logs = (await logOf(t, w)).length;
    // Locks apply once their stage has started.
    expect((await a.req("PATCH", `${W}/${w}`, { version: before.version, otherNotes: "锁定前可改" })).status).toBe(200);
    await setStage(t, zjut, "format_review", -1, 10);
    const v = before.version + 1;
    const r = await a.req("PATCH", `${W}/${w}`, { version: v, summary: "改简介", name: "改名" });
    expect(r.body).toMatchObject({ error: 403, info: "「作品简介」已于形式审查阶段锁定，不能修改" });
    const still = await t.db.selectFrom("work").selectAll().where("id", "=", w).executeTakeFirstOrThrow();
    expect([still.summary, still.name, still.version]).toEqual([before.summary, before.name, v]);
    expect((await logOf(t, w)).length).toBe(logs + 1);
    expect((await a.get(`${W}/${w}`)).body.data.viewer.lockedFields).toEqual(
      expect.arrayContaining([{ field: "summary", fieldName: "作品简介", stage: "format_review", stageName: "形式审查" }]),
    );
    expect((await a.req("PATCH", `${W}/${w}`, { version: v, name: "未锁定的名称" })).body.data.name).toBe("未锁定的名称");
    await account(t, "lock_c", "锁定丙");
    expect((await a.post(`${W}/${w}/authors`, { username: "lock_c" })).body.info).toBe("「作者」已于形式审查阶段锁定，不能修改");
    expect((await b.post(`${W}/${w}/decline`, {})).body.info).toBe("「作者」已于形式审查阶段锁定，不能修改");
    expect(
      (await teacher.req("PATCH", `/Backend/Teacher/work/${w}/review`, { version: v + 1, teacherReview: "自评" })).body.info,
    ).toBe("「指导老师自评」已于形式审查阶段锁定，不能修改");
    expect((await authorRows(w)).length).toBe(2);
    await t.db.deleteFrom("entry_lock").execute();
    await setStage(t, zjut, "format_review", 40, 50);
  });

  it("refuses an edit based on a stale version, also when two edits race", async () => {
    const a = await account(t, "ver_a", "版本甲");
    const w = await makeWork(t, a, { contest: zjut, category: soft, name: "版本作品" });
    const v = (await statusOf(t, w)).version;
    expect((await a.req("PATCH", `${W}/${w}`, { version: v, name: "第一次修改" })).status).toBe(200);
    const stale = await a.req("PATCH", `${W}/${w}`, { version: v, name: "基于旧版本的修改" });
    expect(stale.body).toMatchObject({
      error: 409,
      info: `作品已被他人修改（当前版本 ${v + 1}，您提交的是版本 ${v}），请刷新后重新修改；本次修改未保存`,
    });
    expect(await t.db.selectFrom("work").select(["name", "version"]).where("id", "=", w).executeTakeFirstOrThrow()).toEqual({
      name: "第一次修改",
      version: v + 1,
    });
    const race = await Promise.all([
      a.req("PATCH", `${W}/${w}`, { version: v + 1, summary: "甲的简介" }),
      a.req("PATCH", `${W}/${w}`, { version: v + 1, summary: "乙的简介" }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = race.find((r) => r.status === 200)!.body.data.summary;
    expect(await t.db.selectFrom("work").select(["summary", "version"]).where("id", "=", w).executeTakeFirstOrThrow()).toEqual({
      summary: won,
      version: v + 2,
    });
    expect((await a.req("PATCH", `${W}/${w}`, { summary: "没有版本号" })).body).toMatchObject({
      error: 422,
      data: { field: "version" },
    });
  });

  it("keeps a contest and a category that have works from being deleted (archived instead)", async () => {
    const root = await login(t, "root");
    const zju = (await t.db.selectFrom("school").select("id").where("name", "=", "浙江大学").executeTakeFirstOrThrow()).id;
    const day = 86_400_000;
    const c = await root.post("/Backend/Admin/contest", {
      name: "浙江大学校级赛（测试）",
      level: "school",
      year: 2026,
      parentId: await contestId(t, "2026-ZJ"),
      schoolId: zju,
      categories: [ai],
      stages: [
        {
          stage: "registration",
          startsAt: new Date(Date.now() - day).toISOString(),
          endsAt: new Date(Date.now() + 10 * day).toISOString(),
        },
      ],
    });
    expect(c.status).toBe(201);
    const s = await account(t, "del_zju", "浙大作者", { school: "浙江大学" });
    const challenge = (
      await t.db.selectFrom("work_category").select("id").where("name", "=", "人工智能挑战赛").executeTakeFirstOrThrow()
    ).id;
    expect(
      (await s.post(W, { contestId: c.body.data.id, categoryId: ai, subcategoryId: challenge, name: "挑战赛作品" })).status,
    ).toBe(201);
    expect((await root.del(`/Backend/Admin/contest/${c.body.data.id}`)).body.data.result).toBe("archived");
    expect((await root.del(`/Backend/Admin/work-type/${challenge}`)).body.data.result).toBe("archived");
    expect((await root.del(`/Backend/Admin/work-type/${challenge}`)).body.info).toBe(
      "作品类别「人工智能挑战赛」有 1 件作品，不能删除；它已经归档",
    );
  });

  it("lets the teacher write only the self-evaluation, and the authors everything else", async () => {
    const [a, b] = await Promise.all(["edit_a", "edit_b"].map((u, i) => account(t, u, `编辑${"甲乙"[i]}`)));
    const w = await makeWork(t, a, { contest: zjut, category: iot, coAuthors: [b], teachers: ["teacher"] });
    const v = (await statusOf(t, w)).version;
    expect((await a.req("PATCH", `${W}/${w}`, { version: v, teacherReview: "学生代写" })).body).toMatchObject({
      error: 403,
      info: "「指导老师自评」由指导教师填写",
    });
    expect((await b.req("PATCH", `${W}/${w}`, { version: v, name: "合作作者改名" })).body).toMatchObject({
      error: 403,
      info: "只有第一作者可以修改作品信息",
    });
    expect((await teacher.req("PATCH", `${W}/${w}`, { version: v, name: "老师改名" })).status).toBe(403);
    const review = await teacher.req("PATCH", `/Backend/Teacher/work/${w}/review`, {
      version: v,
      teacherReview: "该作品选题新颖，完成度高。",
    });
    expect(review.body).toMatchObject({
      error: 0,
      info: "指导老师自评已保存",
      data: { teacherReview: "该作品选题新颖，完成度高。", version: v + 1 },
    });
    expect((await teacher.get("/Backend/Teacher/work?pageSize=100")).body.data.list.map((x: { id: number }) => x.id)).toContain(
      w,
    );
    // Links are URLs; the AI declaration is consistent.
    expect((await a.req("PATCH", `${W}/${w}`, { version: v + 1, deployLink1: "not a link" })).body).toMatchObject({
      error: 422,
      data: { field: "deployLink1" },
    });
    expect((await a.req("PATCH", `${W}/${w}`, { version: v + 1, aiDeclaration: { used: true, tools: [] } })).body.info).toBe(
      "已声明使用 AI 工具，请至少填写一项工具的使用情况",
    );
    const tool = {
      tool: "ChatGPT",
      version: "4o",
      access: "网页版 2026-03",
      purpose: "润色文档",
      prompts: "请润色",
      output: "润色后的段落",
      edits: "逐句核对",
      adoption: 130,
    };
    expect(
      (await a.req("PATCH", `${W}/${w}`, { version: v + 1, aiDeclaration: { used: true, tools: [tool] } })).body,
    ).toMatchObject({ error: 422, data: { field: "aiDeclaration.tools.0.adoption" } });
    const ok = await a.req("PATCH", `${W}/${w}`, {
      version: v + 1,
      aiDeclaration: { used: true, tools: [{ ...tool, adoption: 30 }] },
    });
    expect(ok.body.data.aiDeclaration).toEqual({ used: true, tools: [{ ...tool, adoption: 30 }] });
    // Co-authors leave; the first author orders and removes.
    const order = await a.post(`${W}/${w}/authors/order`, { userIds: [await idOf(t, "edit_b"), await idOf(t, "edit_a")] });
    expect(order.body.info).toBe("第一作者须排在第一位");
    expect((await a.del(`${W}/${w}/teachers/${await idOf(t, "teacher")}`)).body.data.teacherNames).toBe("");
    expect((await b.post(`${W}/${w}/decline`, {})).body.info).toBe("您已退出该作品");
    expect((await b.get(`${W}/${w}`)).status).toBe(404);
    expect((await a.get(`${W}/${w}`)).body.data.authorNames).toBe("编辑甲");
    expect((await logOf(t, w)).map((l) => l.action).slice(-3)).toEqual(["update", "remove_teacher", "decline_author"]);
    void AI_NONE;
    void filled;
  });
});
