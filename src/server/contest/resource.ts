/**
 * Contests: national → provincial → school. Root manages all; a contest admin reads and
 * edits the own contests and their descendants, but cannot change a contest's level,
 * parent, admins or archive state (root assigns admins).
 */
import { sql } from "kysely";
import { badRequest, forbidden } from "../../shared/errors";
import {
  ContestCreate,
  ContestFilters,
  ContestUpdate,
  ContestView,
  type ContestCreate as TCreate,
  type ContestUpdate as TUpdate,
  type ContestView as TView,
} from "../../shared/contest/schema";
import { ROLE } from "../../shared/roles";
import type { Ctx, ResourceDef, Trx } from "../crud/resource";
import { contestExcel } from "./excel";
import {
  checkCategories,
  checkChain,
  checkChildren,
  checkMembers,
  checkStages,
  ensureCodeFree,
  setMembers,
  setStages,
  type ContestState,
} from "./validate";
import { getContest, listContests, SORT } from "./view";

const sameSet = (a: number[], b: number[]) => {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((id) => x.has(id));
};

/** What a contest admin may not change, with the reason they see. */
function refuseForContestAdmin(ctx: Ctx, before: TView, input: TUpdate) {
  if (ctx.user.user_type === ROLE.root) return;
  if (input.level !== undefined && input.level !== before.level) throw forbidden("赛事管理员不能修改赛事级别，请联系超级管理员");
  if (input.parentId !== undefined && input.parentId !== before.parentId)
    throw forbidden("赛事管理员不能修改上级赛事，请联系超级管理员");
  if (
    input.adminIds !== undefined &&
    !sameSet(
      input.adminIds,
      before.admins.map((a) => a.id),
    )
  )
    throw forbidden("只有超级管理员可以指定赛事管理员");
  if (input.archived !== undefined && input.archived !== before.archived) throw forbidden("只有超级管理员可以归档或恢复赛事");
}

async function counts(trx: Trx, id: number) {
  const n = (r: { n: number | string }) => Number(r.n);
  const cnt = sql<number>`count(*)`.as("n");
  return {
    children: n(await trx.selectFrom("contest").select(cnt).where("parent_id", "=", id).executeTakeFirstOrThrow()),
    members: n(await trx.selectFrom("contest_member").select(cnt).where("contest_id", "=", id).executeTakeFirstOrThrow()),
    // Notices, news, field locks and works of the contest keep it from being deleted.
    others:
      n(await trx.selectFrom("work").select(cnt).where("contest_id", "=", id).executeTakeFirstOrThrow()) +
      n(await trx.selectFrom("notice").select(cnt).where("contest_id", "=", id).executeTakeFirstOrThrow()) +
      n(await trx.selectFrom("news").select(cnt).where("contest_id", "=", id).executeTakeFirstOrThrow()) +
      n(await trx.selectFrom("entry_lock").select(cnt).where("contest_id", "=", id).executeTakeFirstOrThrow()),
  };
}

export const contestResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.contests",
  entity: "contest",
  label: "赛事",
  path: "/Backend/Admin/contest",
  tags: ["赛事"],
  view: ContestView,
  createSchema: ContestCreate,
  updateSchema: ContestUpdate,
  filters: ContestFilters,
  sortable: Object.keys(SORT),
  rest: { table: "contest", columns: SORT },

  list: listContests,
  get: getContest,

  async create(ctx, trx, input) {
    if (ctx.user.user_type !== ROLE.root) throw forbidden("只有超级管理员可以新建赛事");
    const state: ContestState = {
      level: input.level,
      year: input.year,
      parentId: input.parentId ?? null,
      province: input.province?.trim() || null,
      schoolId: input.schoolId ?? null,
      categories: input.categories ?? [],
      categoryQuotas: input.categoryQuotas ?? [],
      stages: input.stages ?? [],
    };
    const province = await checkChain(trx, state);
    const stages = checkStages(state.stages);
    const { categories, quotas } = await checkCategories(trx, state);
    const admins = await checkMembers(trx, "adminIds", input.adminIds ?? []);
    const reviewers = await checkMembers(trx, "reviewerIds", input.reviewerIds ?? []);
    if (input.code) await ensureCodeFree(trx, input.code);
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto("contest")
      .values({
        code: input.code ?? null,
        name: input.name.trim(),
        level: state.level,
        year: state.year,
        parent_id: state.parentId,
        province,
        school_id: state.schoolId,
        description: input.description ?? null,
        categories: JSON.stringify(categories),
        recommend_quota: input.recommendQuota ?? null,
        category_quotas: JSON.stringify(quotas),
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!input.code)
      await trx
        .updateTable("contest")
        .set({ code: `${state.year}-${id}` })
        .where("id", "=", id)
        .execute();
    await setStages(trx, id, stages);
    await setMembers(trx, id, "admin", admins);
    await setMembers(trx, id, "reviewer", reviewers);
    return (await getContest(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    refuseForContestAdmin(ctx, before, input);
    const state: ContestState = {
      level: input.level ?? before.level,
      year: input.year ?? before.year,
      parentId: input.parentId !== undefined ? input.parentId : before.parentId,
      province: input.province !== undefined ? input.province?.trim() || null : before.province,
      schoolId: input.schoolId !== undefined ? input.schoolId : before.schoolId,
      categories: input.categories ?? before.categories,
      categoryQuotas: input.categoryQuotas ?? before.categoryQuotas,
      stages: input.stages ?? before.stages,
    };
    // A school contest's province follows its school.
    if (state.level === "school" && input.province === undefined && input.schoolId !== undefined) state.province = null;
    const province = await checkChain(trx, state);
    await checkChildren(trx, before.id, {
      level: state.level !== before.level,
      year: state.year !== before.year,
      province: (province ?? null) !== before.province,
    });
    const stages = checkStages(state.stages);
    const { categories, quotas } = await checkCategories(trx, state);
    if (input.code !== undefined && input.code !== before.code) await ensureCodeFree(trx, input.code, before.id);
    await trx
      .updateTable("contest")
      .set({
        ...(input.code !== undefined ? { code: input.code } : {}),
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.recommendQuota !== undefined ? { recommend_quota: input.recommendQuota } : {}),
        ...(input.archived !== undefined ? { archived: input.archived ? 1 : 0 } : {}),
        level: state.level,
        year: state.year,
        parent_id: state.parentId,
        province,
        school_id: state.schoolId,
        categories: JSON.stringify(categories),
        category_quotas: JSON.stringify(quotas),
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", before.id)
      .execute();
    if (input.stages !== undefined) await setStages(trx, before.id, stages);
    if (
      input.adminIds !== undefined &&
      !sameSet(
        input.adminIds,
        before.admins.map((m) => m.id),
      )
    )
      await setMembers(trx, before.id, "admin", await checkMembers(trx, "adminIds", input.adminIds));
    if (
      input.reviewerIds !== undefined &&
      !sameSet(
        input.reviewerIds,
        before.reviewers.map((m) => m.id),
      )
    )
      await setMembers(trx, before.id, "reviewer", await checkMembers(trx, "reviewerIds", input.reviewerIds));
    return (await getContest(ctx, before.id))!;
  },

  async remove(ctx, trx, before) {
    if (ctx.user.user_type !== ROLE.root) throw forbidden("只有超级管理员可以删除赛事");
    const c = await counts(trx, before.id);
    if (c.children || c.members || c.others) {
      if (before.archived) throw badRequest(`该赛事有 ${c.children} 个下级赛事、${c.members} 名成员，不能删除；它已经归档`);
      await trx
        .updateTable("contest")
        .set({ archived: 1, updated_at: new Date().toISOString() })
        .where("id", "=", before.id)
        .execute();
      return "archived";
    }
    await trx.deleteFrom("contest_stage").where("contest_id", "=", before.id).execute();
    await trx.deleteFrom("contest").where("id", "=", before.id).execute();
    return "deleted";
  },

  excel: contestExcel,
};
