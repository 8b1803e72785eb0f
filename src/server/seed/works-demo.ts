/**
 * Demo works: four more students of 浙江工业大学 (with majors, password Demo@2026) and three
 * works of the demo student in the school's contest — a draft with co-authors (one yet to
 * confirm) and the demo teacher, a submitted work, and one the school returned — each with
 * its log, so the works screens show something real.
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import { demoUserRow, insertDemoWork, type DemoStep } from "./demo-helpers";

export const DEMO_STUDENTS = [
  { username: "student2", name: "陈思远", major: "080901", memberNo: "202305010102" },
  { username: "student3", name: "林雨桐", major: "080910T", memberNo: "202305010103" },
  { username: "student4", name: "黄嘉怡", major: "130508", memberNo: "202305010104" },
  { username: "student5", name: "周子轩", major: "080717T", memberNo: "202305010105" },
];

const AI_USED = {
  used: true,
  tools: [
    {
      tool: "通义千问",
      version: "Qwen2.5",
      access: "网页版，2026 年 2 月",
      purpose: "需求分析阶段整理用户访谈要点；编码阶段生成部分单元测试样例",
      prompts: "请根据以下访谈记录归纳用户的主要需求……",
      output: "需求要点列表、12 个单元测试样例",
      edits: "需求要点经小组讨论后重写；测试样例逐个核对并修改断言",
      adoption: 20,
    },
  ],
};

export async function seedDemoWorks(trx: Transaction<DB>, year: number, password_hash: string, now: string) {
  const school = await trx.selectFrom("school").select("id").where("name", "=", "浙江工业大学").executeTakeFirstOrThrow();
  const contest = await trx
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "school")
    .where("school_id", "=", school.id)
    .where("year", "=", year)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable("app_user")
    .set({ major_code: "080901", member_no: "202305010101" })
    .where("username", "=", "student")
    .execute();
  await trx
    .insertInto("app_user")
    .values(
      DEMO_STUDENTS.map((s) =>
        demoUserRow(
          { username: s.username, name: s.name, type: 100, schoolId: school.id, memberNo: s.memberNo, major: s.major },
          password_hash,
          now,
        ),
      ),
    )
    .execute();
  const rows = await trx.selectFrom("app_user").select(["id", "username", "name"]).execute();
  const users = new Map(rows.map((u) => [u.username, u.id]));
  const label = (username: string, confirmed = 1) =>
    `${rows.find((u) => u.username === username)!.name}（${username}）${confirmed ? "" : "［待确认］"}`;
  const cats = await trx.selectFrom("work_category").select(["id", "name", "parent_id"]).execute();
  const cat = (name: string) => cats.find((c) => c.name === name)!.id;
  const me = users.get("student")!;
  const teacher = users.get("teacher")!;
  const admin = users.get("school_admin")!;

  const works = [
    {
      name: "智慧助农：乡村特产直播电商平台",
      category: "软件应用与开发",
      sub: "Web应用与开发",
      status: "draft" as const,
      authors: [
        ["student", 1],
        ["student2", 1],
        ["student3", 0],
      ] as [string, 0 | 1][],
      summary: "面向乡村合作社的特产直播电商平台，提供直播带货、订单管理和溯源查询。",
      design: null,
      keyPoints: null,
      ai: null,
    },
    {
      name: "校园能耗数据可视化分析系统",
      category: "大数据应用",
      sub: "大数据实践赛",
      status: "submitted" as const,
      authors: [
        ["student", 1],
        ["student3", 1],
      ] as [string, 0 | 1][],
      summary: "采集校园楼宇的用电、用水数据，进行异常检测和趋势预测，并以大屏形式展示。",
      design: "以数据采集—清洗—分析—可视化为主线，后端采用流式处理，前端采用组件化大屏。",
      keyPoints: "重点是多源数据的对齐与清洗；难点是在数据缺失较多时保证预测的稳定性。",
      ai: AI_USED,
    },
    {
      name: "基于大模型的古诗词学习助手",
      category: "人工智能应用",
      sub: "人工智能实践赛",
      status: "returned" as const,
      authors: [
        ["student", 1],
        ["student5", 1],
        ["student2", 1],
      ] as [string, 0 | 1][],
      summary: "古诗词学习助手。",
      design: "结合检索增强生成与知识图谱，为中学生讲解古诗词的背景与意象。",
      keyPoints: "难点在于减少大模型的幻觉，保证作者、朝代等事实准确。",
      ai: { used: false, tools: [] },
    },
  ];
  const reason = "作品简介过于简略，请补充主要功能和创新点后重新提交";
  for (const w of works) {
    const submitted = w.status !== "draft";
    const log: DemoStep[] = [
      ["create", me, { authors: [null, w.authors.map(([u, c]) => label(u, c))], teachers: [null, [label("teacher")]] }],
    ];
    if (submitted) log.push(["submit", me]);
    if (w.status === "returned") log.push(["return", admin, { reason: [null, reason] }]);
    await insertDemoWork(trx, {
      year,
      contestId: contest.id,
      categoryId: cat(w.category),
      subcategoryId: cat(w.sub),
      name: w.name,
      status: w.status,
      schoolId: school.id,
      authors: w.authors.map(([u, confirmed]) => [users.get(u)!, confirmed]),
      teachers: [teacher],
      text: {
        summary: w.summary,
        design_idea: w.design,
        key_points: w.keyPoints,
        open_source: submitted ? "使用 ECharts（Apache-2.0）绘制图表，其余代码均为团队原创。" : null,
      },
      ai: w.ai,
      returnReason: w.status === "returned" ? reason : null,
      version: w.status === "returned" ? 3 : submitted ? 2 : 1,
      at: now,
      log,
    });
  }
}
