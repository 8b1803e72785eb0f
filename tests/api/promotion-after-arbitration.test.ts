/**
 * Issue 29: a work raised by arbitration to the award every promoted work of its 大类 holds is
 * promoted to the national round (within the quota, before the national registration ends),
 * through the results.changed event and the national module; when it finds no place, the
 * provincial contest's admin gets a to-do item saying what to decide. On the demo's published
 * Zhejiang result (promoted into the national contest).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import type { TodoItem } from "../../src/shared/todo/schema";
import { contestId, login } from "./works-fixtures";
import { authorOf, F, M } from "./complaints-fixtures";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { emit, transaction } from "../../src/server/events";

describe.each(DIALECTS)("promotion after arbitration on %s", (dialect) => {
  let t: TestApp;
  let zj: number, national: number;
  let root: Client, reviewer: Client, cadmin: Client, arbitrator: Client, contestAdmin: Client;
  let threshold: number;
  let candidates: number[];

  beforeAll(async () => {
    t = await makeApp(dialect);
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
    zj = await contestId(t, "2026-ZJ");
    national = (await t.db.selectFrom("contest").select("parent_id").where("id", "=", zj).executeTakeFirstOrThrow()).parent_id!;
    // The national registration still open (none set: open).
    await t.db.deleteFrom("contest_stage").where("contest_id", "=", national).where("stage", "=", "registration").execute();
    [root, reviewer, cadmin, arbitrator, contestAdmin] = await Promise.all(
      ["root", "complaint_reviewer", "complaint_admin", "arbitrator", "contest_admin"].map((u) => login(t, u)),
    );
    const rows = await t.db
      .selectFrom("contest_result as r")
      .innerJoin("work as w", "w.id", "r.work_id")
      .leftJoin("award_level as a", "a.id", "r.award_level_id")
      .select(["r.work_id", "r.promoted", "r.award_level_id", "a.sort", "w.category_id"])
      .where("r.contest_id", "=", zj)
      .execute();
    const promoted = rows.filter((r) => Number(r.promoted));
    expect(promoted.length).toBeGreaterThan(0);
    // The 大类 with the most promoted works, and the lowest award they hold.
    const cat = [...new Set(promoted.map((r) => r.category_id))].sort(
      (a, b) => promoted.filter((r) => r.category_id === b).length - promoted.filter((r) => r.category_id === a).length,
    )[0];
    const lowest = promoted.filter((r) => r.category_id === cat).sort((a, b) => Number(b.sort) - Number(a.sort))[0];
    threshold = lowest.award_level_id!;
    const open = (await t.db.selectFrom("complaint").select("work_id").execute()).map((c) => Number(c.work_id));
    candidates = rows
      .filter(
        (r) =>
          r.category_id === cat &&
          !Number(r.promoted) &&
          (r.sort === null || Number(r.sort) > Number(lowest.sort)) &&
          !open.includes(Number(r.work_id)),
      )
      .map((r) => Number(r.work_id));
    expect(candidates.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => t?.close());

  /** The first author appeals, it is rejected, the author asks for arbitration, the arbitrator raises the award, root confirms. */
  async function raiseByArbitration(workId: number, awardLevelId: number) {
    const author = await authorOf(t, workId);
    const filed = await author.client.post(`${F}/mine`, {
      type: "appeal",
      workId,
      category: "award",
      text: "<p>作品的获奖等级与成绩不符，申请复核奖项。</p>",
    });
    expect(filed.body.error, filed.body.info).toBe(0);
    const id = filed.body.data.id as number;
    const step = async (c: Client, path: string, body: object) => {
      const r = await c.post(path, body);
      expect(r.body.error, r.body.info).toBe(0);
      return r.body;
    };
    await step(cadmin, `${M}/complaints/${id}/accept`, {});
    await step(reviewer, `${M}/complaints/${id}/opinion`, {
      outcome: "rejected",
      action: "no_change",
      text: "<p>评分正常，建议维持原奖项</p>",
    });
    await step(cadmin, `${M}/complaints/${id}/decision`, {
      outcome: "rejected",
      action: "no_change",
      text: "<p>经核查，维持原奖项不变</p>",
    });
    await step(author.client, `${F}/mine/${id}/arbitration`, { reason: "<p>我们不服该决定，申请仲裁</p>" });
    await step(arbitrator, `/Backend/Arbitrate/complaints/${id}/decision`, {
      outcome: "revise",
      revisedOutcome: "upheld",
      revisedAction: "change_award",
      awardLevelId,
      text: "<p>经仲裁复核，奖项应予调整</p>",
    });
    return step(root, `/Backend/ArbitrateManagement/complaints/${id}/confirm`, {});
  }

  const promotedOf = async (workId: number) =>
    Number(
      (
        await t.db
          .selectFrom("contest_result")
          .select("promoted")
          .where("contest_id", "=", zj)
          .where("work_id", "=", workId)
          .executeTakeFirstOrThrow()
      ).promoted,
    );
  const entryOf = (workId: number) =>
    t.db
      .selectFrom("national_entry")
      .select(["status", "contest_id"])
      .where("work_id", "=", workId)
      .where("from_contest_id", "=", zj)
      .executeTakeFirst();

  it("within the quota: promoted and entered in the national contest in the confirming transaction", async () => {
    await t.db.updateTable("contest").set({ recommend_quota: null, category_quotas: "{}" }).where("id", "=", zj).execute();
    const [w] = candidates;
    const confirmed = await raiseByArbitration(w, threshold);
    expect(confirmed.data.state).toBe("closed");
    expect(await promotedOf(w)).toBe(1);
    expect(await entryOf(w)).toMatchObject({ status: "entered", contest_id: national });
    // Promoted: nothing left to decide.
    const items = ((await contestAdmin.get("/Backend/UserCenter/todo")).body.data.items as TodoItem[]).filter(
      (i) => i.kind === "promotion",
    );
    expect(items.find((i) => i.key.includes(`:${w}:`))).toBeUndefined();
  });

  it("quota used up: not promoted, and the contest admin is told what to decide", async () => {
    const used = await t.db
      .selectFrom("contest_result")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("contest_id", "=", zj)
      .where("promoted", "=", 1)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("contest")
      .set({ recommend_quota: Number(used.n) })
      .where("id", "=", zj)
      .execute();
    const w = candidates[1];
    await raiseByArbitration(w, threshold);
    expect(await promotedOf(w)).toBe(0);
    expect(await entryOf(w)).toBeUndefined();
    const items = ((await contestAdmin.get("/Backend/UserCenter/todo")).body.data.items as TodoItem[]).filter(
      (i) => i.kind === "promotion",
    );
    const item = items.find((i) => i.key === `promotion:${zj}:${w}:candidate`);
    expect(item).toMatchObject({ link: "/ContestAdmin/ContestResult" });
    expect(item!.title).toContain("尚未晋级国赛");
    expect(item!.detail).toContain(`晋级名额已用完（共 ${Number(used.n)} 个）`);
    // national_admin (another contest's admin) is not asked.
    const nat = await login(t, "national_admin");
    const natItems = (await nat.get("/Backend/UserCenter/todo")).body.data.items as TodoItem[];
    expect(natItems.filter((i) => i.kind === "promotion")).toEqual([]);
  });
  const DONE = "/Backend/UserCenter/todo/promotion/done";
  const promotionTodo = async (c: Client) =>
    ((await c.get("/Backend/UserCenter/todo")).body.data.items as TodoItem[]).filter((i) => i.kind === "promotion");
  /** A published result change of one work, as a complaint's decision makes it (results.changed with the work). */
  const changeAward = (workId: number, awardLevelId: number | null) =>
    transaction(t.db, async (trx) => {
      await trx
        .updateTable("contest_result")
        .set({ award_level_id: awardLevelId, updated_at: new Date().toISOString() })
        .where("contest_id", "=", zj)
        .where("work_id", "=", workId)
        .execute();
      await emit(trx, "results.changed", { contestId: zj, userId: null, workIds: [workId] });
    });

  it("已处理: the contest admin dismisses the item, recorded with who and when; it comes back only when the eligibility changes again", async () => {
    const w = candidates[1];
    const key = `promotion:${zj}:${w}:candidate`;
    expect((await promotionTodo(contestAdmin)).map((i) => i.key)).toContain(key);
    // Refused with nothing written: another contest's admin, a student, a malformed key.
    const nat = await login(t, "national_admin");
    const other = await nat.post(DONE, { key });
    expect([other.status, other.body.info]).toEqual([403, "您不是该比赛的管理员，不能处理此待办事项"]);
    const student = await (await authorOf(t, w)).client.post(DONE, { key });
    expect(student.status).toBe(403);
    const bad = await contestAdmin.post(DONE, { key: "promotion:x" });
    expect([bad.status, bad.body.info]).toEqual([422, "待办事项（key）格式不正确"]);
    const unknown = await contestAdmin.post(DONE, { key: `promotion:${zj}:${w}:loose` });
    expect([unknown.status, unknown.body.info]).toEqual([
      404,
      "该待办事项已不存在：可能已有人标记为已处理，或作品的晋级情况已变化，请刷新",
    ]);
    expect(await t.db.selectFrom("promotion_todo_done").selectAll().execute()).toEqual([]);

    const before = Date.now();
    const done = await contestAdmin.post(DONE, { key });
    expect([done.status, done.body.error, done.body.info]).toEqual([200, 0, "已标记为已处理"]);
    expect((await promotionTodo(contestAdmin)).map((i) => i.key)).not.toContain(key);
    const admin = await t.db
      .selectFrom("app_user")
      .select("id")
      .where("username", "=", "contest_admin")
      .executeTakeFirstOrThrow();
    const row = await t.db.selectFrom("promotion_todo_done").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ contest_id: zj, work_id: w, kind: "candidate", done_by: admin.id });
    expect(Date.parse(row.done_at)).toBeGreaterThanOrEqual(before - 1000);
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["user_id", "changes"])
      .where("action", "=", "promotion_todo_done")
      .where("entity_id", "=", `${zj}:${w}`)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].user_id).toBe(admin.id);
    expect(audit[0].changes).toContain("已处理");
    // Marked twice: told it is gone.
    expect((await contestAdmin.post(DONE, { key })).status).toBe(404);

    // A change of the result that leaves the eligibility as it was: still hidden.
    await changeAward(w, threshold);
    expect((await promotionTodo(contestAdmin)).map((i) => i.key)).not.toContain(key);
    // No award now: nothing to decide, and the mark is dropped…
    await changeAward(w, null);
    expect((await promotionTodo(contestAdmin)).map((i) => i.key)).not.toContain(key);
    expect(await t.db.selectFrom("promotion_todo_done").selectAll().execute()).toEqual([]);
    // …so the award given back asks again.
    await changeAward(w, threshold);
    expect((await promotionTodo(contestAdmin)).map((i) => i.key)).toContain(key);
  });
});
