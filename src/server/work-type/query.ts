/** Reading work types: rows → views with the effective rules, rubric and 小类; the whole tree. */
import type { Selectable } from "kysely";
import type { Attachment, Deduction, RubricItem, WorkTypeTreeNode, WorkTypeView } from "../../shared/work-type/schema";
import type { Ctx, Trx } from "../crud/resource";
import type { WorkCategoryTable } from "../db/schema";

export type Handle = Ctx["db"] | Trx;
export type CategoryRow = Selectable<WorkCategoryTable>;

export const COLUMNS = [
  "work_category.id",
  "work_category.parent_id",
  "work_category.name",
  "work_category.sort",
  "work_category.min_authors",
  "work_category.max_authors",
  "work_category.max_teachers",
  "work_category.has_professional_group",
  "work_category.professional_majors",
  "work_category.archived",
  "work_category.description",
  "work_category.required_attachments",
  "work_category.deductions",
  "work_category.teacher_review_required",
] as const;

async function rubricsOf(db: Handle, ids: number[]) {
  const out = new Map<number, RubricItem[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("rubric_item")
      .select(["id", "category_id", "name", "max_points", "description", "sort"])
      .where("category_id", "in", ids.slice(i, i + 500))
      .orderBy("sort")
      .orderBy("id")
      .execute();
    for (const r of rows) {
      const list = out.get(r.category_id) ?? [];
      list.push({ id: r.id, name: r.name, maxPoints: r.max_points, description: r.description, sort: r.sort });
      out.set(r.category_id, list);
    }
  }
  return out;
}

async function rowsByIds(db: Handle, ids: number[]) {
  const out = new Map<number, CategoryRow>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db
      .selectFrom("work_category")
      .select(COLUMNS)
      .where("id", "in", ids.slice(i, i + 500))
      .execute())
      out.set(r.id, r);
  }
  return out;
}

async function childrenOf(db: Handle, ids: number[]) {
  const out = new Map<number, CategoryRow[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("work_category")
      .select(COLUMNS)
      .where("parent_id", "in", ids.slice(i, i + 500))
      .orderBy("sort")
      .orderBy("id")
      .execute();
    for (const r of rows) out.set(r.parent_id!, [...(out.get(r.parent_id!) ?? []), r]);
  }
  return out;
}

/** Views of the rows: a 小类 shows the rules and rubric of its 大类. */
export async function toViews(db: Handle, rows: CategoryRow[]): Promise<WorkTypeView[]> {
  const parentIds = [...new Set(rows.map((r) => r.parent_id).filter((p): p is number => p !== null))];
  const parents = await rowsByIds(db, parentIds);
  const tops = rows.filter((r) => r.parent_id === null).map((r) => r.id);
  const rubrics = await rubricsOf(db, [...new Set([...tops, ...parentIds])]);
  const children = await childrenOf(db, tops);
  return rows.map((r) => {
    const rules = r.parent_id === null ? r : (parents.get(r.parent_id) ?? r);
    return {
      id: r.id,
      parentId: r.parent_id,
      parentName: r.parent_id === null ? null : (parents.get(r.parent_id)?.name ?? null),
      name: r.name,
      sort: r.sort,
      minAuthors: rules.min_authors,
      maxAuthors: rules.max_authors,
      maxTeachers: rules.max_teachers,
      hasProfessionalGroup: !!rules.has_professional_group,
      professionalMajors: JSON.parse(rules.professional_majors) as string[],
      requiredAttachments: JSON.parse(rules.required_attachments) as Attachment[],
      description: r.description,
      rubric: rubrics.get(rules.id) ?? [],
      deductions: JSON.parse(rules.deductions) as Deduction[],
      teacherReviewRequired: !!rules.teacher_review_required,
      archived: !!r.archived,
      children: (children.get(r.id) ?? []).map((c) => ({ id: c.id, name: c.name, sort: c.sort, archived: !!c.archived })),
    };
  });
}

export async function viewOf(db: Handle, id: number): Promise<WorkTypeView | undefined> {
  const row = await db.selectFrom("work_category").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && (await toViews(db, [row]))[0];
}

/** Every 大类 with its rules, rubric and 小类, in display order; archived ones only on request. */
export async function workTypeTree(db: Handle, includeArchived = false): Promise<WorkTypeTreeNode[]> {
  let q = db.selectFrom("work_category").select(COLUMNS).where("parent_id", "is", null);
  if (!includeArchived) q = q.where("archived", "=", 0);
  const tops = await q.orderBy("sort").orderBy("id").execute();
  const views = await toViews(db, tops);
  const children = await childrenOf(
    db,
    tops.map((t) => t.id),
  );
  return views.map((v) => ({
    ...v,
    children: (children.get(v.id) ?? [])
      .filter((c) => includeArchived || !c.archived)
      .map((c) => ({ id: c.id, name: c.name, sort: c.sort, archived: !!c.archived, description: c.description })),
  }));
}
