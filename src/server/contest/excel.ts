/**
 * Contests in Excel, keyed by the contest code (e.g. "2026-ZJ"). References are by
 * natural keys: the parent's contest code, the school code, category names, usernames.
 */
import type { ContestCreate, ContestUpdate, ContestView } from "../../shared/contest/schema";
import { CONTEST_LEVEL_NAMES, CONTEST_LEVELS, STAGE_KEYS, STAGE_NAMES, type StageKey } from "../../shared/contest/stages";
import { ROLE } from "../../shared/roles";
import type { Ctx, ExcelDef } from "../crud/resource";
import { formatTime, parseTime } from "./validate";
import { contestsByCodes } from "./view";

interface Prep {
  contests: Map<string, number>;
  schools: Map<string, number>;
  categories: Map<string, number>;
  users: Map<string, { id: number; type: number }>;
}

const LIST_SEP = /[、,，;；\n]+/;
const splitList = (t: string) =>
  t
    .split(LIST_SEP)
    .map((s) => s.trim())
    .filter(Boolean);

function int(t: string, what: string, min = 0) {
  if (!/^\d+$/.test(t)) throw new Error(`${what}须为整数`);
  const n = Number(t);
  if (n < min) throw new Error(`${what}不能小于 ${min}`);
  return n;
}

function parseLevel(t: string) {
  const hit = CONTEST_LEVELS.find((l) => CONTEST_LEVEL_NAMES[l] === t || l === t);
  if (!hit) throw new Error("级别只能是国赛、省赛或校赛");
  return hit;
}

/** "报名：2026-01-01 00:00 ~ 2026-04-30 23:59", one stage per line, Beijing time. */
function parseStages(t: string) {
  return t
    .split(/[\n;；]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((line) => {
      const m = /^([^:：]+)[:：]\s*(.+?)\s*[~～至]\s*(.+)$/.exec(line);
      if (!m) throw new Error(`“${line}”格式不正确，应为“报名：2026-03-01 08:00 ~ 2026-04-30 18:00”`);
      const stage = STAGE_KEYS.find((k) => STAGE_NAMES[k] === m[1].trim() || k === m[1].trim());
      if (!stage) throw new Error(`没有名为“${m[1].trim()}”的阶段，可用：${STAGE_KEYS.map((k) => STAGE_NAMES[k]).join("、")}`);
      const startsAt = parseTime(m[2]);
      const endsAt = parseTime(m[3]);
      if (!startsAt || !endsAt) throw new Error(`“${STAGE_NAMES[stage]}”的时间格式不正确，应为 2026-03-01 08:00`);
      if (startsAt >= endsAt) throw new Error(`“${STAGE_NAMES[stage]}”的结束时间必须晚于开始时间`);
      return { stage: stage as StageKey, startsAt, endsAt };
    });
}

function parseUsers(t: string, prep: Prep, type: number, what: string) {
  return splitList(t).map((username) => {
    const u = prep.users.get(username);
    if (!u) throw new Error(`用户名 ${username} 不存在`);
    if (u.type !== type) throw new Error(`用户 ${username} 不是${what}`);
    return u.id;
  });
}

/** The id a code or name in the sheet stands for; the row's error when there is none. */
function lookup(ids: Map<string, number>, key: string, missing: string): number {
  const id = ids.get(key);
  if (!id) throw new Error(missing);
  return id;
}

export const contestExcel: ExcelDef<ContestView, ContestCreate, ContestUpdate> = {
  sheet: "赛事",
  keyField: "code",
  columns: [
    { key: "code", header: "赛事代码", width: 14, get: (v) => v.code },
    { key: "name", header: "赛事名称", width: 40, get: (v) => v.name },
    { key: "level", header: "级别", width: 8, get: (v) => CONTEST_LEVEL_NAMES[v.level], parse: parseLevel },
    { key: "year", header: "年份", width: 8, get: (v) => v.year, parse: (t) => int(t, "年份", 2000) },
    {
      key: "parentId",
      header: "上级赛事代码",
      width: 14,
      get: (v) => v.parentCode,
      parse: (t, p: Prep) => lookup(p.contests, t, `赛事代码 ${t} 不存在`),
    },
    { key: "parentName", header: "上级赛事", width: 36, get: (v) => v.parentName, readOnly: true },
    { key: "province", header: "省份", width: 10, get: (v) => v.province },
    {
      key: "schoolId",
      header: "学校代码",
      width: 10,
      get: (v) => v.schoolCode,
      parse: (t, p: Prep) => lookup(p.schools, t, `学校代码 ${t} 不存在`),
    },
    { key: "schoolName", header: "学校", width: 20, get: (v) => v.schoolName, readOnly: true },
    { key: "description", header: "简介", width: 40, get: (v) => v.description },
    {
      key: "categories",
      header: "开放大类（以、分隔）",
      width: 50,
      get: (v) => v.categoryNames.join("、"),
      parse: (t, p: Prep) => splitList(t).map((name) => lookup(p.categories, name, `没有名为“${name}”的作品大类`)),
    },
    { key: "recommendQuota", header: "推荐名额", width: 10, get: (v) => v.recommendQuota, parse: (t) => int(t, "推荐名额") },
    {
      key: "categoryQuotas",
      header: "分大类名额（大类：名额，以；分隔）",
      width: 50,
      get: (v) => v.categoryQuotas.map((q) => `${q.categoryName}：${q.quota}`).join("；"),
      parse: (t, p: Prep) =>
        t
          .split(/[;；\n]+/)
          .map((s) => s.trim())
          .filter(Boolean)
          .map((item) => {
            const m = /^(.+?)\s*[:：]\s*(\d+)$/.exec(item);
            if (!m) throw new Error(`“${item}”格式不正确，应为“软件应用与开发：30”`);
            const categoryId = p.categories.get(m[1].trim());
            if (!categoryId) throw new Error(`没有名为“${m[1].trim()}”的作品大类`);
            return { categoryId, quota: Number(m[2]) };
          }),
    },
    {
      key: "stages",
      header: "阶段时间（每行一个阶段，北京时间）",
      width: 60,
      get: (v) => v.stages.map((s) => `${STAGE_NAMES[s.stage]}：${formatTime(s.startsAt)} ~ ${formatTime(s.endsAt)}`).join("\n"),
      parse: parseStages,
    },
    {
      key: "adminIds",
      header: "赛事管理员（用户名，以、分隔）",
      width: 30,
      get: (v) => v.admins.map((a) => a.username).join("、"),
      parse: (t, p: Prep) => parseUsers(t, p, ROLE.contestAdmin, "赛事管理员"),
    },
    {
      key: "reviewerIds",
      header: "审核员（用户名，以、分隔）",
      width: 30,
      get: (v) => v.reviewers.map((a) => a.username).join("、"),
      parse: (t, p: Prep) => parseUsers(t, p, ROLE.contestReviewer, "赛事审核员"),
    },
    { key: "archived", header: "已归档", width: 8, get: (v) => (v.archived ? "是" : "否"), readOnly: true },
  ],

  async prepare(ctx: Ctx): Promise<Prep> {
    const contests = await ctx.db.selectFrom("contest").select(["id", "code"]).execute();
    const schools = await ctx.db.selectFrom("school").select(["id", "code"]).execute();
    const categories = await ctx.db.selectFrom("work_category").select(["id", "name"]).where("parent_id", "is", null).execute();
    const users = await ctx.db
      .selectFrom("app_user")
      .select(["id", "username", "user_type"])
      .where("user_type", "in", [ROLE.contestAdmin, ROLE.contestReviewer])
      .execute();
    return {
      contests: new Map(contests.filter((c) => c.code).map((c) => [c.code!, c.id])),
      schools: new Map(schools.map((s) => [s.code, s.id])),
      categories: new Map(categories.map((c) => [c.name, c.id])),
      users: new Map(users.map((u) => [u.username, { id: u.id, type: u.user_type }])),
    };
  },

  async findByKeys(ctx, keys) {
    const out = new Map<string, ContestView | null>();
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const all = await ctx.db.selectFrom("contest").select("code").where("code", "in", chunk).execute();
      for (const r of all) out.set(r.code!, null);
      for (const v of await contestsByCodes(ctx, chunk)) out.set(v.code, v);
    }
    return out;
  },
};
