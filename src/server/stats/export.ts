/**
 * A dashboard's figures as an .xlsx workbook (GET /Backend/Stats/<dashboard>/export): the same
 * reply the dashboard shows (same scope, same cache), one sheet per chart group, Chinese sheet
 * and column names. The figures are small (hundreds of rows), so the workbook is built in
 * memory with exceljs (loaded on first use through crud/xlsx-utf8, like every export).
 */
import { COMPLAINT_STATE_NAMES, type ComplaintState } from "../../shared/complaint/states";
import { STATS_DASHBOARD_NAMES, type StatsQuery } from "../../shared/stats/schema";
import type { User } from "../db/schema";
import type { Handle } from "../work/repository";
import { dashboard, type Dashboard, type Replies } from "./service";

export interface Sheet {
  name: string;
  columns: string[];
  rows: (string | number | null)[][];
}

const pct = (x: number) => Math.round(x * 10000) / 100;
const r2 = (x: number) => Math.round(x * 100) / 100;

const SHEETS: { [K in Dashboard]: (r: Replies[K]) => Sheet[] } = {
  timeline: (r) =>
    [r.current, ...(r.previous ? [r.previous] : [])].map((e) => ({
      name: `${e.year}年`,
      columns: ["系列", "日期", "距截止日（天）", "当日数量", "累计"],
      rows: e.series.flatMap((s) => s.points.map((p) => [s.name, p.date, p.daysBefore, p.count, p.cumulative])),
    })),
  pipeline: (r) => [
    {
      name: "各状态作品数",
      columns: ["赛事", ...r.states.map((s) => s.name), "合计"],
      rows: [
        ...r.contests.map((c) => [c.contestName, ...r.states.map((s) => c.counts[s.state] ?? 0), c.total]),
        ["合计", ...r.states.map((s) => r.totals[s.state] ?? 0), r.total],
      ],
    },
  ],
  breakdown: (r) => {
    const share = (name: string, first: string, list: { name: string; count: number; share: number }[]): Sheet => ({
      name,
      columns: [first, "作品数", "占比（%）"],
      rows: list.map((x) => [x.name, x.count, pct(x.share)]),
    });
    const sheets = [
      share("按省份", "省份", r.provinces),
      share("作品最多的学校", "学校", r.topSchools),
      share("作品最少的学校", "学校", r.bottomSchools),
      {
        name: "按类别",
        columns: ["大类", "小类", "作品数", "占比（%）"],
        rows: r.categories.flatMap((c) => [
          [c.name, "（合计）", c.count, pct(c.share)],
          ...c.subcategories.map((s) => [c.name, s.name, s.count, pct(s.share)]),
        ]),
      },
      share("按组别", "组别", r.groups),
    ];
    if (r.school)
      sheets.push(
        {
          name: "本校概况",
          columns: ["学校", "作品数", "学生数", "人均作品", "指导教师数", "学校退回", "形式审查退回"],
          rows: [
            [
              r.school.schoolName,
              r.school.works,
              r.school.students,
              r2(r.school.worksPerStudent),
              r.school.teachers,
              r.school.returnedBySchool,
              r.school.returnedByFormat,
            ],
          ],
        },
        {
          name: "退回原因",
          columns: ["退回方", "原因", "作品数"],
          rows: r.school.reasons.map((x) => [x.kind === "format" ? "形式审查" : "学校", x.reason, x.count]),
        },
      );
    return sheets;
  },
  progress: (r) => [
    {
      name: "形式审查",
      columns: ["待审查", "通过", "退回修改", "不符合要求"],
      rows: [[r.formatReview.pending, r.formatReview.passed, r.formatReview.returned, r.formatReview.rejected]],
    },
    {
      name: "审核员",
      columns: ["审核员", "通过", "退回修改", "不符合要求", "合计", "最近审查时间"],
      rows: r.formatReview.reviewers.map((x) => [x.name, x.passed, x.returned, x.rejected, x.total, x.lastAt]),
    },
    {
      name: "评审分组",
      columns: ["分组", "作品数", "应评分数", "已提交评分", "完成比例（%）"],
      rows: r.groups.map((g) => [g.name, g.works, g.expected, g.submitted, pct(g.share)]),
    },
    {
      name: "评委进度",
      columns: ["评委", "分组", "分配作品", "已开始", "已提交", "最近评分时间"],
      rows: r.judges.map((j) => [j.name, j.groupName, j.assigned, j.started, j.finished, j.lastActivityAt]),
    },
    {
      name: "现场答辩",
      columns: ["答辩场次", "已抽签", "已签字确认", "答辩作品", "已评分作品"],
      rows: [[r.defence.sessions, r.defence.drawn, r.defence.signedOff, r.defence.slots, r.defence.scoredSlots]],
    },
  ],
  scores: (r) => [
    {
      name: "分数分布",
      columns: ["分组", "评分数", "作品数", "最低", "下四分位", "中位数", "上四分位", "最高", "分歧作品"],
      rows: r.groups.map((g) => [
        g.name,
        g.scores,
        g.works,
        g.box && r2(g.box.min),
        g.box && r2(g.box.q1),
        g.box && r2(g.box.median),
        g.box && r2(g.box.q3),
        g.box && r2(g.box.max),
        g.flagged,
      ]),
    },
    {
      name: "评委宽严",
      columns: ["评委", "分组", "评分数", "平均分", "标准差", "宽严效应（+宽松 −严格）"],
      rows: r.judges.map((j) => [j.name, j.groupName, j.count, r2(j.mean), r2(j.sd), r2(j.effect)]),
    },
    {
      name: "分歧作品",
      columns: ["作品编号", "作品名称", "分组", "评委数", "最低分", "最高分", "分差"],
      rows: r.flags.map((x) => [x.workId, x.workName, x.groupName, x.judgeCount, r2(x.min), r2(x.max), r2(x.spread)]),
    },
    {
      name: "奖项与名额",
      columns: ["赛事", "奖项", "已获奖作品", "名额"],
      rows: r.awards.map((a) => [a.contestName, a.levelName, a.count, a.quota]),
    },
  ],
  complaints: (r) => [
    {
      name: "申诉",
      columns: ["赛事", "提交", "已决定", "支持（含部分支持）", "仲裁中", "逾期", "处理中"],
      rows: [
        ...r.contests.map((c) => [c.contestName, c.filed, c.decided, c.upheld, c.inArbitration, c.overdue, c.open]),
        ["合计", r.totals.filed, r.totals.decided, r.totals.upheld, r.totals.inArbitration, r.totals.overdue, r.totals.open],
      ],
    },
    {
      name: "按状态",
      columns: ["状态", "数量"],
      rows: Object.entries(r.states).map(([s, n]) => [COMPLAINT_STATE_NAMES[s as ComplaintState] ?? s, n]),
    },
  ],
};

/** The workbook of one dashboard for the caller: its file name and bytes. */
export async function exportDashboard(
  db: Handle,
  user: User,
  name: Dashboard,
  q: StatsQuery,
): Promise<{ filename: string; buffer: Buffer }> {
  const reply = await dashboard(db, user, name, q);
  const sheets = (SHEETS[name] as (r: Replies[Dashboard]) => Sheet[])(reply);
  const { ExcelJS } = await import("../crud/xlsx-utf8");
  const wb = new ExcelJS.Workbook();
  for (const sh of sheets) {
    const ws = wb.addWorksheet(sh.name);
    ws.columns = sh.columns.map((header) => ({ header, width: Math.max(10, header.length * 2 + 4) }));
    ws.getRow(1).font = { bold: true };
    for (const row of sh.rows) ws.addRow(row);
  }
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());
  const s = reply.scope;
  return { filename: `统计-${STATS_DASHBOARD_NAMES[name]}-${s.year}.xlsx`, buffer };
}
