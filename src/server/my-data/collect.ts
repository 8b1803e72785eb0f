/**
 * "Download my data" (个人信息保护法, the right of access): everything the platform holds about
 * the signed-in person, as one JSON document. Only the person's own facts and, of other people,
 * no more than the names they already see (team members of their works). Never secrets: no
 * password or token hashes, no session ids. Results of their works only where published
 * (work/published.ts); visitor complaints filed with their e-mail only once that e-mail is
 * verified on the account (else anyone could claim another's address and read them).
 */
import { sql } from "kysely";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { ROLE_NAMES, isRoleCode } from "../../shared/roles";
import { normEmail } from "../common/email";
import { publishedAwards } from "../work/published";

const parse = (s: string | null | undefined): unknown => {
  if (s == null) return null;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};
const bool = (v: unknown) => !!Number(v);

export async function collectMyData(db: Db, user: User, now = new Date()) {
  return {
    说明: "这是赛务平台保存的与您本人有关的全部个人信息（个人信息保护法）。其他人的信息只包含您在平台上本就能看到的姓名。",
    exportedAt: now.toISOString(),
    profile: await profile(db, user),
    contestRoles: await contestRoles(db, user.id),
    sessions: await sessions(db, user.id),
    accountChanges: await accountChanges(db, user.id),
    works: await works(db, user.id),
    scoresGiven: await scoresGiven(db, user.id),
    complaints: await complaints(db, user),
    judgePool: await judgePool(db, user.id),
    certificates: await certificates(db, user.id),
    apiTokens: await apiTokens(db, user.id),
    settings: { todoDigest: user.todo_digest === undefined ? true : bool(user.todo_digest) },
  };
}

async function profile(db: Db, user: User) {
  const school = user.school_id
    ? await db.selectFrom("school").select("name").where("id", "=", user.school_id).executeTakeFirst()
    : undefined;
  const major = user.major_code
    ? await db.selectFrom("major").select("name").where("code", "=", user.major_code).executeTakeFirst()
    : undefined;
  const roles = [isRoleCode(user.user_type) ? ROLE_NAMES[user.user_type] : String(user.user_type)];
  if (bool(user.has_complaint_right)) roles.push("申诉处理权限");
  if (bool(user.is_school_contest_judge)) roles.push("校赛评委");
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    roles,
    email: user.email,
    emailVerified: bool(user.email_verified),
    phone: user.phone,
    school: school?.name ?? null,
    memberNo: user.member_no,
    major: user.major_code ? { code: user.major_code, name: major?.name ?? null } : null,
    expertise: user.expertise ?? null,
    locked: bool(user.locked),
    createdAt: user.created_at,
    updatedAt: user.updated_at,
  };
}

async function contestRoles(db: Db, userId: number) {
  const rows = await db
    .selectFrom("contest_member as m")
    .innerJoin("contest as c", "c.id", "m.contest_id")
    .select(["c.name as contest", "m.role", "m.created_at"])
    .where("m.user_id", "=", userId)
    .orderBy("m.id")
    .execute();
  return rows.map((r) => ({ contest: r.contest, role: r.role, since: r.created_at }));
}

async function sessions(db: Db, userId: number) {
  const rows = await db
    .selectFrom("user_session")
    .select(["created_at", "last_seen_at", "expires_at", "ip", "user_agent"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((s) => ({
    createdAt: s.created_at,
    lastSeenAt: s.last_seen_at,
    expiresAt: s.expires_at,
    ip: s.ip,
    userAgent: s.user_agent,
  }));
}

/** The audit log's entries about the person's own account (who made them: themselves or an administrator). */
async function accountChanges(db: Db, userId: number) {
  const rows = await db
    .selectFrom("audit_log")
    .select(["at", "user_id", "action", "changes"])
    .where("entity", "in", ["user", "app_user"])
    .where("entity_id", "=", String(userId))
    .orderBy("id")
    .limit(1000)
    .execute();
  return rows.map((r) => {
    const changes = parse(r.changes);
    // Field names only: an administrator's entry may hold values (a password hash never, but be safe).
    const fields = changes && typeof changes === "object" ? Object.keys(changes).filter((k) => !/password|hash/i.test(k)) : [];
    return { at: r.at, action: r.action, by: r.user_id === userId ? "本人" : r.user_id ? "管理员" : "系统", fields };
  });
}

async function works(db: Db, userId: number) {
  const mine = await db
    .selectFrom("work")
    .innerJoin("contest as c", "c.id", "work.contest_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .innerJoin("school as s", "s.id", "work.school_id")
    .select([
      "work.id",
      "work.name",
      "work.status",
      "work.year",
      "work.created_at",
      "work.submitted_at",
      "c.name as contest",
      "cat.name as category",
      "sub.name as subcategory",
      "s.name as school",
    ])
    .select((eb) => [
      eb
        .selectFrom("work_author as a")
        .select("a.rank")
        .whereRef("a.work_id", "=", "work.id")
        .where("a.user_id", "=", userId)
        .as("author_rank"),
      eb
        .selectFrom("work_teacher as t")
        .select("t.rank")
        .whereRef("t.work_id", "=", "work.id")
        .where("t.user_id", "=", userId)
        .as("teacher_rank"),
    ])
    .where((eb) =>
      eb.or([
        eb("work.id", "in", eb.selectFrom("work_author").select("work_id").where("user_id", "=", userId)),
        eb("work.id", "in", eb.selectFrom("work_teacher").select("work_id").where("user_id", "=", userId)),
      ]),
    )
    .orderBy("work.id")
    .execute();
  const out = [];
  for (const w of mine) {
    const authors = await db
      .selectFrom("work_author as a")
      .innerJoin("app_user as u", "u.id", "a.user_id")
      .select(["u.name", "a.rank"])
      .where("a.work_id", "=", w.id)
      .orderBy("a.rank")
      .execute();
    const teachers = await db
      .selectFrom("work_teacher as t")
      .innerJoin("app_user as u", "u.id", "t.user_id")
      .select(["u.name", "t.rank"])
      .where("t.work_id", "=", w.id)
      .orderBy("t.rank")
      .execute();
    const files = await db
      .selectFrom("work_file")
      .select(["kind", "filename", "size", "created_at"])
      .where("work_id", "=", w.id)
      .where("deleted_at", "is", null)
      .where("replaced_at", "is", null)
      .orderBy("id")
      .execute();
    out.push({
      id: w.id,
      title: w.name,
      year: w.year,
      contest: w.contest,
      category: w.category,
      subcategory: w.subcategory,
      school: w.school,
      state: w.status,
      myRole: w.author_rank != null ? `第 ${w.author_rank} 作者` : `第 ${w.teacher_rank} 指导教师`,
      authors: authors.map((a) => a.name),
      teachers: teachers.map((t) => t.name),
      createdAt: w.created_at,
      submittedAt: w.submitted_at,
      files: files.map((f) => ({ kind: f.kind, filename: f.filename, size: Number(f.size), uploadedAt: f.created_at })),
      publishedResults: (await publishedAwards(db, w.id)).map((a) => a.text),
    });
  }
  return out;
}

/** The scores the person gave as a judge: online reviews and defence scores. */
async function scoresGiven(db: Db, userId: number) {
  const online = await db
    .selectFrom("judge_score as s")
    .innerJoin("contest as c", "c.id", "s.contest_id")
    .select([
      "s.work_id",
      "c.name as contest",
      "s.items",
      "s.deductions",
      "s.total",
      "s.comment",
      "s.status",
      "s.submitted_at",
      "s.superseded_at",
      "s.updated_at",
    ])
    .where("s.judge_id", "=", userId)
    .orderBy("s.id")
    .execute();
  const defence = await db
    .selectFrom("defence_score")
    .select(["slot_id", "score", "recommendation", "comment", "updated_at"])
    .where("judge_id", "=", userId)
    .orderBy("id")
    .execute();
  return {
    online: online.map((s) => ({
      workId: s.work_id,
      contest: s.contest,
      itemScores: parse(s.items),
      deductions: parse(s.deductions),
      total: s.total === null ? null : Number(s.total),
      comment: s.comment,
      status: s.status,
      submittedAt: s.submitted_at,
      supersededAt: s.superseded_at,
      updatedAt: s.updated_at,
    })),
    defence: defence.map((d) => ({
      slotId: d.slot_id,
      score: Number(d.score),
      recommendation: d.recommendation,
      comment: d.comment,
      updatedAt: d.updated_at,
    })),
  };
}

async function complaints(db: Db, user: User) {
  const visitorEmail = user.email && bool(user.email_verified) ? normEmail(user.email) : null;
  const rows = await db
    .selectFrom("complaint")
    .innerJoin("contest as c", "c.id", "complaint.contest_id")
    .select([
      "complaint.id",
      "complaint.work_id",
      "c.name as contest",
      "complaint.type",
      "complaint.category",
      "complaint.state",
      "complaint.text",
      "complaint.filer_user_id",
      "complaint.filer_name",
      "complaint.filer_email",
      "complaint.filer_phone",
      "complaint.created_at",
      "complaint.state_at",
      "complaint.refusal",
      "complaint.decision_outcome",
      "complaint.decision_text",
      "complaint.arb_outcome",
      "complaint.arb_text",
    ])
    .where((eb) =>
      eb.or([
        eb("complaint.filer_user_id", "=", user.id),
        ...(visitorEmail
          ? [
              eb.and([
                eb("complaint.filer_user_id", "is", null),
                eb(sql<string>`lower(complaint.filer_email)`, "=", visitorEmail),
              ]),
            ]
          : []),
      ]),
    )
    .orderBy("complaint.id")
    .execute();
  const out = [];
  for (const c of rows) {
    const history = await db
      .selectFrom("complaint_history")
      .select(["at", "action", "to_state"])
      .where("complaint_id", "=", c.id)
      .orderBy("id")
      .execute();
    const evidence = await db
      .selectFrom("complaint_evidence")
      .select(["filename", "size", "uploaded_at"])
      .where("complaint_id", "=", c.id)
      .orderBy("id")
      .execute();
    out.push({
      id: c.id,
      filedAs: c.filer_user_id === null ? "访客（邮箱）" : "登录账号",
      workId: c.work_id,
      contest: c.contest,
      type: c.type,
      category: c.category,
      state: c.state,
      text: c.text,
      filer: { name: c.filer_name, email: c.filer_email, phone: c.filer_phone },
      createdAt: c.created_at,
      stateAt: c.state_at,
      refusal: c.refusal,
      decision: { outcome: c.decision_outcome, text: c.decision_text },
      arbitration: { outcome: c.arb_outcome, text: c.arb_text },
      history: history.map((h) => ({ at: h.at, action: h.action, state: h.to_state })),
      evidence: evidence.map((e) => ({ filename: e.filename, size: Number(e.size), uploadedAt: e.uploaded_at })),
    });
  }
  return out;
}

/** The judge-pool record linked to the account, and the invitations to judge sent to it. */
async function judgePool(db: Db, userId: number) {
  const persons = await db
    .selectFrom("judge_person as p")
    .leftJoin("school as s", "s.id", "p.school_id")
    .select(["p.id", "p.name", "s.name as school", "p.school_name", "p.province", "p.title", "p.email", "p.phone", "p.note"])
    .select(["p.created_at", "p.updated_at"])
    .where("p.user_id", "=", userId)
    .where("p.merged_into", "is", null)
    .execute();
  const out = [];
  for (const p of persons) {
    const categories = await db
      .selectFrom("judge_person_category as pc")
      .innerJoin("work_category as wc", "wc.id", "pc.category_id")
      .select("wc.name")
      .where("pc.person_id", "=", p.id)
      .execute();
    const tags = await db.selectFrom("judge_person_tag").select("tag").where("person_id", "=", p.id).execute();
    const years = await db
      .selectFrom("judge_person_year")
      .select(["year", "available", "note"])
      .where("person_id", "=", p.id)
      .orderBy("year")
      .execute();
    out.push({
      name: p.name,
      school: p.school ?? p.school_name,
      province: p.province,
      title: p.title,
      email: p.email,
      phone: p.phone,
      note: p.note,
      categories: categories.map((c) => c.name),
      tags: tags.map((t) => t.tag),
      years: years.map((y) => ({ year: y.year, available: bool(y.available), note: y.note })),
      createdAt: p.created_at,
      updatedAt: p.updated_at,
    });
  }
  const personIds = persons.map((p) => p.id);
  const invitations = await db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest as c", "c.id", "i.contest_id")
    .select(["c.name as contest", "i.email", "i.status", "i.sent_at", "i.answered_at"])
    .where((eb) =>
      eb.or([eb("i.accepted_user_id", "=", userId), ...(personIds.length ? [eb("i.person_id", "in", personIds)] : [])]),
    )
    .orderBy("i.id")
    .execute();
  return {
    persons: out,
    invitations: invitations.map((i) => ({
      contest: i.contest,
      email: i.email,
      status: i.status,
      sentAt: i.sent_at,
      answeredAt: i.answered_at,
    })),
  };
}

async function certificates(db: Db, userId: number) {
  const rows = await db
    .selectFrom("certificate")
    .select([
      "number",
      "holder_kind",
      "holder_name",
      "school_name",
      "contest_name",
      "work_title",
      "category_name",
      "award_name",
      "contest_date",
      "status",
      "issued_at",
    ])
    .where("holder_user_id", "=", userId)
    .orderBy("id")
    .execute();
  return rows.map((c) => ({
    number: c.number,
    holderKind: c.holder_kind,
    holderName: c.holder_name,
    school: c.school_name,
    contest: c.contest_name,
    work: c.work_title,
    category: c.category_name,
    award: c.award_name,
    date: c.contest_date,
    status: c.status,
    issuedAt: c.issued_at,
  }));
}

/** API tokens: names, scopes and dates; never the hash. */
async function apiTokens(db: Db, userId: number) {
  const rows = await db
    .selectFrom("api_token")
    .select(["name", "read_only", "resources", "created_at", "expires_at", "revoked_at", "last_used_at", "last_used_addr"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return rows.map((t) => ({
    name: t.name,
    readOnly: bool(t.read_only),
    resources: parse(t.resources),
    createdAt: t.created_at,
    expiresAt: t.expires_at,
    revokedAt: t.revoked_at,
    lastUsedAt: t.last_used_at,
    lastUsedFrom: t.last_used_addr,
  }));
}
