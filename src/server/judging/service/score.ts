/**
 * Online scoring: a judge's score of one ASSIGNED work (judge_score, one row per
 * judge_assignment), the judge's overview of a contest, and the contest admin's side
 * (progress, reopening a submitted score, checking the score log).
 *
 * - Who: the judges of judge.ts — role-4 contest judges, and teachers flagged as
 *   school-contest judges in the own school's school contest — and only for works assigned
 *   to them and still judged (requireAssigned): anything else answers the same 404.
 * - What: points per rubric item of the work's 大类 (0..max, at most one decimal), the
 *   deductions taken from the category's list, a comment. total = Σ items − Σ deductions,
 *   floored at 0. A draft may leave items out; submitting needs every item.
 * - When: while the contest's 网络评审 stage is open, if the contest defines that stage
 *   (no stage defined: any time).
 * - A submitted score is final for the judge; only a contest admin of the contest (or root)
 *   reopens it, with a reason; the judge then edits and submits again.
 * - Every save carries the version it is based on; a stale one is refused (409).
 * - Every change (draft, submit, reopen) is appended to the judge's chain of the contest's
 *   hash-chained score log in the same transaction, last, so the chain's lock is held only
 *   for the append and the commit (score-log-store.ts).
 */
import { PostgresAdapter, sql, type Transaction } from "kysely";
import { badRequest, conflict, DomainError, notFound } from "../../../shared/errors";
import { STAGE_NAMES } from "../../../shared/contest/stages";
import {
  oneDecimal,
  scoreTotal,
  type AdminScoreRow,
  type JudgeProgress,
  type JudgingWindow,
  type MyScore,
  type OnlineOverview,
  type ReopenBody,
  type ScoreAdminView,
  type ScoreBody,
  type ScoreLogCheck,
  type ScoreStatus,
} from "../../../shared/judging/score-schema";
import type { Deduction } from "../../../shared/work-type/schema";
import type { Db } from "../../db";
import type { DB, User } from "../../db/schema";
import { record } from "../../common/audit";
import { beijingTime as bj } from "../../../shared/time";
import type { Handle } from "../../work/repository";
import { requireManagedContest } from "./contest";
import { assignedWorks, judgedContests, requireAssigned, requireJudgedContest, withNames, toItem } from "./judge";
import { appendScoreLog, verifyScoreLog } from "./score-log-store";

export const NOT_SCORE = "评分记录不存在";

const findScore = (db: Handle, assignmentId: number) =>
  db.selectFrom("judge_score").selectAll().where("assignment_id", "=", assignmentId).executeTakeFirst();

type ScoreRow = Awaited<ReturnType<typeof findScore>>;

const round1 = (v: number | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);
const parseItems = (s: string): Record<string, number> => JSON.parse(s) as Record<string, number>;

/* ------------------------------------------------------------------ window */

/** Whether the contest's 网络评审 stage lets judges score at `now` (no stage defined: open). */
export async function judgingWindow(db: Handle, c: { id: number; name: string }, now = new Date()): Promise<JudgingWindow> {
  const s = await db
    .selectFrom("contest_stage")
    .select(["starts_at", "ends_at"])
    .where("contest_id", "=", c.id)
    .where("stage", "=", "online_judging")
    .executeTakeFirst();
  if (!s) return { open: true, startsAt: null, endsAt: null, message: null };
  const t = now.getTime();
  const start = Date.parse(s.starts_at);
  const end = Date.parse(s.ends_at);
  if (start <= t && t < end) return { open: true, startsAt: s.starts_at, endsAt: s.ends_at, message: null };
  const when = t < start ? "尚未开始" : "已结束";
  return {
    open: false,
    startsAt: s.starts_at,
    endsAt: s.ends_at,
    message: `「${c.name}」的${STAGE_NAMES.online_judging}时间为 ${bj(s.starts_at)} 至 ${bj(s.ends_at)}（北京时间），${STAGE_NAMES.online_judging}${when}，现在不能评分`,
  };
}

/* --------------------------------------------------------------- the rubric */

interface Rubric {
  items: { id: number; name: string; max_points: number }[];
  deductions: Deduction[];
}

async function rubricOf(db: Handle, categoryId: number): Promise<Rubric> {
  const items = await db
    .selectFrom("rubric_item")
    .select(["id", "name", "max_points"])
    .where("category_id", "=", categoryId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const cat = await db.selectFrom("work_category").select("deductions").where("id", "=", categoryId).executeTakeFirstOrThrow();
  return { items, deductions: JSON.parse(cat.deductions) as Deduction[] };
}

/**
 * The body checked against the rubric: items in rubric order, deductions by name, the
 * total. `complete`: every item must be scored (submission).
 */
export function checkScore(rubric: Rubric, body: Pick<ScoreBody, "items" | "deductions">, complete: boolean) {
  if (!rubric.items.length) throw badRequest("本作品类别尚未设置评分标准，暂不能评分，请联系赛事管理员");
  const known = new Map(rubric.items.map((i) => [String(i.id), i]));
  for (const key of Object.keys(body.items)) {
    if (!known.has(key)) throw badRequest(`评分项（编号 ${key}）不属于本作品类别的评分标准，请刷新页面后重试`);
  }
  const items: Record<string, number> = {};
  for (const item of rubric.items) {
    const v = body.items[String(item.id)];
    if (v === undefined || v === null) {
      if (complete) throw badRequest(`「${item.name}」尚未评分，请为全部评分项打分后再提交`);
      continue;
    }
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > item.max_points)
      throw badRequest(`「${item.name}」的得分须在 0 到 ${item.max_points} 分之间`);
    if (!oneDecimal(v)) throw badRequest(`「${item.name}」的得分最多保留一位小数`);
    items[String(item.id)] = Math.round(v * 10) / 10;
  }
  const taken = body.deductions ?? [];
  const points: number[] = [];
  const seen = new Set<string>();
  for (const name of taken) {
    const d = rubric.deductions.find((x) => x.name === name);
    if (!d) throw badRequest(`扣分项「${name}」不属于本作品类别，请刷新页面后重试`);
    if (seen.has(name)) throw badRequest(`扣分项「${name}」重复选择`);
    seen.add(name);
    points.push(d.points);
  }
  const deductions = rubric.deductions.filter((d) => seen.has(d.name)).map((d) => d.name);
  const total = Object.keys(items).length ? scoreTotal(items, points) : null;
  return { items, deductions, total };
}

/* ------------------------------------------------------------ the judge */

const statusOf = (row: { status: string } | undefined): ScoreStatus => (row ? (row.status as ScoreStatus) : "none");

function toMyScore(workId: number, row: NonNullable<ScoreRow> | undefined, window: JudgingWindow): MyScore {
  return {
    id: row?.id ?? null,
    workId,
    status: statusOf(row),
    items: row ? parseItems(row.items) : {},
    deductions: row ? (JSON.parse(row.deductions) as string[]) : [],
    comment: row?.comment ?? "",
    total: row ? round1(row.total) : null,
    version: row?.version ?? 0,
    submittedAt: row?.submitted_at ?? null,
    updatedAt: row?.updated_at ?? null,
    reopenReason: row?.reopen_reason ?? null,
    reopenedAt: row?.reopened_at ?? null,
    window,
  };
}

/** The judge's assignment row of an assigned work (404 as for any unassigned work). */
async function assignmentOf(db: Handle, contestId: number, workId: number, judgeId: number) {
  const a = await db
    .selectFrom("judge_assignment")
    .select("id")
    .where("contest_id", "=", contestId)
    .where("work_id", "=", workId)
    .where("judge_id", "=", judgeId)
    .executeTakeFirst();
  if (!a) throw notFound("作品不存在或未分配给您");
  return a.id;
}

/** The judge's own score of an assigned work. */
export async function myScore(db: Db, user: User, contestId: number, workId: number): Promise<MyScore> {
  const { c } = await requireAssigned(db, user, contestId, workId);
  const assignmentId = await assignmentOf(db, c.id, workId, user.id);
  return toMyScore(workId, await findScore(db, assignmentId), await judgingWindow(db, c));
}

/** Locks the assignment row on PostgreSQL so two saves of one score queue up (SQLite has one writer). */
async function lockAssignment(trx: Transaction<DB>, assignmentId: number) {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select id from judge_assignment where id = ${assignmentId} for update`.execute(trx);
}

/** Saves the judge's draft, or submits the score (`submit`: every item required). */
export async function saveScore(
  db: Db,
  user: User,
  contestId: number,
  workId: number,
  body: ScoreBody,
  submit: boolean,
): Promise<MyScore> {
  return db.transaction().execute(async (trx) => {
    const { c } = await requireAssigned(trx, user, contestId, workId);
    const assignmentId = await assignmentOf(trx, c.id, workId, user.id);
    await lockAssignment(trx, assignmentId);
    const row = await findScore(trx, assignmentId);
    if (row?.status === "submitted") throw badRequest("该作品的评分已提交，不能再修改；如需修改，请联系赛事管理员退回评分");
    const current = row?.version ?? 0;
    if (body.version !== current)
      throw conflict(`评分已在别处修改（当前版本 ${current}，您提交的是版本 ${body.version}），请刷新后重试；本次未保存`);
    const window = await judgingWindow(trx, c);
    if (!window.open) throw badRequest(window.message!);
    const work = await trx.selectFrom("work").select("category_id").where("id", "=", workId).executeTakeFirstOrThrow();
    const checked = checkScore(await rubricOf(trx, work.category_id), body, submit);
    const comment = (body.comment ?? "").trim();
    const at = new Date().toISOString();
    const values = {
      items: JSON.stringify(checked.items),
      deductions: JSON.stringify(checked.deductions),
      total: checked.total,
      comment,
      status: submit ? ("submitted" as const) : ("draft" as const),
      submitted_at: submit ? at : null,
      updated_at: at,
    };
    if (row) {
      const done = await trx
        .updateTable("judge_score")
        .set({ ...values, version: current + 1 })
        .where("id", "=", row.id)
        .where("version", "=", current)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw conflict("评分已在别处修改，请刷新后重试；本次未保存");
    } else {
      await trx
        .insertInto("judge_score")
        .values({
          assignment_id: assignmentId,
          contest_id: c.id,
          work_id: workId,
          judge_id: user.id,
          ...values,
          version: 1,
          created_at: at,
        })
        .execute();
    }
    const saved = await findScore(trx, assignmentId);
    await appendScoreLog(trx, {
      at,
      actorId: user.id,
      contestId: c.id,
      workId,
      judgeId: user.id,
      action: submit ? "submit" : "draft",
      score: checked.total,
      items: checked.items,
      deductions: checked.deductions,
      comment,
    });
    return toMyScore(workId, saved, window);
  });
}

/** Scores of the judge in a contest, by work id. */
async function myScoresIn(db: Handle, judgeId: number, contestId: number) {
  const rows = await db
    .selectFrom("judge_score")
    .select(["work_id", "status", "total"])
    .where("judge_id", "=", judgeId)
    .where("contest_id", "=", contestId)
    .execute();
  return new Map(rows.map((r) => [Number(r.work_id), r]));
}

/** /judge/Online/:contestId: the assigned works with the own score status and total, and progress. */
export async function onlineOverview(db: Db, user: User, contestId: number): Promise<OnlineOverview> {
  const c = await requireJudgedContest(db, user, contestId);
  const rows = await withNames(assignedWorks(db, user, c), c.id)
    .orderBy("work.id")
    .execute();
  const scores = await myScoresIn(db, user.id, c.id);
  const works = rows.map((r) => {
    const s = scores.get(Number(r.id));
    return { ...toItem(r), scoreStatus: statusOf(s), total: s ? round1(s.total) : null };
  });
  return {
    contest: { id: c.id, name: c.name, level: c.level, as: c.as },
    window: await judgingWindow(db, c),
    progress: {
      assigned: works.length,
      submitted: works.filter((w) => w.scoreStatus === "submitted").length,
      draft: works.filter((w) => w.scoreStatus === "draft").length,
    },
    works,
  };
}

/** /judge: online judging progress and window of every contest the user judges. */
export async function myProgress(db: Db, user: User): Promise<JudgeProgress[]> {
  const out: JudgeProgress[] = [];
  for (const c of await judgedContests(db, user)) {
    const ids = (await assignedWorks(db, user, c).select("work.id").execute()).map((r) => Number(r.id));
    const scores = await myScoresIn(db, user.id, c.id);
    const mine = ids.map((id) => scores.get(id)).filter((s) => s !== undefined);
    out.push({
      contestId: c.id,
      window: await judgingWindow(db, c),
      progress: {
        assigned: ids.length,
        submitted: mine.filter((s) => s.status === "submitted").length,
        draft: mine.filter((s) => s.status === "draft").length,
      },
    });
  }
  return out;
}

/* ------------------------------------------------------ the contest admin */

/** Reopens a submitted score (contest admin of the contest, or root), with a reason. */
export async function reopenScore(db: Db, user: User, contestId: number, scoreId: number, body: ReopenBody) {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    const row = await trx
      .selectFrom("judge_score")
      .selectAll()
      .where("id", "=", scoreId)
      .where("contest_id", "=", c.id)
      .executeTakeFirst();
    if (!row) throw notFound(NOT_SCORE);
    await lockAssignment(trx, row.assignment_id);
    const reason = body.reason.trim();
    if (!reason) throw new DomainError(422, "请填写退回原因", "reason");
    const names = await trx.selectFrom("app_user").select("name").where("id", "=", row.judge_id).executeTakeFirstOrThrow();
    const work = await trx.selectFrom("work").select("name").where("id", "=", row.work_id).executeTakeFirstOrThrow();
    const label = `评委「${names.name}」对作品 ${row.work_id}「${work.name}」的评分`;
    if (row.status !== "submitted") throw badRequest(`${label}尚未提交，无需退回`);
    if (body.version !== undefined && body.version !== row.version)
      throw conflict(`${label}已有变化（当前版本 ${row.version}），请刷新后重试；本次未退回`);
    const at = new Date().toISOString();
    const done = await trx
      .updateTable("judge_score")
      .set({
        status: "draft",
        submitted_at: null,
        reopened_at: at,
        reopened_by: user.id,
        reopen_reason: reason,
        version: row.version + 1,
        updated_at: at,
      })
      .where("id", "=", row.id)
      .where("version", "=", row.version)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw conflict(`${label}已有变化，请刷新后重试；本次未退回`);
    await record(trx, user.id, {
      entity: "judge_score",
      entityId: row.id,
      action: "reopen",
      changes: { status: ["submitted", "draft"], reason: [null, reason] },
    });
    await appendScoreLog(trx, {
      at,
      actorId: user.id,
      contestId: c.id,
      workId: Number(row.work_id),
      judgeId: row.judge_id,
      action: "reopen",
      score: round1(row.total),
      items: parseItems(row.items),
      deductions: JSON.parse(row.deductions) as string[],
      comment: row.comment,
      reason,
    });
    return { id: row.id, label, status: "draft" as const, version: row.version + 1 };
  });
}

/** Online judging progress of a contest: per judge and per work, with each score's status. */
export async function adminScores(db: Db, user: User, contestId: number): Promise<ScoreAdminView> {
  const c = await requireManagedContest(db, user, contestId);
  const rows = await db
    .selectFrom("judge_assignment as a")
    .innerJoin("work", "work.id", "a.work_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .innerJoin("app_user as u", "u.id", "a.judge_id")
    .leftJoin("judge_group as g", "g.id", "a.group_id")
    .leftJoin("judge_score as s", "s.assignment_id", "a.id")
    .select([
      "a.work_id",
      "work.name as work_name",
      "cat.name as category_name",
      "g.name as group_name",
      "a.judge_id",
      "u.name as judge_name",
      "u.username",
      "s.id as score_id",
      "s.status",
      "s.total",
      "s.version",
      "s.submitted_at",
      "s.reopen_reason",
    ])
    .where("a.contest_id", "=", c.id)
    .orderBy("a.work_id")
    .orderBy("u.name")
    .orderBy("a.judge_id")
    .execute();
  const works = new Map<number, ScoreAdminView["works"][number]>();
  const judges = new Map<number, ScoreAdminView["judges"][number]>();
  let submitted = 0;
  let draft = 0;
  for (const r of rows) {
    const workId = Number(r.work_id);
    const status: ScoreStatus = r.score_id === null ? "none" : (r.status as ScoreStatus);
    const score: AdminScoreRow = {
      scoreId: r.score_id,
      judgeId: r.judge_id,
      judgeName: r.judge_name,
      status,
      total: r.total === null ? null : round1(r.total),
      version: r.version ?? 0,
      submittedAt: r.submitted_at,
      reopenReason: r.reopen_reason,
    };
    const w = works.get(workId) ?? {
      workId,
      name: r.work_name,
      category: r.category_name,
      judgeGroup: r.group_name,
      assigned: 0,
      submitted: 0,
      mean: null,
      scores: [],
    };
    w.assigned++;
    w.scores.push(score);
    works.set(workId, w);
    const j = judges.get(r.judge_id) ?? {
      judgeId: r.judge_id,
      name: r.judge_name,
      username: r.username,
      assigned: 0,
      submitted: 0,
      draft: 0,
    };
    j.assigned++;
    judges.set(r.judge_id, j);
    if (status === "submitted") {
      submitted++;
      w.submitted++;
      j.submitted++;
    } else if (status === "draft") {
      draft++;
      j.draft++;
    }
  }
  for (const w of works.values()) {
    const totals = w.scores.filter((s) => s.status === "submitted" && s.total !== null).map((s) => s.total!);
    w.mean = totals.length ? Math.round((totals.reduce((a, b) => a + b, 0) / totals.length) * 100) / 100 : null;
  }
  const list = [...works.values()];
  return {
    contest: { id: c.id, name: c.name },
    window: await judgingWindow(db, c),
    summary: {
      assignments: rows.length,
      submitted,
      draft,
      none: rows.length - submitted - draft,
      works: list.length,
      worksComplete: list.filter((w) => w.submitted === w.assigned).length,
    },
    judges: [...judges.values()].sort((a, b) => a.name.localeCompare(b.name, "zh-CN") || a.judgeId - b.judgeId),
    works: list,
  };
}

/** The score log check of one contest, as a sentence and data. */
export async function checkScoreLog(db: Handle, contestId: number): Promise<ScoreLogCheck> {
  const r = await verifyScoreLog(db, contestId);
  if (r.ok)
    return {
      ok: true,
      count: r.count,
      head: r.head,
      index: null,
      reason: null,
      message: r.count
        ? `评分日志完整：共 ${r.count} 条记录（${r.chains} 条评分链），链头 ${r.head.slice(0, 16)}…`
        : "评分日志为空：尚无评分记录",
    };
  return { ok: false, count: 0, head: null, index: r.index, reason: r.reason, message: `评分日志校验失败：${r.message}` };
}

/** The contest admin's check of the contest's score log. */
export async function verifyContestLog(db: Db, user: User, contestId: number): Promise<ScoreLogCheck> {
  const c = await requireManagedContest(db, user, contestId);
  return checkScoreLog(db, c.id);
}
