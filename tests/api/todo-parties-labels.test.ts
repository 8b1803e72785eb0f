/**
 * Issue 29, the to-do centre and the complaint labels: the authors of a work a complaint is
 * about get an item while it is open (with the handlers' due time), and the parties get their
 * arbitration window (with its deadline); every complaint is named by its kind (投诉 vs 申诉)
 * in the to-do items, the history and the step notices; a contest admin's 待形式审查 opens
 * 作品管理 filtered by status, and national_admin is not given the provincial format reviews.
 * On the demo complaints (seedComplaintsDemo): a visitor's 投诉 (accepted), an author's 申诉
 * (decided, arbitration window open).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import type { TodoItem } from "../../src/shared/todo/schema";
import { contestId, login } from "./works-fixtures";
import { authorOf, F, M } from "./complaints-fixtures";
import { insertWork } from "./judging-fixtures";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";

const TODO = "/Backend/UserCenter/todo";
const items = async (c: Client, kind?: TodoItem["kind"]) => {
  const r = await c.get(TODO);
  expect(r.status).toBe(200);
  return (r.body.data.items as TodoItem[]).filter((i) => !kind || i.kind === kind);
};

describe.each(DIALECTS)("to-do items of complaint parties and complaint labels on %s", (dialect) => {
  let t: TestApp;
  let zj: number;
  let complaint: { id: number; work_id: number; due_at: string | null; version: number };
  let appeal: { id: number; work_id: number; arbitration_due_at: string | null };

  beforeAll(async () => {
    t = await makeApp(dialect);
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
    zj = await contestId(t, "2026-ZJ");
    complaint = await t.db
      .selectFrom("complaint")
      .select(["id", "work_id", "due_at", "version"])
      .where("type", "=", "complaint")
      .where("state", "=", "accepted")
      .executeTakeFirstOrThrow();
    appeal = await t.db
      .selectFrom("complaint")
      .select(["id", "work_id", "arbitration_due_at"])
      .where("type", "=", "appeal")
      .where("state", "=", "decided")
      .executeTakeFirstOrThrow();
  });
  afterAll(async () => t?.close());

  it("the authors of a work under complaint see it, named 投诉, with the handlers' due time", async () => {
    for (const rank of [1, 2]) {
      const a = await authorOf(t, Number(complaint.work_id), rank).catch(() => null);
      if (!a) continue;
      const mine = await items(a.client, "complaintParty");
      const item = mine.find((i) => i.key === `complaintParty:${complaint.id}:accepted`);
      expect(item).toMatchObject({ dueAt: complaint.due_at, link: "/complaint-view/view-complaint" });
      expect(item!.title).toBe(`针对我的作品的投诉 #${complaint.id}：待审核`);
    }
    // Somebody else's author sees nothing of it.
    const other = await authorOf(t, Number(appeal.work_id));
    expect(
      (await items(other.client, "complaintParty")).find((i) => i.key.startsWith(`complaintParty:${complaint.id}:`)),
    ).toBeUndefined();
  });

  it("the arbitration window of a decided 申诉: an item with its deadline, gone once it passed", async () => {
    const a = await authorOf(t, Number(appeal.work_id));
    const item = (await items(a.client, "complaintParty")).find((i) => i.key === `complaintParty:${appeal.id}:decided`);
    expect(item).toMatchObject({ dueAt: appeal.arbitration_due_at });
    expect(item!.title).toBe(`申诉 #${appeal.id}已作出决定：如不服可申请仲裁`);
    await t.db
      .updateTable("complaint")
      .set({ arbitration_due_at: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", appeal.id)
      .execute();
    expect(
      (await items(a.client, "complaintParty")).find((i) => i.key.startsWith(`complaintParty:${appeal.id}:`)),
    ).toBeUndefined();
    await t.db
      .updateTable("complaint")
      .set({ arbitration_due_at: appeal.arbitration_due_at })
      .where("id", "=", appeal.id)
      .execute();
  });

  it("a 投诉 is called 投诉 in the reviewer's to-do, the history and the step notices", async () => {
    const reviewer = await login(t, "complaint_reviewer");
    const todo = (await items(reviewer, "complaint")).find((i) => i.key === `complaint:${complaint.id}:accepted`);
    expect(todo!.title).toBe(`投诉 #${complaint.id}：待审核`);
    // History: the filer is 投诉人 for the handler and for the work's authors.
    const handler = (await reviewer.get(`${M}/complaints/${complaint.id}`)).body.data;
    expect(handler.history[0]).toMatchObject({ actionName: "提交", by: "投诉人" });
    const author = await authorOf(t, Number(complaint.work_id));
    const party = (await author.client.get(`${F}/mine/${complaint.id}`)).body.data;
    expect(party.history[0]).toMatchObject({ actionName: "提交", by: "投诉人" });
    // A refused step and a step's notice name it 投诉.
    const again = await reviewer.post(`${M}/complaints/${complaint.id}/accept`, {});
    expect(again.body.info).toBe("投诉当前状态为「待审核」，不能「受理」；本次未做任何更改");
    const done = await reviewer.post(`${M}/complaints/${complaint.id}/opinion`, {
      outcome: "rejected",
      action: "no_change",
      text: "<p>经核查，投诉不成立。</p>",
    });
    expect(done.body.error, done.body.info).toBe(0);
    expect(done.body.info).toBe("已出具审核意见，投诉当前状态为「待决定」");
    // …and a 申诉 stays 申诉.
    const a = await authorOf(t, Number(appeal.work_id));
    const view = (await a.client.get(`${F}/mine/${appeal.id}`)).body.data;
    expect(view.history[0]).toMatchObject({ actionName: "提交", by: "申诉人" });
  });

  it("format review: the contest admin's item opens 作品管理 filtered by status; national_admin gets the national contest's only", async () => {
    await insertWork(t, { contest: zj, school: "浙江工业大学", category: "软件应用与开发", status: "accepted" });
    const admin = await login(t, "contest_admin");
    const mine = await items(admin, "formatReview");
    expect(mine.find((i) => i.key === `formatReview:${zj}`)).toMatchObject({
      link: `/WorkManagement?contestId=${zj}&status=accepted,format_resubmitted`,
    });
    const national = (await t.db.selectFrom("contest").select("parent_id").where("id", "=", zj).executeTakeFirstOrThrow())
      .parent_id!;
    const nat = await items(await login(t, "national_admin"), "formatReview");
    expect(nat.length).toBeGreaterThan(0);
    expect(nat.map((i) => i.key)).toEqual([`formatReview:${national}`]);
  });
});
