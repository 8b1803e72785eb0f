/**
 * Email invitations into a work's team (shapes and routes: shared/work/invite.ts). The
 * first author invites while the team part is editable; the invitation takes a place in
 * the team's limits until it is used, withdrawn or expires. The link's code (as judge
 * invitations: 24 random bytes, only its hash stored) lets a person without an account
 * create a student or teacher account of the work's school — the email verified by the
 * link — and puts them into the team in one transaction: a co-author unconfirmed (they
 * confirm on their own), a teacher as a teacher. Used, withdrawn, expired and unknown codes
 * are refused and change nothing; a work no longer editable cannot take them either.
 */
import type { Selectable } from "kysely";
import { badRequest, gone, invalid, notFound } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import { isEditable } from "../../../shared/work/states";
import {
  TEAM_INVITE_DAYS,
  type PublicTeamInvite,
  type TeamInviteBody,
  type TeamInviteRegisterBody,
  type TeamInviteView,
} from "../../../shared/work/invite";
import type { Db } from "../../db";
import type { User, WorkInvitationTable } from "../../db/schema";
import type { Mail, Mailer } from "../../mail/mailer";
import { hashPassword } from "../../account/password";
import { createUser } from "../../account/create-user";
import { record } from "../../common/audit";
import { newLinkCode, sha256 } from "../../common/crypto";
import { maskEmail, normEmail } from "../../common/email";
import * as repo from "../repository";
import { beijingTime } from "../../../shared/time";
import { checkVersion, inTransaction, loadVisible, writeAt, type WorkCtx } from "./context";
import { refuseIfLocked, requireEditable, requireFirstAuthor } from "./edit";
import { insertAuthor, insertTeacher } from "./members";

export interface InviteMailDeps {
  mailer: Mailer;
  publicUrl: string;
}

const ROLE_TEXT = { author: "合作作者", teacher: "指导教师" } as const;
const NO_INVITATION = "邀请不存在或已撤回";
export const INVALID_TEAM_LINK = "邀请链接无效或已被撤回，请向邀请您的同学确认";

/** Sent invitations not yet expired of a work (those that take a place in the team). */
export const pendingInvitations = (db: repo.Handle, workId: number, now = new Date()) =>
  db
    .selectFrom("work_invitation")
    .selectAll()
    .where("work_id", "=", workId)
    .where("status", "=", "sent")
    .where("expires_at", ">", now.toISOString())
    .orderBy("id")
    .execute();

/** How many places pending invitations take, per role. */
export async function pendingCounts(db: repo.Handle, workId: number, now = new Date()) {
  const rows = await pendingInvitations(db, workId, now);
  return { author: rows.filter((r) => r.role === "author").length, teacher: rows.filter((r) => r.role === "teacher").length };
}

const toView = (r: Selectable<WorkInvitationTable>): TeamInviteView => ({
  id: r.id,
  role: r.role,
  email: r.email,
  name: r.name,
  sentAt: r.created_at,
  expiresAt: r.expires_at,
});

export async function listTeamInvitations(ctx: WorkCtx, workId: number): Promise<TeamInviteView[]> {
  const l = await loadVisible(ctx, workId);
  requireFirstAuthor(l, "查看邀请");
  return (await pendingInvitations(ctx.db, workId)).map(toView);
}

function inviteMail(
  publicUrl: string,
  f: {
    to: string;
    name: string;
    role: "author" | "teacher";
    workName: string;
    contestName: string;
    schoolName: string;
    invitedBy: string;
    expiresAt: string;
  },
  code: string,
): Mail {
  return {
    to: f.to,
    subject: `【赛务平台】作品团队邀请：《${f.workName}》`,
    text:
      `${f.name}，您好：\n\n${f.schoolName}的${f.invitedBy}邀请您作为${ROLE_TEXT[f.role]}加入参赛作品《${f.workName}》（${f.contestName}）。\n\n` +
      `请在 ${beijingTime(f.expiresAt)}（北京时间）前打开下面的链接，创建${f.role === "author" ? "学生" : "教师"}账号（邮箱已由本邮件验证）：\n${publicUrl}/workInvite/${code}\n\n` +
      (f.role === "author"
        ? `创建账号后您即在作品团队中，登录后请在「我的作品」中确认参赛。\n`
        : `创建账号后您即为该作品的指导教师。\n`) +
      `链接只能使用一次，请勿转发。如您不认识邀请人，请忽略本邮件。\n`,
  };
}

export async function inviteToTeam(
  ctx: WorkCtx,
  deps: InviteMailDeps,
  workId: number,
  body: TeamInviteBody,
): Promise<TeamInviteView> {
  const email = normEmail(body.email);
  const name = body.name.trim();
  if (name.length < 2) throw invalid("name", "请填写对方的姓名");
  const code = newLinkCode();
  const made = await inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, workId);
    requireFirstAuthor(l, body.role === "author" ? "添加作者" : "添加指导教师");
    requireEditable(l);
    checkVersion(l.work, body.version);
    await refuseIfLocked(t, l, body.role === "author" ? "authors" : "teachers");
    if (await t.db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirst()) {
      throw invalid("email", "该邮箱已注册平台账号，请按姓名、学号/工号或用户名查找并添加");
    }
    const pending = await pendingInvitations(t.db, workId, t.now);
    if (pending.some((p) => p.email === email)) throw invalid("email", `已向 ${email} 发出邀请，尚未使用；如需重发请先撤回`);
    const w = l.work;
    if (body.role === "author" && l.authors.length + pending.filter((p) => p.role === "author").length >= w.max_authors) {
      throw badRequest(`「${w.category_name}」每件作品最多 ${w.max_authors} 名作者（含等待注册的邀请）`);
    }
    if (body.role === "teacher" && l.teachers.length + pending.filter((p) => p.role === "teacher").length >= w.max_teachers) {
      throw badRequest(`「${w.category_name}」每件作品最多 ${w.max_teachers} 名指导教师（含等待注册的邀请）`);
    }
    await writeAt(t, w, {});
    const now = t.now.toISOString();
    const row = await t.db
      .insertInto("work_invitation")
      .values({
        work_id: workId,
        role: body.role,
        email,
        name,
        code_hash: sha256(code),
        status: "sent",
        expires_at: new Date(t.now.getTime() + TEAM_INVITE_DAYS * 86_400_000).toISOString(),
        invited_by: t.user.id,
        accepted_user_id: null,
        created_at: now,
        answered_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await repo.appendLog(t.db, {
      workId,
      userId: t.user.id,
      action: body.role === "author" ? "invite_author" : "invite_teacher",
      changes: { invitation: [null, `${name}（${maskEmail(email)}）：${ROLE_TEXT[body.role]}，待注册`] },
    });
    return { row, work: w };
  });
  // Mailed after the commit: a mail that fails is queued and retried (mail/queued.ts).
  await deps.mailer.send(
    inviteMail(
      deps.publicUrl,
      {
        to: email,
        name,
        role: body.role,
        workName: made.work.name,
        contestName: made.work.contest_name,
        schoolName: made.work.school_name,
        invitedBy: `${ctx.user.name}同学`,
        expiresAt: made.row.expires_at,
      },
      code,
    ),
  );
  return toView(made.row);
}

export async function withdrawTeamInvitation(ctx: WorkCtx, workId: number, invitationId: number) {
  return inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, workId);
    requireFirstAuthor(l, "撤回邀请");
    const row = await t.db
      .selectFrom("work_invitation")
      .selectAll()
      .where("id", "=", invitationId)
      .where("work_id", "=", workId)
      .executeTakeFirst();
    if (!row || row.status !== "sent") throw notFound(NO_INVITATION);
    await t.db
      .updateTable("work_invitation")
      .set({ status: "withdrawn", answered_at: t.now.toISOString() })
      .where("id", "=", row.id)
      .where("status", "=", "sent")
      .execute();
    await repo.appendLog(t.db, {
      workId,
      userId: t.user.id,
      action: "withdraw_invitation",
      changes: { invitation: [`${row.name}（${maskEmail(row.email)}）：${ROLE_TEXT[row.role]}，待注册`, "已撤回"] },
    });
  });
}

const findByCode = (db: repo.Handle, code: string) =>
  db.selectFrom("work_invitation").selectAll().where("code_hash", "=", sha256(code)).executeTakeFirst();

type Row = NonNullable<Awaited<ReturnType<typeof findByCode>>>;

function stateOf(row: Row | undefined, workStatus: string | undefined, now = new Date()): PublicTeamInvite["state"] {
  if (!row || row.status === "withdrawn" || !workStatus) return "invalid";
  if (row.status === "accepted") return "used";
  if (Date.parse(row.expires_at) <= now.getTime()) return "expired";
  if (!isEditable(workStatus as never)) return "closed";
  return "open";
}

function refusal(row: Row | undefined, state: PublicTeamInvite["state"]): Error | null {
  if (state === "invalid") return notFound(INVALID_TEAM_LINK);
  if (state === "used") return gone("该邀请已使用，链接已失效（每个邀请链接只能使用一次）；请直接登录");
  if (state === "expired") return gone(`该邀请已于 ${beijingTime(row!.expires_at)} 过期，链接已失效；请联系邀请您的同学重新邀请`);
  if (state === "closed") return gone("该作品已提交或已结束报名，不能再加入团队；请联系邀请您的同学");
  return null;
}

export async function publicTeamInvite(db: Db, code: string): Promise<PublicTeamInvite> {
  const row = await findByCode(db, code);
  const work = row ? await repo.findWork(db, Number(row.work_id)) : undefined;
  const state = stateOf(row, work?.status);
  if (state === "invalid" || !row || !work)
    return {
      state: "invalid",
      role: null,
      workName: null,
      contestName: null,
      schoolName: null,
      invitedBy: null,
      name: null,
      email: null,
      expiresAt: null,
    };
  const by = await db.selectFrom("app_user").select("name").where("id", "=", row.invited_by).executeTakeFirst();
  return {
    state,
    role: row.role,
    workName: work.name,
    contestName: work.contest_name,
    schoolName: work.school_name,
    invitedBy: by?.name ?? null,
    name: row.name,
    email: maskEmail(row.email),
    expiresAt: row.expires_at,
  };
}

/** Creates the account (student or teacher of the work's school, email verified) and puts it into the team. The route logs it in. */
export async function registerFromTeamInvite(
  db: Db,
  code: string,
  viewer: User | null,
  body: TeamInviteRegisterBody,
): Promise<User> {
  if (viewer) throw badRequest("您已登录，请先退出当前账号再用邀请链接创建账号");
  const password_hash = await hashPassword(body.password);
  return db.transaction().execute(async (trx) => {
    const row = await findByCode(trx, code);
    const work = row ? await repo.findWork(trx, Number(row.work_id)) : undefined;
    const closed = refusal(row, stateOf(row, work?.status));
    if (closed) throw closed;
    const inv = row!;
    const w = work!;
    if (await trx.selectFrom("app_user").select("id").where("email", "=", inv.email).executeTakeFirst())
      throw badRequest("该邮箱已有平台账号，请直接登录；如忘记密码，请使用“找回密码”");
    if (await trx.selectFrom("app_user").select("id").where("username", "=", body.username).executeTakeFirst())
      throw invalid("username", "该用户名已被使用，请换一个");
    const memberNo = body.memberNo.trim();
    if (
      await trx
        .selectFrom("app_user")
        .select("id")
        .where("school_id", "=", w.school_id)
        .where("member_no", "=", memberNo)
        .executeTakeFirst()
    ) {
      throw invalid("memberNo", `${w.school_name}已有学号/工号为 ${memberNo} 的账号，请直接登录该账号`);
    }
    const now = new Date();
    const user = await createUser(
      trx,
      {
        username: body.username,
        password_hash,
        name: body.name.trim(),
        user_type: inv.role === "author" ? ROLE.author : ROLE.teacher,
        email: inv.email,
        // The link reached this mailbox.
        email_verified: 1,
        phone: body.phone ?? null,
        school_id: w.school_id,
        member_no: memberNo,
      },
      now.toISOString(),
    );
    // Single use even when two registrations race: only one finds it still sent.
    const claimed = await trx
      .updateTable("work_invitation")
      .set({ status: "accepted", accepted_user_id: user.id, answered_at: now.toISOString() })
      .where("id", "=", inv.id)
      .where("status", "=", "sent")
      .executeTakeFirst();
    if (!Number(claimed.numUpdatedRows)) throw gone("该邀请刚刚已被使用或撤回，链接已失效");
    const t = { db: trx, user, now };
    if (!(await repo.updateWorkAt(trx, w.id, w.version, {}))) throw gone("作品刚刚被修改，请重新打开邀请链接");
    if (inv.role === "author") {
      const n = (await repo.authorsOf(trx, w.id)).length;
      await insertAuthor(t, w, user, n + 1, false);
    } else {
      const n = (await repo.teachersOf(trx, w.id)).length;
      await insertTeacher(t, w.id, user.id, n + 1);
    }
    await repo.refreshNames(trx, w.id);
    await repo.appendLog(trx, {
      workId: w.id,
      userId: user.id,
      action: inv.role === "author" ? "join_author" : "join_teacher",
      changes: {
        [inv.role === "author" ? "authors" : "teachers"]: [
          null,
          `${user.name}（${user.username}）${inv.role === "author" ? "［待确认］" : ""}：由邮件邀请注册`,
        ],
      },
    });
    await record(trx, user.id, {
      entity: "app_user",
      entityId: user.id,
      action: "create",
      changes: {
        username: [null, user.username],
        userType: [null, user.user_type],
        email: [null, inv.email],
        via: [null, `work_invitation ${inv.id}`],
      },
    });
    return user;
  });
}
