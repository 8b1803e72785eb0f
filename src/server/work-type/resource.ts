/**
 * Work types: the tree 大类 → 小类 with team rules, 专业组 majors, required attachments and
 * the scoring standard. Read by every logged-in user, written by root (policy). A category
 * that is in use (categoryInUse) is archived instead of deleted.
 */
import { sql } from "kysely";
import { badRequest, invalid } from "../../shared/errors";
import {
  WorkTypeCreate,
  WorkTypeFilters,
  WorkTypeUpdate,
  WorkTypeView,
  type WorkTypeCreate as TCreate,
  type WorkTypeUpdate as TUpdate,
  type WorkTypeView as TView,
} from "../../shared/work-type/schema";
import type { ResourceDef, Trx } from "../crud/resource";
import { COLUMNS, toViews, viewOf, type CategoryRow } from "./query";
import { categoryInUse, refuseInherited, resolveRules, saveRubric, type RuleColumns } from "./rules";

const SORT: Record<string, string> = {
  id: "work_category.id",
  name: "work_category.name",
  sort: "work_category.sort",
  parentId: "work_category.parent_id",
};

/** The 大类 a 小类 goes under: it must exist, be a 大类 and not be archived. */
async function parentOf(trx: Trx, parentId: number): Promise<CategoryRow> {
  const p = await trx.selectFrom("work_category").select(COLUMNS).where("id", "=", parentId).executeTakeFirst();
  if (!p) throw invalid("parentId", "所属大类不存在");
  if (p.parent_id !== null) throw invalid("parentId", "小类只能建在大类下，不能再分层");
  if (p.archived) throw invalid("parentId", `大类「${p.name}」已归档，不能在其下添加小类`);
  return p;
}

async function ensureUniqueName(trx: Trx, name: string, parent: CategoryRow | null, selfId?: number) {
  let q = trx.selectFrom("work_category").select("id").where("name", "=", name);
  q = parent ? q.where("parent_id", "=", parent.id) : q.where("parent_id", "is", null);
  if (selfId) q = q.where("id", "!=", selfId);
  if (await q.executeTakeFirst())
    throw invalid("name", parent ? `大类「${parent.name}」下已有小类「${name}」` : `已有名为「${name}」的大类`);
}

async function nextSort(trx: Trx, parentId: number | null) {
  let q = trx.selectFrom("work_category").select((eb) => eb.fn.max("sort").as("m"));
  q = parentId === null ? q.where("parent_id", "is", null) : q.where("parent_id", "=", parentId);
  return Number((await q.executeTakeFirst())?.m ?? 0) + 1;
}

const inherited = (p: CategoryRow): RuleColumns => ({
  min_authors: p.min_authors,
  max_authors: p.max_authors,
  max_teachers: p.max_teachers,
  has_professional_group: p.has_professional_group,
  professional_majors: p.professional_majors,
  required_attachments: p.required_attachments,
  deductions: p.deductions,
  teacher_review_required: p.teacher_review_required,
});

export const workTypeResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.workTypes",
  entity: "work_category",
  label: "作品类别",
  path: "/Backend/Admin/work-type",
  tags: ["作品类别"],
  view: WorkTypeView,
  createSchema: WorkTypeCreate,
  updateSchema: WorkTypeUpdate,
  filters: WorkTypeFilters,
  sortable: Object.keys(SORT),
  rest: { table: "work_category", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    let q = ctx.db.selectFrom("work_category").select(COLUMNS);
    const f = filters as { keyword?: string; parentId?: number | "null" | null; archived?: boolean };
    if (f.keyword?.trim()) q = q.where("work_category.name", "like", `%${f.keyword.trim()}%`);
    if (f.parentId === null || f.parentId === "null") q = q.where("work_category.parent_id", "is", null);
    else if (f.parentId !== undefined) q = q.where("work_category.parent_id", "=", f.parentId);
    if (f.archived !== undefined) q = q.where("work_category.archived", "=", f.archived ? 1 : 0);
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length ? sort : ([["sort", "asc"]] as const)) page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = await page.orderBy("work_category.id").offset(offset).limit(limit).execute();
    return { list: await toViews(ctx.db, rows), total: Number(total.n) };
  },

  get: (ctx, id) => viewOf(ctx.db, id),

  async create(ctx, trx, input) {
    const name = input.name.trim();
    const parent = input.parentId ? await parentOf(trx, input.parentId) : null;
    await ensureUniqueName(trx, name, parent);
    let rules: RuleColumns;
    if (parent) {
      refuseInherited(input);
      rules = inherited(parent);
    } else {
      if (!input.rubric?.length) throw invalid("rubric", "请填写评分标准：各评分项满分之和须为 100 分");
      rules = await resolveRules(trx, input);
    }
    const { id } = await trx
      .insertInto("work_category")
      .values({
        parent_id: parent?.id ?? null,
        name,
        sort: input.sort ?? (await nextSort(trx, parent?.id ?? null)),
        description: input.description?.trim() || null,
        ...rules,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!parent) await saveRubric(trx, id, input.rubric!);
    return (await viewOf(ctx.db, id))!;
  },

  async update(ctx, trx, before, input) {
    if (input.parentId !== undefined && (input.parentId ?? null) !== before.parentId) {
      if (before.parentId === null) throw invalid("parentId", "大类不能改为小类");
      if (!input.parentId) throw invalid("parentId", "小类不能改为大类");
    }
    const parentId = input.parentId ?? before.parentId;
    const parent =
      parentId === null
        ? null
        : parentId === before.parentId && input.parentId === undefined
          ? ((await trx.selectFrom("work_category").select(COLUMNS).where("id", "=", parentId).executeTakeFirst()) ?? null)
          : await parentOf(trx, parentId);
    const name = input.name !== undefined ? input.name.trim() : before.name;
    if (name !== before.name || parentId !== before.parentId) await ensureUniqueName(trx, name, parent, before.id);
    if (input.archived === false && parent?.archived) throw invalid("archived", `所属大类「${parent.name}」已归档，请先恢复大类`);
    let rules: RuleColumns | undefined;
    if (parent) {
      refuseInherited(input);
      if (parentId !== before.parentId) rules = inherited(parent);
    } else {
      rules = await resolveRules(trx, input, before);
      if (input.rubric) await saveRubric(trx, before.id, input.rubric);
    }
    await trx
      .updateTable("work_category")
      .set({
        parent_id: parentId,
        name,
        ...(input.sort !== undefined ? { sort: input.sort } : {}),
        ...(input.description !== undefined ? { description: input.description?.trim() || null } : {}),
        ...(input.archived !== undefined ? { archived: input.archived ? 1 : 0 } : {}),
        ...rules,
      })
      .where("id", "=", before.id)
      .execute();
    // 小类 carry a copy of the rules of their 大类, so a plain read of a row is right too.
    if (!parent && rules) await trx.updateTable("work_category").set(rules).where("parent_id", "=", before.id).execute();
    return (await viewOf(ctx.db, before.id))!;
  },

  async remove(_ctx, trx, before) {
    const reason = await categoryInUse(trx, before.id);
    if (reason) {
      if (before.archived) throw badRequest(`作品类别「${before.name}」${reason}，不能删除；它已经归档`);
      await trx.updateTable("work_category").set({ archived: 1 }).where("id", "=", before.id).execute();
      return "archived";
    }
    await trx.deleteFrom("rubric_item").where("category_id", "=", before.id).execute();
    await trx.deleteFrom("work_category").where("id", "=", before.id).execute();
    return "deleted";
  },
};
