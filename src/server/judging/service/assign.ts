/**
 * Assignment use cases of a contest admin (or root), each in one transaction:
 * - automatic: the min-cost-flow assigner on a snapshot (groups restrict judges, existing
 *   assignments kept; all works, given works, or one group's works), its exact reasons when no complete assignment exists — then nothing
 *   is written unless the admin confirmed a partial one — and the rows written through
 *   applyAssignments; the parameters become the contest's judging settings;
 * - manual assignment, removal and replacement of single rows, through applyAssignments.
 */
import type { Transaction } from "kysely";
import { badRequest, notFound } from "../../../shared/errors";
import type { AssignBody, AssignOutcome, AssignmentView, JudgingSettings } from "../../../shared/judging/schema";
import type { Db } from "../../db";
import type { DB, User } from "../../db/schema";
import { lockContest } from "../../work/repository";
import { minCostFlow, type AssignIssue } from "../assign";
import { applyAssignments } from "./apply";
import { as404, requireManagedContest, saveSettings, settingsOf } from "./contest";
import { NO_GROUP } from "./groups";
import { loadSnapshot } from "./snapshot";

const LIST = 5;
/** "作品 1、2" or "作品 1、2、3、4、5 等 126 件作品" */
const worksText = (ids: readonly number[]) =>
  `作品 ${ids.slice(0, LIST).join("、")}${ids.length > LIST ? ` 等 ${ids.length} 件作品` : ""}`;

const issueView = (i: AssignIssue) => ({
  kind: i.kind,
  message: i.message,
  workIds: "workIds" in i ? i.workIds : "workId" in i ? [i.workId] : [],
});

/** The works an automatic assignment is limited to: the given ones, those of a group, or all (undefined). */
async function onlyWorks(trx: Transaction<DB>, contestId: number, body: AssignBody): Promise<number[] | undefined> {
  if (body.groupId === undefined) return body.workIds;
  const g = await trx
    .selectFrom("judge_group")
    .select(["id", "name"])
    .where("id", "=", body.groupId)
    .where("contest_id", "=", contestId)
    .executeTakeFirst();
  if (!g) throw notFound(NO_GROUP);
  const inGroup = (
    await trx.selectFrom("judge_group_work").select("work_id").where("group_id", "=", g.id).orderBy("work_id").execute()
  ).map((r) => Number(r.work_id));
  const ids = body.workIds ? inGroup.filter((id) => body.workIds!.includes(id)) : inGroup;
  if (!ids.length)
    throw badRequest(body.workIds ? `所选作品都不在评审组「${g.name}」中` : `评审组「${g.name}」还没有作品，请先把作品分入该组`);
  return ids;
}

export async function autoAssign(db: Db, user: User, contestId: number, body: AssignBody): Promise<AssignOutcome> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    const current = await settingsOf(trx, c.id);
    const settings: JudgingSettings = {
      reviewsPerWork: body.reviewsPerWork ?? current.reviewsPerWork,
      judgeCapacity: body.judgeCapacity !== undefined ? body.judgeCapacity : current.judgeCapacity,
      avoidProvince: body.avoidProvince ?? current.avoidProvince,
    };
    await lockContest(trx, c.id);
    const snap = await loadSnapshot(trx, c, settings, await onlyWorks(trx, c.id, body));
    const result = minCostFlow.propose(snap.input, minCostFlow.defaults);
    const issues: { kind: string; message: string; workIds: number[] }[] = result.issues.map(issueView);
    if (snap.ungrouped.length) {
      const ids = snap.ungrouped.map((w) => w.id);
      issues.unshift({ kind: "work_without_group", workIds: ids, message: `${worksText(ids)}尚未分入评审组，未参加分配` });
    }
    const missing = (body.workIds ?? []).filter((id) => !snap.works.has(id));
    if (missing.length)
      issues.unshift({
        kind: "work_not_in_pool",
        workIds: missing,
        message: `${worksText(missing)}不在本赛事的评审作品中（省级及以上赛事须已通过形式审查）`,
      });
    if (!snap.input.works.length && !issues.length)
      issues.push({ kind: "no_works", workIds: [], message: "没有需要分配评委的作品" });
    const complete = result.complete && !snap.ungrouped.length && !missing.length;
    const applied = complete || !!body.confirmPartial;
    let added = 0;
    if (applied) {
      if (result.rows.length)
        added = (await applyAssignments(trx, { contest: c, userId: user.id, add: result.rows, settings })).added;
      await saveSettings(trx, c.id, settings, user.id);
    }
    return {
      applied,
      complete,
      added,
      proposed: result.rows.length,
      issues,
      shortfalls: result.shortfalls,
      works: snap.input.works.length,
      judges: snap.input.judges.length,
      maxLoad: result.maxLoad,
      minLoad: result.minLoad,
      loadSpread: result.loadSpread,
    };
  });
}

async function viewOf(db: Db | Transaction<DB>, id: number): Promise<AssignmentView> {
  const r = await assignmentRows(db).where("judge_assignment.id", "=", id).executeTakeFirstOrThrow();
  return toView(r);
}

export const assignmentRows = (db: Db | Transaction<DB>) =>
  db
    .selectFrom("judge_assignment")
    .innerJoin("work", "work.id", "judge_assignment.work_id")
    .innerJoin("app_user", "app_user.id", "judge_assignment.judge_id")
    .leftJoin("judge_group", "judge_group.id", "judge_assignment.group_id")
    .select([
      "judge_assignment.id",
      "judge_assignment.work_id",
      "work.name as work_name",
      "judge_assignment.judge_id",
      "app_user.name as judge_name",
      "judge_assignment.group_id",
      "judge_group.name as group_name",
      "judge_assignment.created_at",
    ]);

type Row = Awaited<ReturnType<ReturnType<typeof assignmentRows>["executeTakeFirstOrThrow"]>>;
export const toView = (r: Row): AssignmentView => ({
  id: r.id,
  workId: Number(r.work_id),
  workName: r.work_name,
  judgeId: r.judge_id,
  judgeName: r.judge_name,
  group: r.group_id !== null ? { id: r.group_id, name: r.group_name ?? "" } : null,
  createdAt: r.created_at,
});

export async function manualAssign(
  db: Db,
  user: User,
  contestId: number,
  workId: number,
  judgeId: number,
): Promise<AssignmentView> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await applyAssignments(trx, { contest: c, userId: user.id, add: [{ workId, judgeId }] });
    const row = await trx
      .selectFrom("judge_assignment")
      .select("id")
      .where("contest_id", "=", c.id)
      .where("work_id", "=", workId)
      .where("judge_id", "=", judgeId)
      .executeTakeFirstOrThrow();
    return viewOf(trx, row.id);
  });
}

/** The assignment, when its contest is the caller's; 404 otherwise. */
async function managedAssignment(trx: Transaction<DB>, user: User, id: number) {
  const row = await trx
    .selectFrom("judge_assignment")
    .select(["id", "contest_id", "work_id", "judge_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("分配记录不存在或已被移除");
  const c = await requireManagedContest(trx, user, row.contest_id).catch(as404("分配记录不存在或已被移除"));
  return { row: { ...row, work_id: Number(row.work_id) }, c };
}

export async function removeAssignment(db: Db, user: User, id: number): Promise<AssignmentView> {
  return db.transaction().execute(async (trx) => {
    const { c } = await managedAssignment(trx, user, id);
    const before = await viewOf(trx, id);
    await applyAssignments(trx, { contest: c, userId: user.id, add: [], remove: [id] });
    return before;
  });
}

export async function replaceAssignment(db: Db, user: User, id: number, judgeId: number): Promise<AssignmentView> {
  return db.transaction().execute(async (trx) => {
    const { row, c } = await managedAssignment(trx, user, id);
    await applyAssignments(trx, { contest: c, userId: user.id, add: [{ workId: row.work_id, judgeId }], remove: [id] });
    const now = await trx
      .selectFrom("judge_assignment")
      .select("id")
      .where("contest_id", "=", c.id)
      .where("work_id", "=", row.work_id)
      .where("judge_id", "=", judgeId)
      .executeTakeFirstOrThrow();
    return viewOf(trx, now.id);
  });
}

export async function listAssignments(
  db: Db,
  user: User,
  contestId: number,
  f: { workId?: number; judgeId?: number; groupId?: number },
): Promise<AssignmentView[]> {
  const c = await requireManagedContest(db, user, contestId);
  let q = assignmentRows(db).where("judge_assignment.contest_id", "=", c.id);
  if (f.workId !== undefined) q = q.where("judge_assignment.work_id", "=", f.workId);
  if (f.judgeId !== undefined) q = q.where("judge_assignment.judge_id", "=", f.judgeId);
  if (f.groupId !== undefined) q = q.where("judge_assignment.group_id", "=", f.groupId);
  return (await q.orderBy("judge_assignment.work_id").orderBy("app_user.name").limit(5000).execute()).map(toView);
}
