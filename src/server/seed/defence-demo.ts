/**
 * Demo data for the offline defence (现场答辩) and for earlier years' works:
 *
 * - In the Zhejiang provincial contest a 大数据应用组 led by the demo judge 李评审 (judge,
 *   浙江大学) with 陈评审 (judge2, 浙江工业大学) and 刘评审 (judge3, 杭州电子科技大学), and five
 *   大数据应用 works that passed format review, of 杭州电子科技大学, 宁波大学, 浙江大学, 浙江工业大学
 *   (by the demo students student4 and student5, through the school contest) and 温州大学 —
 *   so each judge has one work of the own school to avoid. Other authors and teachers are
 *   new accounts (password Demo@2026).
 * - The group's defence session on 20 July: place, meeting link, what to prepare, 15 minutes
 *   a work; the order drawn by the contest admin (a random seed, recorded); 陈评审 has scored
 *   four works and 刘评审 three (through the score log); 李评审 has scored none, and nobody
 *   has signed off — log in as judge for /judge/Offline and the group sheet.
 * - The previous year: an archived national and Zhejiang provincial contest with five works,
 *   published awards among them, two of which look much like this year's works
 *   (/judge/yearWorkQuery).
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import { demoPeople, insertDemoGroup, insertDemoWork, type DemoStep } from "./demo-helpers";
import { appendScoreLog } from "../judging/service/score-log-store";
import { DRAW_ALGORITHM, drawWorkOrder, slotTime } from "../judging/draw";
import { randomBytes } from "node:crypto";
import { newSeed } from "../judging/service/defence";

interface DemoPerson {
  username: string;
  name: string;
}

interface DefenceWork {
  key: string;
  name: string;
  school: string;
  sub: string;
  /** existing demo accounts, or new ones */
  authors: (string | DemoPerson)[];
  teacher: string | DemoPerson;
  summary: string;
}

export const DEFENCE_GROUP = "大数据应用组";

const WORKS: DefenceWork[] = [
  {
    key: "hdu",
    name: "城市内涝风险预测与预警平台",
    school: "杭州电子科技大学",
    sub: "大数据实践赛",
    authors: [
      { username: "df_hdu1", name: "徐子涵" },
      { username: "df_hdu2", name: "李思琪" },
    ],
    teacher: { username: "df_hdu_t", name: "王建华" },
    summary: "融合气象、管网和地形数据，预测城市易涝点的积水风险，并向市民和管理部门推送预警。",
  },
  {
    key: "nbu",
    name: "港口集装箱吞吐量预测系统",
    school: "宁波大学",
    sub: "大数据实践赛",
    authors: [
      { username: "df_nbu1", name: "陈浩宇" },
      { username: "df_nbu2", name: "周雨桐" },
    ],
    teacher: { username: "df_nbu_t", name: "吴国栋" },
    summary: "基于历史吞吐量、航线和宏观经济数据，预测港口未来一个月的集装箱吞吐量。",
  },
  {
    key: "zju",
    name: "高校科研成果数据画像平台",
    school: "浙江大学",
    sub: "大数据主题赛",
    authors: [
      { username: "df_zju1", name: "赵一凡" },
      { username: "df_zju2", name: "孙悦" },
    ],
    teacher: { username: "df_zju_t", name: "钱明远" },
    summary: "汇集论文、专利和项目数据，为学院和学科生成科研成果画像和合作网络。",
  },
  {
    key: "zjut",
    name: "运河沿岸客流大数据分析系统",
    school: "浙江工业大学",
    sub: "大数据主题赛",
    authors: ["student4", "student5"],
    teacher: "teacher",
    summary: "分析大运河沿岸景点的手机信令和票务数据，识别客流高峰并给出疏导建议。",
  },
  {
    key: "wzu",
    name: "鞋服电商退货原因分析系统",
    school: "温州大学",
    sub: "大数据实践赛",
    authors: [
      { username: "df_wzu1", name: "郑佳怡" },
      { username: "df_wzu2", name: "王俊杰" },
    ],
    teacher: { username: "df_wzu_t", name: "林志强" },
    summary: "挖掘电商评论和退货记录，归纳鞋服类商品的主要退货原因，帮助商家改进选品和描述。",
  },
];

/** 陈评审 and 刘评审 have scored these works (by key): score, recommendation, comment. */
const SCORES: Record<string, [string, number, "strong" | "recommend" | "not", string][]> = {
  judge2: [
    ["hdu", 91, "strong", "选题贴近城市治理需求，模型验证充分，现场演示流畅。"],
    ["nbu", 84, "recommend", "预测方法合理，建议补充与基线模型的对比。"],
    ["zju", 88, "recommend", "数据整合工作量大，画像维度清晰。"],
    ["wzu", 73, "not", "分析较浅，结论缺少数据支撑。"],
  ],
  judge3: [
    ["nbu", 86, "recommend", "问题定义清楚，答辩回答准确。"],
    ["zju", 90, "strong", "系统完成度高，可视化效果好。"],
    ["zjut", 82, "recommend", "数据来源需说明授权情况，其余良好。"],
  ],
};

/** Last year's works (year − 1): name, school, category, 小类, award (provincial) or null. */
const PAST: { name: string; school: string; category: string; sub: string; award: string | null; authors: string[] }[] = [
  {
    name: "城市内涝风险预测平台",
    school: "杭州电子科技大学",
    category: "大数据应用",
    sub: "大数据实践赛",
    award: "三等奖",
    authors: ["df_hdu1", "df_hdu2"],
  },
  {
    name: "校园能耗监测与节能分析系统",
    school: "浙江工业大学",
    category: "大数据应用",
    sub: "大数据实践赛",
    award: "二等奖",
    authors: ["student", "student3"],
  },
  {
    name: "智慧农业大棚环境监测系统",
    school: "宁波大学",
    category: "物联网应用",
    sub: "智慧农业",
    award: "一等奖",
    authors: ["df_nbu1", "df_nbu2"],
  },
  {
    name: "古籍文字识别与校对工具",
    school: "浙江大学",
    category: "人工智能应用",
    sub: "人工智能实践赛",
    award: null,
    authors: ["df_zju1", "df_zju2"],
  },
  {
    name: "社区团购订单管理系统",
    school: "温州大学",
    category: "软件应用与开发",
    sub: "管理信息系统",
    award: "优秀奖",
    authors: ["df_wzu1", "df_wzu2"],
  },
];

export async function seedDefenceDemo(trx: Transaction<DB>, year: number, password_hash: string, now: string) {
  const c = await defenceContext(trx, year, password_hash, now);
  const workOf = await insertDefenceWorks(c);
  await insertDefenceSession(c, workOf);
  await insertPastYear(c);
}

/** What the steps share: the contests, schools, categories and accounts they refer to, and new people. */
type DefenceContext = Awaited<ReturnType<typeof defenceContext>>;

async function defenceContext(trx: Transaction<DB>, year: number, password_hash: string, now: string) {
  const zj = await trx
    .selectFrom("contest")
    .select(["id", "parent_id"])
    .where("level", "=", "provincial")
    .where("province", "=", "浙江省")
    .where("year", "=", year)
    .executeTakeFirstOrThrow();
  const schools = new Map((await trx.selectFrom("school").select(["id", "name"]).execute()).map((s) => [s.name, s.id]));
  const zjut = await trx
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "school")
    .where("school_id", "=", schools.get("浙江工业大学")!)
    .where("year", "=", year)
    .executeTakeFirstOrThrow();
  const cats = await trx.selectFrom("work_category").select(["id", "name", "parent_id"]).execute();
  const top = (name: string) => cats.find((c) => c.name === name && c.parent_id === null)!.id;
  const sub = (parent: number, name: string) => cats.find((c) => c.name === name && c.parent_id === parent)!.id;
  const users = new Map((await trx.selectFrom("app_user").select(["id", "username"]).execute()).map((u) => [u.username, u.id]));

  const people = demoPeople(trx, {
    password_hash,
    at: now,
    memberNo: (n) => `2024${String(700 + n).padStart(6, "0")}`,
    major: "080910T",
    known: users,
  });
  const person = async (p: string | DemoPerson, type: 99 | 100, school: string) =>
    typeof p === "string" ? users.get(p)! : people(p.username, p.name, type, schools.get(school)!);
  return { trx, year, now, zj, zjut, schools, top, sub, users, person, contestAdmin: users.get("contest_admin")! };
}

/** This year's five 大数据应用 works that passed format review, by WORKS key → id. */
async function insertDefenceWorks({ trx, year, now, zj, zjut, schools, top, sub, users, person, contestAdmin }: DefenceContext) {
  const bigData = top("大数据应用");
  const workOf = new Map<string, number>();
  for (const w of WORKS) {
    const authors: number[] = [];
    for (const a of w.authors) authors.push(await person(a, 100, w.school));
    const teacher = await person(w.teacher, 99, w.school);
    const viaSchool = w.school === "浙江工业大学";
    const text = {
      summary: w.summary,
      design_idea: "数据采集—清洗—建模—可视化，后端提供分析服务，前端以大屏和报表展示。",
      key_points: "重点是多源数据的融合与质量控制；难点是在数据稀疏时保证预测的稳定性。",
      open_source: "使用 Apache Spark、ECharts 等开源组件（均为 Apache-2.0 许可），其余代码为团队原创。",
      install_guide: "见设计与开发文档第 5 章。",
      teacher_review: "团队分工明确，数据处理扎实。",
    };
    const schoolAdmin = viaSchool ? users.get("school_admin")! : null;
    const log: DemoStep[] = [
      ["create", authors[0]],
      ["submit", authors[0]],
      ["approve", schoolAdmin],
      ["recommend", schoolAdmin],
      ["accept", contestAdmin],
      ["format_pass", users.get("reviewer")!],
    ];
    const contestId = viaSchool ? zjut.id : zj.id;
    const id = await insertDemoWork(trx, {
      year,
      contestId,
      categoryId: bigData,
      subcategoryId: sub(bigData, w.sub),
      name: w.name,
      status: "format_passed",
      schoolId: schools.get(w.school)!,
      authors,
      teachers: [teacher],
      text,
      version: 6,
      at: now,
      log,
    });
    workOf.set(w.key, id);
  }
  return workOf;
}

/** The 大数据应用组, its defence session with the drawn order, the judges' scores so far and the draw's audit row. */
async function insertDefenceSession(c: DefenceContext, workOf: Map<string, number>) {
  const { trx, year, now, zj, top, users, contestAdmin } = c;
  const bigData = top("大数据应用");
  const judge = users.get("judge")!;
  const members = [judge, users.get("judge2")!, users.get("judge3")!];
  const groupId = await insertDemoGroup(trx, {
    contestId: zj.id,
    name: DEFENCE_GROUP,
    categoryId: bigData,
    leaderId: judge,
    note: "现场答辩组，专家组长李评审",
    members,
    works: [...workOf.values()],
    at: now,
  });

  const startsAt = new Date(`${year}-07-20T09:00:00+08:00`).toISOString();
  const seed = newSeed();
  const session = await trx
    .insertInto("defence_session")
    .values({
      contest_id: zj.id,
      group_id: groupId,
      starts_at: startsAt,
      place: "浙江工业大学屏峰校区 广知楼 B201 会议室",
      meeting_link: "https://meeting.example.com/j/2026-zj-bigdata",
      prepare_note:
        "请至少两名作者参加答辩，提前 15 分钟到场签到并携带学生证。每件作品陈述 8 分钟（含演示）、专家提问 7 分钟。答辩 PPT 或 PDF 请在答辩前一天通过本链接上传（演示视频可与 PPT 一并打包为 zip）。",
      minutes_per_work: 15,
      draw_seed: seed,
      drawn_at: now,
      drawn_by: contestAdmin,
      signed_off_at: null,
      signed_off_by: null,
      sign_off_note: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const order = drawWorkOrder(seed, [...workOf.values()]);
  for (const [i, workId] of order.entries()) {
    await trx
      .insertInto("defence_slot")
      .values({
        session_id: session.id,
        work_id: workId,
        position: i + 1,
        slot_time: slotTime(startsAt, i + 1, 15),
        code: randomBytes(18).toString("base64url"),
        created_at: now,
      })
      .execute();
  }
  await insertDefenceScores(c, session.id, workOf);
  await trx
    .insertInto("audit_log")
    .values({
      at: now,
      user_id: contestAdmin,
      entity: "defence_session",
      entity_id: String(session.id),
      action: "draw",
      changes: JSON.stringify({ drawSeed: [null, seed], algorithm: [null, DRAW_ALGORITHM] }),
    })
    .execute();
}

/** 陈评审's and 刘评审's defence scores (SCORES), each also in the score log. */
async function insertDefenceScores({ trx, now, zj, users }: DefenceContext, sessionId: number, workOf: Map<string, number>) {
  const slots = new Map(
    (await trx.selectFrom("defence_slot").select(["id", "work_id"]).where("session_id", "=", sessionId).execute()).map((s) => [
      Number(s.work_id),
      s.id,
    ]),
  );
  for (const [username, list] of Object.entries(SCORES)) {
    const judgeId = users.get(username)!;
    for (const [key, score, recommendation, comment] of list) {
      const workId = workOf.get(key)!;
      await trx
        .insertInto("defence_score")
        .values({
          slot_id: slots.get(workId)!,
          judge_id: judgeId,
          score,
          recommendation,
          comment,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await appendScoreLog(trx, {
        at: now,
        actorId: judgeId,
        contestId: zj.id,
        workId,
        judgeId,
        action: "defence_score",
        score,
        comment,
        reason: recommendation,
      });
    }
  }
}

/** Last year: archived national and Zhejiang contests, their works and the published awards. */
async function insertPastYear({ trx, year, now, schools, top, sub, users }: DefenceContext) {
  const past = year - 1;
  const cn = await trx
    .insertInto("contest")
    .values({
      name: `${past}年（第${past - 2007}届）中国大学生计算机设计大赛`,
      level: "national",
      year: past,
      parent_id: null,
      province: null,
      school_id: null,
      archived: 1,
      code: `${past}-CN`,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const pastZj = await trx
    .insertInto("contest")
    .values({
      name: `${past}年中国大学生计算机设计大赛浙江省级赛`,
      level: "provincial",
      year: past,
      parent_id: cn.id,
      province: "浙江省",
      school_id: null,
      archived: 1,
      code: `${past}-ZJ`,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const awards = new Map(
    (
      await trx
        .selectFrom("award_level")
        .select(["id", "name"])
        .where("contest_level", "=", "provincial")
        .where("kind", "=", "work")
        .execute()
    ).map((a) => [a.name, a.id]),
  );
  const publishedAt = new Date(`${past}-09-01T10:00:00+08:00`).toISOString();
  for (const w of PAST) {
    const category = top(w.category);
    const authors = w.authors.map((u) => users.get(u)!);
    const id = await insertDemoWork(trx, {
      year: past,
      contestId: pastZj.id,
      categoryId: category,
      subcategoryId: sub(category, w.sub),
      name: w.name,
      status: "format_passed",
      schoolId: schools.get(w.school)!,
      authors,
      ai: null,
      version: 5,
      at: publishedAt,
    });
    if (w.award) {
      await trx
        .insertInto("contest_result")
        .values({
          contest_id: pastZj.id,
          work_id: id,
          group_id: null,
          raw_mean: null,
          normalised: null,
          spread: null,
          rank: null,
          award_level_id: awards.get(w.award)!,
          award_manual: 1,
          updated_at: publishedAt,
        })
        .execute();
    }
  }
  await trx
    .insertInto("result_publication")
    .values({
      contest_id: pastZj.id,
      published_at: publishedAt,
      published_by: users.get("root")!,
      model: "manual",
      model_version: 1,
      params: "{}",
      log_head: "0".repeat(64),
      log_seq: 0,
      note: `${past}年省级赛获奖名单（历史数据）`,
    })
    .execute();
}
