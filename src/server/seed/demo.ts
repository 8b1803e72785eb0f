/**
 * Demo data for the embedded default: contests, schools, categories, majors, award
 * levels, one account per role (password Demo@2026) and an announcement per role, and
 * demo students and works of 浙江工业大学 (works-demo.ts), and more judges and a judge group
 * in the Zhejiang contest (judging-demo.ts), and works of other Zhejiang schools waiting for
 * format review in the provincial contest (review-demo.ts).
 * Runs once: an existing user table means the data is there.
 */
import type { Transaction } from "kysely";
import type { Db } from "../db/index";
import type { DB } from "../db/schema";
import { ROLE, ROLE_NAMES, type RoleCode } from "../../shared/roles";
import { hashPassword } from "../account/password";
import { seedContestSettings } from "./contest-demo";
import { seedDemoWorks } from "./works-demo";
import { seedJudgingDemo } from "./judging-demo";
import { seedReviewDemo } from "./review-demo";
import { seedDefenceDemo } from "./defence-demo";
import { demoUserRow } from "./demo-helpers";
import { attachmentsOf, AWARD_LEVELS, CATEGORIES, DEMO_SCHOOLS, MAJORS, SCORING } from "./reference";
import { seedMainpageDemo } from "./mainpage-demo";

type Trx = Transaction<DB>;

export const DEMO_PASSWORD = "Demo@2026";

export const DEMO_ACCOUNTS: {
  username: string;
  name: string;
  role: RoleCode;
  complaintRight?: boolean;
  schoolContestJudge?: boolean;
  school?: string;
}[] = [
  { username: "root", name: "系统管理员", role: ROLE.root },
  { username: "contest_admin", name: "赵赛务", role: ROLE.contestAdmin },
  { username: "national_admin", name: "陈国赛", role: ROLE.contestAdmin },
  { username: "school_admin", name: "钱校管", role: ROLE.schoolAdmin, school: "浙江工业大学" },
  { username: "reviewer", name: "孙审核", role: ROLE.contestReviewer },
  { username: "judge", name: "李评审", role: ROLE.judge, school: "浙江大学" },
  { username: "complaint_reviewer", name: "周申审", role: ROLE.complaintReviewer, complaintRight: true },
  { username: "complaint_admin", name: "吴申管", role: ROLE.complaintAdmin, complaintRight: true },
  { username: "arbitrator", name: "郑仲裁", role: ROLE.arbitrator },
  { username: "teacher", name: "王老师", role: ROLE.teacher, schoolContestJudge: true, school: "浙江工业大学" },
  { username: "student", name: "冯同学", role: ROLE.author, school: "浙江工业大学" },
];

/** Inserts reference data (categories, majors, award levels) if missing. */
export async function seedReference(db: Db) {
  if (!(await db.selectFrom("major").select("code").limit(1).executeTakeFirst())) {
    await db.insertInto("major").values(MAJORS).execute();
  }
  if (!(await db.selectFrom("award_level").select("id").limit(1).executeTakeFirst())) {
    await db
      .insertInto("award_level")
      .values(AWARD_LEVELS.map((a) => ({ ...a, max_count: null })))
      .execute();
  }
  if (!(await db.selectFrom("work_category").select("id").limit(1).executeTakeFirst())) {
    for (const [i, c] of CATEGORIES.entries()) {
      // 小类 carry a copy of the rules of their 大类.
      const rules = {
        min_authors: 2,
        max_authors: 5,
        max_teachers: 2,
        has_professional_group: c.professional ? 1 : 0,
        professional_majors: JSON.stringify(c.professional ?? []),
        required_attachments: JSON.stringify(attachmentsOf(c.name)),
        deductions: JSON.stringify(SCORING[c.name]?.deductions ?? []),
      };
      const parent = await db
        .insertInto("work_category")
        .values({ parent_id: null, name: c.name, sort: i + 1, ...rules })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("work_category")
        .values(c.children.map((name, j) => ({ parent_id: parent.id, name, sort: j + 1, ...rules })))
        .execute();
    }
  }
  if (!(await db.selectFrom("rubric_item").select("id").limit(1).executeTakeFirst())) {
    // The scoring standard of each 大类 (also for databases seeded before rubrics existed).
    const tops = await db.selectFrom("work_category").select(["id", "name"]).where("parent_id", "is", null).execute();
    for (const top of tops) {
      const scoring = SCORING[top.name];
      if (!scoring) continue;
      await db
        .insertInto("rubric_item")
        .values(
          scoring.rubric.map((r, k) => ({
            category_id: top.id,
            name: r.name,
            max_points: r.maxPoints,
            description: r.description,
            sort: k + 1,
          })),
        )
        .execute();
      const rules = {
        deductions: JSON.stringify(scoring.deductions),
        required_attachments: JSON.stringify(attachmentsOf(top.name)),
      };
      await db
        .updateTable("work_category")
        .set(rules)
        .where((eb) => eb.or([eb("id", "=", top.id), eb("parent_id", "=", top.id)]))
        .execute();
    }
  }
}

export async function hasUsers(db: Db) {
  return !!(await db.selectFrom("app_user").select("id").limit(1).executeTakeFirst());
}

/**
 * reviewWorks: the works waiting for format review (review-demo.ts). The API tests seed
 * without them: their expectations name the works of the small demo one by one.
 * defence: the 大数据应用组 with its defence session and last year's works (defence-demo.ts);
 * also left out of the API tests, for the same reason.
 */
export async function seedDemo(
  db: Db,
  year = new Date().getFullYear(),
  opts: { reviewWorks?: boolean; defence?: boolean } = {},
): Promise<boolean> {
  if (await hasUsers(db)) return false;
  await seedReference(db);
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    const schools = await insertDemoSchools(trx, now);
    const { national, zj } = await insertDemoContests(trx, year, now, schools);
    await seedContestSettings(trx, year);
    const { password_hash, ids } = await insertDemoAccounts(trx, now, schools, national, zj);

    await seedDemoWorks(trx, year, password_hash, now);
    await seedJudgingDemo(trx, year, password_hash, now);
    if (opts.reviewWorks !== false) await seedReviewDemo(trx, year, password_hash, now);
    if (opts.defence !== false) await seedDefenceDemo(trx, year, password_hash, now);

    await insertDemoNoticesAndNews(trx, year, now, ids);
    await seedMainpageDemo(trx, ids.get("root")!, now);
  });
  return true;
}

/** The demo schools (DEMO_SCHOOLS), by name → id. */
async function insertDemoSchools(trx: Trx, now: string) {
  const schools = new Map<string, number>();
  for (const s of DEMO_SCHOOLS) {
    const row = await trx
      .insertInto("school")
      .values({
        name: s.name,
        code: s.code,
        province: s.province,
        former_names: JSON.stringify(s.former ?? []),
        contact: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    schools.set(s.name, row.id);
  }
  return schools;
}

/** This year's national contest, the Zhejiang and Jiangsu provincial contests and 浙江工业大学's school contest. */
async function insertDemoContests(trx: Trx, year: number, now: string, schools: Map<string, number>) {
  const national = await trx
    .insertInto("contest")
    .values({
      name: `${year}年（第${year - 2007}届）中国大学生计算机设计大赛`,
      level: "national",
      year,
      parent_id: null,
      province: null,
      school_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const province of ["浙江省", "江苏省"]) {
    await trx
      .insertInto("contest")
      .values({
        name: `${year}年中国大学生计算机设计大赛${province.replace("省", "")}省级赛`,
        level: "provincial",
        year,
        parent_id: national.id,
        province,
        school_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const zj = await trx
    .selectFrom("contest")
    .select("id")
    .where("province", "=", "浙江省")
    .where("level", "=", "provincial")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("contest")
    .values({
      name: `${year}年浙江工业大学计算机设计大赛校级赛`,
      level: "school",
      year,
      parent_id: zj.id,
      province: "浙江省",
      school_id: schools.get("浙江工业大学")!,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { national, zj };
}

/** One account per role (DEMO_ACCOUNTS), and the demo contest admin, reviewer and judge as members of their contests. */
async function insertDemoAccounts(
  trx: Trx,
  now: string,
  schools: Map<string, number>,
  national: { id: number },
  zj: { id: number },
) {
  const password_hash = await hashPassword(DEMO_PASSWORD);
  await trx
    .insertInto("app_user")
    .values(
      DEMO_ACCOUNTS.map((a) =>
        demoUserRow(
          {
            username: a.username,
            name: a.name,
            type: a.role,
            schoolId: a.school ? schools.get(a.school)! : null,
            complaintRight: a.complaintRight,
            schoolContestJudge: a.schoolContestJudge,
          },
          password_hash,
          now,
        ),
      ),
    )
    .execute();

  // The demo contest admin runs the Zhejiang provincial contest, with the demo reviewer and judge.
  const ids = new Map((await trx.selectFrom("app_user").select(["id", "username"]).execute()).map((u) => [u.username, u.id]));
  await trx
    .insertInto("contest_member")
    .values([
      { contest_id: zj.id, user_id: ids.get("contest_admin")!, role: "admin", created_at: now },
      { contest_id: zj.id, user_id: ids.get("reviewer")!, role: "reviewer", created_at: now },
      { contest_id: zj.id, user_id: ids.get("judge")!, role: "judge", created_at: now },
      // The national contest's admin: the Zhejiang result's promoted works come in there (issue 14).
      { contest_id: national.id, user_id: ids.get("national_admin")!, role: "admin", created_at: now },
    ])
    .execute();
  return { password_hash, ids };
}

/** An announcement per role and published news: one national item and one per provincial contest. */
async function insertDemoNoticesAndNews(trx: Trx, year: number, now: string, ids: Map<string, number>) {
  await trx
    .insertInto("notice")
    .values(
      (Object.keys(ROLE_NAMES) as unknown as RoleCode[]).map((code) => ({
        contest_id: null,
        section: `role_${code}`,
        title: `致${ROLE_NAMES[code]}的公告`,
        content: `欢迎使用赛务平台。${year} 年大赛已开始，请${ROLE_NAMES[code]}留意各阶段的时间安排。`,
        updated_at: now,
        updated_by: null,
      })),
    )
    .execute();

  // Published news: one national item and one per provincial contest.
  const provincials = await trx
    .selectFrom("contest")
    .select(["id", "name", "province"])
    .where("level", "=", "provincial")
    .orderBy("id")
    .execute();
  await trx
    .insertInto("news")
    .values([
      {
        contest_id: null,
        title: `${year}年（第${year - 2007}届）中国大学生计算机设计大赛正式启动`,
        body: `<p>${year}年（第${year - 2007}届）中国大学生计算机设计大赛已正式启动。大赛分校级赛、省级赛和国赛三级进行，共设 11 个大类。</p><p>请各参赛学校<strong>按时完成校级赛和作品报名</strong>，并留意各省级赛的时间安排。作品须为 ${year - 1} 年 7 月 1 日至 ${year} 年 6 月 30 日期间完成的原创作品。</p>`,
        cover: null,
        status: "published" as const,
        publish_at: now,
        created_by: ids.get("root")!,
        created_at: now,
        updated_at: now,
      },
      ...provincials.map((c) => ({
        contest_id: c.id,
        title: `${c.name}报名通知`,
        body: `<p>${c.name}现已开放报名。${c.province ?? ""}各参赛学校请在校级赛结束后，于报名截止前完成作品推荐和报名材料提交。</p><ul><li>每件作品作者 2–5 人，指导教师不超过 2 人；</li><li>每位作者在同一大类中只能参加一件作品。</li></ul>`,
        cover: null,
        status: "published" as const,
        publish_at: now,
        created_by: ids.get("root")!,
        created_at: now,
        updated_at: now,
      })),
    ])
    .execute();
}
