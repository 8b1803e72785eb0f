import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";

const P = "/Backend/Admin/work-type";
const TREE = "/Backend/Common/work-type/tree";

const rubric = (...points: number[]) =>
  points.map((p, i) => ({ name: `评分项${i + 1}`, maxPoints: p, description: `第 ${i + 1} 项` }));
const attachments = [
  { key: "defense", name: "作品与答辩材料", required: true, maxSizeMB: 200, types: [".PDF", "pptx"] },
  { key: "video", name: "作品演示视频", required: false, maxSizeMB: 500, types: ["mp4"] },
];

describe.each(DIALECTS)("work types on %s", (dialect) => {
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

  const idOf = async (name: string) =>
    (await t.db.selectFrom("work_category").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
  const countOf = async (name: string) =>
    Number(
      (
        await t.db
          .selectFrom("work_category")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("name", "=", name)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("lists the 大类 with their seeded scoring standards, and the 小类 of one 大类 inheriting them", async () => {
    const tops = await root.get(`${P}?parentId=null&pageSize=50`);
    expect(tops.status).toBe(200);
    expect(tops.body.data.total).toBe(11);
    for (const c of tops.body.data.list) {
      expect(c.parentId).toBeNull();
      expect(c.rubric.reduce((s: number, r: { maxPoints: number }) => s + r.maxPoints, 0)).toBe(100);
      expect(c.requiredAttachments.map((a: { name: string }) => a.name)).toEqual([
        "作品与答辩材料",
        "素材与源码",
        "设计与开发文档",
        "作品演示视频",
      ]);
    }
    const software = tops.body.data.list.find((c: { name: string }) => c.name === "软件应用与开发");
    expect(software.rubric.map((r: { name: string; maxPoints: number }) => [r.name, r.maxPoints])).toEqual([
      ["主题与内容", 20],
      ["方案概要", 25],
      ["核心内容", 35],
      ["技术与创新", 20],
    ]);
    expect(software.deductions).toEqual([{ name: "非原创", points: 10 }]);
    expect(software.children.map((c: { name: string }) => c.name)).toContain("Web应用与开发");
    const micro = tops.body.data.list.find((c: { name: string }) => c.name === "微课与AI辅助教学");
    expect(micro.rubric.map((r: { maxPoints: number }) => r.maxPoints)).toEqual([20, 20, 20, 10, 20, 10]);

    const subs = await root.get(`${P}?parentId=${software.id}&sort=-sort`);
    expect(subs.body.data.total).toBe(6);
    expect(subs.body.data.list[0].name).toBe("区块链");
    const web = subs.body.data.list.find((c: { name: string }) => c.name === "Web应用与开发");
    expect(web).toMatchObject({
      parentId: software.id,
      parentName: "软件应用与开发",
      minAuthors: 2,
      maxAuthors: 5,
      maxTeachers: 2,
      children: [],
    });
    expect(web.rubric).toEqual(software.rubric);
    const kw = await root.get(`${P}?keyword=${encodeURIComponent("静态")}`);
    expect(kw.body.data.list.map((c: { name: string }) => c.name)).toEqual(["(AI+)数媒静态设计"]);
    expect(kw.body.data.list[0]).toMatchObject({
      hasProfessionalGroup: true,
      professionalMajors: expect.arrayContaining(["080906", "130310"]),
    });
  });

  it("serves the whole tree with rubrics to every logged-in role, not to visitors", async () => {
    const r = await judge.get(TREE);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(11);
    const anim = r.body.data.find((c: { name: string }) => c.name === "(AI+)数媒动漫与短片");
    expect(anim.rubric.map((i: { name: string; maxPoints: number }) => [i.name, i.maxPoints])).toEqual([
      ["主题与内容", 30],
      ["美工与创意", 25],
      ["技术与创新", 30],
      ["作品完整性", 15],
    ]);
    expect(anim.children.map((c: { name: string }) => c.name)).toEqual(["动画", "纪录片", "数字短片", "微电影"]);
    expect((await anon.get(TREE)).status).toBe(401);
    expect((await anon.get(P)).status).toBe(401);
  });

  it("lets a school admin and a judge read but not create, change or delete", async () => {
    const id = await idOf("软件应用与开发");
    expect((await sadmin.get(`${P}/${id}`)).status).toBe(200);
    for (const c of [sadmin, judge]) {
      const r = await c.post(P, { name: "越权大类", rubric: rubric(100) });
      expect(r.status).toBe(403);
      expect((await c.req("PATCH", `${P}/${id}`, { name: "改名" })).status).toBe(403);
      expect((await c.del(`${P}/${id}`)).status).toBe(403);
    }
    expect(await countOf("越权大类")).toBe(0);
    expect((await root.get(`${P}/${id}`)).body.data.name).toBe("软件应用与开发");
  });

  it("refuses a rubric that does not add up to 100, naming the field, and creates nothing", async () => {
    const r = await root.post(P, { name: "区块链应用", rubric: rubric(30, 30, 39), requiredAttachments: attachments });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: 422,
      info: "评分标准各项满分之和须为 100 分，当前为 99 分",
      data: { field: "rubric" },
    });
    const none = await root.post(P, { name: "区块链应用" });
    expect(none.status).toBe(422);
    expect(none.body.data.field).toBe("rubric");
    const dupItem = await root.post(P, {
      name: "区块链应用",
      rubric: [
        { name: "创新", maxPoints: 50 },
        { name: "创新", maxPoints: 50 },
      ],
    });
    expect(dupItem.body).toMatchObject({ error: 422, info: "评分项「创新」重复", data: { field: "rubric" } });
    expect(await countOf("区块链应用")).toBe(0);
  });

  it("checks team sizes, 专业组 majors and names", async () => {
    const minMax = await root.post(P, { name: "新大类", rubric: rubric(100), minAuthors: 4, maxAuthors: 3 });
    expect(minMax.body).toMatchObject({
      error: 422,
      info: "最少作者人数（4）不能大于最多作者人数（3）",
      data: { field: "minAuthors" },
    });
    const six = await root.post(P, { name: "新大类", rubric: rubric(100), maxAuthors: 6 });
    expect(six.status).toBe(422);
    expect(six.body.data.field).toBe("maxAuthors");
    expect(six.body.info).toContain("不能大于 5");
    const teachers = await root.post(P, { name: "新大类", rubric: rubric(100), maxTeachers: 3 });
    expect(teachers.body.data.field).toBe("maxTeachers");
    const major = await root.post(P, {
      name: "新大类",
      rubric: rubric(100),
      hasProfessionalGroup: true,
      professionalMajors: ["080906", "999999"],
    });
    expect(major.body).toMatchObject({
      error: 422,
      info: "专业代码 999999 不存在，请先在专业管理中添加",
      data: { field: "professionalMajors" },
    });
    const empty = await root.post(P, { name: "新大类", rubric: rubric(100), hasProfessionalGroup: true });
    expect(empty.body.data.field).toBe("professionalMajors");
    const noGroup = await root.post(P, { name: "新大类", rubric: rubric(100), professionalMajors: ["080906"] });
    expect(noGroup.body.info).toBe("未设置分普通组和专业组，不能填写专业组专业");
    const dup = await root.post(P, { name: "软件应用与开发", rubric: rubric(100) });
    expect(dup.body).toMatchObject({ error: 422, info: "已有名为「软件应用与开发」的大类", data: { field: "name" } });
    expect(await countOf("新大类")).toBe(0);
  });

  it("creates a 大类 and its 小类; the 小类 inherits the rules and cannot set its own", async () => {
    const c = await root.post(P, {
      name: "数字孪生应用",
      description: "面向工业与城市场景的数字孪生作品",
      minAuthors: 3,
      maxAuthors: 4,
      maxTeachers: 1,
      hasProfessionalGroup: true,
      professionalMajors: ["080906", "080904k"],
      requiredAttachments: attachments,
      rubric: rubric(40, 35, 25),
      deductions: [{ name: "非原创", points: 10 }],
    });
    expect(c.status).toBe(201);
    expect(c.body.info).toBe("作品类别已创建");
    expect(c.body.data).toMatchObject({
      parentId: null,
      name: "数字孪生应用",
      minAuthors: 3,
      maxAuthors: 4,
      maxTeachers: 1,
      professionalMajors: ["080906", "080904K"],
      sort: 12,
    });
    expect(c.body.data.requiredAttachments[0].types).toEqual(["pdf", "pptx"]);
    expect(c.body.data.rubric.map((r: { maxPoints: number }) => r.maxPoints)).toEqual([40, 35, 25]);
    const parent = c.body.data.id;

    const own = await root.post(P, { parentId: parent, name: "工业孪生", rubric: rubric(100) });
    expect(own.body).toMatchObject({ error: 422, data: { field: "rubric" } });
    expect(own.body.info).toContain("小类沿用所属大类");
    const sub = await root.post(P, { parentId: parent, name: "工业孪生" });
    expect(sub.status).toBe(201);
    expect(sub.body.data).toMatchObject({
      parentId: parent,
      parentName: "数字孪生应用",
      minAuthors: 3,
      maxAuthors: 4,
      professionalMajors: ["080906", "080904K"],
    });
    expect(sub.body.data.rubric).toEqual(c.body.data.rubric);
    const nested = await root.post(P, { parentId: sub.body.data.id, name: "三级类别" });
    expect(nested.body).toMatchObject({ error: 422, data: { field: "parentId" } });

    // Changing the 大类's rules reaches its 小类; rubric items given with an id keep it.
    const [a, b] = c.body.data.rubric;
    const u = await root.req("PATCH", `${P}/${parent}`, {
      maxAuthors: 5,
      rubric: [
        { id: a.id, name: "主题与需求", maxPoints: 50 },
        { id: b.id, name: b.name, maxPoints: 30 },
        { name: "答辩表现", maxPoints: 20 },
      ],
    });
    expect(u.status).toBe(200);
    expect(u.body.data.rubric.map((r: { id: number; name: string; maxPoints: number }) => [r.name, r.maxPoints])).toEqual([
      ["主题与需求", 50],
      [b.name, 30],
      ["答辩表现", 20],
    ]);
    expect(u.body.data.rubric[0].id).toBe(a.id);
    const items = await t.db.selectFrom("rubric_item").select(["id"]).where("category_id", "=", parent).execute();
    expect(items).toHaveLength(3);
    const child = await t.db
      .selectFrom("work_category")
      .select(["max_authors", "professional_majors"])
      .where("id", "=", sub.body.data.id)
      .executeTakeFirstOrThrow();
    expect(child.max_authors).toBe(5);
    expect(JSON.parse(child.professional_majors)).toEqual(["080906", "080904K"]);

    const bad = await root.req("PATCH", `${P}/${parent}`, { rubric: [{ id: a.id, name: "主题与需求", maxPoints: 70 }] });
    expect(bad.body).toMatchObject({
      error: 422,
      info: "评分标准各项满分之和须为 100 分，当前为 70 分",
      data: { field: "rubric" },
    });
    expect((await root.get(`${P}/${parent}`)).body.data.rubric).toHaveLength(3);
    const shrink = await root.req("PATCH", `${P}/${parent}`, { minAuthors: 6 });
    expect(shrink.body.data.field).toBe("minAuthors");
    const bigMin = await root.req("PATCH", `${P}/${parent}`, { maxAuthors: 2 });
    expect(bigMin.body).toMatchObject({ error: 422, info: "最少作者人数（3）不能大于最多作者人数（2）" });
    const foreign = (
      await t.db
        .selectFrom("rubric_item")
        .select("id")
        .where("category_id", "=", await idOf("软件应用与开发"))
        .executeTakeFirstOrThrow()
    ).id;
    const steal = await root.req("PATCH", `${P}/${parent}`, { rubric: [{ id: foreign, name: "偷来的", maxPoints: 100 }] });
    expect(steal.body).toMatchObject({ error: 422, data: { field: "rubric" } });
    expect(steal.body.info).toContain("不属于该类别");

    const log = await t.db
      .selectFrom("audit_log")
      .select(["action", "changes"])
      .where("entity", "=", "work_category")
      .where("entity_id", "=", String(parent))
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["create", "update"]);
    expect(JSON.parse(log[1].changes).maxAuthors).toEqual([4, 5]);
  });

  it("archives a 大类 that has 小类 or is open in a contest, and deletes one nothing refers to", async () => {
    const c = await root.post(P, { name: "临时大类", rubric: rubric(60, 40) });
    const id = c.body.data.id;
    const sub = await root.post(P, { parentId: id, name: "临时小类" });
    const d = await root.del(`${P}/${id}`);
    expect(d.body).toMatchObject({ error: 0, info: "作品类别已被引用，已归档", data: { result: "archived" } });
    expect((await root.get(`${P}/${id}`)).body.data.archived).toBe(true);
    expect((await root.get(TREE)).body.data.map((n: { name: string }) => n.name)).not.toContain("临时大类");
    expect((await root.get(`${TREE}?includeArchived=true`)).body.data.map((n: { name: string }) => n.name)).toContain("临时大类");
    expect((await root.get(`${P}?archived=true`)).body.data.list.map((n: { name: string }) => n.name)).toEqual(["临时大类"]);
    const again = await root.del(`${P}/${id}`);
    expect(again.status).toBe(400);
    expect(again.body.info).toBe("作品类别「临时大类」有 1 个小类，不能删除；它已经归档");
    const under = await root.post(P, { parentId: id, name: "归档后新建" });
    expect(under.body).toMatchObject({ error: 422, data: { field: "parentId" } });

    const ds = await root.del(`${P}/${sub.body.data.id}`);
    expect(ds.body.data.result).toBe("deleted");
    expect((await root.get(`${P}/${sub.body.data.id}`)).status).toBe(404);

    const lone = await root.post(P, { name: "无人使用的大类", rubric: rubric(100) });
    const gone = await root.del(`${P}/${lone.body.data.id}`);
    expect(gone.body.data.result).toBe("deleted");
    expect(await t.db.selectFrom("rubric_item").select("id").where("category_id", "=", lone.body.data.id).execute()).toEqual([]);

    // A 大类 that a contest opens is in use.
    const open = await root.post(P, { name: "赛事已开放的大类", rubric: rubric(100) });
    const national = await t.db.selectFrom("contest").select("id").where("level", "=", "national").executeTakeFirstOrThrow();
    await t.db
      .updateTable("contest")
      .set({ categories: JSON.stringify([open.body.data.id]) })
      .where("id", "=", national.id)
      .execute();
    const od = await root.del(`${P}/${open.body.data.id}`);
    expect(od.body.data.result).toBe("archived");
    const log = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "work_category")
      .where("entity_id", "=", String(open.body.data.id))
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["create", "archive"]);
  });

  it("moves a 小类 only between 大类 and restores it only under a live 大类", async () => {
    const soft = await idOf("软件应用与开发");
    const iot = await idOf("物联网应用");
    const web = await idOf("Web应用与开发");
    const top = await root.req("PATCH", `${P}/${web}`, { parentId: null });
    expect(top.body).toMatchObject({ error: 422, info: "小类不能改为大类", data: { field: "parentId" } });
    const demote = await root.req("PATCH", `${P}/${soft}`, { parentId: iot });
    expect(demote.body).toMatchObject({ error: 422, info: "大类不能改为小类" });
    const moved = await root.req("PATCH", `${P}/${web}`, { parentId: iot });
    expect(moved.body.data).toMatchObject({ parentId: iot, parentName: "物联网应用" });
    const back = await root.req("PATCH", `${P}/${web}`, { parentId: soft, name: "Web 应用与开发" });
    expect(back.body.data).toMatchObject({ parentId: soft, name: "Web 应用与开发" });
    const clash = await root.req("PATCH", `${P}/${web}`, { name: "信创" });
    expect(clash.body).toMatchObject({ error: 422, info: "大类「软件应用与开发」下已有小类「信创」", data: { field: "name" } });
  });
});
