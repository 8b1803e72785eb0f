/**
 * Per-contest complaint settings (due days) and who handles a contest's complaints:
 * contest_member "complaint" (complaint reviewers/admins with the complaint right) and
 * "arbitrator" (arbitrators). Root and the contest's admins change them; handlers read the
 * settings of the contests they handle. Any other contest: 404.
 */
import type { ComplaintSettings, ContestHandler } from "../../shared/complaint/schema";
import { badRequest, notFound } from "../../shared/errors";
import { ROLE } from "../../shared/roles";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { record } from "../common/audit";
import { adminContestIds } from "../scope";
import { handledContests } from "./scope";
import { saveSettings, settingsOf } from "./settings";

async function requireContest(db: Db, user: User, contestId: number, write: boolean) {
  const c = await db.selectFrom("contest").select(["id"]).where("id", "=", contestId).executeTakeFirst();
  const admin = await adminContestIds(db, user);
  let allowed = admin === "all" || admin.includes(contestId);
  if (!allowed && !write) {
    const handled = await handledContests(db, user);
    allowed = handled === "all" || handled.includes(contestId);
  }
  if (!c || !allowed) throw notFound("赛事不存在或不在您的管理范围内");
}

export async function readSettings(db: Db, user: User, contestId: number): Promise<ComplaintSettings> {
  await requireContest(db, user, contestId, false);
  return settingsOf(db, contestId);
}

export async function writeSettings(db: Db, user: User, contestId: number, s: ComplaintSettings): Promise<ComplaintSettings> {
  await requireContest(db, user, contestId, true);
  await db.transaction().execute(async (trx) => {
    const before = await settingsOf(trx, contestId);
    await saveSettings(trx, contestId, s, user.id);
    await record(trx, user.id, {
      entity: "complaint_setting",
      entityId: contestId,
      action: "update",
      changes: { settings: [before, s] },
    });
  });
  return settingsOf(db, contestId);
}

export async function contestHandlers(db: Db, user: User, contestId: number): Promise<ContestHandler[]> {
  await requireContest(db, user, contestId, false);
  const rows = await db
    .selectFrom("contest_member")
    .innerJoin("app_user", "app_user.id", "contest_member.user_id")
    .select(["app_user.id", "app_user.name", "app_user.user_type", "contest_member.role"])
    .where("contest_member.contest_id", "=", contestId)
    .where("contest_member.role", "in", ["complaint", "arbitrator"])
    .orderBy("app_user.id")
    .execute();
  return rows.map((r) => ({ userId: r.id, name: r.name, userType: r.user_type, role: r.role as "complaint" | "arbitrator" }));
}

/** Replaces the contest's handlers and arbitrators with these users (by their role). */
export async function setContestHandlers(db: Db, user: User, contestId: number, userIds: number[]): Promise<ContestHandler[]> {
  await requireContest(db, user, contestId, true);
  const ids = [...new Set(userIds)];
  const users = ids.length
    ? await db.selectFrom("app_user").select(["id", "name", "user_type", "has_complaint_right"]).where("id", "in", ids).execute()
    : [];
  for (const id of ids) {
    const u = users.find((x) => x.id === id);
    if (!u) throw badRequest(`用户 ${id} 不存在`);
    const handler = (u.user_type === ROLE.complaintReviewer || u.user_type === ROLE.complaintAdmin) && u.has_complaint_right;
    if (!handler && u.user_type !== ROLE.arbitrator)
      throw badRequest(`「${u.name}」不是有申诉权限的申诉审核员、申诉管理员，也不是仲裁员`);
  }
  const at = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("contest_member")
      .where("contest_id", "=", contestId)
      .where("role", "in", ["complaint", "arbitrator"])
      .execute();
    if (users.length) {
      await trx
        .insertInto("contest_member")
        .values(
          users.map((u) => ({
            contest_id: contestId,
            user_id: u.id,
            role: u.user_type === ROLE.arbitrator ? "arbitrator" : "complaint",
            created_at: at,
          })),
        )
        .execute();
    }
    await record(trx, user.id, {
      entity: "contest",
      entityId: contestId,
      action: "complaint_handlers",
      changes: { handlers: [null, ids] },
    });
  });
  return contestHandlers(db, user, contestId);
}
