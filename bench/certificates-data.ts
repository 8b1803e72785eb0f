/**
 * Shared by bench:certificates and bench:verify: a fresh embedded database with the demo
 * data and N certificates issued the real way. Works of Jiangsu schools (2 or 3 new authors
 * each, generated Chinese names; every 40th author has a rare character: 䶮 from Extension A,
 * 𠮷 from Extension B) get awards in the year's Jiangsu provincial contest, a publication is
 * recorded, and syncCertificates (the issuing of every publication) numbers and signs them.
 */
import { hashPassword } from "../src/server/account/password";
import { migrate, openDb, type Db } from "../src/server/db";
import { DEMO_PASSWORD, seedDemo } from "../src/server/seed/demo";
import { insertDemoUser, insertDemoWork } from "../src/server/seed/demo-helpers";
import { personName, rng, workTitle } from "../src/server/seed/generate";
import { syncCertificates } from "../src/server/certificate/issue";
import { YEAR } from "./works-data";

const RARE = ["欧阳䶮", "吉𠮷", "王𠮷䶮", "䶮明", "陈𠮷"];

/** Seeds `url` with `count` certificates (exactly) in the Jiangsu contest; returns the contest id. */
export async function seedCertificates(url: string, count: number): Promise<{ db: Db; contestId: number }> {
  const { db } = openDb(url);
  await migrate(db);
  await seedDemo(db, YEAR);
  const r = rng(11);
  const at = new Date().toISOString();
  const hash = await hashPassword(DEMO_PASSWORD);
  const contest = await db.selectFrom("contest").select(["id"]).where("code", "=", `${YEAR}-JS`).executeTakeFirstOrThrow();
  const schools = (await db.selectFrom("school").select("id").where("province", "=", "江苏省").execute()).map((s) => s.id);
  const categories = await db
    .selectFrom("work_category as c")
    .innerJoin("work_category as s", "s.parent_id", "c.id")
    .select(["c.id", "s.id as sub"])
    .where("c.parent_id", "is", null)
    .execute();
  const awards = (
    await db
      .selectFrom("award_level")
      .select(["id", "sort"])
      .where("contest_level", "=", "provincial")
      .where("kind", "=", "work")
      .orderBy("sort")
      .execute()
  ).map((a) => a.id);
  const root = (await db.selectFrom("app_user").select("id").where("username", "=", "root").executeTakeFirstOrThrow()).id;
  let authors = 0;
  let serial = 0;
  await db.transaction().execute(async (trx) => {
    for (let w = 0; authors < count; w++) {
      const size = Math.min(w % 2 ? 3 : 2, count - authors);
      const school = schools[w % schools.length];
      const cat = categories[w % categories.length];
      const ids: number[] = [];
      for (let k = 0; k < size; k++) {
        serial++;
        const name = serial % 40 === 0 ? RARE[(serial / 40) % RARE.length] : personName(r);
        ids.push(
          await insertDemoUser(
            trx,
            { username: `cb_${serial}`, name, type: 100, schoolId: school, major: "080901", memberNo: `CB${serial}` },
            hash,
            at,
          ),
        );
      }
      authors += size;
      const workId = await insertDemoWork(trx, {
        year: YEAR,
        contestId: contest.id,
        categoryId: cat.id,
        subcategoryId: cat.sub,
        name: workTitle(r),
        status: "format_passed",
        schoolId: school,
        authors: ids,
        text: {},
        version: 3,
        at,
      });
      await trx
        .insertInto("contest_result")
        .values({
          contest_id: contest.id,
          work_id: workId,
          group_id: null,
          raw_mean: null,
          normalised: null,
          spread: null,
          rank: w + 1,
          award_level_id: awards[Math.min(awards.length - 1, Math.floor((w * awards.length) / (count / 2.5)))],
          award_manual: 1,
          updated_at: at,
        })
        .execute();
    }
    await trx
      .insertInto("result_publication")
      .values({
        contest_id: contest.id,
        published_at: at,
        published_by: root,
        model: "manual",
        model_version: 1,
        params: "{}",
        log_head: "0".repeat(64),
        log_seq: 0,
        note: "证书基准测试",
      })
      .execute();
    const out = await syncCertificates(trx, contest.id);
    if (out.issued !== count) throw new Error(`expected ${count} certificates, issued ${out.issued}`);
  });
  return { db, contestId: contest.id };
}
