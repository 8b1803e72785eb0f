/**
 * Demo data for the national round (issue 14, `npm start`): what the demo national contest needs
 * so its admin (national_admin, 陈国赛) can take the works the published Zhejiang result promoted
 * from format review through groups, judging and publication in the screens — nothing else is
 * hand-made:
 *
 * - four national judges (role 4) from Jiangsu universities — none from Zhejiang, so no
 *   conflict of school or province with the promoted works — members of the national contest,
 *   whose judge-pool records (judge-pool-demo.ts) name 人工智能应用, the 大类 of the works;
 * - the national contest's judging settings: 3 reviews per work, own province avoided;
 * - its 网络评审 stage open now (for 30 days), so judges can score today; its registration
 *   stays as the contest demo set it (open), so the Zhejiang admin can still withdraw a promoted
 *   work that has not entered national judging.
 *
 * Password Demo@2026. Runs once, after seedComplaintsDemo (false when the national contest is
 * missing or its judges exist).
 */
import type { Db } from "../db/index";
import { insertDemoUser } from "./demo-helpers";

export const NATIONAL_DEMO_JUDGES = [
  { username: "national_judge1", name: "周国评", school: "南京大学" },
  { username: "national_judge2", name: "吴国评", school: "东南大学" },
  { username: "national_judge3", name: "郑国评", school: "南京航空航天大学" },
  { username: "national_judge4", name: "王国评", school: "苏州大学" },
];

const DAY = 86_400_000;

export async function seedNationalDemo(db: Db, now = new Date()): Promise<boolean> {
  const national = await db
    .selectFrom("contest")
    .select(["id", "year"])
    .where("level", "=", "national")
    .where("archived", "=", 0)
    .orderBy("year", "desc")
    .executeTakeFirst();
  if (!national) return false;
  if (await db.selectFrom("app_user").select("id").where("username", "=", NATIONAL_DEMO_JUDGES[0].username).executeTakeFirst())
    return false;
  const hash = await db
    .selectFrom("app_user")
    .select("password_hash")
    .where("username", "=", "national_admin")
    .executeTakeFirst();
  if (!hash) return false;
  const at = now.toISOString();
  const admin = (await db.selectFrom("app_user").select("id").where("username", "=", "national_admin").executeTakeFirstOrThrow())
    .id;
  await db.transaction().execute(async (trx) => {
    const schools = new Map((await trx.selectFrom("school").select(["id", "name"]).execute()).map((s) => [s.name, s.id]));
    for (const j of NATIONAL_DEMO_JUDGES) {
      const id = await insertDemoUser(
        trx,
        { username: j.username, name: j.name, type: 4, schoolId: schools.get(j.school) ?? null },
        hash.password_hash,
        at,
      );
      await trx
        .insertInto("contest_member")
        .values({ contest_id: national.id, user_id: id, role: "judge", created_at: at })
        .execute();
    }
    await trx.deleteFrom("judging_setting").where("contest_id", "=", national.id).execute();
    await trx
      .insertInto("judging_setting")
      .values({
        contest_id: national.id,
        reviews_per_work: 3,
        judge_capacity: null,
        avoid_province: 1,
        updated_at: at,
        updated_by: admin,
      })
      .execute();
    const start = new Date(now.getTime() - DAY).toISOString();
    const end = new Date(now.getTime() + 30 * DAY).toISOString();
    const s = await trx
      .selectFrom("contest_stage")
      .select("id")
      .where("contest_id", "=", national.id)
      .where("stage", "=", "online_judging")
      .executeTakeFirst();
    if (s) await trx.updateTable("contest_stage").set({ starts_at: start, ends_at: end }).where("id", "=", s.id).execute();
    else
      await trx
        .insertInto("contest_stage")
        .values({ contest_id: national.id, stage: "online_judging", starts_at: start, ends_at: end })
        .execute();
  });
  return true;
}
