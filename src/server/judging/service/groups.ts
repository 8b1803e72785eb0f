/**
 * Judge groups of a contest (/ContestAdmin/Group): one 大类, optionally one 小类 and 普通/
 * 专业组; their judges (judges of the contest only) and an optional leader (专家组长).
 * A group whose judges have assignments keeps them: removing such a judge or deleting the
 * group is refused until the assignments are removed or replaced; a group's category
 * cannot change while it holds works. Every change is in the audit log.
 */
import type { Transaction } from "kysely";
import { badRequest, conflict, invalid, notFound } from "../../../shared/errors";
import { GROUP_NAMES } from "../../../shared/work/fields";
import type { JudgeGroupCreate, JudgeGroupUpdate, JudgeGroupView } from "../../../shared/judging/schema";
import type { Db } from "../../db";
import type { DB, User } from "../../db/schema";
import { record } from "../../common/audit";
import type { Handle } from "../../work/repository";
import { as404, contestJudges, requireManagedContest, type ContestInfo } from "./contest";
import { invitedJudgesFor } from "./invited-members";

export const NO_GROUP = "评审组不存在或不在您的管理范围内";

const n = (r: { n: number | string } | undefined) => Number(r?.n ?? 0);

/** The group, when its contest is the caller's; 404 otherwise. */
export async function managedGroup(db: Handle, user: User, groupId: number) {
  const g = await db.selectFrom("judge_group").selectAll().where("id", "=", groupId).executeTakeFirst();
  if (!g) throw notFound(NO_GROUP);
  const c = await requireManagedContest(db, user, g.contest_id).catch(as404(NO_GROUP));
  return { g, c };
}

export async function listGroups(db: Db, user: User, contestId: number): Promise<JudgeGroupView[]> {
  const c = await requireManagedContest(db, user, contestId);
  const ids = (await db.selectFrom("judge_group").select("id").where("contest_id", "=", c.id).orderBy("id").execute()).map(
    (g) => g.id,
  );
  const out: JudgeGroupView[] = [];
  for (const id of ids) out.push(await groupView(db, id));
  return out;
}

export async function groupView(db: Handle, id: number): Promise<JudgeGroupView> {
  const g = await db
    .selectFrom("judge_group")
    .innerJoin("work_category as cat", "cat.id", "judge_group.category_id")
    .leftJoin("work_category as sub", "sub.id", "judge_group.subcategory_id")
    .leftJoin("app_user as leader", "leader.id", "judge_group.leader_id")
    .selectAll("judge_group")
    .select(["cat.name as category_name", "sub.name as subcategory_name", "leader.name as leader_name"])
    .where("judge_group.id", "=", id)
    .executeTakeFirstOrThrow();
  const judges = await db
    .selectFrom("judge_group_member")
    .innerJoin("app_user", "app_user.id", "judge_group_member.user_id")
    .leftJoin("school", "school.id", "app_user.school_id")
    .select(["app_user.id", "app_user.name", "app_user.username", "school.name as school_name"])
    .where("judge_group_member.group_id", "=", id)
    .orderBy("app_user.name")
    .execute();
  const works = n(
    await db
      .selectFrom("judge_group_work")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("group_id", "=", id)
      .executeTakeFirst(),
  );
  const assignments = n(
    await db
      .selectFrom("judge_assignment")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("group_id", "=", id)
      .executeTakeFirst(),
  );
  return {
    id: g.id,
    contestId: g.contest_id,
    name: g.name,
    category: { id: g.category_id, name: g.category_name },
    subcategory: g.subcategory_id !== null ? { id: g.subcategory_id, name: g.subcategory_name ?? "" } : null,
    groupType: g.group_type,
    scope: [g.category_name, g.subcategory_name, g.group_type ? GROUP_NAMES[g.group_type] : null].filter(Boolean).join(" / "),
    leader: g.leader_id !== null ? { id: g.leader_id, name: g.leader_name ?? "" } : null,
    note: g.note,
    judges: judges.map((j) => ({ id: j.id, name: j.name, username: j.username, schoolName: j.school_name })),
    workCount: works,
    assignmentCount: assignments,
  };
}

/** The category, 小类 and 普通/专业组 of a group, checked. */
async function checkScope(
  db: Handle,
  input: { categoryId: number; subcategoryId?: number | null; groupType?: "normal" | "professional" | null },
) {
  const cat = await db
    .selectFrom("work_category")
    .select(["id", "parent_id", "name", "has_professional_group"])
    .where("id", "=", input.categoryId)
    .executeTakeFirst();
  if (!cat || cat.parent_id !== null) throw invalid("categoryId", "请选择作品大类");
  if (input.subcategoryId != null) {
    const sub = await db
      .selectFrom("work_category")
      .select(["parent_id"])
      .where("id", "=", input.subcategoryId)
      .executeTakeFirst();
    if (!sub || sub.parent_id !== cat.id) throw invalid("subcategoryId", `所选小类不属于「${cat.name}」`);
  }
  if (input.groupType && !cat.has_professional_group) throw invalid("groupType", `「${cat.name}」不分普通组和专业组`);
}

async function checkLeader(db: Handle, c: ContestInfo, leaderId: number | null | undefined) {
  if (leaderId == null) return;
  if (!(await contestJudges(db, c)).some((j) => j.id === leaderId)) throw invalid("leaderId", "专家组长须是本赛事的评委");
}

async function nameFree(db: Handle, contestId: number, name: string, except?: number) {
  let q = db.selectFrom("judge_group").select("id").where("contest_id", "=", contestId).where("name", "=", name);
  if (except !== undefined) q = q.where("id", "!=", except);
  if (await q.executeTakeFirst()) throw conflict(`评审组「${name}」已存在`);
}

export async function createGroup(db: Db, user: User, contestId: number, input: JudgeGroupCreate): Promise<JudgeGroupView> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    const name = input.name.trim();
    if (!name) throw invalid("name", "请填写评审组名称");
    await checkScope(trx, input);
    await checkLeader(trx, c, input.leaderId);
    await nameFree(trx, c.id, name);
    const at = new Date().toISOString();
    const { id } = await trx
      .insertInto("judge_group")
      .values({
        contest_id: c.id,
        name,
        category_id: input.categoryId,
        subcategory_id: input.subcategoryId ?? null,
        group_type: input.groupType ?? null,
        leader_id: input.leaderId ?? null,
        note: input.note?.trim() || null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Judges who accepted an invitation for this 大类 and are in none of its groups yet join it.
    const invited = await invitedJudgesFor(trx, c.id, input.categoryId);
    if (invited.length)
      await trx
        .insertInto("judge_group_member")
        .values(invited.map((user_id) => ({ group_id: id, user_id, created_at: at })))
        .execute();
    await record(trx, user.id, {
      entity: "judge_group",
      entityId: id,
      action: "create",
      changes: {
        name: [null, name],
        categoryId: [null, input.categoryId],
        ...(invited.length ? { addJudges: [null, invited] } : {}),
      },
    });
    return groupView(trx, id);
  });
}

export async function updateGroup(db: Db, user: User, groupId: number, input: JudgeGroupUpdate): Promise<JudgeGroupView> {
  return db.transaction().execute(async (trx) => {
    const { g, c } = await managedGroup(trx, user, groupId);
    const next = {
      name: input.name !== undefined ? input.name.trim() : g.name,
      category_id: input.categoryId ?? g.category_id,
      subcategory_id: input.subcategoryId !== undefined ? input.subcategoryId : g.subcategory_id,
      group_type: input.groupType !== undefined ? input.groupType : g.group_type,
      leader_id: input.leaderId !== undefined ? input.leaderId : g.leader_id,
      note: input.note !== undefined ? input.note?.trim() || null : g.note,
    };
    if (!next.name) throw invalid("name", "请填写评审组名称");
    const scopeChanged =
      next.category_id !== g.category_id || next.subcategory_id !== g.subcategory_id || next.group_type !== g.group_type;
    if (scopeChanged) {
      await checkScope(trx, { categoryId: next.category_id, subcategoryId: next.subcategory_id, groupType: next.group_type });
      const works = n(
        await trx
          .selectFrom("judge_group_work")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("group_id", "=", g.id)
          .executeTakeFirst(),
      );
      if (works) throw badRequest(`评审组「${g.name}」已有 ${works} 件作品，不能修改类别；请先移出作品`);
    }
    if (next.leader_id !== g.leader_id) await checkLeader(trx, c, next.leader_id);
    if (next.name !== g.name) await nameFree(trx, c.id, next.name, g.id);
    await trx
      .updateTable("judge_group")
      .set({ ...next, updated_at: new Date().toISOString() })
      .where("id", "=", g.id)
      .execute();
    const changes = Object.fromEntries(
      Object.entries(next)
        .filter(([k, v]) => (g as Record<string, unknown>)[k] !== v)
        .map(([k, v]) => [k, [(g as Record<string, unknown>)[k], v]]),
    ) as Record<string, [unknown, unknown]>;
    await record(trx, user.id, { entity: "judge_group", entityId: g.id, action: "update", changes });
    return groupView(trx, g.id);
  });
}

async function assignedIn(trx: Transaction<DB>, groupId: number, judgeId?: number) {
  let q = trx
    .selectFrom("judge_assignment")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("group_id", "=", groupId);
  if (judgeId !== undefined) q = q.where("judge_id", "=", judgeId);
  return n(await q.executeTakeFirst());
}

export async function deleteGroup(db: Db, user: User, groupId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { g } = await managedGroup(trx, user, groupId);
    const used = await assignedIn(trx, g.id);
    if (used) throw badRequest(`评审组「${g.name}」已有 ${used} 条评委分配，不能删除；请先在分配检查中移除这些分配`);
    await trx.deleteFrom("judge_group").where("id", "=", g.id).execute();
    await record(trx, user.id, { entity: "judge_group", entityId: g.id, action: "delete", changes: { name: [g.name, null] } });
  });
}

export async function addJudges(db: Db, user: User, groupId: number, userIds: number[]): Promise<JudgeGroupView> {
  return db.transaction().execute(async (trx) => {
    const { g, c } = await managedGroup(trx, user, groupId);
    const judges = new Set((await contestJudges(trx, c)).map((j) => j.id));
    const outside = [...new Set(userIds)].filter((id) => !judges.has(id));
    if (outside.length) throw invalid("userIds", `用户 ${outside.join("、")} 不是本赛事的评委，请先在用户管理中把他们加入赛事`);
    const at = new Date().toISOString();
    await trx
      .insertInto("judge_group_member")
      .values([...new Set(userIds)].map((user_id) => ({ group_id: g.id, user_id, created_at: at })))
      .onConflict((oc) => oc.columns(["group_id", "user_id"]).doNothing())
      .execute();
    await record(trx, user.id, {
      entity: "judge_group",
      entityId: g.id,
      action: "update",
      changes: { addJudges: [null, userIds] },
    });
    return groupView(trx, g.id);
  });
}

export async function removeJudge(db: Db, user: User, groupId: number, userId: number): Promise<JudgeGroupView> {
  return db.transaction().execute(async (trx) => {
    const { g } = await managedGroup(trx, user, groupId);
    const m = await trx
      .selectFrom("judge_group_member")
      .innerJoin("app_user", "app_user.id", "judge_group_member.user_id")
      .select(["judge_group_member.id", "app_user.name"])
      .where("group_id", "=", g.id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!m) throw notFound("该评委不在本评审组中");
    const used = await assignedIn(trx, g.id, userId);
    if (used) throw badRequest(`评委「${m.name}」在评审组「${g.name}」已分配 ${used} 件作品，请先移除或替换这些分配`);
    await trx.deleteFrom("judge_group_member").where("id", "=", m.id).execute();
    if (g.leader_id === userId) await trx.updateTable("judge_group").set({ leader_id: null }).where("id", "=", g.id).execute();
    await record(trx, user.id, {
      entity: "judge_group",
      entityId: g.id,
      action: "update",
      changes: { removeJudge: [userId, null] },
    });
    return groupView(trx, g.id);
  });
}
