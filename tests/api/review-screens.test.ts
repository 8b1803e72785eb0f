/**
 * What the review and judging screens rely on beyond the format review and assignment
 * tests: the demo data of `npm start` gives the demo reviewer works waiting for format
 * review (two incomplete, the others with their attachments once the files are seeded),
 * and the automatic assignment can be limited to one judge group's works.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { seedDemo } from "../../src/server/seed/demo";
import { DEMO_REVIEW_WORKS, seedReviewDemoFiles } from "../../src/server/seed/review-demo";
import { LocalBlobStore } from "../../src/server/storage/local";
import { catId, contestId, login } from "./works-fixtures";
import { insertWork, makeJudge } from "./judging-fixtures";

const R = "/Backend/Review";
const A = "/Backend/ContestAdmin/judging";

describe.each(DIALECTS)("the demo's format review on %s", (dialect) => {
  let t: TestApp;
  let reviewer: Client;
  let zj: number;

  beforeAll(async () => {
    t = await makeApp(dialect, { seed: false });
    expect(await seedDemo(t.db, 2026)).toBe(true);
    reviewer = await login(t, "reviewer");
    zj = await contestId(t, "2026-ZJ");
  });
  afterAll(async () => t?.close());

  const demoWorks = async () =>
    (await reviewer.get(`${R}/contest/${zj}/works?status=pending&pageSize=100`)).body.data.list as {
      id: number;
      name: string;
      school: { name: string };
    }[];

  it("gives the demo reviewer the ten works of other Zhejiang schools waiting for review", async () => {
    const c = (await reviewer.get(`${R}/contests`)).body.data;
    expect(c.map((x: { id: number }) => x.id)).toEqual([zj]);
    expect(c[0].pending).toBe(DEMO_REVIEW_WORKS.length);
    const list = await demoWorks();
    expect(list.map((w) => w.name)).toEqual(DEMO_REVIEW_WORKS.map((w) => w.name));
    expect(list.map((w) => w.school.name)).toEqual(DEMO_REVIEW_WORKS.map((w) => w.school));
    // The incomplete one shows on its checklist; the team rules hold for all.
    const lost = list.find((w) => w.name === "校园失物招领平台")!;
    const sheet = (await reviewer.get(`${R}/work/${lost.id}`)).body.data;
    expect(sheet.checklist.find((c: { key: string }) => c.key === "field:summary")).toMatchObject({
      ok: false,
      detail: "未填写",
    });
    expect(sheet.checklist.filter((c: { kind: string; ok: boolean }) => c.kind === "team" && !c.ok)).toEqual([]);
    expect(sheet.history.map((h: { action: string }) => h.action)).toEqual(["accept"]);
  });

  it("adds the attachments once: the complete works get their package, one lacks its video", async () => {
    // The app's own store, so the files can be downloaded.
    const store = new LocalBlobStore(t.config.storage.blobDir);
    await seedReviewDemoFiles(t.db, store);
    await seedReviewDemoFiles(t.db, store);
    const list = await demoWorks();
    const sheetOf = async (name: string) => (await reviewer.get(`${R}/work/${list.find((w) => w.name === name)!.id}`)).body.data;
    const full = await sheetOf("基于知识图谱的课程推荐系统");
    expect(full.files.map((f: { kind: string }) => f.kind)).toEqual(["defense", "source", "docs", "video"]);
    expect(full.checklist.filter((c: { kind: string; ok: boolean }) => c.kind === "attachment" && !c.ok)).toEqual([]);
    const noVideo = await sheetOf("鞋类表面瑕疵智能检测系统");
    expect(noVideo.checklist.find((c: { key: string }) => c.key === "file:video")).toMatchObject({
      ok: false,
      detail: "未上传（必交）",
    });
    expect((await sheetOf("校园失物招领平台")).files).toEqual([]);
    // The reviewer downloads a file: a real PDF.
    const doc = full.files.find((f: { kind: string }) => f.kind === "docs");
    const got = await reviewer.get(`/Backend/Work/work/${full.id}/files/${doc.id}/download`);
    expect(got.status).toBe(200);
    expect(String(got.res.headers["content-type"])).toContain("application/pdf");
    expect(got.res.body.startsWith("%PDF-1.4")).toBe(true);
  });
});

describe.each(DIALECTS)("automatic assignment of one judge group on %s", (dialect) => {
  let t: TestApp;
  let root: Client;
  let js: number, softGroup: number, dataGroup: number, emptyGroup: number;
  const soft: number[] = [];
  const data: number[] = [];

  beforeAll(async () => {
    t = await makeApp(dialect);
    root = await login(t, "root");
    js = await contestId(t, "2026-JS");
    const judges = [
      await makeJudge(t, "og_a", "甲评委", "南京大学", js),
      await makeJudge(t, "og_b", "乙评委", "东南大学", js),
      await makeJudge(t, "og_c", "丙评委", null, js),
      await makeJudge(t, "og_d", "丁评委", "苏州大学", js),
    ];
    for (const school of ["江南大学", "扬州大学", "南京师范大学"])
      soft.push(await insertWork(t, { contest: js, school, category: "软件应用与开发", status: "format_passed" }));
    for (const school of ["江南大学", "扬州大学"])
      data.push(await insertWork(t, { contest: js, school, category: "大数据应用", status: "format_passed" }));
    const group = async (name: string, category: string, userIds: number[]) => {
      const id = (await root.post(`${A}/${js}/groups`, { name, categoryId: await catId(t, category) })).body.data.id as number;
      await root.post(`${A}/group/${id}/judges`, { userIds });
      return id;
    };
    softGroup = await group("软件组", "软件应用与开发", judges.slice(0, 3));
    dataGroup = await group("大数据组", "大数据应用", judges.slice(1));
    emptyGroup = await group("物联网组", "物联网应用", judges.slice(0, 3));
    expect((await root.post(`${A}/${js}/group-works/auto`, {})).body.data.grouped).toBe(5);
  });
  afterAll(async () => t?.close());

  const judgesOf = async (workId: number) =>
    (await t.db.selectFrom("judge_assignment").select("judge_id").where("work_id", "=", workId).execute()).length;

  it("assigns only the group's works and leaves the others as they are", async () => {
    const r = await root.post(`${A}/${js}/assign`, { groupId: softGroup, reviewsPerWork: 3 });
    expect(r.body).toMatchObject({ error: 0, data: { applied: true, complete: true, works: 3, added: 9 } });
    for (const id of soft) expect(await judgesOf(id)).toBe(3);
    for (const id of data) expect(await judgesOf(id)).toBe(0);
    // With works: those of them in the group.
    const again = await root.post(`${A}/${js}/assign`, { groupId: dataGroup, workIds: [data[0], soft[0]] });
    expect(again.body.data).toMatchObject({ applied: true, works: 1, added: 3 });
    expect(await judgesOf(data[1])).toBe(0);
  });

  it("refuses a group without works, and a group of another contest, changing nothing", async () => {
    const before = await t.db
      .selectFrom("judge_assignment")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect((await root.post(`${A}/${js}/assign`, { groupId: emptyGroup })).body).toMatchObject({
      error: 400,
      info: "评审组「物联网组」还没有作品，请先把作品分入该组",
    });
    expect((await root.post(`${A}/${js}/assign`, { groupId: dataGroup, workIds: [soft[1]] })).body).toMatchObject({
      error: 400,
      info: "所选作品都不在评审组「大数据组」中",
    });
    const zj = await contestId(t, "2026-ZJ");
    expect((await root.post(`${A}/${zj}/assign`, { groupId: softGroup })).body).toMatchObject({
      error: 404,
      info: "评审组不存在或不在您的管理范围内",
    });
    const after = await t.db
      .selectFrom("judge_assignment")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
