/**
 * Demo data for online judging (`npm start`, and the browser test of online scoring):
 *
 * - Six works of Zhejiang schools (none of the demo judges' schools) in the 软件应用与开发
 *   category of the Zhejiang provincial contest that have passed format review, each with
 *   two authors and a teacher of its school (password Demo@2026) and its log; they are put
 *   in the demo 软件应用与开发组 and assigned, through applyAssignments, to the same three
 *   judges 李评审 (judge), 陈评审 (judge2) and 刘评审 (judge3).
 * - The contest's 网络评审 stage is opened now (it runs alongside registration in the demo),
 *   so the judges can score; 陈评审 has submitted scores for four works and 刘评审 for three
 *   plus a draft, through the scoring service (so the score log holds them); 李评审 has
 *   scored nothing yet, and the last two works have no score at all.
 * - In 浙江工业大学's school contest one more submitted work (not advised by the demo teacher
 *   王老师, a school-contest judge) in a 校赛评审组 with 王老师, assigned to him, and the
 *   school contest's 网络评审 stage opened, for /teacher/SchoolContestJudge/:contestId.
 *
 * Kept apart from seedDemo so the tests that count the demo's works are not affected; runs
 * once (the first demo work's name marks it).
 */
import type { Db } from "../db/index";
import type { User } from "../db/schema";
import { demoPeople, insertDemoGroup, insertDemoWork, type DemoStep } from "./demo-helpers";
import { attachDemoFiles } from "./review-demo";
import { RESULTS_DEMO_WORKS } from "./results-demo";
import type { BlobStore } from "../storage";
import { applyAssignments } from "../judging/service/apply";
import { saveScore } from "../judging/service/score";

interface DemoWork {
  name: string;
  school: string;
  sub: string;
  authors: [string, string];
  teacher: string;
  summary: string;
  design: string;
  keyPoints: string;
}

export const SCORING_DEMO_WORKS: DemoWork[] = [
  {
    name: "瓯江流域水质监测与预警平台",
    school: "温州大学",
    sub: "Web应用与开发",
    authors: ["林浩宇", "陈佳琪"],
    teacher: "郑国强",
    summary: "汇集瓯江沿线监测站的水质数据，实时展示并在指标异常时向管理人员预警。",
    design: "采集—存储—分析—预警四层架构，前端地图展示站点与告警。",
    keyPoints: "难点在于监测数据缺失时的插补与误报控制。",
  },
  {
    name: "纺织车间排产管理系统",
    school: "浙江理工大学",
    sub: "管理信息系统",
    authors: ["王子涵", "吴思雨"],
    teacher: "李建华",
    summary: "为中小纺织企业提供订单、工序与机台的排产管理，减少机台空转。",
    design: "以工序为中心建模，排产采用启发式搜索并支持人工调整。",
    keyPoints: "重点是排产算法在插单情况下的快速重排。",
  },
  {
    name: "计量器具检定预约小程序",
    school: "中国计量大学",
    sub: "移动应用开发",
    authors: ["赵一凡", "孙雨桐"],
    teacher: "周明",
    summary: "企业在线预约计量器具检定，查询检定进度和电子证书。",
    design: "小程序前端，后端按检定站点和项目排队调度。",
    keyPoints: "难点是多站点排队规则的统一与证书防伪。",
  },
  {
    name: "个人财务智能记账助手",
    school: "浙江财经大学",
    sub: "移动应用开发",
    authors: ["钱晓峰", "许诺"],
    teacher: "冯丽",
    summary: "拍照识别小票自动记账，按月生成消费分析与预算建议。",
    design: "端侧文字识别与云端分类模型结合，离线也能记账。",
    keyPoints: "重点是小票识别准确率，难点是消费类别的自动归类。",
  },
  {
    name: "跨境电商选品分析工具",
    school: "浙江工商大学",
    sub: "算法设计与应用",
    authors: ["何俊杰", "朱雅婷"],
    teacher: "杨帆",
    summary: "分析跨境电商平台的商品销量与评价，为中小卖家推荐潜力商品。",
    design: "爬取公开数据后进行趋势建模与评价情感分析。",
    keyPoints: "难点在于不同平台数据口径的统一。",
  },
  {
    name: "中小学编程作业自动评测平台",
    school: "浙江师范大学",
    sub: "Web应用与开发",
    authors: ["高宇航", "罗欣怡"],
    teacher: "谢文",
    summary: "教师布置编程作业，学生在线提交，系统自动评测并给出错误提示。",
    design: "沙箱隔离运行学生代码，按测试用例评分，支持相似代码检测。",
    keyPoints: "重点是评测沙箱的安全隔离，难点是面向初学者的错误提示。",
  },
];

const SCHOOL_WORK: DemoWork = {
  name: "校园二手书流转平台",
  school: "浙江工业大学",
  sub: "Web应用与开发",
  authors: ["潘宇轩", "杜若曦"],
  teacher: "",
  summary: "同学之间发布、预约和交换二手教材，按课程自动匹配需要的书。",
  design: "按课程编号建立教材库，发布与需求自动匹配，线下交接扫码确认。",
  keyPoints: "难点是教材版本的识别与匹配。",
};

/** [judge username, work index, points per item (rubric order), deductions, comment, submit] */
const SCORES: [string, number, number[], string[], string, boolean][] = [
  ["judge2", 0, [17, 21, 30, 16], [], "选题有地方特色，预警规则可再细化。", true],
  ["judge2", 1, [16, 20, 28, 15], [], "排产算法有一定深度，界面可改进。", true],
  ["judge2", 2, [15, 19.5, 26, 14], [], "功能完整，创新点不够突出。", true],
  ["judge2", 3, [18, 22, 31, 17], [], "识别效果好，完成度高。", true],
  ["judge3", 0, [15, 18, 27, 14], [], "数据来源说明不足。", true],
  ["judge3", 1, [14, 17.5, 25, 13], [], "文档较简略。", true],
  ["judge3", 2, [13, 18, 24, 12], ["非原创"], "部分模块来自开源项目，未在说明中注明。", true],
  ["judge3", 3, [16, 20], [], "", false],
];

const DAY = 86_400_000;

/** Opens the contest's 网络评审 stage now (keeping a later end). */
async function openOnlineJudging(db: Db, contestId: number, now: Date) {
  const s = await db
    .selectFrom("contest_stage")
    .select(["id", "starts_at", "ends_at"])
    .where("contest_id", "=", contestId)
    .where("stage", "=", "online_judging")
    .executeTakeFirst();
  const start = new Date(Math.min(s ? Date.parse(s.starts_at) : Infinity, now.getTime() - DAY)).toISOString();
  const end = new Date(Math.max(s ? Date.parse(s.ends_at) : 0, now.getTime() + 60 * DAY)).toISOString();
  if (s) await db.updateTable("contest_stage").set({ starts_at: start, ends_at: end }).where("id", "=", s.id).execute();
  else
    await db
      .insertInto("contest_stage")
      .values({ contest_id: contestId, stage: "online_judging", starts_at: start, ends_at: end })
      .execute();
}

export async function seedScoringDemo(db: Db, now = new Date()): Promise<boolean> {
  if (await db.selectFrom("work").select("id").where("name", "=", SCORING_DEMO_WORKS[0].name).executeTakeFirst()) return false;
  const group = await db
    .selectFrom("judge_group")
    .innerJoin("contest", "contest.id", "judge_group.contest_id")
    .select([
      "judge_group.id",
      "judge_group.category_id",
      "contest.id as contest_id",
      "contest.name",
      "contest.level",
      "contest.school_id",
      "contest.year",
    ])
    .where("judge_group.name", "=", "软件应用与开发组")
    .where("contest.level", "=", "provincial")
    .orderBy("contest.year", "desc")
    .executeTakeFirst();
  if (!group) return false;
  const zj = { id: group.contest_id, name: group.name, level: group.level, school_id: group.school_id };
  const year = group.year;
  const at = now.toISOString();
  const { password_hash } = await db
    .selectFrom("app_user")
    .select("password_hash")
    .where("username", "=", "student")
    .executeTakeFirstOrThrow();
  const users = async (names: string[]) => db.selectFrom("app_user").selectAll().where("username", "in", names).execute();
  const byName = new Map(
    (await users(["judge", "judge2", "judge3", "teacher", "contest_admin", "root"])).map((u) => [u.username, u]),
  );
  if (byName.size < 6) return false;
  const schools = await db.selectFrom("school").select(["id", "name", "code"]).execute();
  const cats = await db.selectFrom("work_category").select(["id", "name", "parent_id"]).execute();
  const soft = group.category_id;
  const sub = (name: string) => cats.find((c) => c.name === name && c.parent_id === soft)!.id;

  const person = demoPeople(db, { password_hash, at, memberNo: (n) => `2024${String(n).padStart(6, "0")}`, major: "080901" });
  const contestAdmin = byName.get("contest_admin")!.id;

  /** A work with two authors (and a teacher unless none is named) in `status`, with its log. */
  const insertWork = async (w: DemoWork, i: number, contestId: number, status: "format_passed" | "submitted") => {
    const school = schools.find((s) => s.name === w.school)!;
    const authors = [
      await person(`sc_s${i}a`, w.authors[0], 100, school.id),
      await person(`sc_s${i}b`, w.authors[1], 100, school.id),
    ];
    const teacher = w.teacher ? await person(`sc_t${school.code}`, w.teacher, 99, school.id) : null;
    const text = {
      summary: w.summary,
      design_idea: w.design,
      key_points: w.keyPoints,
      open_source: "使用的开源组件均已在文档中列出，其余代码为团队原创。",
      install_guide: "按部署文档安装依赖后一键启动。",
      teacher_review: teacher ? "团队分工明确，作品完成度较高。" : null,
    };
    const log: DemoStep[] = [
      ["create", authors[0]],
      ["submit", authors[0]],
    ];
    if (status === "format_passed")
      log.push(["approve", null], ["recommend", null], ["accept", contestAdmin], ["format_pass", contestAdmin]);
    const version = status === "format_passed" ? 5 : 2;
    return insertDemoWork(db, {
      year,
      contestId,
      categoryId: soft,
      subcategoryId: sub(w.sub),
      name: w.name,
      status,
      schoolId: school.id,
      authors,
      teachers: teacher ? [teacher] : [],
      text,
      version,
      at,
      log,
    });
  };

  // The provincial contest: six passed works in the demo group, each with the same three judges.
  await openOnlineJudging(db, zj.id, now);
  const ids: number[] = [];
  for (const [i, w] of SCORING_DEMO_WORKS.entries()) ids.push(await insertWork(w, i + 1, zj.id, "format_passed"));
  await db
    .insertInto("judge_group_work")
    .values(ids.map((work_id) => ({ contest_id: zj.id, group_id: group.id, work_id, created_at: at })))
    .execute();
  const three = ["judge", "judge2", "judge3"].map((u) => byName.get(u)!.id);
  await db.transaction().execute((trx) =>
    applyAssignments(trx, {
      contest: zj,
      userId: contestAdmin,
      add: ids.flatMap((workId) => three.map((judgeId) => ({ workId, judgeId }))),
    }),
  );

  const items = await db
    .selectFrom("rubric_item")
    .select("id")
    .where("category_id", "=", soft)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  for (const [username, i, points, deductions, comment, submit] of SCORES) {
    const judge = byName.get(username)! as User;
    const body = { items: Object.fromEntries(points.map((p, n) => [String(items[n].id), p])), deductions, comment, version: 0 };
    await saveScore(db, judge, zj.id, ids[i], body, submit);
  }

  // The school contest of 浙江工业大学: one work for the demo teacher 王老师 to judge.
  const teacher = byName.get("teacher")!;
  const school = await db
    .selectFrom("contest")
    .select(["id", "name", "level", "school_id"])
    .where("level", "=", "school")
    .where("school_id", "=", teacher.school_id)
    .where("year", "=", year)
    .executeTakeFirst();
  if (school) {
    await openOnlineJudging(db, school.id, now);
    const w = await insertWork(SCHOOL_WORK, 9, school.id, "submitted");
    await insertDemoGroup(db, {
      contestId: school.id,
      name: "校赛评审组",
      categoryId: soft,
      leaderId: teacher.id,
      note: "校级赛网络评审",
      members: [teacher.id],
      works: [w],
      at,
    });
    await db.transaction().execute((trx) =>
      applyAssignments(trx, {
        contest: school,
        userId: byName.get("root")!.id,
        add: [{ workId: w, judgeId: teacher.id }],
        settings: { reviewsPerWork: 1, judgeCapacity: null, avoidProvince: false },
      }),
    );
  }
  return true;
}

/**
 * The attachments of the works judges score online (this demo's and the results demo's), for
 * `npm start` (they need the blob store): a judge opening a work sees its 答辩材料, 源码,
 * 文档 and video like a real one's (issue 15). Works that have files are skipped.
 */
export async function seedScoringDemoFiles(db: Db, store: BlobStore): Promise<number> {
  const names = [...SCORING_DEMO_WORKS.map((w) => w.name), ...RESULTS_DEMO_WORKS.map((w) => w.name)];
  const works = await db
    .selectFrom("work")
    .select(["id", "name", "created_by"])
    .where("name", "in", names)
    .orderBy("id")
    .execute();
  let n = 0;
  for (const w of works) if (await attachDemoFiles(db, store, w)) n++;
  return n;
}
