/** The works lists: search by id, name, school, category, status and author; sorting; pages; scope. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { account, catId, contestId, login, makeWork, W } from "./works-fixtures";

describe.each(DIALECTS)("works lists on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client;
  let zjuWork: number;
  const A = "/Backend/Admin/work";
  beforeAll(async () => {
    t = await makeApp(dialect);
    cadmin = await login(t, "contest_admin");
    root = await login(t, "root");
    const a = await account(t, "list_a", "浙大甲", { school: "浙江大学" });
    const b = await account(t, "list_b", "浙大乙", { school: "浙江大学" });
    zjuWork = await makeWork(t, a, {
      contest: await contestId(t, "2026-ZJ"),
      category: await catId(t, "物联网应用"),
      coAuthors: [b],
      name: "智慧农业物联网监测系统",
    });
    const j = await account(t, "list_js", "江苏甲", { school: "南京大学" });
    const k = await account(t, "list_js2", "江苏乙", { school: "南京大学" });
    await makeWork(t, j, {
      contest: await contestId(t, "2026-JS"),
      category: await catId(t, "物联网应用"),
      coAuthors: [k],
      name: "江苏的物联网作品",
    });
  });
  afterAll(async () => t?.close());

  const names = (r: { body: { data?: { list: { name: string }[] } } }) => r.body.data!.list.map((w) => w.name);

  it("searches the works in scope by id, name, school, category, status and author", async () => {
    const all = await cadmin.get(`${A}?pageSize=50`);
    expect(all.body.data.total).toBe(4);
    expect(names(all)).not.toContain("江苏的物联网作品");
    expect((await root.get(A)).body.data.total).toBe(5);
    expect(names(await cadmin.get(`${A}?keyword=${zjuWork}`))).toEqual(["智慧农业物联网监测系统"]);
    expect(names(await cadmin.get(`${A}?id=${zjuWork}`))).toEqual(["智慧农业物联网监测系统"]);
    expect(names(await cadmin.get(`${A}?keyword=${encodeURIComponent("物联网")}`))).toEqual(["智慧农业物联网监测系统"]);
    expect(names(await cadmin.get(`${A}?schoolName=${encodeURIComponent("浙江大")}`))).toEqual(["智慧农业物联网监测系统"]);
    expect(names(await cadmin.get(`${A}?categoryId=${await catId(t, "大数据应用")}`))).toEqual(["校园能耗数据可视化分析系统"]);
    expect(names(await cadmin.get(`${A}?status=submitted&status=returned&sort=name`))).toEqual(
      ["基于大模型的古诗词学习助手", "校园能耗数据可视化分析系统"].sort(),
    );
    expect(names(await cadmin.get(`${A}?authorName=${encodeURIComponent("林雨桐")}&sort=id`))).toEqual([
      "智慧助农：乡村特产直播电商平台",
      "校园能耗数据可视化分析系统",
    ]);
    expect(names(await cadmin.get(`${A}?authorName=${encodeURIComponent("%")}`))).toEqual([]);
    expect((await cadmin.get(`${A}?sort=bogus`)).body).toMatchObject({ error: 422, info: "不能按 bogus 排序" });
  });

  it("pages and sorts, newest first by default", async () => {
    const p1 = await cadmin.get(`${A}?pageSize=3&current=1`);
    const p2 = await cadmin.get(`${A}?pageSize=3&current=2`);
    const ids = [...p1.body.data.list, ...p2.body.data.list].map((w: { id: number }) => w.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(p1.body.data.list).toHaveLength(3);
    expect(p2.body.data.list).toHaveLength(1);
    const item = p1.body.data.list[0];
    expect(item).toMatchObject({
      name: "智慧农业物联网监测系统",
      status: "draft",
      statusName: "草稿",
      school: { name: "浙江大学" },
      category: { name: "物联网应用" },
      authorNames: "浙大甲、浙大乙",
      myRank: null,
    });
    const byName = (await cadmin.get(`${A}?sort=-name&pageSize=50`)).body.data.list.map((w: { name: string }) => w.name);
    expect(byName).toEqual([...byName].sort().reverse());
  });

  it("shows a student their works with their place in the team, pending ones included", async () => {
    const s3 = await login(t, "student3");
    const mine = (await s3.get(`${W}/mine`)).body.data.list;
    expect(mine.map((w: { name: string; myRank: number; myConfirmed: boolean }) => [w.name, w.myRank, w.myConfirmed])).toEqual([
      ["校园能耗数据可视化分析系统", 2, true],
      ["智慧助农：乡村特产直播电商平台", 3, false],
    ]);
  });
});
