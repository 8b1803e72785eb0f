/** Validation of a category's rules and scoring standard; saving the rubric; the in-use check. */
import { invalid } from "../../shared/errors";
import {
  RUBRIC_TOTAL,
  type Attachment,
  type Deduction,
  type RubricItemInput,
  type WorkTypeCreate,
  type WorkTypeView,
} from "../../shared/work-type/schema";
import type { Trx } from "../crud/resource";

/** The fields a 小类 inherits from its 大类 and cannot set. */
export const INHERITED = [
  "minAuthors",
  "maxAuthors",
  "maxTeachers",
  "hasProfessionalGroup",
  "professionalMajors",
  "requiredAttachments",
  "rubric",
  "deductions",
  "teacherReviewRequired",
] as const;

/** Column values of the rules of a 大类 (copied onto its 小类). */
export interface RuleColumns {
  min_authors: number;
  max_authors: number;
  max_teachers: number;
  has_professional_group: number;
  professional_majors: string;
  required_attachments: string;
  deductions: string;
  teacher_review_required: number;
}

export function refuseInherited(input: Partial<WorkTypeCreate>) {
  const field = INHERITED.find((f) => input[f] !== undefined);
  if (field)
    throw invalid(field, "小类沿用所属大类的人数、专业组、提交材料、评分标准和指导老师自评要求，不能单独设置，请在大类中修改");
}

function checkAttachments(list: Attachment[]): Attachment[] {
  const keys = new Set<string>();
  const names = new Set<string>();
  return list.map((a) => {
    const name = a.name.trim();
    if (keys.has(a.key)) throw invalid("requiredAttachments", `提交材料的标识「${a.key}」重复`);
    if (names.has(name)) throw invalid("requiredAttachments", `提交材料「${name}」重复`);
    keys.add(a.key);
    names.add(name);
    return {
      key: a.key,
      name,
      required: a.required,
      maxSizeMB: a.maxSizeMB,
      types: [...new Set(a.types.map((t) => t.replace(/^\./, "").toLowerCase()))],
    };
  });
}

function checkDeductions(list: Deduction[]): Deduction[] {
  const names = new Set<string>();
  return list.map((d) => {
    const name = d.name.trim();
    if (names.has(name)) throw invalid("deductions", `扣分项「${name}」重复`);
    names.add(name);
    return { name, points: d.points };
  });
}

/** Majors of the 专业组: each must exist; an archived major cannot be newly added. */
async function checkMajors(trx: Trx, codes: string[], before: string[]) {
  if (!codes.length) return;
  const found = new Map(
    (await trx.selectFrom("major").select(["code", "archived"]).where("code", "in", codes).execute()).map((m) => [
      m.code,
      m.archived,
    ]),
  );
  const missing = codes.filter((c) => !found.has(c));
  if (missing.length) throw invalid("professionalMajors", `专业代码 ${missing.join("、")} 不存在，请先在专业管理中添加`);
  const archived = codes.filter((c) => found.get(c) && !before.includes(c));
  if (archived.length) throw invalid("professionalMajors", `专业 ${archived.join("、")} 已归档，不能加入专业组`);
}

/** The rules of a 大类 after applying input to before (or to the defaults), validated. */
export async function resolveRules(trx: Trx, input: Partial<WorkTypeCreate>, before?: WorkTypeView): Promise<RuleColumns> {
  const min = input.minAuthors ?? before?.minAuthors ?? 2;
  const max = input.maxAuthors ?? before?.maxAuthors ?? 5;
  if (min > max)
    throw invalid(
      input.minAuthors !== undefined ? "minAuthors" : "maxAuthors",
      `最少作者人数（${min}）不能大于最多作者人数（${max}）`,
    );
  const has = input.hasProfessionalGroup ?? before?.hasProfessionalGroup ?? false;
  const given = input.professionalMajors && [
    ...new Set(input.professionalMajors.map((c) => c.trim().toUpperCase()).filter(Boolean)),
  ];
  if (!has && given?.length) throw invalid("professionalMajors", "未设置分普通组和专业组，不能填写专业组专业");
  const majors = has ? (given ?? before?.professionalMajors ?? []) : [];
  if (has && !majors.length) throw invalid("professionalMajors", "分普通组和专业组时，须至少填写一个专业组专业代码");
  await checkMajors(trx, majors, before?.professionalMajors ?? []);
  return {
    min_authors: min,
    max_authors: max,
    max_teachers: input.maxTeachers ?? before?.maxTeachers ?? 2,
    has_professional_group: has ? 1 : 0,
    professional_majors: JSON.stringify(majors),
    required_attachments: JSON.stringify(
      input.requiredAttachments ? checkAttachments(input.requiredAttachments) : (before?.requiredAttachments ?? []),
    ),
    deductions: JSON.stringify(input.deductions ? checkDeductions(input.deductions) : (before?.deductions ?? [])),
    teacher_review_required: (input.teacherReviewRequired ?? before?.teacherReviewRequired ?? false) ? 1 : 0,
  };
}

/** Max points sum to 100, names distinct, ids belong to the category. */
export function checkRubric(items: RubricItemInput[], ownIds: number[]) {
  const sum = items.reduce((s, i) => s + i.maxPoints, 0);
  if (sum !== RUBRIC_TOTAL) throw invalid("rubric", `评分标准各项满分之和须为 ${RUBRIC_TOTAL} 分，当前为 ${sum} 分`);
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const i of items) {
    const name = i.name.trim();
    if (names.has(name)) throw invalid("rubric", `评分项「${name}」重复`);
    names.add(name);
    if (i.id !== undefined) {
      if (!ownIds.includes(i.id) || ids.has(i.id)) throw invalid("rubric", `评分项编号 ${i.id} 不属于该类别`);
      ids.add(i.id);
    }
  }
}

/** Replaces the rubric: items with an id keep it (scores refer to it), new ones are added, missing ones removed. */
export async function saveRubric(trx: Trx, categoryId: number, items: RubricItemInput[]) {
  const own = (await trx.selectFrom("rubric_item").select("id").where("category_id", "=", categoryId).execute()).map((r) => r.id);
  checkRubric(items, own);
  const keep = items.map((i) => i.id).filter((id): id is number => id !== undefined);
  const gone = own.filter((id) => !keep.includes(id));
  if (gone.length) await trx.deleteFrom("rubric_item").where("id", "in", gone).execute();
  for (const [n, i] of items.entries()) {
    const values = {
      name: i.name.trim(),
      max_points: i.maxPoints,
      description: i.description?.trim() || null,
      sort: i.sort ?? n + 1,
    };
    if (i.id !== undefined) await trx.updateTable("rubric_item").set(values).where("id", "=", i.id).execute();
    else
      await trx
        .insertInto("rubric_item")
        .values({ ...values, category_id: categoryId })
        .execute();
  }
}

/**
 * Why a category cannot be deleted, or null when nothing refers to it. The one place that
 * knows what refers to a category: its 小类, the contests that open it, and works entered
 * in it (as 大类 or 小类).
 */
export async function categoryInUse(trx: Trx, id: number): Promise<string | null> {
  const reasons: string[] = [];
  const children = await trx
    .selectFrom("work_category")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", id)
    .executeTakeFirstOrThrow();
  if (Number(children.n)) reasons.push(`有 ${children.n} 个小类`);
  const contests = (await trx.selectFrom("contest").select(["categories", "category_quotas"]).execute()).filter(
    (c) =>
      (JSON.parse(c.categories) as number[]).map(Number).includes(id) ||
      Object.keys(JSON.parse(c.category_quotas) as object)
        .map(Number)
        .includes(id),
  );
  if (contests.length) reasons.push(`被 ${contests.length} 个赛事设为参赛类别`);
  const works = await trx
    .selectFrom("work")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where((eb) => eb.or([eb("category_id", "=", id), eb("subcategory_id", "=", id)]))
    .executeTakeFirstOrThrow();
  if (Number(works.n)) reasons.push(`有 ${works.n} 件作品`);
  return reasons.length ? reasons.join("，") : null;
}
