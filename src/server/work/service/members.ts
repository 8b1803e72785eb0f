/**
 * Team members of a work: resolving usernames to students and teachers of the work's
 * school, adding authors under the one-work-per-大类 rule, the team's names for the log,
 * and the category, 小类 and group checks shared by create and edit.
 */
import { conflict, invalid } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import { GROUP_NAMES, onePerCategoryMessage, type WorkGroupKey } from "../../../shared/work/fields";
import * as repo from "../repository";
import { contestOpensCategory } from "../rules";
import type { TxCtx } from "./context";

export type Member = NonNullable<Awaited<ReturnType<typeof repo.findUserByUsername>>>;

/** A student (author) or teacher of the school, by username; a clear refusal naming `field` otherwise. */
export async function resolveMember(
  t: TxCtx,
  username: string,
  kind: "author" | "teacher",
  school: { id: number; name: string },
  field: string,
): Promise<Member> {
  const u = await repo.findUserByUsername(t.db, username);
  if (!u) throw invalid(field, `用户名「${username.trim()}」不存在，请确认对方已注册账号`);
  const who = `「${u.name}」（${u.username}）`;
  if (u.archived || u.locked) throw invalid(field, `账号${who}已停用，不能加入作品`);
  if (kind === "author" && u.user_type !== ROLE.author) throw invalid(field, `${who}不是学生账号，不能作为作者`);
  if (kind === "teacher" && u.user_type !== ROLE.teacher) throw invalid(field, `${who}不是教师账号，不能作为指导教师`);
  if (u.school_id !== school.id)
    throw invalid(field, `${who}不是${school.name}的${kind === "author" ? "学生" : "教师"}，作者和指导教师须与作品属于同一学校`);
  return u;
}

/** Distinct usernames in order; a repeated one is refused. */
export function distinct(usernames: string[], field: string): string[] {
  const seen = new Set<string>();
  for (const u of usernames.map((x) => x.trim())) {
    if (seen.has(u)) throw invalid(field, `用户名「${u}」重复`);
    seen.add(u);
  }
  return [...seen];
}

/**
 * Adds an author under the one-work-per-大类-per-year rule: checked first for a clear
 * message, and enforced by the unique index when two requests race.
 */
export async function insertAuthor(
  t: TxCtx,
  work: { id: number; category_id: number; year: number },
  user: { id: number; name: string },
  rank: number,
  confirmed: boolean,
) {
  const refuse = async () => {
    const e = await repo.entryOf(t.db, user.id, work.category_id, work.year, work.id);
    return conflict(onePerCategoryMessage(e?.name ?? "", e?.id ?? 0, user.name));
  };
  if (await repo.entryOf(t.db, user.id, work.category_id, work.year, work.id)) throw await refuse();
  const r = await repo.guardOnePerCategory(t.db, () =>
    t.db
      .insertInto("work_author")
      .values({
        work_id: work.id,
        user_id: user.id,
        rank,
        confirmed: confirmed ? 1 : 0,
        category_id: work.category_id,
        year: work.year,
        created_at: t.now.toISOString(),
      })
      .execute(),
  );
  if (r === "conflict") throw await refuse();
}

export async function insertTeacher(t: TxCtx, workId: number, userId: number, rank: number) {
  await t.db
    .insertInto("work_teacher")
    .values({ work_id: workId, user_id: userId, rank, created_at: t.now.toISOString() })
    .execute();
}

/** Names of a team for the log, in rank order, with a mark for authors yet to confirm. */
export const teamNames = (rows: { name: string; username: string; confirmed?: number }[]) =>
  rows.map((r) => `${r.name}（${r.username}）${r.confirmed === 0 ? "［待确认］" : ""}`);

/** Renumbers ranks 1..n after a member leaves. */
export async function rerank(t: TxCtx, table: "work_author" | "work_teacher", workId: number) {
  const rows = await t.db.selectFrom(table).select(["id", "rank"]).where("work_id", "=", workId).orderBy("rank").execute();
  for (const [i, r] of rows.entries())
    if (r.rank !== i + 1)
      await t.db
        .updateTable(table)
        .set({ rank: i + 1 })
        .where("id", "=", r.id)
        .execute();
}

/** A 大类 open in the contest. */
export async function checkCategory(t: TxCtx, contest: { name: string; categories: string }, categoryId: number) {
  const cat = await repo.findCategory(t.db, categoryId);
  if (!cat || cat.parent_id !== null) throw invalid("categoryId", "作品大类不存在");
  if (cat.archived) throw invalid("categoryId", `大类「${cat.name}」已停用`);
  if (!contestOpensCategory(contest, cat.id)) throw invalid("categoryId", `「${contest.name}」未开放大类「${cat.name}」`);
  return cat;
}

/** A 小类 of the 大类, or none. */
export async function checkSubcategory(
  t: TxCtx,
  cat: repo.CategoryRow,
  subcategoryId: number | null | undefined,
): Promise<number | null> {
  if (subcategoryId === null || subcategoryId === undefined) return null;
  const sub = await repo.findCategory(t.db, subcategoryId);
  if (!sub || sub.parent_id !== cat.id) throw invalid("subcategoryId", `所选小类不属于大类「${cat.name}」`);
  if (sub.archived) throw invalid("subcategoryId", `小类「${sub.name}」已停用`);
  return sub.id;
}

export function checkGroup(cat: repo.CategoryRow, group: WorkGroupKey | undefined): WorkGroupKey {
  const g = group ?? "normal";
  if (g === "professional" && !cat.has_professional_group)
    throw invalid("group", `大类「${cat.name}」不分专业组，请选择${GROUP_NAMES.normal}`);
  return g;
}
