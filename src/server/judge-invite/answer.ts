/**
 * The invitee's side: the link's page (/inviteJudge/:code), a judge account created from the
 * link, accepting and declining — through the link or, logged in, from 「我的邀请」.
 *
 * - A link works while its invitation is sent and not past its answer-by date; an unknown and
 *   a withdrawn code answer the same ("invalid"); accepted, declined and expired say so. None
 *   of these changes anything; opening a valid link records the first opening.
 * - Only the account whose email is the invited one may accept (and decline while logged in);
 *   a judge's account (user_type 4). A wrong account is refused in Chinese, nothing changed.
 * - A new person creates a judge account from the link: the email is the invited one and is
 *   verified by the link; password rules as the registration (shared/account/schema.ts).
 * - Accepting is ONE transaction: the invitation is claimed (sent → accepted, single use),
 *   the user becomes contest_member 'judge' (what groups and the assignment read), the pool
 *   record is linked to the account (created for a new email), its school, title, categories
 *   and tags become the confirmed ones (and the account's school, which the conflict rules
 *   read), the year is marked available, and the declared conflicts are stored
 *   (judging/service/conflicts.ts). Any refusal leaves everything as it was. The steps of
 *   that transaction are in accept-writes.ts.
 */
import type { Selectable, Transaction } from "kysely";
import { badRequest, forbidden, gone, invalid, notFound } from "../../shared/errors";
import { ROLE, ROLE_NAMES, type RoleCode } from "../../shared/roles";
import type {
  AcceptBody,
  AnswerOutcome,
  InviteRegisterBody,
  MyInvitations,
  Prefill,
  PublicInvitation,
} from "../../shared/judge-invite/schema";
import type { Db } from "../db";
import type { DB, JudgeInvitationTable, User } from "../db/schema";
import { record } from "../common/audit";
import { hashPassword } from "../account/password";
import { addDeclaredConflicts } from "../judging/service/conflicts";
import { joinInvitedGroups } from "../judging/service/invited-members";
import type { Handle } from "../work/repository";
import { beijingTime as bj } from "../../shared/time";
import { maskEmail } from "../common/email";
import { categoryIdsOf, codeHash, stateOf } from "./codes";
import { normEmail } from "../common/email";
import { categoryNames, contestCategories } from "./load";
import {
  confirmedFacts,
  ensureJudgeMember,
  linkPoolPerson,
  markYearAvailable,
  personFor,
  replacePersonCategoriesAndTags,
  syncAccount,
} from "./accept-writes";
import { createUser } from "../account/create-user";

type Row = Selectable<JudgeInvitationTable>;
export const INVALID_LINK = "邀请链接无效或已被撤回，请向赛事管理员确认";
const NO_INVITATION = "邀请不存在";

export type Target = { code: string } | { id: number };

const findRow = (db: Handle, t: Target) => {
  const q = db.selectFrom("judge_invitation").selectAll();
  return ("code" in t ? q.where("code_hash", "=", codeHash(t.code)) : q.where("id", "=", t.id)).executeTakeFirst();
};

/** The refusal for a link that cannot be answered (null while it can). */
function closedReason(row: Row | undefined): Error | null {
  if (!row || row.status === "withdrawn") return notFound(INVALID_LINK);
  const st = stateOf(row);
  if (st === "expired")
    return gone(`该邀请已于 ${bj(row.answer_by)} 过期，链接已失效；如仍愿意担任评委，请联系赛事管理员重新发送邀请`);
  if (st === "accepted") return gone("该邀请已接受，链接已失效（每个邀请链接只能使用一次）");
  if (st === "declined") return gone("该邀请已谢绝，链接已失效；如改变主意，请联系赛事管理员重新邀请");
  return null;
}

const matches = (user: User | null, row: Row) => !!user?.email && normEmail(user.email) === row.email;

function wrongAccount(user: User, row: Row) {
  return forbidden(
    `此邀请发给 ${maskEmail(row.email)}，您当前登录的账号「${user.username}」的邮箱与之不符，未做任何更改。请退出当前账号，用受邀邮箱对应的账号登录，或退出后在本页用受邀邮箱创建评委账号。`,
  );
}

/** The pool record of an account, or of the invited email, to prefill the accept form. */
async function prefillOf(db: Handle, user: User, row: Row | null): Promise<Prefill> {
  const person = await personFor(db, user.id, row?.person_id ?? null, row?.email ?? (user.email ? normEmail(user.email) : null));
  const school = async (id: number | null) =>
    id === null
      ? null
      : ((await db.selectFrom("school").select(["id", "name", "province"]).where("id", "=", id).executeTakeFirst()) ?? null);
  if (!person)
    return {
      school: await school(user.school_id),
      schoolName: null,
      title: null,
      tags: [],
      categoryIds: row ? categoryIdsOf(row.categories) : [],
    };
  const tags = (
    await db.selectFrom("judge_person_tag").select("tag").where("person_id", "=", person.id).orderBy("tag").execute()
  ).map((t) => t.tag);
  const cats = (
    await db
      .selectFrom("judge_person_category")
      .select("category_id")
      .where("person_id", "=", person.id)
      .orderBy("category_id")
      .execute()
  ).map((c) => c.category_id);
  return {
    school: await school(person.school_id ?? user.school_id),
    schoolName: person.school_id === null ? person.school_name : null,
    title: person.title,
    tags,
    categoryIds: cats.length ? cats : row ? categoryIdsOf(row.categories) : [],
  };
}

export async function publicInvitation(db: Db, code: string, viewer: User | null): Promise<PublicInvitation> {
  const row = await findRow(db, { code });
  const empty: PublicInvitation = {
    state: "invalid",
    contest: null,
    categories: [],
    answerBy: null,
    sentAt: null,
    message: null,
    invitedBy: null,
    name: null,
    email: null,
    accountExists: false,
    viewer: null,
    categoryOptions: [],
    prefill: null,
  };
  if (!row || row.status === "withdrawn") return empty;
  const st = stateOf(row);
  if (row.status === "sent" && !row.opened_at) {
    await db
      .updateTable("judge_invitation")
      .set({ opened_at: new Date().toISOString() })
      .where("id", "=", row.id)
      .where("opened_at", "is", null)
      .execute();
  }
  const contest = await db
    .selectFrom("contest")
    .select(["name", "year", "level"])
    .where("id", "=", row.contest_id)
    .executeTakeFirstOrThrow();
  const by = await db.selectFrom("app_user").select("name").where("id", "=", row.invited_by).executeTakeFirst();
  const names = await categoryNames(db, categoryIdsOf(row.categories));
  const account = await db.selectFrom("app_user").select("id").where("email", "=", row.email).executeTakeFirst();
  const isMatch = matches(viewer, row);
  return {
    state: st === "sent" ? "open" : st === "withdrawn" ? "invalid" : st,
    contest,
    categories: categoryIdsOf(row.categories).map((id) => names.get(id) ?? String(id)),
    answerBy: row.answer_by,
    sentAt: row.sent_at,
    message: row.message,
    invitedBy: by ? `赛事管理员${by.name}` : null,
    name: row.name,
    email: maskEmail(row.email),
    accountExists: !!account,
    viewer: viewer
      ? { name: viewer.name, username: viewer.username, matches: isMatch, isJudge: viewer.user_type === ROLE.judge }
      : null,
    categoryOptions: st === "sent" ? (await contestCategories(db, row.contest_id)).nodes : [],
    prefill: st === "sent" && viewer && isMatch ? await prefillOf(db, viewer, row) : null,
  };
}

/** A judge account for the invited email, verified by the link. Returns the new user (the route logs them in). */
export async function registerFromInvitation(db: Db, code: string, viewer: User | null, body: InviteRegisterBody): Promise<User> {
  if (viewer) throw badRequest("您已登录，请先退出当前账号再用邀请链接创建评委账号");
  const password_hash = await hashPassword(body.password);
  return db.transaction().execute(async (trx) => {
    const row = await findRow(trx, { code });
    const closed = closedReason(row);
    if (closed) throw closed;
    const inv = row!;
    if (await trx.selectFrom("app_user").select("id").where("email", "=", inv.email).executeTakeFirst())
      throw badRequest("该邮箱已有平台账号，请直接登录后答复邀请；如忘记密码，请使用“找回密码”");
    if (await trx.selectFrom("app_user").select("id").where("username", "=", body.username).executeTakeFirst())
      throw invalid("username", "该用户名已被使用，请换一个");
    const person =
      inv.person_id !== null
        ? await trx.selectFrom("judge_person").select(["school_id", "user_id"]).where("id", "=", inv.person_id).executeTakeFirst()
        : undefined;
    const user = await createUser(trx, {
      username: body.username,
      password_hash,
      name: body.name.trim(),
      user_type: ROLE.judge,
      email: inv.email,
      // The link reached this mailbox.
      email_verified: 1,
      phone: body.phone ?? null,
      school_id: person?.school_id ?? null,
    });
    await record(trx, user.id, {
      entity: "app_user",
      entityId: user.id,
      action: "create",
      changes: {
        username: [null, user.username],
        userType: [null, ROLE.judge],
        email: [null, inv.email],
        via: [null, `judge_invitation ${inv.id}`],
      },
    });
    return user;
  });
}

async function claim(trx: Transaction<DB>, row: Row, to: "accepted" | "declined", userId: number | null, reason: string | null) {
  const r = await trx
    .updateTable("judge_invitation")
    .set({
      status: to,
      answered_at: new Date().toISOString(),
      opened_at: row.opened_at ?? new Date().toISOString(),
      accepted_user_id: to === "accepted" ? userId : null,
      status_reason: reason,
    })
    .where("id", "=", row.id)
    .where("status", "=", "sent")
    .where("answer_by", ">=", new Date().toISOString())
    .executeTakeFirst();
  // Single use even when two answers race: only one of them finds it still sent.
  if (!Number(r.numUpdatedRows)) throw gone("该邀请刚刚已被答复、撤回或已过期，链接已失效");
}

/** The invitation of a target, answerable by this user (a link: checked; mine: only own invitations are found). */
async function answerable(trx: Handle, user: User | null, t: Target, requireUser: boolean): Promise<Row> {
  const row = await findRow(trx, t);
  if ("id" in t && (!row || !matches(user, row))) throw notFound(NO_INVITATION);
  const closed = closedReason(row);
  if (closed) throw closed;
  if (!user) {
    if (requireUser) throw forbidden("请先登录受邀邮箱对应的账号，或在本页创建评委账号后再接受邀请");
    return row!;
  }
  if (!matches(user, row!)) throw wrongAccount(user, row!);
  return row!;
}

export async function acceptInvitation(db: Db, user: User | null, t: Target, body: AcceptBody): Promise<AnswerOutcome> {
  return db.transaction().execute(async (trx) => {
    const row = await answerable(trx, user, t, true);
    const u = user!;
    if (u.user_type !== ROLE.judge)
      throw forbidden(
        `评委邀请须由评委账号接受；您的账号身份为「${ROLE_NAMES[u.user_type as RoleCode] ?? u.user_type}」，请联系赛事管理员`,
      );
    const contest = await trx
      .selectFrom("contest")
      .select(["id", "name", "year"])
      .where("id", "=", row.contest_id)
      .executeTakeFirstOrThrow();

    // The confirmed facts, checked before anything is written.
    const facts = await confirmedFacts(trx, body);

    await claim(trx, row, "accepted", u.id, null);
    const now = new Date().toISOString();

    await ensureJudgeMember(trx, u, contest.id, row, now);
    // The invitation's 大类: the judge joins that category's judge group (or a later one takes them in).
    await joinInvitedGroups(trx, u.id, contest.id, categoryIdsOf(row.categories), now);
    const personId = await linkPoolPerson(trx, u, row, facts, now);
    await replacePersonCategoriesAndTags(trx, u.id, personId, facts.categoryIds, facts.tags);
    await markYearAvailable(trx, personId, contest, now);
    await syncAccount(trx, u, facts.school?.id ?? null, facts.tags, now);

    const added = await addDeclaredConflicts(
      trx,
      u.id,
      u.id,
      body.conflicts,
      body.conflicts.note?.trim() || `接受「${contest.name}」评委邀请时申报`,
    );
    await record(trx, u.id, {
      entity: "judge_invitation",
      entityId: row.id,
      action: "update",
      changes: { status: ["sent", "accepted"], acceptedUserId: [null, u.id], conflicts: [null, added] },
    });
    return { state: "accepted", contest: { id: contest.id, name: contest.name }, conflicts: added };
  });
}

export async function declineInvitation(db: Db, user: User | null, t: Target, reason?: string): Promise<AnswerOutcome> {
  return db.transaction().execute(async (trx) => {
    // Declining through the link needs no account (the link reached the mailbox); logged in, only the invited account.
    const row = await answerable(trx, user, t, false);
    const why = reason?.trim() || null;
    await claim(trx, row, "declined", user?.id ?? null, why);
    await record(trx, user?.id ?? null, {
      entity: "judge_invitation",
      entityId: row.id,
      action: "update",
      changes: { status: ["sent", "declined"], statusReason: [null, why] },
    });
    const contest = await trx
      .selectFrom("contest")
      .select(["id", "name"])
      .where("id", "=", row.contest_id)
      .executeTakeFirstOrThrow();
    return { state: "declined", contest, conflicts: 0 };
  });
}

/** A judge's invitations (to the account's email, or accepted by it), pending first; withdrawn ones are not shown. */
export async function myInvitations(db: Db, user: User): Promise<MyInvitations> {
  const email = user.email ? normEmail(user.email) : null;
  const rows = await db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest", "contest.id", "i.contest_id")
    .innerJoin("app_user as by", "by.id", "i.invited_by")
    .selectAll("i")
    .select(["contest.name as contest_name", "contest.year as contest_year", "by.name as by_name"])
    .where((eb) => eb.or([eb("i.accepted_user_id", "=", user.id), ...(email ? [eb("i.email", "=", email)] : [])]))
    .where("i.status", "!=", "withdrawn")
    .orderBy("i.sent_at", "desc")
    .limit(200)
    .execute();
  const names = await categoryNames(
    db,
    rows.flatMap((r) => categoryIdsOf(r.categories)),
  );
  const options = new Map<number, Awaited<ReturnType<typeof contestCategories>>["nodes"]>();
  const now = Date.now();
  const invitations = [];
  for (const r of rows) {
    const state = stateOf(r, now);
    if (state === "sent" && !options.has(r.contest_id))
      options.set(r.contest_id, (await contestCategories(db, r.contest_id)).nodes);
    invitations.push({
      id: r.id,
      contest: { id: r.contest_id, name: r.contest_name, year: r.contest_year },
      categories: categoryIdsOf(r.categories).map((id) => ({ id, name: names.get(id) ?? String(id) })),
      categoryOptions: state === "sent" ? options.get(r.contest_id)! : [],
      message: r.message,
      answerBy: r.answer_by,
      sentAt: r.sent_at,
      answeredAt: r.answered_at,
      invitedBy: `赛事管理员${r.by_name}`,
      state,
    });
  }
  invitations.sort((a, b) => Number(b.state === "sent") - Number(a.state === "sent"));
  return { invitations, prefill: await prefillOf(db, user, null) };
}
