/**
 * Demo data for the duplicate check (/dup-check, the review sheet, /admin/ElasticSearch),
 * written by `npm start` on a new demo database after the other demo parts (kept out of
 * seedDemo, whose works the tests count):
 *
 * - Two of the Zhejiang works waiting for format review get a longer 其他说明.
 * - 「基于知识图谱的课程推荐系统」 is last year's Zhejiang work 「课程知识图谱智能选课平台」
 *   entered again with light edits (一稿多投 across years): the reviewer sees it flagged.
 * - A Jiangsu work this year copies most of 「社区养老服务预约小程序」: the Zhejiang contest
 *   admin sees that match only as its id and year, root sees it in full.
 *
 * Then the whole index is built (every demo work past draft), ignoring the template sentences
 * the generated demo works share.
 */
import type { Db } from "../db/index";
import type { BlobStore } from "../storage";
import { rebuild, saveSettings } from "../dupcheck/index";
import { demoPeople, insertDemoWork } from "./demo-helpers";

const COURSE_NOTES =
  "系统采集学生的历史选课记录与成绩，利用课程知识图谱刻画课程之间的先修关系、知识点覆盖和难度梯度，结合图神经网络学习学生与课程的表示。对于刚入学、没有选课记录的学生，系统根据专业培养方案和兴趣问卷给出初始推荐。推荐结果附带可解释的理由，例如某门课程能够补足学生在数据结构方面的薄弱环节。前端采用响应式设计，支持移动端浏览和一键加入选课清单。我们在三个学院进行了为期一学期的试用，学生对推荐结果的满意度达到百分之八十七，选课退改率明显下降。";
const CARE_NOTES =
  "考虑到老年用户的使用习惯，界面采用大字号、高对比度配色和语音播报，子女也可以绑定家人账号代为下单。后台根据服务站点的人员排班和老人住址，按距离与技能匹配自动派单，并通过短信提醒服务人员按时上门。服务完成后老人可以通过语音进行评价，社区管理者能够查看各类服务的需求分布，合理调配志愿者资源。试点社区三个月内完成了一千二百多次服务预约。";

export async function seedDupcheckDemo(db: Db, store: BlobStore) {
  const now = new Date().toISOString();
  // The demo password, as the other demo accounts have it.
  const { password_hash } = await db
    .selectFrom("app_user")
    .select("password_hash")
    .where("username", "=", "student")
    .executeTakeFirstOrThrow();
  const year = (
    await db
      .selectFrom("contest")
      .select("year")
      .where("code", "like", "%-ZJ")
      .where("archived", "=", 0)
      .orderBy("year", "desc")
      .executeTakeFirstOrThrow()
  ).year;
  const zjPast = await db
    .selectFrom("contest")
    .select("id")
    .where("code", "=", `${year - 1}-ZJ`)
    .executeTakeFirst();
  const js = await db.selectFrom("contest").select("id").where("code", "=", `${year}-JS`).executeTakeFirst();
  const work = (name: string) =>
    db
      .selectFrom("work")
      .select(["id", "summary", "design_idea", "key_points", "category_id", "subcategory_id"])
      .where("name", "=", name)
      .where("year", "=", year)
      .executeTakeFirst();
  const course = await work("基于知识图谱的课程推荐系统");
  const care = await work("社区养老服务预约小程序");
  if (!course || !care) return;
  await db.updateTable("work").set({ other_notes: COURSE_NOTES }).where("id", "=", course.id).execute();
  await db.updateTable("work").set({ other_notes: CARE_NOTES }).where("id", "=", care.id).execute();

  const school = async (name: string) =>
    (await db.selectFrom("school").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
  const person = demoPeople(db, {
    password_hash,
    at: now,
    memberNo: (n) => `2022${String(900 + n).padStart(6, "0")}`,
    major: "080901",
    serialOf: "students",
  });
  const light = (s: string | null) =>
    (s ?? "").replace("学生", "同学").replace("百分之八十七", "百分之八十五").replace("响应式设计", "自适应设计");

  if (zjPast) {
    const zju = await school("浙江大学");
    const authors = [await person("dc_s1a", "钱思远", 100, zju), await person("dc_s1b", "孙雨桐", 100, zju)];
    const id = await insertDemoWork(db, {
      year: year - 1,
      contestId: zjPast.id,
      categoryId: course.category_id,
      subcategoryId: course.subcategory_id,
      name: "课程知识图谱智能选课平台",
      status: "format_passed",
      schoolId: zju,
      authors,
      text: { summary: light(course.summary), design_idea: light(course.design_idea), key_points: course.key_points },
      version: 5,
      at: new Date(`${year - 1}-05-20T10:00:00+08:00`).toISOString(),
    });
    await db
      .updateTable("work")
      .set({ other_notes: light(COURSE_NOTES) })
      .where("id", "=", id)
      .execute();
  }
  if (js) {
    const nju = await school("南京大学");
    const authors = [await person("dc_s2a", "周子涵", 100, nju), await person("dc_s2b", "吴佳琪", 100, nju)];
    const id = await insertDemoWork(db, {
      year,
      contestId: js.id,
      categoryId: care.category_id,
      subcategoryId: care.subcategory_id,
      name: "银龄乐享社区服务平台",
      status: "accepted",
      schoolId: nju,
      authors,
      text: { summary: care.summary, design_idea: "面向社区老人的一站式服务预约平台。" },
      version: 4,
      at: now,
    });
    await db
      .updateTable("work")
      .set({ other_notes: CARE_NOTES.replace("一千二百多次", "八百多次") })
      .where("id", "=", id)
      .execute();
  }
  // The demo's generated works share their category's template sentences (as real entries
  // share the rules' wording): with ~40 works the default rule (≥ 20 works) ignores nothing,
  // so the demo ignores shingles found in 5 works or more — the admin page lists them.
  await saveSettings(db, { ignoreMinWorks: 5 });
  await rebuild(db, store);
}
