/**
 * A judge's first save and an admin removing that very assignment at the same moment
 * (PostgreSQL): the save locks its assignment, then the contest (score log); removing
 * an assignment must take its locks in the same order, so the two queue up — the removal
 * waits and is then refused because the assignment is scored — instead of PostgreSQL
 * aborting one of them as a deadlock (a 500 for whoever lost).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApp, type TestApp } from "../helpers/app";
import { applyAssignments } from "../../src/server/judging/service/apply";

describe.skipIf(!process.env.TEST_DATABASE_URL)("assignment removal against a concurrent first save (postgres)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp("postgres");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("queues behind the save and refuses to remove the now scored assignment, with no deadlock", async () => {
    const work = await t.db.selectFrom("work").select(["id", "contest_id"]).orderBy("id").executeTakeFirstOrThrow();
    const contest = await t.db
      .selectFrom("contest")
      .select(["id", "name", "level", "school_id"])
      .where("id", "=", work.contest_id)
      .executeTakeFirstOrThrow();
    const judge = await t.db.selectFrom("app_user").select("id").where("username", "=", "judge").executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const { id: assignmentId } = await t.db
      .insertInto("judge_assignment")
      .values({ contest_id: contest.id, work_id: work.id, judge_id: judge.id, group_id: null, created_at: now, created_by: null })
      .returning("id")
      .executeTakeFirstOrThrow();

    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const assignmentLocked = new Promise<void>((r) => (locked = r));

    // The save: assignment first, then (after the removal has started) the contest, then its score.
    const save = t.db.transaction().execute(async (trx) => {
      await sql`select id from judge_assignment where id = ${assignmentId} for update`.execute(trx);
      locked();
      await gate;
      await sql`select id from contest where id = ${contest.id} for no key update`.execute(trx);
      await trx
        .insertInto("judge_score")
        .values({
          assignment_id: assignmentId,
          contest_id: contest.id,
          work_id: work.id,
          judge_id: judge.id,
          items: "{}",
          deductions: "{}",
          total: 0,
          comment: "",
          status: "draft",
          submitted_at: null,
          updated_at: now,
          version: 1,
          created_at: now,
        })
        .execute();
      order.push("save");
    });
    await assignmentLocked;
    const removal = t.db
      .transaction()
      .execute((trx) => applyAssignments(trx, { contest, userId: judge.id, add: [], remove: [assignmentId] }))
      .then(
        () => order.push("removed"),
        (err: Error) => order.push(`refused: ${err.message}`),
      );
    // Give the removal time to reach its locks (the old order took the contest here and deadlocked).
    await new Promise((r) => setTimeout(r, 300));
    release();
    await Promise.all([save, removal]);

    expect(order[0]).toBe("save");
    expect(order[1]).toMatch(/^refused: 不能移除分配：评委「.+」已为作品 \d+「.+」评分（草稿）/);
    expect(await t.db.selectFrom("judge_assignment").select("id").where("id", "=", assignmentId).executeTakeFirst()).toEqual({
      id: assignmentId,
    });
  });
});
