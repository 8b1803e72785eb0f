/**
 * Users (/Backend/Admin/user): root manages all; a contest admin the judges and reviewers
 * of the own contests; a school admin the students and teachers of the own school. Rows
 * outside the scope answer 404; forbidden roles and flags 403. Lock, unlock and password
 * reset are in ./actions.ts; the import in ./excel.ts.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import type { DB } from "../db/schema";
import { ROLE } from "../../shared/roles";
import { badRequest, forbidden, invalid } from "../../shared/errors";
import {
  UserCreate,
  UserFilters,
  UserUpdate,
  UserView,
  type UserCreate as TCreate,
  type UserUpdate as TUpdate,
  type UserView as TView,
} from "../../shared/user/schema";
import type { Ctx, ResourceDef } from "../crud/resource";
import { actorOf, contestInScope, isContestAdmin, scoped, type Actor } from "./scope";
import { loadUsers, selectUsers, withContests, type UserRow } from "./view";
import {
  assertEmailFree,
  assertMajor,
  assertSchool,
  assertUsernameFree,
  checkChange,
  checkNew,
  followRoleChange,
  MEMBER_ROLE,
} from "./rules";
import { userExcel } from "./excel";
import { refreshNamesOfUser } from "../work/repository";
import { syncHolderCertificates } from "../certificate/issue";
import { createUser } from "../account/create-user";

const SORT: Record<string, string> = {
  id: "app_user.id",
  username: "app_user.username",
  name: "app_user.name",
  userType: "app_user.user_type",
  memberNo: "app_user.member_no",
  schoolId: "app_user.school_id",
  createdAt: "app_user.created_at",
};

/** The actor's users matching the filters; every filter is on app_user itself, so `base` may be the bare table (the count) or the view with its joins (the page). */
function filtered<O>(base: SelectQueryBuilder<DB, any, O>, a: Actor, f: Record<string, unknown>) {
  let q = scoped(a, base);
  const kw = typeof f.keyword === "string" ? f.keyword.trim().toLowerCase() : "";
  if (kw) {
    const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or(
        ["app_user.username", "app_user.name", "app_user.email", "app_user.member_no"].map((col) =>
          eb(sql`lower(${sql.ref(col)})`, "like", sql`${like} escape '\\'`),
        ),
      ),
    );
  }
  if (Array.isArray(f.userType) && f.userType.length) q = q.where("app_user.user_type", "in", f.userType as number[]);
  if (typeof f.schoolId === "number") q = q.where("app_user.school_id", "=", f.schoolId);
  for (const [key, col] of [
    ["locked", "app_user.locked"],
    ["archived", "app_user.archived"],
    ["hasComplaintRight", "app_user.has_complaint_right"],
    ["isSchoolContestJudge", "app_user.is_school_contest_judge"],
  ] as const) {
    if (typeof f[key] === "boolean") q = q.where(col, "=", f[key] ? 1 : 0);
  }
  if (typeof f.contestId === "number") {
    const contestId = f.contestId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("contest_member")
          .select("contest_member.id")
          .whereRef("contest_member.user_id", "=", "app_user.id")
          .where("contest_member.contest_id", "=", contestId),
      ),
    );
    if (!contestInScope(a, contestId)) q = q.where(sql<boolean>`1 = 0`);
  }
  return q;
}

async function addMembership(ctx: Ctx, userId: number, contestIds: number[], role: number) {
  const memberRole = MEMBER_ROLE[role];
  if (!memberRole || !contestIds.length) return;
  const now = new Date().toISOString();
  await ctx.db
    .insertInto("contest_member")
    .values(contestIds.map((contest_id) => ({ contest_id, user_id: userId, role: memberRole, created_at: now })))
    .execute();
}

/** The contest a new user joins: required for a contest admin's judges and reviewers. */
async function contestOfNew(ctx: Ctx, a: Actor, input: TCreate): Promise<number[]> {
  if (input.contestId === undefined) {
    if (isContestAdmin(a)) throw invalid("contestId", "请选择评委或审核员所属的赛事");
    return [];
  }
  if (!MEMBER_ROLE[input.role]) throw invalid("contestId", "只有赛事管理员、赛事审核员和评委可以加入赛事");
  if (!contestInScope(a, input.contestId)) throw forbidden("所选赛事不在您的管理范围内");
  if (!(await ctx.db.selectFrom("contest").select("id").where("id", "=", input.contestId).executeTakeFirst()))
    throw invalid("contestId", "所选赛事不存在");
  return [input.contestId];
}

export const userResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.users",
  entity: "user",
  label: "用户",
  path: "/Backend/Admin/user",
  tags: ["用户"],
  view: UserView,
  createSchema: UserCreate,
  updateSchema: UserUpdate,
  filters: UserFilters,
  sortable: Object.keys(SORT),
  rest: { table: "app_user", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    const a = await actorOf(ctx);
    const q = filtered(selectUsers(ctx.db), a, filters);
    // Counted on app_user alone: the view's left joins (school, major: at most one row each) change no count, and cost a lookup per row.
    const total = await filtered(ctx.db.selectFrom("app_user"), a, filters)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length ? sort : ([["id", "desc"]] as const)) page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("app_user.id").offset(offset).limit(limit).execute()) as UserRow[];
    return { list: await withContests(ctx.db, a, rows), total: Number((total as { n: number }).n) };
  },

  async get(ctx, id) {
    const a = await actorOf(ctx);
    return (await loadUsers(ctx, a, [id]))[0];
  },

  async create(ctx, _trx, input) {
    const a = await actorOf(ctx);
    const values = checkNew(a, input);
    const contestIds = await contestOfNew(ctx, a, input);
    await assertUsernameFree(ctx.db, values.username);
    await assertEmailFree(ctx.db, values.email);
    await assertSchool(ctx.db, values.school_id);
    await assertMajor(ctx.db, values.major_code);
    const { id } = await createUser(ctx.db, values);
    await addMembership(ctx, id, contestIds, values.user_type);
    return (await loadUsers(ctx, a, [id]))[0];
  },

  async update(ctx, trx, before, input) {
    // Locking and archiving have their own actions (which also end sessions and refuse the
    // last root); a PATCH that carries them is refused rather than answered 用户已保存.
    for (const field of ["locked", "archived"] as const) {
      if (field in (input as object)) throw invalid(field, "锁定、解锁或归档请使用用户列表中的对应操作，不能在编辑用户时修改");
    }
    const a = await actorOf(ctx);
    const set = checkChange(a, before, input);
    if (!Object.keys(set).length) return before;
    if (set.email) await assertEmailFree(ctx.db, set.email, before.id);
    if (set.school_id) await assertSchool(ctx.db, set.school_id);
    if (set.major_code) await assertMajor(ctx.db, set.major_code);
    await ctx.db
      .updateTable("app_user")
      .set({ ...set, updated_at: new Date().toISOString() })
      .where("id", "=", before.id)
      .execute();
    if (set.user_type !== undefined) await followRoleChange(ctx.db, before.id, before.userType, set.user_type);
    // Works list their authors' and teachers' names: a renamed user's works show the new name.
    if (set.name) await refreshNamesOfUser(ctx.db, before.id);
    // A corrected name reissues the user's certificates (same numbers, next version).
    if (set.name) await syncHolderCertificates(trx, before.id);
    const after = (await loadUsers(ctx, a, [before.id]))[0];
    // Scope can only be left through a role change the actor was not allowed to make.
    if (!after) throw forbidden("修改后该用户将不在您的管理范围内");
    return after;
  },

  async remove(ctx, _trx, before) {
    const a = await actorOf(ctx);
    if (before.id === a.user.id) throw badRequest("不能删除自己的账号");
    if (before.userType === ROLE.root && a.user.user_type !== ROLE.root) throw forbidden("您不能删除超级管理员");
    const db = ctx.db;
    const acted = await db.selectFrom("audit_log").select("id").where("user_id", "=", before.id).limit(1).executeTakeFirst();
    const wrote =
      (await db.selectFrom("news").select("id").where("created_by", "=", before.id).limit(1).executeTakeFirst()) ??
      (await db.selectFrom("notice").select("id").where("updated_by", "=", before.id).limit(1).executeTakeFirst());
    const referenced = !!(acted || wrote);
    if (!referenced) {
      // Works, scores and other records that point at the user refuse the delete: archive then.
      await sql`savepoint user_delete`.execute(db);
      try {
        await db.deleteFrom("app_user").where("id", "=", before.id).execute();
        await sql`release savepoint user_delete`.execute(db);
        return "deleted";
      } catch (err) {
        if (!/foreign key|23503/i.test(`${(err as Error).message} ${(err as { code?: string }).code ?? ""}`)) throw err;
        await sql`rollback to savepoint user_delete`.execute(db);
      }
    }
    if (before.archived) throw badRequest("该用户已有业务记录，不能删除；它已经归档");
    await db
      .updateTable("app_user")
      .set({ archived: 1, locked: 1, updated_at: new Date().toISOString() })
      .where("id", "=", before.id)
      .execute();
    await db.deleteFrom("user_session").where("user_id", "=", before.id).execute();
    return "archived";
  },

  excel: userExcel,
};
