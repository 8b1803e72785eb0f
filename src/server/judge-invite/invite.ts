/**
 * The contest admin's side of invitations: send (one invitation per invitee, each with its
 * own random code, written in one transaction, then mailed), list, withdraw (the link stops
 * working) and resend (a new code replaces the old one, which stops working). Contest admins
 * act on their own contests and their children, root on any; anything else answers 404 with
 * the same text as a missing contest or invitation.
 */
import { badRequest, invalid, notFound } from "../../shared/errors";
import {
  INVITATION_STATE_NAMES,
  type InvitationFilters,
  type InvitationView,
  type InviteBody,
  type InviteContest,
  type InviteOutcome,
} from "../../shared/judge-invite/schema";
import type { PageOf } from "../../shared/crud/list";
import type { Db } from "../db";
import type { User } from "../db/schema";
import type { Mailer } from "../mail/mailer";
import { record } from "../common/audit";
import { as404, requireManagedContest, settingsOf } from "../judging/service/contest";
import { answerByIso, categoryIdsOf, codeHash, newCode, stateOf } from "./codes";
import { resolveInvitees } from "./invitees";
import { contestCategories, invitationRows, toViews, viewOf, type CategoryTree } from "./load";
import { invitationMail } from "./mails";

export const NO_INVITATION = "邀请不存在或不在您的管理范围内";

export interface InviteDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

export async function inviteContest(db: Db, user: User, contestId: number): Promise<InviteContest> {
  const c = await requireManagedContest(db, user, contestId);
  const row = await db.selectFrom("contest").select(["year", "level"]).where("id", "=", c.id).executeTakeFirstOrThrow();
  const s = await settingsOf(db, c.id);
  return {
    id: c.id,
    name: c.name,
    year: row.year,
    level: row.level,
    categories: (await contestCategories(db, c.id)).nodes,
    reviewsPerWork: s.reviewsPerWork,
    judgeCapacity: s.judgeCapacity,
    avoidProvince: s.avoidProvince,
  };
}

/** The categories as given, each open in the contest (大类 or 小类), once. */
export function checkCategories(tree: CategoryTree, ids: number[]): number[] {
  const out = [...new Set(ids)];
  for (const id of out) if (!tree.names.has(id)) throw invalid("categoryIds", `作品类别（编号 ${id}）不是本赛事开放的类别`);
  return out;
}

export async function sendInvitations(deps: InviteDeps, user: User, contestId: number, body: InviteBody): Promise<InviteOutcome> {
  const { db } = deps;
  const answerBy = answerByIso(body.answerBy);
  const message = (body.message ?? "").trim();
  const sent: { id: number; code: string }[] = [];
  const outcome = await db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    const categories = checkCategories(await contestCategories(trx, c.id), body.categoryIds);
    const invitees = await resolveInvitees(trx, c.id, body);
    const now = new Date().toISOString();
    for (const inv of invitees) {
      if (inv.skip || !inv.email) continue;
      const code = newCode();
      const { id } = await trx
        .insertInto("judge_invitation")
        .values({
          contest_id: c.id,
          person_id: inv.personId,
          email: inv.email,
          name: inv.name,
          categories: JSON.stringify(categories),
          message,
          answer_by: answerBy,
          code_hash: codeHash(code),
          status: "sent",
          status_reason: null,
          sent_at: now,
          opened_at: null,
          answered_at: null,
          reminded_at: null,
          accepted_user_id: null,
          invited_by: user.id,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      sent.push({ id, code });
      await record(trx, user.id, {
        entity: "judge_invitation",
        entityId: id,
        action: "create",
        changes: {
          contestId: [null, c.id],
          email: [null, inv.email],
          personId: [null, inv.personId],
          categories: [null, categories],
          answerBy: [null, answerBy],
        },
      });
    }
    const skipped = invitees.filter((i) => i.skip).map((i) => ({ name: i.name, email: i.email, reason: i.skip! }));
    return { skipped };
  });
  const created = sent.length
    ? await toViews(
        db,
        await invitationRows(db)
          .where(
            "i.id",
            "in",
            sent.map((s) => s.id),
          )
          .orderBy("i.id")
          .execute(),
      )
    : [];
  // Mailed after the commit: a mail that fails is queued and retried (mail/queued.ts).
  for (const v of created)
    await deps.mailer.send(invitationMail(deps.publicUrl, mailFacts(v, user.name), sent.find((s) => s.id === v.id)!.code));
  return { created, skipped: outcome.skipped };
}

const mailFacts = (v: InvitationView, invitedBy: string) => ({
  to: v.email,
  name: v.name,
  contestName: v.contestName,
  categories: v.categories.map((c) => c.name),
  message: v.message,
  answerBy: v.answerBy,
  invitedBy: `赛事管理员${invitedBy}`,
});

export async function listInvitations(
  db: Db,
  user: User,
  contestId: number,
  f: InvitationFilters,
): Promise<PageOf<InvitationView>> {
  const c = await requireManagedContest(db, user, contestId);
  let q = invitationRows(db).where("i.contest_id", "=", c.id);
  const nowIso = new Date().toISOString();
  if (f.state === "sent") q = q.where("i.status", "=", "sent").where("i.answer_by", ">=", nowIso);
  else if (f.state === "expired") q = q.where("i.status", "=", "sent").where("i.answer_by", "<", nowIso);
  else if (f.state) q = q.where("i.status", "=", f.state);
  const kw = f.keyword?.trim();
  if (kw) q = q.where((eb) => eb.or([eb("i.name", "like", `%${kw}%`), eb("i.email", "like", `%${kw.toLowerCase()}%`)]));
  // A contest has a few hundred invitations a year: filtered by category here, then paged.
  let rows = await q.orderBy("i.sent_at", "desc").orderBy("i.id", "desc").limit(5000).execute();
  if (f.categoryId !== undefined) {
    const tree = await contestCategories(db, c.id);
    const want = f.categoryId;
    rows = rows.filter((r) => categoryIdsOf(r.categories).some((id) => id === want || tree.topOf.get(id) === want));
  }
  const size = f.pageSize ?? 20;
  const start = ((f.current ?? 1) - 1) * size;
  return { list: await toViews(db, rows.slice(start, start + size)), total: rows.length };
}

/** The invitation and its contest, when the caller manages the contest; 404 otherwise. */
async function managedInvitation(db: Db, user: User, id: number) {
  const row = await db.selectFrom("judge_invitation").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound(NO_INVITATION);
  await requireManagedContest(db, user, row.contest_id).catch(as404(NO_INVITATION));
  return row;
}

export async function withdrawInvitation(db: Db, user: User, id: number, reason?: string): Promise<InvitationView> {
  const row = await managedInvitation(db, user, id);
  if (row.status !== "sent")
    throw badRequest(
      `该邀请${INVITATION_STATE_NAMES[row.status]}，不能撤回${row.status === "accepted" ? "；如需移除该评委，请在评审组设置中操作" : ""}`,
    );
  const why = reason?.trim() || null;
  await db.transaction().execute(async (trx) => {
    // Only a still-open row: an answer that came in meanwhile wins.
    const r = await trx
      .updateTable("judge_invitation")
      .set({ status: "withdrawn", status_reason: why, answered_at: new Date().toISOString() })
      .where("id", "=", id)
      .where("status", "=", "sent")
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw badRequest("该邀请刚刚已被答复或撤回，请刷新后查看");
    await record(trx, user.id, {
      entity: "judge_invitation",
      entityId: id,
      action: "update",
      changes: { status: ["sent", "withdrawn"], statusReason: [null, why] },
    });
  });
  return viewOf(db, id);
}

export async function resendInvitation(deps: InviteDeps, user: User, id: number, answerByDate?: string): Promise<InvitationView> {
  const { db } = deps;
  const row = await managedInvitation(db, user, id);
  if (row.status !== "sent")
    throw badRequest(
      `该邀请${INVITATION_STATE_NAMES[row.status]}，不能重新发送${row.status === "withdrawn" || row.status === "declined" ? "；如需再次邀请，请发出新的邀请" : ""}`,
    );
  const expired = stateOf(row) === "expired";
  if (expired && !answerByDate) throw invalid("answerBy", "该邀请已过期，请设定新的答复截止日期后重新发送");
  const answerBy = answerByDate ? answerByIso(answerByDate) : row.answer_by;
  const code = newCode();
  await db.transaction().execute(async (trx) => {
    // The new code replaces the old one: the old link stops working at once.
    const r = await trx
      .updateTable("judge_invitation")
      .set({ code_hash: codeHash(code), sent_at: new Date().toISOString(), answer_by: answerBy, reminded_at: null })
      .where("id", "=", id)
      .where("status", "=", "sent")
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw badRequest("该邀请刚刚已被答复或撤回，请刷新后查看");
    await record(trx, user.id, {
      entity: "judge_invitation",
      entityId: id,
      action: "update",
      changes: { resent: [row.sent_at, "new code"], answerBy: [row.answer_by, answerBy] },
    });
  });
  const v = await viewOf(db, id);
  const by =
    (await db.selectFrom("app_user").select("name").where("id", "=", row.invited_by).executeTakeFirst())?.name ?? user.name;
  await deps.mailer.send(invitationMail(deps.publicUrl, mailFacts(v, by), code, true));
  return v;
}
