/**
 * Demo data for judging in the Zhejiang provincial contest: four more judges of different
 * schools (one from industry) beside the demo judge 李评审 (浙江大学), all members of the
 * contest, and one judge group — 软件应用与开发组, led by the demo judge — with the five of
 * them, and the contest's judging settings (3 reviews per work). Works reach the group once
 * they pass format review: the demo accounts take a work there through the screens, and
 * `npm run seed -- --works N` generates works in every state of format review. Password
 * Demo@2026.
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import { demoUserRow, insertDemoGroup } from "./demo-helpers";

export const DEMO_JUDGES = [
  { username: "judge2", name: "陈评审", school: "浙江工业大学" },
  { username: "judge3", name: "刘评审", school: "杭州电子科技大学" },
  { username: "judge4", name: "张评审", school: "宁波大学" },
  { username: "judge5", name: "何评审", school: null },
];

export async function seedJudgingDemo(trx: Transaction<DB>, year: number, password_hash: string, now: string) {
  const zj = await trx
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "provincial")
    .where("province", "=", "浙江省")
    .where("year", "=", year)
    .executeTakeFirstOrThrow();
  const schools = new Map((await trx.selectFrom("school").select(["id", "name"]).execute()).map((s) => [s.name, s.id]));
  const judges = await trx
    .insertInto("app_user")
    .values(
      DEMO_JUDGES.map((j) =>
        demoUserRow(
          { username: j.username, name: j.name, type: 4, schoolId: j.school ? schools.get(j.school)! : null },
          password_hash,
          now,
        ),
      ),
    )
    .returning("id")
    .execute();
  await trx
    .insertInto("contest_member")
    .values(judges.map((j) => ({ contest_id: zj.id, user_id: j.id, role: "judge" as const, created_at: now })))
    .execute();
  const id = async (username: string) =>
    (await trx.selectFrom("app_user").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
  const demoJudge = await id("judge");
  const contestAdmin = await id("contest_admin");

  const soft = (
    await trx
      .selectFrom("work_category")
      .select("id")
      .where("name", "=", "软件应用与开发")
      .where("parent_id", "is", null)
      .executeTakeFirstOrThrow()
  ).id;
  const members = [demoJudge, ...judges.map((j) => j.id)];
  await insertDemoGroup(trx, {
    contestId: zj.id,
    name: "软件应用与开发组",
    categoryId: soft,
    leaderId: demoJudge,
    note: "网络评审，每件作品 3 位评委",
    members,
    at: now,
  });
  await trx
    .insertInto("judging_setting")
    .values({
      contest_id: zj.id,
      reviews_per_work: 3,
      judge_capacity: null,
      avoid_province: 0,
      updated_at: now,
      updated_by: contestAdmin,
    })
    .execute();
}
