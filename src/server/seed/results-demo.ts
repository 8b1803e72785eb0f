/**
 * Demo data for the results screen (/ContestAdmin/ContestResult, `npm start`): a second judge
 * group of the Zhejiang provincial contest whose online judging is finished.
 *
 * - Every work came up from its school's 校级赛 (a school contest under the Zhejiang contest,
 *   made where the school has none, with an admin of the school): submitted by its first author,
 *   approved and recommended by the school, accepted and passed by the provincial contest — so
 *   the demo's works travel school → province → nation (issue 14).
 * - 人工智能应用组 with the demo judges 陈评审 (judge2, 浙江工业大学), 刘评审 (judge3, 杭州电子科技大学),
 *   张评审 (judge4, 宁波大学) and 何评审 (judge5, industry), and ten works of Zhejiang schools
 *   in 人工智能应用 that passed format review (two authors and a teacher each, password
 *   Demo@2026, with their log).
 * - Each work gets three conflict-free judges through the assigner and applyAssignments (the
 *   works of 浙江工业大学, 杭电 and 宁波大学 avoid their judges), and every one of those
 *   assignments that has no score yet gets a submitted score — rubric points that add up to
 *   the total, and the entry in the contest's score log. 张评审 scores about 7 points harsher
 *   than the others, and the judges disagree strongly on one work (城市道路积水智能识别), so
 *   the screen shows the correction, a 分歧 flag and 增加评委 (何评审 is free for it or not,
 *   depending on the assignment).
 * - The results are computed once as the contest admin, so the ranking shows at once.
 *
 * Kept apart from seedDemo, like scoring-demo.ts, so the tests that count the demo's works are
 * not affected; runs once (the first work's name marks it). Assignments of other demo data
 * (the online scoring demo's) are left as they are.
 */
import type { Db } from "../db/index";
import { demoPeople, insertDemoGroup, insertDemoUser, insertDemoWork, type DemoStep } from "./demo-helpers";
import { seedContestSettings } from "./contest-demo";
import { ROLE } from "../../shared/roles";
import { minCostFlow } from "../judging/assign";
import { applyAssignments } from "../judging/service/apply";
import { settingsOf } from "../judging/service/contest";
import { computeResults } from "../judging/service/results";
import { appendScoreLog } from "../judging/service/score-log-store";
import { loadSnapshot } from "../judging/service/snapshot";

interface DemoWork {
  name: string;
  school: string;
  sub: string;
  authors: [string, string];
  teacher: string;
  /** the school's admin, who approved and recommended the work in the school's 校级赛 (made where the school has none) */
  admin?: string;
  /** the work's "true" quality the judges' scores scatter around */
  quality: number;
}

export const RESULTS_DEMO_WORKS: DemoWork[] = [
  {
    name: "基于大模型的课堂问答助教",
    school: "浙江大学",
    sub: "人工智能实践赛",
    authors: ["程子昂", "蔡依诺"],
    teacher: "陆文博",
    admin: "林校管",
    quality: 88,
  },
  {
    name: "茶园病虫害图像识别系统",
    school: "浙江师范大学",
    sub: "人工智能实践赛",
    authors: ["董欣然", "袁泽楷"],
    teacher: "唐秀芝",
    admin: "许校管",
    quality: 84,
  },
  {
    name: "电商客服意图识别与自动应答",
    school: "浙江工商大学",
    sub: "人工智能挑战赛",
    authors: ["田雨萱", "范俊熙"],
    teacher: "夏志刚",
    admin: "韩校管",
    quality: 80,
  },
  {
    name: "票据信息智能抽取工具",
    school: "浙江财经大学",
    sub: "人工智能实践赛",
    authors: ["苏梓涵", "蒋一鸣"],
    teacher: "贾丽华",
    admin: "邱校管",
    quality: 77,
  },
  {
    name: "城市道路积水智能识别",
    school: "温州大学",
    sub: "人工智能挑战赛",
    authors: ["叶思彤", "杜宇辰"],
    teacher: "余海涛",
    admin: "秦校管",
    quality: 75,
  },
  {
    name: "计量仪表读数自动识别",
    school: "中国计量大学",
    sub: "人工智能实践赛",
    authors: ["戴明哲", "廖可馨"],
    teacher: "郝建平",
    admin: "尹校管",
    quality: 72,
  },
  {
    name: "面料瑕疵检测与分级系统",
    school: "浙江理工大学",
    sub: "人工智能实践赛",
    authors: ["邹博文", "熊诗琪"],
    teacher: "孟庆云",
    admin: "姚校管",
    quality: 70,
  },
  {
    name: "校园垃圾分类智能投放站",
    school: "浙江工业大学",
    sub: "人工智能挑战赛",
    authors: ["万子豪", "段雨婷"],
    teacher: "雷振华",
    quality: 68,
  },
  {
    name: "手语实时翻译眼镜",
    school: "杭州电子科技大学",
    sub: "人工智能挑战赛",
    authors: ["侯嘉乐", "黎梦瑶"],
    teacher: "龙永刚",
    admin: "汪校管",
    quality: 65,
  },
  {
    name: "渔船作业行为智能监测",
    school: "宁波大学",
    sub: "人工智能实践赛",
    authors: ["史天翊", "陶若溪"],
    teacher: "贺春梅",
    admin: "严校管",
    quality: 62,
  },
];

/** Judge leniency (+) or harshness (−), in points. */
const EFFECT: Record<string, number> = { judge2: 2, judge3: 3, judge4: -7, judge5: 1 };
/** The work the judges disagree on, and how far each judge strays on it. */
const DISPUTED = 4;
const DISPUTE: Record<string, number> = { judge2: 10, judge3: -12, judge4: 19, judge5: -10 };

const half = (x: number) => Math.round(x * 2) / 2;

/** Rubric points that add up to the total (each within its maximum). */
function pointsFor(total: number, max: number[]): number[] {
  const sum = max.reduce((s, m) => s + m, 0);
  const pts = max.map((m) => Math.min(m, half((m * total) / sum)));
  let diff = half(total - pts.reduce((s, p) => s + p, 0));
  for (let k = 0; diff !== 0 && k < pts.length * 40; k++) {
    const i = k % pts.length;
    const step = diff > 0 ? 0.5 : -0.5;
    if (pts[i] + step >= 0 && pts[i] + step <= max[i]) {
      pts[i] += step;
      diff -= step;
    }
  }
  return pts;
}

/**
 * The 校级赛 of a school under the provincial contest, made with the demo settings where the
 * school has none (浙江工业大学 has one from seedDemo), and the school's admin, made where missing.
 */
async function schoolRound(
  db: Db,
  o: {
    provincialId: number;
    year: number;
    school: { id: number; name: string };
    adminName?: string;
    k: number;
    password_hash: string;
    now: Date;
  },
): Promise<{ contestId: number; adminId: number }> {
  const at = o.now.toISOString();
  const found = await db
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "school")
    .where("school_id", "=", o.school.id)
    .where("parent_id", "=", o.provincialId)
    .where("archived", "=", 0)
    .executeTakeFirst();
  const contestId =
    found?.id ??
    (await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto("contest")
        .values({
          name: `${o.year}年${o.school.name}计算机设计大赛校级赛`,
          level: "school",
          year: o.year,
          parent_id: o.provincialId,
          province: "浙江省",
          school_id: o.school.id,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await seedContestSettings(trx, o.year, o.now, [id]);
      return id;
    }));
  const admin = await db
    .selectFrom("app_user")
    .select("id")
    .where("user_type", "=", ROLE.schoolAdmin)
    .where("school_id", "=", o.school.id)
    .orderBy("id")
    .executeTakeFirst();
  const adminId =
    admin?.id ??
    (await insertDemoUser(
      db,
      {
        username: `rs_admin${o.k}`,
        name: o.adminName ?? `${o.school.name}管理员`,
        type: ROLE.schoolAdmin,
        schoolId: o.school.id,
      },
      o.password_hash,
      at,
    ));
  return { contestId, adminId };
}

/** compute: false leaves the results uncomputed (the browser test computes them on the screen). */
export async function seedResultsDemo(db: Db, now = new Date(), opts: { compute?: boolean } = {}): Promise<boolean> {
  if (await db.selectFrom("work").select("id").where("name", "=", RESULTS_DEMO_WORKS[0].name).executeTakeFirst()) return false;
  const contest = await db
    .selectFrom("contest")
    .select(["id", "name", "level", "school_id", "year"])
    .where("level", "=", "provincial")
    .where("province", "=", "浙江省")
    .where("archived", "=", 0)
    .orderBy("year", "desc")
    .executeTakeFirst();
  if (!contest) return false;
  const c = { id: contest.id, name: contest.name, level: contest.level, school_id: contest.school_id };
  const year = contest.year;
  const at = now.toISOString();
  const users = await db
    .selectFrom("app_user")
    .selectAll()
    .where("username", "in", ["judge2", "judge3", "judge4", "judge5", "contest_admin", "reviewer", "student"])
    .execute();
  const byName = new Map(users.map((u) => [u.username, u]));
  if (byName.size < 7) return false;
  const judgeIds = ["judge2", "judge3", "judge4", "judge5"].map((u) => byName.get(u)!.id);
  const usernameOf = new Map(["judge2", "judge3", "judge4", "judge5"].map((u) => [byName.get(u)!.id, u]));
  const admin = byName.get("contest_admin")!;
  const password_hash = byName.get("student")!.password_hash;
  const schools = await db.selectFrom("school").select(["id", "name", "code"]).execute();
  const cats = await db.selectFrom("work_category").select(["id", "name", "parent_id"]).execute();
  const data = cats.find((x) => x.name === "人工智能应用" && x.parent_id === null);
  if (!data) return false;
  const sub = (name: string) => cats.find((x) => x.name === name && x.parent_id === data.id)!.id;

  const person = demoPeople(db, { password_hash, at, memberNo: (n) => `2025${String(n).padStart(6, "0")}`, major: "080910T" });
  const ids: number[] = [];
  for (const [i, w] of RESULTS_DEMO_WORKS.entries()) {
    const school = schools.find((s) => s.name === w.school)!;
    const authors = [
      await person(`rs_s${i + 1}a`, w.authors[0], 100, school.id),
      await person(`rs_s${i + 1}b`, w.authors[1], 100, school.id),
    ];
    const teacher = await person(`rs_t${i + 1}`, w.teacher, 99, school.id);
    const text = {
      summary: `${w.name}：面向真实场景采集数据、训练模型并部署为可用的系统。`,
      design_idea: "数据采集与标注—模型训练与调优—系统集成与部署。",
      key_points: "难点在于小样本场景下的识别准确率与实时性。",
      open_source: "使用的开源组件均已在文档中列出。",
      install_guide: "按部署文档安装依赖后启动。",
      teacher_review: "选题贴近实际，模型评估扎实。",
    };
    // Up from the school's 校级赛: approved and recommended by the school, accepted and format-passed by the province.
    const round = await schoolRound(db, { provincialId: c.id, year, school, adminName: w.admin, k: i + 1, password_hash, now });
    const log: DemoStep[] = [
      ["create", authors[0]],
      ["submit", authors[0]],
      ["approve", round.adminId],
      ["recommend", round.adminId],
      ["accept", admin.id],
      ["format_pass", byName.get("reviewer")!.id],
    ];
    ids.push(
      await insertDemoWork(db, {
        year,
        contestId: round.contestId,
        categoryId: data.id,
        subcategoryId: sub(w.sub),
        name: w.name,
        status: "format_passed",
        schoolId: school.id,
        authors,
        teachers: [teacher],
        text,
        version: 5,
        at,
        log,
      }),
    );
  }

  await insertDemoGroup(db, {
    contestId: c.id,
    name: "人工智能应用组",
    categoryId: data.id,
    leaderId: byName.get("judge4")!.id,
    note: "网络评审已结束",
    members: judgeIds,
    works: ids,
    at,
  });
  await db.transaction().execute(async (trx) => {
    const snap = await loadSnapshot(trx, c, await settingsOf(trx, c.id), ids);
    const proposal = minCostFlow.propose(snap.input, minCostFlow.defaults);
    if (proposal.rows.length) await applyAssignments(trx, { contest: c, userId: admin.id, add: proposal.rows });
  });

  await submitDemoScores(db, c.id, data.id, ids, usernameOf);

  if (opts.compute !== false) await computeResults(db, admin, c.id, {});
  return true;
}

/** A submitted score (and its score-log entry) for every assignment of the demo works that has none. */
async function submitDemoScores(db: Db, contestId: number, categoryId: number, ids: number[], usernameOf: Map<number, string>) {
  const items = await db
    .selectFrom("rubric_item")
    .select(["id", "max_points"])
    .where("category_id", "=", categoryId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const max = items.map((r) => Number(r.max_points));
  const open = await db
    .selectFrom("judge_assignment")
    .leftJoin("judge_score", "judge_score.assignment_id", "judge_assignment.id")
    .select(["judge_assignment.id", "judge_assignment.work_id", "judge_assignment.judge_id"])
    .where("judge_assignment.contest_id", "=", contestId)
    .where("judge_assignment.work_id", "in", ids)
    .where("judge_score.id", "is", null)
    .orderBy("judge_assignment.id")
    .execute();
  for (const [n, a] of open.entries()) {
    const i = ids.indexOf(Number(a.work_id));
    const who = usernameOf.get(a.judge_id) ?? "";
    const noise = [0.5, -1, 1.5, -0.5, 0, 1, -1.5][(i * 3 + n) % 7];
    const raw = RESULTS_DEMO_WORKS[i].quality + (EFFECT[who] ?? 0) + noise + (i === DISPUTED ? (DISPUTE[who] ?? 0) : 0);
    const points = pointsFor(half(Math.max(0, Math.min(100, raw))), max);
    const total = points.reduce((s, p) => s + p, 0);
    const when = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      const itemMap = Object.fromEntries(items.map((it, j) => [String(it.id), points[j]]));
      await trx
        .insertInto("judge_score")
        .values({
          assignment_id: a.id,
          contest_id: contestId,
          work_id: Number(a.work_id),
          judge_id: a.judge_id,
          items: JSON.stringify(itemMap),
          deductions: "[]",
          total,
          comment:
            total >= 80 ? "完成度高，效果评估充分。" : total >= 70 ? "思路清楚，模型对比可加强。" : "数据量偏小，效果缺少对比。",
          status: "submitted",
          version: 1,
          submitted_at: when,
          reopened_at: null,
          reopened_by: null,
          reopen_reason: null,
          created_at: when,
          updated_at: when,
        })
        .execute();
      await appendScoreLog(trx, {
        actorId: a.judge_id,
        contestId,
        workId: Number(a.work_id),
        judgeId: a.judge_id,
        action: "submit",
        score: total,
        items: itemMap,
        at: when,
      });
    });
  }
}
