/**
 * Filing: the contest a complaint belongs to and its window, the visitor's mailed code and
 * token, evidence files, and the filing itself (logged-in 申诉/投诉, visitor 投诉).
 *
 * - A 投诉 is about a work in a result in force (the contest of that publication); a 申诉 is
 *   by an author or advising teacher of the work, about the contest that published its
 *   result or, before any, the contest that receives the work.
 * - Filing is open while the contest's publicity (公示) or complaint (申诉) stage is open;
 *   otherwise refused with the stages' dates.
 * - One open complaint per person per work, whichever way they file (complaint.open_key,
 *   unique): the key is the filer's e-mail when there is one — a visitor's verified address, or
 *   the account's — so a person logged in and the same person as a visitor share it; an account
 *   without e-mail is keyed by its id. Keys of the older form (u<id>) are looked up as well.
 * - A visitor proves the email with a one-time code (hashed, 15 minutes, 5 attempts), which
 *   buys a token (hashed, 2 hours) for filing, evidence and the own complaints.
 */
import { basename } from "node:path";
import { pipeline, type Readable } from "node:stream";
import {
  CATEGORIES_OF,
  CODE_MINUTES,
  COMPLAINT_CATEGORY_NAMES,
  COMPLAINT_TYPE_NAMES,
  EVIDENCE_EXTENSIONS,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_FILES,
  TEXT_MAX,
  TEXT_MIN,
  VISITOR_TOKEN_HOURS,
  type ComplaintCategory,
  type ComplaintType,
} from "../../shared/complaint/states";
import type { ComplaintWindow, EvidenceView, VisitorToken } from "../../shared/complaint/schema";
import { STAGE_NAMES } from "../../shared/contest/stages";
import { badRequest, DomainError, forbidden, invalid, notFound, tooLarge, unauthenticated } from "../../shared/errors";
import type { Db } from "../db";
import type { Mailer } from "../mail/mailer";
import { newToken, sha256, sixDigitCode } from "../common/crypto";
import { normEmail } from "../common/email";
import type { BlobStore } from "../storage";
import { appendLog, findWork } from "../work/repository";
import { beijingTime as bj } from "../../shared/time";
import { receivingContestId } from "../work/rules";
import { extensionOf, uploadGuard } from "../work/files/check";
import { cleanText } from "./transition";
import { isParty, type Caller, type Handle } from "./scope";
import { dueAt, settingsOf } from "./settings";

const MB = 1024 * 1024;
const CODE_ATTEMPTS = 5;

// ---- Contest and window ----

/** The contest whose result in force holds the work (the newest publication), if any. */
export async function publishedContestOf(db: Handle, workId: number): Promise<number | null> {
  const r = await db
    .selectFrom("contest_result")
    .innerJoin("result_publication", "result_publication.contest_id", "contest_result.contest_id")
    .select("contest_result.contest_id")
    .where("contest_result.work_id", "=", workId)
    .where("result_publication.withdrawn_at", "is", null)
    .orderBy("result_publication.id", "desc")
    .executeTakeFirst();
  return r ? r.contest_id : null;
}

export async function contestOfWork(
  db: Handle,
  work: { id: number; contest_id: number; contest_level: string; contest_parent_id: number | null },
): Promise<{ contestId: number; published: boolean }> {
  const pub = await publishedContestOf(db, work.id);
  if (pub !== null) return { contestId: pub, published: true };
  return {
    contestId: receivingContestId({ id: work.contest_id, level: work.contest_level, parent_id: work.contest_parent_id }),
    published: false,
  };
}

/** The publicity/complaint windows of a contest (open first). */
export async function windowsOf(db: Handle, contestId: number, now = new Date()): Promise<ComplaintWindow[]> {
  const contest = await db.selectFrom("contest").select(["id", "name"]).where("id", "=", contestId).executeTakeFirst();
  if (!contest) return [];
  const stages = await db
    .selectFrom("contest_stage")
    .select(["stage", "starts_at", "ends_at"])
    .where("contest_id", "=", contestId)
    .where("stage", "in", ["publicity", "complaint"])
    .orderBy("starts_at")
    .execute();
  const t = now.getTime();
  return stages
    .map((s) => ({
      contestId,
      contestName: contest.name,
      stage: s.stage,
      startsAt: s.starts_at,
      endsAt: s.ends_at,
      open: Date.parse(s.starts_at) <= t && t < Date.parse(s.ends_at),
    }))
    .sort((a, b) => Number(b.open) - Number(a.open));
}

/** Refuses filing outside the contest's windows, naming their dates. */
export async function requireOpenWindow(db: Handle, contestId: number, now = new Date()): Promise<ComplaintWindow> {
  const windows = await windowsOf(db, contestId, now);
  const open = windows.find((w) => w.open);
  if (open) return open;
  const name = (await db.selectFrom("contest").select("name").where("id", "=", contestId).executeTakeFirst())?.name ?? "";
  if (!windows.length) throw badRequest(`「${name}」尚未设置公示期或申诉期，当前不能提交申诉或投诉`);
  const dates = windows.map((w) => `${STAGE_NAMES[w.stage as "publicity"]}期 ${bj(w.startsAt)} 至 ${bj(w.endsAt)}`).join("，");
  throw badRequest(`「${name}」的${dates}，当前不在受理时间内，不能提交申诉或投诉`);
}

// ---- Visitor code and token ----

export async function sendVisitorCode(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  emailIn: string,
): Promise<{ email: string; expiresAt: string }> {
  const email = normEmail(emailIn);
  const code = sixDigitCode();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + CODE_MINUTES * 60_000).toISOString();
  await db.transaction().execute(async (trx) => {
    // An earlier unused code of the address stops working.
    await trx
      .updateTable("complaint_visitor_code")
      .set({ used_at: now.toISOString() })
      .where("email", "=", email)
      .where("used_at", "is", null)
      .execute();
    await trx
      .insertInto("complaint_visitor_code")
      .values({
        email,
        code_hash: sha256(`${email}:${code}`),
        expires_at: expiresAt,
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
  });
  await mailer.send({
    to: email,
    subject: "【赛务平台】申诉与投诉验证码",
    text: `您好：\n\n您的验证码是 ${code}，${CODE_MINUTES} 分钟内有效，只能使用一次。请在 ${publicUrl}/complaint 页面输入验证码，以提交投诉或查询您的投诉。\n\n如果这不是您本人的操作，请忽略本邮件。\n`,
  });
  return { email, expiresAt };
}

export async function verifyVisitorCode(db: Db, emailIn: string, code: string): Promise<VisitorToken> {
  const email = normEmail(emailIn);
  const now = new Date();
  const row = await db
    .selectFrom("complaint_visitor_code")
    .selectAll()
    .where("email", "=", email)
    .where("used_at", "is", null)
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!row) throw badRequest("验证码无效或已使用，请重新获取验证码");
  if (Date.parse(row.expires_at) < now.getTime()) throw badRequest("验证码已过期，请重新获取验证码");
  if (row.code_hash !== sha256(`${email}:${code}`)) {
    const attempts = Number(row.attempts) + 1;
    await db
      .updateTable("complaint_visitor_code")
      .set({ attempts, ...(attempts >= CODE_ATTEMPTS ? { used_at: now.toISOString() } : {}) })
      .where("id", "=", row.id)
      .execute();
    throw badRequest(
      attempts >= CODE_ATTEMPTS ? "验证码错误次数过多，已失效，请重新获取验证码" : "验证码错误，请检查邮件中的验证码",
    );
  }
  const token = newToken();
  const expiresAt = new Date(now.getTime() + VISITOR_TOKEN_HOURS * 3600_000).toISOString();
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("complaint_visitor_code")
      .set({ used_at: now.toISOString() })
      .where("id", "=", row.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw badRequest("验证码无效或已使用，请重新获取验证码");
    await trx
      .insertInto("complaint_visitor_token")
      .values({ email, token_hash: sha256(token), expires_at: expiresAt, created_at: now.toISOString() })
      .execute();
  });
  return { token, email, expiresAt };
}

/** The verified email of a visitor's token; 401 when unknown or expired. */
export async function visitorEmail(db: Handle, token: string): Promise<string> {
  const row = await db
    .selectFrom("complaint_visitor_token")
    .select(["email", "expires_at"])
    .where("token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row || Date.parse(row.expires_at) < Date.now()) throw unauthenticated("查询凭证无效或已过期，请重新获取邮箱验证码");
  return row.email;
}

// ---- Evidence ----

export interface IncomingFile {
  filename: string;
  stream: Readable;
  truncated(): boolean;
}

const cleanName = (name: string) =>
  basename(name.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(-200);
const MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  zip: "application/zip",
};
export const evidenceUrl = (id: number, visitor: boolean) =>
  visitor ? `/Backend/Public/complaint/evidence/${id}` : `/Backend/Complaint/evidence/${id}`;

/** Stores one evidence file of a user or a verified visitor (not yet attached to a complaint). */
export async function uploadEvidence(
  db: Db,
  store: BlobStore,
  owner: { userId: number | null; email: string | null },
  incoming: IncomingFile | undefined,
): Promise<EvidenceView> {
  if (!incoming) throw badRequest("请选择要上传的证据文件");
  const filename = cleanName(incoming.filename);
  const ext = extensionOf(filename);
  if (!filename || !(EVIDENCE_EXTENSIONS as readonly string[]).includes(`.${ext}`)) {
    incoming.stream.destroy();
    throw invalid(
      "file",
      `证据材料只接受 ${EVIDENCE_EXTENSIONS.join("、")} 格式的文件${filename ? `，「${filename}」不符合` : ""}`,
    );
  }
  const maxMB = EVIDENCE_MAX_BYTES / MB;
  const guard = uploadGuard({ name: "证据材料", ext, maxBytes: EVIDENCE_MAX_BYTES, maxSizeMB: maxMB, filename });
  const stored = await store.put(pipeline(incoming.stream, guard, () => {}));
  if (incoming.truncated()) throw tooLarge(`证据材料的文件不能超过 ${maxMB} MB，「${filename}」超过了这一限制`);
  const at = new Date().toISOString();
  const row = await db
    .insertInto("complaint_evidence")
    .values({
      complaint_id: null,
      owner_user_id: owner.userId,
      owner_email: owner.email,
      filename,
      size: stored.size,
      mime: MIME[ext] ?? "application/octet-stream",
      sha256: stored.sha256,
      uploaded_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    name: filename,
    size: stored.size,
    contentType: MIME[ext] ?? "application/octet-stream",
    uploadedAt: at,
    url: evidenceUrl(row.id, owner.userId === null),
  };
}

// ---- Filing ----

export interface FilingInput {
  type: ComplaintType;
  workId: number;
  category: ComplaintCategory;
  text: string;
  evidence?: number[];
  /** visitor: real name and phone */
  name?: string;
  phone?: string;
}

/**
 * The open-complaint keys of one person for one work, the one to write first: by e-mail when
 * there is one (shared by the account and a visitor using its address), then by account id —
 * the caller's, or for a visitor those of the accounts holding that e-mail.
 */
async function openKeysOf(db: Handle, userId: number | null, email: string | null, workId: number): Promise<string[]> {
  const ids =
    userId !== null
      ? [userId]
      : email
        ? (await db.selectFrom("app_user").select("id").where("email", "=", email).execute()).map((u) => u.id)
        : [];
  return [...(email ? [`e${email}:${workId}`] : []), ...ids.map((id) => `u${id}:${workId}`)];
}

const alreadyOpen = (id: number) => badRequest(`您对该作品已有未结案的申诉或投诉（编号 ${id}），请等待处理结果，不能重复提交`);

export async function fileComplaint(db: Db, caller: Caller, input: FilingInput): Promise<number> {
  const user = caller.user;
  const email = user ? (user.email ? normEmail(user.email) : null) : (caller.visitorEmail ?? null);
  if (!user && !email) throw unauthenticated("请先验证邮箱");
  if (!user && input.type !== "complaint") throw forbidden("申诉须由作品的作者或指导教师登录后提出；未登录只能提交投诉");
  if (!CATEGORIES_OF[input.type].includes(input.category)) {
    throw invalid(
      "category",
      `${COMPLAINT_TYPE_NAMES[input.type]}的事由须为：${CATEGORIES_OF[input.type].map((k) => COMPLAINT_CATEGORY_NAMES[k]).join("、")}`,
    );
  }
  const text = cleanText(input.text, "text", `${COMPLAINT_TYPE_NAMES[input.type]}内容`, TEXT_MIN);
  if (text.plain.length > TEXT_MAX) throw invalid("text", `内容不能超过 ${TEXT_MAX} 字`);
  const evidence = [...new Set(input.evidence ?? [])];
  if (evidence.length > EVIDENCE_MAX_FILES) throw invalid("evidence", `证据材料最多 ${EVIDENCE_MAX_FILES} 个文件`);

  return db.transaction().execute(async (trx) => {
    const work = await findWork(trx, input.workId);
    if (!work || work.status === "draft") throw notFound(`作品 ${input.workId} 不存在`);
    const party = user ? await isParty(trx, user.id, work.id) : await emailIsParty(trx, work.id, email!);
    if (input.type === "appeal" && !party) throw forbidden("只有作品的作者或指导教师可以对该作品提出申诉");
    if (input.type === "complaint" && party) throw badRequest("不能投诉自己参与或指导的作品；对本作品的结果有异议请提出申诉");
    const { contestId, published } = await contestOfWork(trx, work);
    if (input.type === "complaint" && !published) throw badRequest(`作品 ${work.id} 不在已发布的比赛结果中，不能投诉`);
    const now = new Date();
    await requireOpenWindow(trx, contestId, now);
    const keys = await openKeysOf(trx, user?.id ?? null, email, work.id);
    const openKey = keys[0];
    const open = await trx.selectFrom("complaint").select("id").where("open_key", "in", keys).executeTakeFirst();
    if (open) throw alreadyOpen(open.id);
    if (evidence.length) {
      let q = trx.selectFrom("complaint_evidence").select("id").where("id", "in", evidence).where("complaint_id", "is", null);
      q = user ? q.where("owner_user_id", "=", user.id) : q.where("owner_user_id", "is", null).where("owner_email", "=", email!);
      if ((await q.execute()).length !== evidence.length) throw invalid("evidence", "证据材料不存在或已被使用，请重新上传");
    }
    const settings = await settingsOf(trx, contestId);
    const at = now.toISOString();
    let id: number;
    try {
      const row = await trx
        .insertInto("complaint")
        .values({
          contest_id: contestId,
          work_id: work.id,
          type: input.type,
          category: input.category,
          state: "submitted",
          text: text.html,
          filer_user_id: user?.id ?? null,
          filer_name: user ? user.name : input.name!.trim(),
          filer_email: email,
          filer_phone: user ? user.phone : (input.phone ?? null),
          open_key: openKey,
          created_at: at,
          updated_at: at,
          state_at: at,
          due_at: dueAt("submitted", now, settings),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      id = row.id;
    } catch (e) {
      if (e instanceof DomainError) throw e;
      // Two filings at once: the unique open_key lets one through (PostgreSQL aborts the transaction, so no lookup here).
      if (/unique|duplicate/i.test((e as Error).message))
        throw badRequest("您对该作品已有未结案的申诉或投诉，请等待处理结果，不能重复提交");
      throw e;
    }
    if (evidence.length)
      await trx.updateTable("complaint_evidence").set({ complaint_id: id }).where("id", "in", evidence).execute();
    await trx
      .insertInto("complaint_history")
      .values({
        complaint_id: id,
        at,
        action: "submit",
        from_state: null,
        to_state: "submitted",
        actor_id: user?.id ?? null,
        actor_kind: "filer",
        text: null,
      })
      .execute();
    // Without the filer: the work's authors read this log.
    await appendLog(trx, {
      workId: work.id,
      userId: null,
      action: "complaint_submit",
      changes: { complaint: [null, id], complaintType: [null, input.type] },
    });
    return id;
  });
}

/** Whether a visitor's email is that of an author or teacher of the work (a 投诉 on the own work). */
async function emailIsParty(db: Handle, workId: number, email: string): Promise<boolean> {
  const authors = db.selectFrom("work_author").select("user_id").where("work_id", "=", workId);
  const teachers = db.selectFrom("work_teacher").select("user_id").where("work_id", "=", workId);
  const hit = await db
    .selectFrom("app_user")
    .select("id")
    .where("email", "=", email)
    .where((eb) => eb.or([eb("id", "in", authors), eb("id", "in", teachers)]))
    .executeTakeFirst();
  return !!hit;
}
