import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";

const N = "/Backend/Admin/notice";
const NEWS = "/Backend/Admin/news";
const PUB = "/Backend/Public/news";

/** A base64 PNG data URL of about `bytes` bytes of image. */
const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 7).toString("base64")}`;

describe.each(DIALECTS)("notices, news and the change log on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, student: Client, anon: Client;
  let zj: number, js: number, zjSchool: number, national: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    cadmin = new Client(t);
    student = new Client(t);
    anon = new Client(t);
    await root.login("root", "admin");
    await cadmin.login("contest_admin", "admin");
    await student.login("student", "student");
    const contest = async (level: "national" | "provincial" | "school", province?: string) => {
      let q = t.db.selectFrom("contest").select("id").where("level", "=", level);
      if (province) q = q.where("province", "=", province);
      return (await q.executeTakeFirstOrThrow()).id;
    };
    zj = await contest("provincial", "浙江省");
    js = await contest("provincial", "江苏省");
    zjSchool = await contest("school", "浙江省");
    national = await contest("national");
  });
  afterAll(async () => t?.close());

  const noticeCount = async () =>
    Number(
      (
        await t.db
          .selectFrom("notice")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("sanitises rich text on the server: scripts, event handlers, javascript: links, iframes, style expressions and remote images go, formatting stays", async () => {
    const dirty =
      `<p><strong>加粗</strong>的说明</p><script>alert("x")</script><img src="https://img.example.cn/a.png" onerror="alert(1)"><img src="/Backend/Public/logo.png">` +
      `<a href="javascript:alert(1)">坏链接</a><a href="https://www.example.cn/rules">大赛章程</a><iframe src="https://evil.example.com"></iframe>` +
      `<p style="width:expression(alert(1));color:red" onclick="steal()">红字</p><ul><li>第一条</li></ul>`;
    const r = await root.post(N, { section: "participant_management", title: "参赛人员管理说明", content: dirty });
    expect(r.status).toBe(201);
    const stored = (await t.db.selectFrom("notice").select("content").where("id", "=", r.body.data.id).executeTakeFirstOrThrow())
      .content;
    expect(r.body.data.content).toBe(stored);
    for (const bad of ["<script", "alert(", "onerror", "onclick", "javascript:", "<iframe", "expression"])
      expect(stored).not.toContain(bad);
    expect(stored).toContain("<p><strong>加粗</strong>的说明</p>");
    // A remote image would tell its host who read the page (a tracking pixel): dropped; our own stays.
    expect(stored).not.toContain("img.example.cn");
    expect(stored).toContain('<img src="/Backend/Public/logo.png" />');
    expect(stored).toContain('href="https://www.example.cn/rules"');
    expect(stored).toContain('<p style="color:red">红字</p>');
    expect(stored).toContain("<ul><li>第一条</li></ul>");
    expect(r.body.data.sectionName).toBe("参赛人员管理说明");

    const news = await root.post(NEWS, {
      title: "含脚本的新闻",
      body: `<p>正文<em>强调</em></p><img src="x.png" onerror="alert(1)"><img src="data:image/svg+xml;base64,PHN2Zz4="><script>1</script>`,
    });
    expect(news.status).toBe(201);
    expect(news.body.data.body).toBe('<p>正文<em>强调</em></p><img src="x.png" />');
  });

  it("validates the section against the catalogue and keeps one notice per section and contest", async () => {
    const before = await noticeCount();
    const unknown = await root.post(N, { section: "role_8", title: "不存在的栏目", content: "<p>内容</p>" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.data.field).toBe("section");
    expect(unknown.body.info).toContain("栏目「role_8」不存在");
    expect(unknown.body.info).toContain("作品链接编辑说明");
    const blank = await root.post(N, {
      section: "work_link_edit",
      title: "空内容",
      content: "<p> </p><script>alert(1)</script>",
    });
    expect(blank.status).toBe(422);
    expect(blank.body).toMatchObject({ info: "内容不能为空", data: { field: "content" } });
    const existing = (
      await t.db
        .selectFrom("notice")
        .select("id")
        .where("section", "=", "role_2")
        .where("contest_id", "is", null)
        .executeTakeFirstOrThrow()
    ).id;
    const dup = await root.post(N, { section: "role_2", title: "第二条学校管理员公告", content: "<p>重复</p>" });
    expect(dup.status).toBe(409);
    expect(dup.body.info).toBe(`全平台的「学校管理员公告」已存在（编号 ${existing}），请直接编辑它`);
    expect(await noticeCount()).toBe(before);
    // The database itself keeps the slot unique, platform-wide (contest null) included.
    const row = {
      section: "role_2",
      contest_id: null,
      title: "绕过接口",
      content: "<p>x</p>",
      updated_at: new Date().toISOString(),
      updated_by: null,
    };
    await expect(t.db.insertInto("notice").values(row).execute()).rejects.toThrow();
    expect(await noticeCount()).toBe(before);
    // The same section for one contest is a different slot.
    const forContest = await root.post(N, {
      section: "role_2",
      contestId: js,
      title: "江苏省学校管理员须知",
      content: "<p>江苏</p>",
    });
    expect(forContest.status).toBe(201);
    expect(forContest.body.data.contestId).toBe(js);
  });

  it("limits a contest admin to notices of the own contests", async () => {
    const platform = await cadmin.post(N, { section: "work_info_edit", title: "全平台说明", content: "<p>越权</p>" });
    expect(platform.status).toBe(403);
    expect(platform.body.info).toContain("只能由超级管理员维护");
    const jiangsu = await cadmin.post(N, { section: "work_info_edit", contestId: js, title: "江苏说明", content: "<p>越权</p>" });
    expect(jiangsu.status).toBe(403);
    expect(
      await t.db.selectFrom("notice").select("id").where("section", "=", "work_info_edit").executeTakeFirst(),
    ).toBeUndefined();

    const jsNotice = await root.post(N, {
      section: "registration_material_edit",
      contestId: js,
      title: "江苏报名材料说明",
      content: "<p>江苏省级赛报名材料要求（内部）</p>",
    });
    expect(jsNotice.status).toBe(201);
    const id = jsNotice.body.data.id;
    expect((await cadmin.get(`${N}/${id}`)).status).toBe(404);
    expect((await cadmin.req("PATCH", `${N}/${id}`, { title: "改掉" })).status).toBe(404);
    expect((await cadmin.del(`${N}/${id}`)).status).toBe(404);
    expect((await t.db.selectFrom("notice").select("title").where("id", "=", id).executeTakeFirstOrThrow()).title).toBe(
      "江苏报名材料说明",
    );
    const platformRole = (
      await t.db
        .selectFrom("notice")
        .select("id")
        .where("section", "=", "role_1")
        .where("contest_id", "is", null)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await cadmin.get(`${N}/${platformRole}`)).status).toBe(404);

    const own = await cadmin.post(N, {
      section: "registration_material_edit",
      contestId: zj,
      title: "浙江报名材料说明",
      content: "<p>浙江</p>",
    });
    expect(own.status).toBe(201);
    const child = await cadmin.post(N, {
      section: "work_info_edit",
      contestId: zjSchool,
      title: "校赛作品信息说明",
      content: "<p>校赛</p>",
    });
    expect(child.status).toBe(201);
    const moveAway = await cadmin.req("PATCH", `${N}/${own.body.data.id}`, { contestId: js });
    expect(moveAway.status).toBe(403);

    const list = await cadmin.get(`${N}?pageSize=100`);
    expect(list.body.data.total).toBe(2);
    expect(new Set(list.body.data.list.map((n: { contestId: number }) => n.contestId))).toEqual(new Set([zj, zjSchool]));
    const kw = await cadmin.get(`${N}?keyword=${encodeURIComponent("江苏")}`);
    expect(kw.body.data.total).toBe(0);
    const rootKw = await root.get(`${N}?keyword=${encodeURIComponent("江苏")}&section=registration_material_edit`);
    expect(rootKw.body.data.list.map((n: { id: number }) => n.id)).toEqual([id]);
    const platformOnly = await root.get(`${N}?platform=true&pageSize=100`);
    expect(platformOnly.body.data.list.every((n: { contestId: number | null }) => n.contestId === null)).toBe(true);
    expect(platformOnly.body.data.total).toBe(11); // ten role announcements + participant_management
  });

  it("shows the edited role announcement in the role's user centre, and not a contest's", async () => {
    const id = (await root.get(`${N}?section=role_100&platform=true`)).body.data.list[0].id;
    const r = await root.req("PATCH", `${N}/${id}`, {
      title: "致全体参赛同学",
      content: `<p>请在<strong>5 月 31 日</strong>前提交作品。</p><script>x()</script>`,
    });
    expect(r.status).toBe(200);
    const contestOne = await cadmin.post(N, {
      section: "role_100",
      contestId: zj,
      title: "浙江省参赛同学须知",
      content: "<p>浙江</p>",
    });
    expect(contestOne.status).toBe(201);
    const a = await student.get("/Backend/Common/notice/announcement");
    expect(a.body.data).toMatchObject({ title: "致全体参赛同学", content: "<p>请在<strong>5 月 31 日</strong>前提交作品。</p>" });
    expect(a.body.data.updatedAt).toBe(r.body.data.updatedAt);
    const teacher = new Client(t);
    await teacher.login("teacher", "teacher");
    expect((await teacher.get("/Backend/Common/notice/announcement")).body.data.title).toBe("致教师的公告");
  });

  it("serves a section's explanation text: the contest's own, else its parent's, else the platform's", async () => {
    const path = (s: string, c?: number) => `/Backend/Common/notice/section/${s}${c ? `?contestId=${c}` : ""}`;
    const none = await student.get(path("work_link_edit", js));
    expect(none.body.data).toEqual({
      section: "work_link_edit",
      sectionName: "作品链接编辑说明",
      contestId: null,
      title: "作品链接编辑说明",
      content: "",
      updatedAt: null,
    });
    await root.post(N, { section: "work_link_edit", title: "作品链接说明（全国）", content: "<p>部署链接须可公开访问。</p>" });
    await cadmin.post(N, {
      section: "work_link_edit",
      contestId: zj,
      title: "作品链接说明（浙江）",
      content: "<p>浙江省级赛链接要求。</p>",
    });
    expect((await student.get(path("work_link_edit", zjSchool))).body.data).toMatchObject({
      contestId: zj,
      title: "作品链接说明（浙江）",
    });
    expect((await student.get(path("work_link_edit", js))).body.data).toMatchObject({
      contestId: null,
      title: "作品链接说明（全国）",
    });
    expect((await student.get(path("work_link_edit"))).body.data.content).toBe("<p>部署链接须可公开访问。</p>");
    const role = await student.get(path("role_0"));
    expect(role.status).toBe(422);
    expect(role.body.info).toContain("不是说明栏目");
    expect((await student.get(path("work_link_edit", 999999))).status).toBe(404);
    expect((await anon.get(path("work_link_edit"))).status).toBe(401);
  });

  it("publishes news: drafts and scheduled items stay hidden from the public until their time", async () => {
    const draft = await root.post(NEWS, { title: "草稿新闻", body: "<p>尚未发布</p>" });
    expect(draft.body.data).toMatchObject({ status: "draft", publishAt: null });
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await root.post(NEWS, {
      title: "定时发布的新闻",
      body: "<p>明天发布</p>",
      status: "published",
      publishAt: future,
    });
    expect(scheduled.body.data.publishAt).toBe(future);
    const live = await root.post(NEWS, {
      title: "国赛决赛安排公布",
      body: "<p>决赛将于 8 月举行 &amp; 分类别进行。</p>",
      status: "published",
      cover: png(1000),
    });
    expect(live.status).toBe(201);
    expect(Date.now() - Date.parse(live.body.data.publishAt)).toBeLessThan(60_000);

    const list = await anon.get(`${PUB}?pageSize=50`);
    expect(list.status).toBe(200);
    const titles = list.body.data.list.map((n: { title: string }) => n.title);
    expect(titles[0]).toBe("国赛决赛安排公布");
    expect(titles).toContain("2026年（第19届）中国大学生计算机设计大赛正式启动");
    expect(titles).not.toContain("草稿新闻");
    expect(titles).not.toContain("定时发布的新闻");
    expect(titles.some((x: string) => x.includes("省级赛"))).toBe(false);
    expect(list.body.data.list[0]).toMatchObject({
      summary: "决赛将于 8 月举行 & 分类别进行。",
      cover: png(1000),
      contestId: null,
    });
    expect((await anon.get(`${PUB}/${draft.body.data.id}`)).status).toBe(404);
    expect((await anon.get(`${PUB}/${scheduled.body.data.id}`)).status).toBe(404);
    const one = await anon.get(`${PUB}/${live.body.data.id}`);
    expect(one.body.data.body).toBe("<p>决赛将于 8 月举行 &amp; 分类别进行。</p>");

    const zjNews = await anon.get(`${PUB}?contestId=${zj}`);
    expect(zjNews.body.data.list.map((n: { title: string }) => n.title)).toEqual([
      "2026年中国大学生计算机设计大赛浙江省级赛报名通知",
    ]);

    const publish = await root.req("PATCH", `${NEWS}/${draft.body.data.id}`, { status: "published" });
    expect(publish.body.data.status).toBe("published");
    expect((await anon.get(`${PUB}/${draft.body.data.id}`)).body.data.title).toBe("草稿新闻");
    const unpublish = await root.req("PATCH", `${NEWS}/${draft.body.data.id}`, { status: "draft" });
    expect(unpublish.body.data.publishAt).toBeNull();
    expect((await anon.get(`${PUB}/${draft.body.data.id}`)).status).toBe(404);

    const drafts = await root.get(`${NEWS}?status=draft&platform=true`);
    expect(drafts.body.data.list.map((n: { title: string }) => n.title)).toContain("草稿新闻");
    expect(
      drafts.body.data.list.every((n: { status: string; body?: string }) => n.status === "draft" && n.body === undefined),
    ).toBe(true);
  });

  it("validates the cover: an http(s) address or a raster image of at most 500 KB", async () => {
    const big = await root.post(NEWS, { title: "大封面", body: "<p>正文</p>", cover: png(510 * 1024) });
    expect(big.status).toBe(422);
    expect(big.body.data.field).toBe("cover");
    expect(big.body.info).toContain("不能超过 500 KB");
    const svg = await root.post(NEWS, {
      title: "SVG 封面",
      body: "<p>正文</p>",
      cover: "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
    });
    expect(svg.status).toBe(422);
    const js = await root.post(NEWS, { title: "脚本封面", body: "<p>正文</p>", cover: "javascript:alert(1)" });
    expect(js.body).toMatchObject({ error: 422, data: { field: "cover" } });
    expect(
      await t.db.selectFrom("news").select("id").where("title", "in", ["大封面", "SVG 封面", "脚本封面"]).executeTakeFirst(),
    ).toBeUndefined();
    const ok = await root.post(NEWS, { title: "网络封面", body: "<p>正文</p>", cover: "https://img.example.cn/cover.jpg" });
    expect(ok.body.data.cover).toBe("https://img.example.cn/cover.jpg");
  });

  it("limits a contest admin to news of the own contests", async () => {
    const platform = await cadmin.post(NEWS, { title: "全国新闻", body: "<p>越权</p>" });
    expect(platform.status).toBe(403);
    const jiangsu = await cadmin.post(NEWS, { title: "江苏新闻", body: "<p>越权</p>", contestId: js });
    expect(jiangsu.status).toBe(403);
    const jsNews = (await t.db.selectFrom("news").select("id").where("contest_id", "=", js).executeTakeFirstOrThrow()).id;
    expect((await cadmin.get(`${NEWS}/${jsNews}`)).status).toBe(404);
    expect((await cadmin.req("PATCH", `${NEWS}/${jsNews}`, { status: "draft" })).status).toBe(404);
    const own = await cadmin.post(NEWS, {
      title: "浙江省级赛评审安排",
      body: "<p>网评于 5 月进行。</p>",
      contestId: zj,
      status: "published",
    });
    expect(own.status).toBe(201);
    const list = await cadmin.get(`${NEWS}?pageSize=100`);
    expect(new Set(list.body.data.list.map((n: { contestId: number }) => n.contestId))).toEqual(new Set([zj]));
    expect(list.body.data.total).toBe(2);
    const toNational = await root.post(NEWS, { title: "国赛新闻", body: "<p>国赛</p>", contestId: national });
    expect(toNational.body.data.contestName).toContain("中国大学生计算机设计大赛");
    expect((await root.post(NEWS, { title: "不存在的赛事", body: "<p>x</p>", contestId: 999999 })).body).toMatchObject({
      error: 422,
      data: { field: "contestId" },
    });
  });

  it("records every change in the change log, readable by root only", async () => {
    const created = await root.post(N, { section: "work_info_edit", title: "作品信息说明", content: "<p>第一版</p>" });
    const id = created.body.data.id;
    await root.req("PATCH", `${N}/${id}`, { title: "作品信息填写说明", content: "<p>第二版</p>" });
    // Saving the same text again changes nothing and logs nothing.
    await root.req("PATCH", `${N}/${id}`, { title: "作品信息填写说明" });
    const log = await root.get(`/Backend/Admin/audit?entity=notice&entityId=${id}`);
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBe(2);
    const [update, create] = log.body.data.list;
    expect(update).toMatchObject({
      action: "update",
      entity: "notice",
      entityId: String(id),
      userName: "系统管理员",
      username: "root",
    });
    expect(update.changes.title).toEqual(["作品信息说明", "作品信息填写说明"]);
    expect(update.changes.content).toEqual(["<p>第一版</p>", "<p>第二版</p>"]);
    expect(create.action).toBe("create");
    expect(create.changes.section).toEqual([null, "work_info_edit"]);
    await root.del(`${N}/${id}`);
    expect((await root.get(`/Backend/Admin/audit?entity=notice&entityId=${id}&pageSize=1`)).body.data.list[0].action).toBe(
      "delete",
    );

    const cadminId = (
      await t.db.selectFrom("app_user").select("id").where("username", "=", "contest_admin").executeTakeFirstOrThrow()
    ).id;
    const byCadmin = await root.get(`/Backend/Admin/audit?userId=${cadminId}&entity=news`);
    expect(byCadmin.body.data.list.map((a: { changes: { title: [null, string] } }) => a.changes.title[1])).toEqual([
      "浙江省级赛评审安排",
    ]);
    expect((await cadmin.get("/Backend/Admin/audit")).status).toBe(403);
  });
});
