/**
 * Excel import and export of users, keyed by username. The dry run resolves school and
 * major codes and checks roles and email addresses per cell; the confirm step checks every
 * row again in bulk and writes in batches of 100 inside the one transaction, so 50k
 * students import in seconds (small batches: on the embedded SQLite the import lets other
 * requests in between statements, see db/libsql-dialect.ts). Rows outside the importer's scope are refused.
 */
import { DomainError, forbidden } from "../../shared/errors";
import { ROLE, ROLE_NAMES } from "../../shared/roles";
import type { UserCreate, UserUpdate, UserView } from "../../shared/user/schema";
import { diff, record, type AuditEntry } from "../common/audit";
import type { ExcelDef, Trx } from "../crud/resource";
import { actorOf, assignableRoles, isContestAdmin, isRoot, isSchoolAdmin, roleRefusal, scoped, type Actor } from "./scope";
import { roleName, selectUsers, withContests, type UserRow } from "./view";
import { refreshNamesOfUser } from "../work/repository";
import { checkChange, checkNew, followRoleChange, MEMBER_ROLE, type NewUserValues, type UserPatch } from "./rules";
import { normEmail } from "../common/email";
import { syncHolderCertificates } from "../certificate/issue";
import { createUsers } from "../account/create-user";

const BATCH = 100;

interface Prep {
  actor: Actor;
  schools: Map<string, { id: number; name: string; archived: number }>;
  ownSchoolCode: string | null;
  /** major code → archived */
  majors: Map<string, number>;
  takenEmails: Set<string>;
  fileEmails: Set<string>;
}

const ROLE_BY_TEXT = new Map<string, number>([
  ...Object.entries(ROLE_NAMES).map(([code, name]) => [name, Number(code)] as [string, number]),
  ["学生", ROLE.author],
  ["作者", ROLE.author],
  ["老师", ROLE.teacher],
  ["审核员", ROLE.contestReviewer],
]);

function parseRole(text: string, p: Prep): number {
  const role =
    ROLE_BY_TEXT.get(text) ?? (/^\d+$/.test(text) && (ROLE_NAMES as Record<string, string>)[text] ? Number(text) : undefined);
  if (role === undefined) throw new Error(`无法识别的身份“${text}”，可填：${Object.values(ROLE_NAMES).join("、")}`);
  if (!assignableRoles(p.actor).includes(role)) throw new Error(roleRefusal(p.actor, role).info);
  return role;
}

function parseSchool(text: string, p: Prep): number {
  const s = p.schools.get(text);
  if (isSchoolAdmin(p.actor) && text !== p.ownSchoolCode)
    throw new Error(`只能导入本校的用户，本校学校代码为 ${p.ownSchoolCode ?? "（未设置）"}`);
  if (!s) throw new Error(`学校代码 ${text} 不存在`);
  if (s.archived) throw new Error(`学校 ${s.name} 已归档，不能再添加用户`);
  return s.id;
}

function parseMajor(text: string, p: Prep): string {
  // Excel turns 080901 typed into a cell into the number 80901.
  const code = !p.majors.has(text) && /^\d{5}$/.test(text) ? `0${text}` : text;
  if (!p.majors.has(code)) throw new Error(`专业代码 ${text} 不存在`);
  if (p.majors.get(code)) throw new Error(`专业代码 ${code} 已停用`);
  return code;
}

function parseEmail(text: string, p: Prep): string {
  const email = normEmail(text);
  if (p.takenEmails.has(email)) throw new Error("该邮箱已被其他账号使用");
  if (p.fileEmails.has(email)) throw new Error("与文件中其他行的邮箱重复");
  p.fileEmails.add(email);
  return email;
}

function parseFlag(text: string, p: Prep): boolean {
  const on = ["是", "Y", "y", "1", "TRUE", "true"].includes(text);
  if (!on && !["否", "N", "n", "0", "FALSE", "false"].includes(text)) throw new Error("请填写“是”或“否”");
  if (on && !isRoot(p.actor) && !isSchoolAdmin(p.actor)) throw new Error("只有超级管理员和学校管理员可以设置校赛评委");
  return on;
}

const status = (v: UserView) => (v.archived ? "已归档" : v.locked ? "已锁定" : v.needsClaim ? "待认领（未设密码）" : "正常");

/** A failure of one row during confirm names the row's user. */
function forRow<T>(username: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DomainError) throw new DomainError(e.status, `用户 ${username}：${e.info}`, e.field);
    throw e;
  }
}

/** Every row checked again inside the transaction: unique usernames and emails, known schools and majors. */
async function checkBulk(trx: Trx, creates: NewUserValues[], updates: { id: number; username: string; set: UserPatch }[]) {
  const usernames = creates.map((c) => c.username);
  for (let i = 0; i < usernames.length; i += BATCH) {
    const hit = await trx
      .selectFrom("app_user")
      .select("username")
      .where("username", "in", usernames.slice(i, i + BATCH))
      .limit(1)
      .executeTakeFirst();
    if (hit) throw new DomainError(409, `用户名 ${hit.username} 已在检查后被创建，请重新上传`);
  }
  const owner = new Map<string, { id: number | null; username: string }>();
  for (const r of [
    ...creates.map((c) => ({ id: null, username: c.username, email: c.email })),
    ...updates.map((u) => ({ id: u.id, username: u.username, email: u.set.email })),
  ]) {
    if (!r.email) continue;
    if (owner.has(r.email))
      throw new DomainError(409, `用户 ${r.username}：邮箱 ${r.email} 与用户 ${owner.get(r.email)!.username} 重复`);
    owner.set(r.email, r);
  }
  const emails = [...owner.keys()];
  for (let i = 0; i < emails.length; i += BATCH) {
    for (const hit of await trx
      .selectFrom("app_user")
      .select(["id", "email"])
      .where("email", "in", emails.slice(i, i + BATCH))
      .execute()) {
      const mine = owner.get(hit.email!)!;
      if (mine.id !== hit.id) throw new DomainError(409, `用户 ${mine.username}：邮箱 ${hit.email} 已被其他账号使用`);
    }
  }
  const all = [...creates, ...updates.map((u) => u.set)];
  const schoolIds = [...new Set(all.map((r) => r.school_id).filter((s): s is number => !!s))];
  const schools = schoolIds.length
    ? await trx.selectFrom("school").select(["id", "archived"]).where("id", "in", schoolIds).execute()
    : [];
  if (schools.length !== schoolIds.length || schools.some((s) => s.archived))
    throw new DomainError(409, "有学校在检查后被删除或归档，请重新上传");
  const majorCodes = [...new Set(all.map((r) => r.major_code).filter((m): m is string => !!m))];
  const majors = majorCodes.length
    ? await trx.selectFrom("major").select(["code", "archived"]).where("code", "in", majorCodes).execute()
    : [];
  if (majors.length !== majorCodes.length || majors.some((m) => m.archived))
    throw new DomainError(409, "有专业在检查后被删除或停用，请重新上传");
}

const FIELD_OF: Record<string, string> = {
  name: "name",
  user_type: "userType",
  email: "email",
  phone: "phone",
  school_id: "schoolId",
  member_no: "memberNo",
  major_code: "majorCode",
  is_school_contest_judge: "isSchoolContestJudge",
  has_complaint_right: "hasComplaintRight",
  email_verified: "emailVerified",
};
const auditFields = (r: Partial<NewUserValues>) =>
  Object.fromEntries(
    Object.entries(r)
      .filter(([k]) => k in FIELD_OF || k === "username")
      .map(([k, v]) => [FIELD_OF[k] ?? k, v]),
  );
const beforeFields = (v: UserView): Record<string, unknown> => ({
  name: v.name,
  userType: v.userType,
  email: v.email,
  phone: v.phone,
  schoolId: v.school?.id ?? null,
  memberNo: v.memberNo,
  majorCode: v.majorCode,
  isSchoolContestJudge: v.isSchoolContestJudge ? 1 : 0,
  hasComplaintRight: v.hasComplaintRight ? 1 : 0,
  emailVerified: v.emailVerified ? 1 : 0,
});

export const userExcel: ExcelDef<UserView, UserCreate, UserUpdate> = {
  sheet: "用户",
  keyField: "username",
  columns: [
    { key: "username", header: "用户名", width: 18, get: (v) => v.username },
    { key: "name", header: "姓名", width: 12, get: (v) => v.name },
    { key: "role", header: "身份", width: 14, get: (v) => roleName(v.userType), parse: parseRole },
    { key: "schoolId", header: "学校代码", width: 10, get: (v) => v.school?.code ?? null, parse: parseSchool },
    { key: "memberNo", header: "学号/工号", width: 16, get: (v) => v.memberNo },
    { key: "majorCode", header: "专业代码", width: 10, get: (v) => v.majorCode, parse: parseMajor },
    { key: "email", header: "邮箱", width: 28, get: (v) => v.email, parse: parseEmail },
    // Masked (the views are, see ./view.ts): admins reveal the numbers they must call one at a time,
    // audited; a re-imported sheet leaves phones as they are (rules.ts checkChange).
    { key: "phone", header: "手机号", width: 14, get: (v) => v.phone },
    {
      key: "isSchoolContestJudge",
      header: "校赛评委",
      width: 8,
      get: (v) => (v.isSchoolContestJudge ? "是" : "否"),
      parse: parseFlag,
    },
    { key: "schoolName", header: "学校名称", width: 24, get: (v) => v.school?.name ?? null, readOnly: true },
    { key: "majorName", header: "专业名称", width: 18, get: (v) => v.majorName, readOnly: true },
    { key: "status", header: "账号状态", width: 16, get: status, readOnly: true },
  ],

  async prepare(ctx): Promise<Prep> {
    const actor = await actorOf(ctx);
    const schools = new Map(
      (await ctx.db.selectFrom("school").select(["id", "code", "name", "archived"]).execute()).map((s) => [s.code, s]),
    );
    const ownSchoolCode = [...schools.entries()].find(([, s]) => s.id === actor.user.school_id)?.[0] ?? null;
    const majors = new Map(
      (await ctx.db.selectFrom("major").select(["code", "archived"]).execute()).map((m) => [m.code, m.archived]),
    );
    const takenEmails = new Set(
      (await ctx.db.selectFrom("app_user").select("email").where("email", "is not", null).execute()).map((r) => r.email!),
    );
    return { actor, schools, ownSchoolCode, majors, takenEmails, fileEmails: new Set() };
  },

  async findByKeys(ctx, keys) {
    const a = await actorOf(ctx);
    const out = new Map<string, UserView | null>();
    for (let i = 0; i < keys.length; i += BATCH) {
      const chunk = keys.slice(i, i + BATCH);
      const found = await ctx.db.selectFrom("app_user").select("username").where("username", "in", chunk).execute();
      if (!found.length) continue;
      for (const r of found) out.set(r.username, null);
      const rows = (await scoped(a, selectUsers(ctx.db)).where("app_user.username", "in", chunk).execute()) as UserRow[];
      for (const v of await withContests(ctx.db, a, rows)) out.set(v.username, v);
    }
    return out;
  },

  /** The whole-row rules of create and edit, so the dry run names the row instead of confirm failing as a whole. */
  checkRow(_ctx, { input, before }, prep: Prep) {
    try {
      if (before) checkChange(prep.actor, before, input as UserUpdate);
      else checkNew(prep.actor, input as UserCreate);
      return null;
    } catch (e) {
      if (e instanceof DomainError) return { reason: e.info };
      throw e;
    }
  },

  async apply(ctx, trx, creates, updates, progress) {
    const a = await actorOf(ctx);
    const rows = creates.map((c) => forRow(c.username, () => checkNew(a, c)));
    const joins = isContestAdmin(a) ? a.ownContestIds : [];
    if (isContestAdmin(a) && rows.length && !joins.length) throw forbidden("您还没有负责的赛事，不能导入评委或审核员");
    const changes = updates.map((u) => ({
      id: u.before.id,
      username: u.before.username,
      before: u.before,
      set: forRow(u.before.username, () => checkChange(a, u.before, u.input)),
    }));
    await checkBulk(trx, rows, changes);

    const now = new Date().toISOString();
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      const inserted = await createUsers(trx, batch, now);
      const ids = new Map(inserted.map((r) => [r.username, r.id]));
      const members = batch.flatMap((r) =>
        MEMBER_ROLE[r.user_type]
          ? joins.map((contest_id) => ({
              contest_id,
              user_id: ids.get(r.username)!,
              role: MEMBER_ROLE[r.user_type]!,
              created_at: now,
            }))
          : [],
      );
      if (members.length) await trx.insertInto("contest_member").values(members).execute();
      await record(
        trx,
        a.user.id,
        batch.map((r) => ({
          entity: "user",
          entityId: ids.get(r.username)!,
          action: "import",
          changes: diff(null, auditFields(r)),
        })),
      );
      progress(i + batch.length);
    }

    const audit: AuditEntry[] = [];
    for (const c of changes) {
      if (!Object.keys(c.set).length) continue;
      await trx
        .updateTable("app_user")
        .set({ ...c.set, updated_at: now })
        .where("id", "=", c.id)
        .execute();
      if (c.set.user_type !== undefined) await followRoleChange(trx, c.id, c.before.userType, c.set.user_type);
      if (c.set.name) await refreshNamesOfUser(trx, c.id);
      if (c.set.name) await syncHolderCertificates(trx, c.id);
      const old = beforeFields(c.before);
      const next = { ...old, ...auditFields(c.set) };
      audit.push({ entity: "user", entityId: c.id, action: "import", changes: diff(old, next) });
      progress(rows.length + audit.length);
    }
    await record(trx, a.user.id, audit);
  },
};
