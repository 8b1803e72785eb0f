/**
 * Reading works: the full view for those allowed (404 for everyone else), its log, the
 * log of all works (root), and the public lookup by id and author name.
 */
import { sql } from "kysely";
import { forbidden, notFound } from "../../../shared/errors";
import type { PageOf } from "../../../shared/crud/list";
import type { QueryWorkResult, WorkLogEntry, WorkLogFilters, WorkView } from "../../../shared/work/schema";
import {
  canTransition,
  isEditable,
  PUBLIC_STATES,
  SLOT_STATES,
  WORK_ACTIONS,
  WORK_STATE_NAMES,
} from "../../../shared/work/states";
import type { Db } from "../../db";
import * as repo from "../repository";
import { actorFor, mayReadLog, workLocksOf } from "../rules";
import { toLogEntry, toWorkView, type LogRow } from "../view";
import { loadVisible, type Loaded, type WorkCtx } from "./context";
import { nationalStatus, publishedAward, publishedAwards } from "../published";
import { nationalStateName } from "../../../shared/national/types";
import { CONTEST_LEVEL_NAMES } from "../../../shared/contest/stages";

/** The full view with what the caller may do now. */
export async function viewOf(db: repo.Handle, l: Loaded, now = new Date()): Promise<WorkView> {
  const status = l.work.status;
  const actions = WORK_ACTIONS.filter((a) => {
    const actor = actorFor(a, l.relations);
    return actor !== null && canTransition(a, status, actor);
  });
  const locks = await workLocksOf(db, l.work, now);
  const view = toWorkView(
    l.work,
    l.authors,
    l.teachers,
    {
      relations: [...l.relations],
      actions,
      canEdit: l.relations.has("first_author") && isEditable(status),
      canEditTeacherReview: l.relations.has("teacher") && isEditable(status),
      locks,
    },
    l.me,
  );
  // In the national round the state is the national entry's (its own format review).
  if (l.entry) Object.assign(view, { statusName: nationalStateName(status), viewer: { ...view.viewer, nationalRound: true } });
  return { ...view, rounds: await roundsOf(db, l.work.id) };
}

/**
 * A work's path through the levels, for its page: the school contest that recommended it
 * (works entered in a 校级赛), the provincial award and promotion, and the national entry
 * with the national award once published.
 */
async function roundsOf(db: repo.Handle, workId: number) {
  const out: { level: string; text: string }[] = [];
  // The work's own row and contest (a national entry's view shows the national contest instead).
  const w = await db
    .selectFrom("work")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .select(["work.id", "work.status", "contest.level", "contest.name"])
    .where("work.id", "=", workId)
    .executeTakeFirstOrThrow();
  // Each round's tag names its level, so its text is the award without it: 一等奖，推荐晋级国赛.
  const awards = new Map(
    (await publishedAwards(db, workId)).map((a) => [
      a.level,
      [a.award, a.promotedTo && `推荐晋级${CONTEST_LEVEL_NAMES[a.promotedTo]}`].filter(Boolean).join("，"),
    ]),
  );
  const school =
    awards.get("school") ?? (w.level === "school" && SLOT_STATES.includes(w.status) ? `「${w.name}」推荐至省赛` : null);
  if (school) out.push({ level: "校赛", text: school });
  const provincial = awards.get("provincial");
  if (provincial) out.push({ level: "省赛", text: provincial });
  const n = await nationalStatus(db, workId);
  if (n) {
    const entry =
      n.status === "entered"
        ? `已进入「${n.contestName}」（${NATIONAL_FORMAT[n.formatStatus] ?? n.formatStatus}）`
        : `已退出「${n.contestName}」：${n.withdrawReason ?? ""}`;
    out.push({ level: "国赛", text: (n.status === "entered" && awards.get("national")) || entry });
  }
  return out;
}
const NATIONAL_FORMAT: Record<string, string> = {
  pending: "待形式审查",
  passed: "形式审查通过",
  returned: "退回修改",
  rejected: "形式审查不通过",
};

export async function workDetail(ctx: WorkCtx, id: number): Promise<WorkView> {
  // A work in the national round shows as its national entry to the team and the national contest.
  return viewOf(ctx.db, await loadVisible(ctx, id, { format: true }));
}

const logQuery = (db: repo.Handle) =>
  db
    .selectFrom("work_log")
    .leftJoin("app_user", "app_user.id", "work_log.user_id")
    .select([
      "work_log.id",
      "work_log.work_id",
      "work_log.at",
      "work_log.user_id",
      "app_user.name as user_name",
      "app_user.username",
      "work_log.action",
      "work_log.changes",
    ]);

/** A work's history, oldest first: its authors, school admin, contest admins in scope and root. */
export async function workLog(ctx: WorkCtx, id: number): Promise<WorkLogEntry[]> {
  const l = await loadVisible(ctx, id);
  if (!mayReadLog(l.relations)) throw forbidden("只有作品的作者、所属学校管理员和赛事管理员可以查看作品日志");
  const rows = await logQuery(ctx.db).where("work_log.work_id", "=", id).orderBy("work_log.id").execute();
  return rows.map((r) => toLogEntry(r as LogRow));
}

/** Every work's log (root), newest first. */
export async function allLogs(db: Db, f: WorkLogFilters, offset: number, limit: number): Promise<PageOf<WorkLogEntry>> {
  let q = db.selectFrom("work_log");
  if (f.workId !== undefined) q = q.where("work_log.work_id", "=", f.workId);
  if (f.userId !== undefined) q = q.where("work_log.user_id", "=", f.userId);
  if (f.action) q = q.where("work_log.action", "=", f.action);
  if (f.from) q = q.where("work_log.at", ">=", f.from);
  if (f.to) q = q.where("work_log.at", "<=", f.to);
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const ids = (await q.select("work_log.id").orderBy("work_log.id", "desc").offset(offset).limit(limit).execute()).map(
    (r) => r.id,
  );
  const rows = ids.length ? await logQuery(db).where("work_log.id", "in", ids).orderBy("work_log.id", "desc").execute() : [];
  return { list: rows.map((r) => toLogEntry(r as LogRow)), total: Number(total.n) };
}

export const NO_MATCH = "未找到匹配的作品";

/**
 * The public lookup: id and the name of one of its authors must both match; anything else
 * gets the same answer, so ids and names cannot be probed. The award is shown once the
 * contest has published its results (and hidden again if the publication is withdrawn).
 */
export async function queryWork(db: Db, workId: number, authorName: string): Promise<QueryWorkResult> {
  const row = await db
    .selectFrom("work")
    .select(["work.id", "work.name", "work.status"])
    .where("work.id", "=", workId)
    .where("work.status", "in", [...PUBLIC_STATES])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("work_author")
          .innerJoin("app_user", "app_user.id", "work_author.user_id")
          .select(sql<number>`1`.as("one"))
          .whereRef("work_author.work_id", "=", "work.id")
          .where("app_user.name", "=", authorName.trim()),
      ),
    )
    .executeTakeFirst();
  if (!row) throw notFound(NO_MATCH);
  return {
    id: row.id,
    name: row.name,
    statusName: WORK_STATE_NAMES[row.status],
    award: await publishedAward(db, Number(row.id)),
  };
}
