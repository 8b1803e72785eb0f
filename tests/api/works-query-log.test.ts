/**
 * The public lookup (/query-work): id and an author's name, nothing else back, one
 * answer for every miss, rate-limited. The work log: every change with who, when, which
 * fields, old and new; append-only; read by the work's people; all logs by root.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { attachRequired, idOf, login, W } from "./works-fixtures";

const Q = "/Backend/Public/query-work";

describe.each(DIALECTS)("work lookup and log on %s", (dialect) => {
  let t: TestApp;
  let draft: number, submitted: number, returned: number;
  let student: Client, root: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    const works = await t.db.selectFrom("work").select(["id", "status"]).orderBy("id").execute();
    [draft, submitted, returned] = ["draft", "submitted", "returned"].map((s) => works.find((w) => w.status === s)!.id);
    student = await login(t, "student");
    root = await login(t, "root");
  });
  afterAll(async () => t?.close());

  it("finds a work by id and any author's name, and returns only its name, status and award", async () => {
    const anon = new Client(t);
    const r = await anon.post(Q, { workId: submitted, authorName: "林雨桐" });
    expect(r.body).toEqual({
      error: 0,
      info: "查询成功",
      data: { id: submitted, name: "校园能耗数据可视化分析系统", statusName: "已提交", award: null },
    });
    expect((await anon.post(Q, { workId: returned, authorName: " 冯同学 " })).body.data.statusName).toBe("已退回修改");
    const miss = { error: 404, info: "未找到匹配的作品" };
    // A wrong name, a missing id, a draft: the same answer, so nothing can be probed.
    expect((await anon.post(Q, { workId: submitted, authorName: "王老师" })).body).toEqual(miss);
    expect((await anon.post(Q, { workId: 2026999999, authorName: "冯同学" })).body).toEqual(miss);
    expect((await anon.post(Q, { workId: draft, authorName: "冯同学" })).body).toEqual(miss);
    expect((await anon.post(Q, { workId: submitted, authorName: "冯" })).body).toEqual(miss);
    expect((await anon.post(Q, { workId: 123, authorName: "冯同学" })).body).toMatchObject({
      error: 422,
      data: { field: "workId" },
    });
  });

  it("records every change of a work: who, when, which fields, old and new", async () => {
    const log = await student.get(`${W}/${returned}/log`);
    expect(log.body.data.map((e: { action: string; actionName: string }) => [e.action, e.actionName])).toEqual([
      ["create", "创建作品"],
      ["submit", "提交"],
      ["return", "退回修改"],
    ]);
    const ret = log.body.data[2];
    expect(ret.user).toEqual({ id: await idOf(t, "school_admin"), name: "钱校管", username: "school_admin" });
    expect(ret.changes).toEqual([
      { field: "status", fieldName: "状态", old: "submitted", new: "returned" },
      { field: "reason", fieldName: "原因", old: null, new: "作品简介过于简略，请补充主要功能和创新点后重新提交" },
    ]);
    expect(Date.parse(ret.at)).toBeGreaterThan(0);

    await attachRequired(student, returned);
    const earlier = await t.db.selectFrom("work_log").selectAll().orderBy("id").execute();
    const w = (await student.get(`${W}/${returned}`)).body.data;
    const edit = await student.req("PATCH", `${W}/${returned}`, {
      version: w.version,
      summary: "补充后的作品简介：支持诗词讲解、背诵检测和意象图谱。",
      otherNotes: "无",
    });
    expect(edit.status).toBe(200);
    expect((await student.post(`${W}/${returned}/submit`, {})).status).toBe(200);
    const now = (await student.get(`${W}/${returned}/log`)).body.data;
    expect(now.slice(-2).map((e: { action: string }) => e.action)).toEqual(["update", "submit"]);
    expect(now.at(-2).changes).toEqual([
      {
        field: "summary",
        fieldName: "作品简介",
        old: "古诗词学习助手。",
        new: "补充后的作品简介：支持诗词讲解、背诵检测和意象图谱。",
      },
      { field: "otherNotes", fieldName: "其他说明", old: null, new: "无" },
    ]);
    // Append-only: the earlier entries are exactly as they were.
    const after = await t.db.selectFrom("work_log").selectAll().orderBy("id").limit(earlier.length).execute();
    expect(after).toEqual(earlier);
    // Its people read it; a teacher and outsiders do not.
    for (const u of ["student5", "school_admin", "contest_admin", "root"])
      expect([u, (await (await login(t, u)).get(`${W}/${returned}/log`)).status]).toEqual([u, 200]);
    expect((await (await login(t, "teacher")).get(`${W}/${returned}/log`)).status).toBe(403);
    expect((await (await login(t, "student4")).get(`${W}/${returned}/log`)).status).toBe(404);
  });

  it("keeps the log of a deleted draft", async () => {
    const w = (await student.get(`${W}/${draft}`)).body.data;
    const del = await student.del(`${W}/${draft}?version=${w.version}`);
    expect(del.body).toEqual({ error: 0, info: "草稿已删除" });
    expect(await t.db.selectFrom("work").select("id").where("id", "=", draft).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom("work_author").select("id").where("work_id", "=", draft).execute()).toEqual([]);
    const entries = await t.db
      .selectFrom("work_log")
      .select(["action", "changes"])
      .where("work_id", "=", draft)
      .orderBy("id")
      .execute();
    expect(entries.map((e) => e.action)).toEqual(["create", "delete"]);
    expect(JSON.parse(entries[1].changes)).toMatchObject({
      status: ["draft", null],
      name: ["智慧助农：乡村特产直播电商平台", null],
    });
    expect((await student.del(`${W}/${submitted}`)).body.info).toBe("只有草稿可以删除，作品当前状态为「已提交」");
  });

  it("gives root the log of all works, newest first, filtered", async () => {
    const all = await root.get("/Backend/Admin/work-log?pageSize=5");
    const count = Number(
      (
        await t.db
          .selectFrom("work_log")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(all.body.data.total).toBe(count);
    expect(all.body.data.list).toHaveLength(5);
    const ids = all.body.data.list.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const one = await root.get(`/Backend/Admin/work-log?workId=${submitted}&action=submit`);
    expect(one.body.data.list.map((e: { workId: number; action: string }) => [e.workId, e.action])).toEqual([
      [submitted, "submit"],
    ]);
    const byUser = await root.get(`/Backend/Admin/work-log?userId=${await idOf(t, "school_admin")}`);
    expect(byUser.body.data.list.map((e: { action: string }) => e.action)).toEqual(["return"]);
    expect((await (await login(t, "contest_admin")).get("/Backend/Admin/work-log")).status).toBe(403);
  });

  it("limits lookups per visitor", async () => {
    const anon = new Client(t);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await anon.post(Q, { workId: submitted, authorName: "冯同学" })).status);
    expect(statuses).toContain(429);
    const limited = await anon.post(Q, { workId: submitted, authorName: "冯同学" });
    expect(limited.body).toEqual({ error: 429, info: "操作过于频繁，请稍后再试" });
  });
});
