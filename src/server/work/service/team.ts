/**
 * The team of a work: the first author adds and removes co-authors (by username) and
 * teachers, and orders the authors; a co-author confirms, declines or leaves. Only while
 * the work is editable and the 作者 / 指导教师 fields are not locked; every change moves
 * the work to its next version and is logged with the team before and after.
 */
import { badRequest, forbidden, invalid, notFound } from "../../../shared/errors";
import type { WorkView } from "../../../shared/work/schema";
import * as repo from "../repository";
import { checkVersion, inTransaction, loadVisible, writeAt, type Loaded, type TxCtx, type WorkCtx } from "./context";
import { refuseIfLocked, requireEditable, requireFirstAuthor } from "./edit";
import { insertAuthor, insertTeacher, rerank, resolveMember, teamNames } from "./members";
import { viewOf } from "./read";
import { pendingCounts } from "./invite";

/** Loads, checks the caller may change the team, then runs the change and logs it. */
async function changeTeam(
  ctx: WorkCtx,
  id: number,
  version: number | undefined,
  part: "authors" | "teachers",
  check: (l: Loaded) => void,
  change: (t: TxCtx, l: Loaded) => Promise<string>,
): Promise<WorkView | null> {
  return inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, id);
    check(l);
    requireEditable(l);
    checkVersion(l.work, version);
    await refuseIfLocked(t, l, part);
    await writeAt(t, l.work, {});
    const action = await change(t, l);
    await repo.refreshNames(t.db, id);
    const after = await loadVisible(t, id).catch(() => undefined);
    const before = part === "authors" ? teamNames(l.authors) : teamNames(l.teachers);
    const now = part === "authors" ? teamNames(await repo.authorsOf(t.db, id)) : teamNames(await repo.teachersOf(t.db, id));
    await repo.appendLog(t.db, { workId: id, userId: t.user.id, action, changes: { [part]: [before, now] } });
    // A co-author who left can no longer see the work.
    return after ? viewOf(t.db, after, t.now) : null;
  });
}

export const addAuthor = (ctx: WorkCtx, id: number, username: string, version?: number) =>
  changeTeam(
    ctx,
    id,
    version,
    "authors",
    (l) => requireFirstAuthor(l, "添加作者"),
    async (t, l) => {
      const u = await resolveMember(t, username, "author", { id: l.work.school_id, name: l.work.school_name }, "username");
      if (l.authors.some((a) => a.user_id === u.id)) throw invalid("username", `「${u.name}」已是本作品的作者`);
      const invited = (await pendingCounts(t.db, id, t.now)).author;
      if (l.authors.length + invited >= l.work.max_authors)
        throw badRequest(
          `「${l.work.category_name}」每件作品最多 ${l.work.max_authors} 名作者${invited ? `（含 ${invited} 份等待注册的邀请）` : ""}`,
        );
      await insertAuthor(t, l.work, u, l.authors.length + 1, false);
      return "add_author";
    },
  );

/** The first author removes a co-author; a co-author removing themself declines or leaves. */
export async function removeAuthor(ctx: WorkCtx, id: number, userId: number, version?: number) {
  const self = userId === ctx.user.id;
  return changeTeam(
    ctx,
    id,
    version,
    "authors",
    (l) => {
      const target = l.authors.find((a) => a.user_id === userId);
      if (self) {
        if (!target) throw forbidden("您不是该作品的作者");
        if (target.rank === 1) throw badRequest("第一作者不能退出作品；如不再参赛，请删除草稿");
      } else {
        requireFirstAuthor(l, "移除作者");
        if (!target) throw notFound("该用户不是本作品的作者");
        if (target.rank === 1) throw badRequest("不能移除第一作者");
      }
    },
    async (t, l) => {
      await t.db.deleteFrom("work_author").where("work_id", "=", l.work.id).where("user_id", "=", userId).execute();
      await rerank(t, "work_author", l.work.id);
      return self ? "decline_author" : "remove_author";
    },
  );
}

export const declineAuthor = (ctx: WorkCtx, id: number, version?: number) => removeAuthor(ctx, id, ctx.user.id, version);

/** A co-author confirms taking part (not an edit of the work: no lock applies). */
export async function confirmAuthor(ctx: WorkCtx, id: number, version?: number): Promise<WorkView> {
  return inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, id);
    if (!l.me) throw forbidden("您不是该作品的作者");
    if (l.me.confirmed) throw badRequest("您已确认参加该作品");
    checkVersion(l.work, version);
    await writeAt(t, l.work, {});
    await t.db
      .updateTable("work_author")
      .set({ confirmed: 1 })
      .where("work_id", "=", id)
      .where("user_id", "=", t.user.id)
      .execute();
    await repo.appendLog(t.db, {
      workId: id,
      userId: t.user.id,
      action: "confirm_author",
      changes: { confirmed: [`${l.me.name}（${l.me.username}）：待确认`, `${l.me.name}（${l.me.username}）：已确认`] },
    });
    return viewOf(t.db, await loadVisible(t, id), t.now);
  });
}

/** New author order: every author once, the first author first. */
export const reorderAuthors = (ctx: WorkCtx, id: number, userIds: number[], version?: number) =>
  changeTeam(
    ctx,
    id,
    version,
    "authors",
    (l) => {
      requireFirstAuthor(l, "调整作者顺序");
      const current = l.authors.map((a) => a.user_id);
      if (
        userIds.length !== current.length ||
        new Set(userIds).size !== userIds.length ||
        !userIds.every((u) => current.includes(u))
      ) {
        throw invalid("userIds", "作者顺序须包含本作品的每位作者各一次");
      }
      if (userIds[0] !== l.authors[0].user_id) throw invalid("userIds", "第一作者须排在第一位");
    },
    async (t, l) => {
      for (const [i, userId] of userIds.entries())
        await t.db
          .updateTable("work_author")
          .set({ rank: i + 1 })
          .where("work_id", "=", l.work.id)
          .where("user_id", "=", userId)
          .execute();
      return "reorder_authors";
    },
  );

export const addTeacher = (ctx: WorkCtx, id: number, username: string, version?: number) =>
  changeTeam(
    ctx,
    id,
    version,
    "teachers",
    (l) => requireFirstAuthor(l, "添加指导教师"),
    async (t, l) => {
      const u = await resolveMember(t, username, "teacher", { id: l.work.school_id, name: l.work.school_name }, "username");
      if (l.teachers.some((x) => x.user_id === u.id)) throw invalid("username", `「${u.name}」已是本作品的指导教师`);
      const invited = (await pendingCounts(t.db, id, t.now)).teacher;
      if (l.teachers.length + invited >= l.work.max_teachers)
        throw badRequest(
          `「${l.work.category_name}」每件作品最多 ${l.work.max_teachers} 名指导教师${invited ? `（含 ${invited} 份等待注册的邀请）` : ""}`,
        );
      await insertTeacher(t, l.work.id, u.id, l.teachers.length + 1);
      return "add_teacher";
    },
  );

export const removeTeacher = (ctx: WorkCtx, id: number, userId: number, version?: number) =>
  changeTeam(
    ctx,
    id,
    version,
    "teachers",
    (l) => {
      requireFirstAuthor(l, "移除指导教师");
      if (!l.teachers.some((x) => x.user_id === userId)) throw notFound("该用户不是本作品的指导教师");
    },
    async (t, l) => {
      await t.db.deleteFrom("work_teacher").where("work_id", "=", l.work.id).where("user_id", "=", userId).execute();
      await rerank(t, "work_teacher", l.work.id);
      return "remove_teacher";
    },
  );
