/**
 * Loading a defence session (现场答辩) and its slots (the works in drawn order), the refusal
 * texts, the session lock on PostgreSQL and the access checks shared by the admin, draw,
 * judge and group-sheet code of the defence.
 */
import { PostgresAdapter, sql } from "kysely";
import { notFound } from "../../../../shared/errors";
import type { User } from "../../../db/schema";
import { adminContestIds } from "../../../scope";
import type { Handle } from "../../../work/repository";
import type { ContestInfo } from "../contest";

export const NO_SESSION = "答辩场次不存在或您不是该评审组的评委";
export const NO_DEFENCE_WORK = "作品不存在或不在您的答辩评审范围内";
export const NO_SHEET = "答辩场次不存在或您不是该评审组的专家组长";
export const NOT_JUDGED = "赛事不存在或您不是该赛事的评委";
export const SIGNED = "专家组长已签署本组答辩结果，不能再修改；如需修改，请联系赛事管理员重新开放";
export const SIGNED_ADMIN = "专家组长已签署本组答辩结果，不能再修改；如需修改，请先重新开放";

const isPg = (db: Handle) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Serialises writers of one session on PostgreSQL (SQLite has one writer anyway). */
export async function lockSession(trx: Handle, id: number) {
  if (isPg(trx)) await sql`select id from defence_session where id = ${id} for update`.execute(trx);
}

export const sessionQuery = (db: Handle) =>
  db
    .selectFrom("defence_session as s")
    .innerJoin("judge_group as g", "g.id", "s.group_id")
    .innerJoin("contest as c", "c.id", "s.contest_id")
    .leftJoin("app_user as leader", "leader.id", "g.leader_id")
    .leftJoin("app_user as drawer", "drawer.id", "s.drawn_by")
    .leftJoin("app_user as signer", "signer.id", "s.signed_off_by")
    .leftJoin("app_user as reopener", "reopener.id", "s.reopened_by")
    .selectAll("s")
    .select([
      "g.name as group_name",
      "g.leader_id",
      "leader.name as leader_name",
      "c.name as contest_name",
      "c.level as contest_level",
      "c.school_id as contest_school_id",
      "drawer.name as drawer_name",
      "signer.name as signer_name",
      "reopener.name as reopener_name",
    ]);
export type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirstOrThrow"]>>;

export const contestOf = (s: SessionRow): ContestInfo => ({
  id: s.contest_id,
  name: s.contest_name,
  level: s.contest_level,
  school_id: s.contest_school_id,
});

export async function findSession(db: Handle, id: number) {
  return sessionQuery(db).where("s.id", "=", id).executeTakeFirst();
}

export const slotQuery = (db: Handle) =>
  db
    .selectFrom("defence_slot as sl")
    .innerJoin("work", "work.id", "sl.work_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .innerJoin("school", "school.id", "work.school_id")
    .select([
      "sl.id",
      "sl.session_id",
      "sl.work_id",
      "sl.position",
      "sl.slot_time",
      "sl.code",
      "work.name",
      "work.status",
      "work.school_id",
      "school.name as school_name",
      "school.province",
      "cat.name as category_name",
      "sub.name as subcategory_name",
    ]);
export type SlotRow = Awaited<ReturnType<ReturnType<typeof slotQuery>["executeTakeFirstOrThrow"]>>;

/** The session's slots in order: drawn position, then work id. */
export async function slotsOf(db: Handle, sessionId: number): Promise<SlotRow[]> {
  const rows = await slotQuery(db).where("sl.session_id", "=", sessionId).execute();
  return rows.sort((a, b) => (a.position ?? 1e9) - (b.position ?? 1e9) || Number(a.work_id) - Number(b.work_id));
}

export async function isManager(db: Handle, user: User, contestId: number) {
  const scope = await adminContestIds(db, user);
  return scope === "all" || scope.includes(contestId);
}

export async function memberIds(db: Handle, groupId: number): Promise<number[]> {
  return (await db.selectFrom("judge_group_member").select("user_id").where("group_id", "=", groupId).execute()).map(
    (r) => r.user_id,
  );
}

/** The session when the user manages its contest; 404 otherwise. */
export async function managedSession(db: Handle, user: User, sessionId: number) {
  const s = await findSession(db, sessionId);
  if (!s || !(await isManager(db, user, s.contest_id))) throw notFound("答辩场次不存在或不在您的管理范围内");
  return s;
}
