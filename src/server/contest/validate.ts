/**
 * The rules of a contest's data, checked on the merged state (before + input) of a
 * create or update: the level chain, stage times, open categories and quotas, members.
 * Every failure names the field.
 */
import { invalid } from "../../shared/errors";
import {
  CONTEST_LEVEL_NAMES,
  PARENT_LEVEL,
  STAGE_NAMES,
  type ContestLevelKey,
  type StageTimes,
} from "../../shared/contest/stages";
import { ROLE, ROLE_NAMES } from "../../shared/roles";
import type { Trx } from "../crud/resource";

export interface ContestState {
  level: ContestLevelKey;
  year: number;
  parentId: number | null;
  province: string | null;
  schoolId: number | null;
  categories: number[];
  categoryQuotas: { categoryId: number; quota: number }[];
  stages: StageTimes[];
}

/** Checks parent, province and school against the level; returns the province to store. */
export async function checkChain(trx: Trx, s: ContestState): Promise<string | null> {
  const levelName = CONTEST_LEVEL_NAMES[s.level];
  const parentLevel = PARENT_LEVEL[s.level];
  if (s.level !== "school" && s.schoolId !== null) throw invalid("schoolId", `只有校赛需要设置学校，${levelName}不能设置学校`);
  if (!parentLevel) {
    if (s.parentId !== null) throw invalid("parentId", "国赛是最高级别的赛事，不能设置上级赛事");
    if (s.province) throw invalid("province", "国赛不设省份");
    return null;
  }
  const parentName = CONTEST_LEVEL_NAMES[parentLevel];
  if (s.parentId === null) throw invalid("parentId", `${levelName}必须选择上级${parentName}`);
  const parent = await trx
    .selectFrom("contest")
    .select(["id", "name", "level", "year", "province", "archived"])
    .where("id", "=", s.parentId)
    .executeTakeFirst();
  if (!parent) throw invalid("parentId", `上级赛事（编号 ${s.parentId}）不存在`);
  if (parent.level !== parentLevel)
    throw invalid(
      "parentId",
      `${levelName}的上级赛事必须是${parentName}，“${parent.name}”是${CONTEST_LEVEL_NAMES[parent.level]}`,
    );
  if (parent.archived) throw invalid("parentId", `上级赛事“${parent.name}”已归档，不能在其下设置赛事`);
  if (parent.year !== s.year) throw invalid("year", `${levelName}的年份须与上级赛事“${parent.name}”一致（${parent.year} 年）`);
  if (s.level === "provincial") {
    if (!s.province?.trim()) throw invalid("province", "省赛必须填写省份（或赛区）");
    return s.province.trim();
  }
  if (s.schoolId === null) throw invalid("schoolId", "校赛必须选择学校");
  const school = await trx
    .selectFrom("school")
    .select(["id", "name", "province", "archived"])
    .where("id", "=", s.schoolId)
    .executeTakeFirst();
  if (!school) throw invalid("schoolId", `学校（编号 ${s.schoolId}）不存在`);
  if (school.archived) throw invalid("schoolId", `学校“${school.name}”已归档`);
  if (school.province !== parent.province)
    throw invalid(
      "schoolId",
      `学校“${school.name}”位于${school.province}，与上级省赛“${parent.name}”的省份（${parent.province ?? "未设置"}）不一致`,
    );
  if (s.province && s.province !== school.province)
    throw invalid("province", `校赛的省份须与学校所在省份（${school.province}）一致`);
  return school.province;
}

const CHINA_OFFSET_MS = 8 * 3600_000;

/** Accepts ISO times and "YYYY-MM-DD HH:mm[:ss]" in Beijing time; returns ISO or null. */
export function parseTime(text: string): string | null {
  const t = text.trim();
  const local = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (local) {
    const [, y, mo, d, h = "0", mi = "0", se = "0"] = local;
    const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +se) - CHINA_OFFSET_MS;
    const back = new Date(ms + CHINA_OFFSET_MS);
    if (back.getUTCMonth() !== +mo - 1 || back.getUTCDate() !== +d || +h > 23) return null;
    return new Date(ms).toISOString();
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** "2026-03-01 08:00" in Beijing time. */
export function formatTime(iso: string): string {
  return new Date(Date.parse(iso) + CHINA_OFFSET_MS).toISOString().slice(0, 16).replace("T", " ");
}

/** Each stage once, valid times, start before end; returns the stages with ISO times. */
export function checkStages(stages: StageTimes[]): StageTimes[] {
  const seen = new Set<string>();
  return stages.map((s, i) => {
    const name = STAGE_NAMES[s.stage];
    if (seen.has(s.stage)) throw invalid(`stages.${i}.stage`, `阶段“${name}”重复设置`);
    seen.add(s.stage);
    const startsAt = parseTime(s.startsAt);
    if (!startsAt) throw invalid(`stages.${i}.startsAt`, `“${name}”阶段的开始时间格式不正确`);
    const endsAt = parseTime(s.endsAt);
    if (!endsAt) throw invalid(`stages.${i}.endsAt`, `“${name}”阶段的结束时间格式不正确`);
    if (Date.parse(startsAt) >= Date.parse(endsAt))
      throw invalid(`stages.${i}.endsAt`, `“${name}”阶段的结束时间必须晚于开始时间`);
    return { stage: s.stage, startsAt, endsAt };
  });
}

/** Open categories must be 大类; quotas only for open categories, once each. */
export async function checkCategories(trx: Trx, s: ContestState) {
  const top = new Map(
    (await trx.selectFrom("work_category").select(["id", "name"]).where("parent_id", "is", null).execute()).map((r) => [
      r.id,
      r.name,
    ]),
  );
  const categories = [...new Set(s.categories)];
  for (const id of categories) if (!top.has(id)) throw invalid("categories", `作品大类（编号 ${id}）不存在`);
  const seen = new Set<number>();
  s.categoryQuotas.forEach((q, i) => {
    const name = top.get(q.categoryId);
    if (!name) throw invalid(`categoryQuotas.${i}.categoryId`, `作品大类（编号 ${q.categoryId}）不存在`);
    if (!categories.includes(q.categoryId))
      throw invalid(`categoryQuotas.${i}.categoryId`, `大类“${name}”未开放，不能设置推荐名额`);
    if (seen.has(q.categoryId)) throw invalid(`categoryQuotas.${i}.categoryId`, `大类“${name}”的名额重复设置`);
    seen.add(q.categoryId);
  });
  return { categories, quotas: Object.fromEntries(s.categoryQuotas.map((q) => [String(q.categoryId), q.quota])) };
}

/** The users exist and have the role the membership needs. */
export async function checkMembers(trx: Trx, field: "adminIds" | "reviewerIds", ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const role = field === "adminIds" ? ROLE.contestAdmin : ROLE.contestReviewer;
  const users = await trx.selectFrom("app_user").select(["id", "name", "user_type"]).where("id", "in", unique).execute();
  for (const id of unique) {
    const u = users.find((x) => x.id === id);
    if (!u) throw invalid(field, `用户（编号 ${id}）不存在`);
    if (u.user_type !== role)
      throw invalid(
        field,
        `用户“${u.name}”不是${ROLE_NAMES[role]}，不能设为本赛事的${field === "adminIds" ? "管理员" : "审核员"}`,
      );
  }
  return unique;
}

/** Replaces the members of one role. */
export async function setMembers(trx: Trx, contestId: number, role: "admin" | "reviewer", ids: number[]) {
  await trx.deleteFrom("contest_member").where("contest_id", "=", contestId).where("role", "=", role).execute();
  if (!ids.length) return;
  const now = new Date().toISOString();
  await trx
    .insertInto("contest_member")
    .values(ids.map((user_id) => ({ contest_id: contestId, user_id, role, created_at: now })))
    .execute();
}

export async function setStages(trx: Trx, contestId: number, stages: StageTimes[]) {
  await trx.deleteFrom("contest_stage").where("contest_id", "=", contestId).execute();
  if (!stages.length) return;
  await trx
    .insertInto("contest_stage")
    .values(stages.map((s) => ({ contest_id: contestId, stage: s.stage, starts_at: s.startsAt, ends_at: s.endsAt })))
    .execute();
}

export async function ensureCodeFree(trx: Trx, code: string, selfId?: number) {
  let q = trx.selectFrom("contest").select("id").where("code", "=", code);
  if (selfId) q = q.where("id", "!=", selfId);
  if (await q.executeTakeFirst()) throw invalid("code", `赛事代码 ${code} 已被使用`);
}

/** A contest with children keeps its level, year and province: the children depend on them. */
export async function checkChildren(trx: Trx, contestId: number, changed: { level: boolean; year: boolean; province: boolean }) {
  if (!changed.level && !changed.year && !changed.province) return;
  const n = await trx
    .selectFrom("contest")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", contestId)
    .executeTakeFirstOrThrow();
  if (!Number(n.n)) return;
  const what = changed.level ? "级别" : changed.year ? "年份" : "省份";
  throw invalid(changed.level ? "level" : changed.year ? "year" : "province", `该赛事已有 ${n.n} 个下级赛事，不能修改${what}`);
}
