/**
 * Breakdowns (GET /Backend/Stats/breakdown): the works in scope that were submitted at least
 * once (every state but draft) by province, by school (the 10 with most and the 10 with
 * fewest works among schools with works), by 大类/小类 and by 普通组/专业组, with shares of the
 * whole; and a school's own figures (a school admin always, root and contest admins when they
 * choose a school): works, distinct students among the authors, works per student, distinct
 * advising teachers, works now returned by the school or by format review, and why.
 */
import { sql } from "kysely";
import type { BreakdownReply, CategoryShare, SchoolFigures, ShareRow } from "../../shared/stats/schema";
import { FORMAT_REASON_NAMES } from "../../shared/review/reasons";
import type { Handle } from "../work/repository";
import { num, worksOf, type Scope, type WorkFilter } from "./scope";

const TOP = 10;
const share = (n: number, total: number) => (total ? n / total : 0);
const GROUP_NAMES: Record<string, string> = { normal: "普通组", professional: "专业组" };

export async function breakdown(db: Handle, s: Scope): Promise<Omit<BreakdownReply, "scope">> {
  const f = s.current;
  // One pass over the works: every other figure is a sum of these groups.
  const cells = (
    await worksOf(db, f)
      .where("work.status", "!=", "draft")
      .select([
        "work.school_id",
        "work.category_id",
        "work.subcategory_id",
        "work.group_type",
        (eb) => eb.fn.countAll<number>().as("n"),
      ])
      .groupBy(["work.school_id", "work.category_id", "work.subcategory_id", "work.group_type"])
      .execute()
  ).map((c) => ({
    school: Number(c.school_id),
    category: Number(c.category_id),
    sub: c.subcategory_id === null ? null : Number(c.subcategory_id),
    group: c.group_type as string,
    n: num(c.n),
  }));
  const total = cells.reduce((a, c) => a + c.n, 0);
  const sum = <K>(key: (c: (typeof cells)[number]) => K) => {
    const m = new Map<K, number>();
    for (const c of cells) m.set(key(c), (m.get(key(c)) ?? 0) + c.n);
    return m;
  };
  const rows = (m: Map<string, number>, name: (k: string) => string): ShareRow[] =>
    [...m]
      .map(([key, n]) => ({ key, name: name(key), count: n, share: share(n, total) }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
  const bySchoolCount = sum((c) => String(c.school));
  const schools = s.schoolOnly
    ? new Map<number, { name: string; province: string }>()
    : await schoolsOf(db, [...bySchoolCount.keys()].map(Number));
  const bySchool = s.schoolOnly ? [] : rows(bySchoolCount, (k) => schools.get(Number(k))?.name ?? k);
  const provinces = s.schoolOnly
    ? []
    : rows(
        sum((c) => schools.get(c.school)?.province ?? "（未知）"),
        (k) => k,
      );
  const catIds = [...new Set(cells.flatMap((c) => [c.category, c.sub]).filter((x): x is number => x !== null))];
  const catNames = await namesOf(db, "work_category", catIds);
  const categories = new Map<number, CategoryShare>();
  for (const [key, n] of sum((c) => `${c.category}:${c.sub ?? ""}`)) {
    const [cat, subText] = key.split(":");
    const id = Number(cat);
    let row = categories.get(id);
    if (!row)
      categories.set(id, (row = { categoryId: id, name: catNames.get(id) ?? cat, count: 0, share: 0, subcategories: [] }));
    row.count += n;
    const sub = subText === "" ? null : Number(subText);
    row.subcategories.push({
      subcategoryId: sub,
      name: sub === null ? "未分小类" : (catNames.get(sub) ?? subText),
      count: n,
      share: share(n, total),
    });
  }
  for (const c of categories.values()) {
    c.share = share(c.count, total);
    c.subcategories.sort((a, b) => b.count - a.count);
  }
  const schoolId = f.schoolId;
  return {
    total,
    provinces,
    topSchools: bySchool.slice(0, TOP),
    bottomSchools: bySchool.length > TOP ? bySchool.slice(-TOP).reverse() : [],
    schoolCount: bySchool.length,
    categories: [...categories.values()].sort((a, b) => b.count - a.count || a.categoryId - b.categoryId),
    groups: rows(
      sum((c) => c.group),
      (k) => GROUP_NAMES[k] ?? k,
    ),
    school: schoolId === null ? null : await schoolFigures(db, f, schoolId),
  };
}

async function schoolsOf(db: Handle, ids: number[]) {
  const out = new Map<number, { name: string; province: string }>();
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await db
      .selectFrom("school")
      .select(["id", "name", "province"])
      .where("id", "in", ids.slice(i, i + 500))
      .execute())
      out.set(Number(r.id), { name: r.name, province: r.province });
  return out;
}

async function namesOf(db: Handle, table: "school" | "work_category", ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const list = await db.selectFrom(table).select(["id", "name"]).where("id", "in", ids).execute();
  return new Map(list.map((r) => [Number(r.id), r.name]));
}

/** One school's own figures (every work of the filter, drafts included). */
export async function schoolFigures(db: Handle, f: WorkFilter, schoolId: number): Promise<SchoolFigures> {
  const ids = () => worksOf(db, f).select("work.id");
  const [school, works, students, teachers, returned, formatRows] = await Promise.all([
    db.selectFrom("school").select("name").where("id", "=", schoolId).executeTakeFirst(),
    worksOf(db, f)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("work_author")
      .select(sql<number>`count(distinct work_author.user_id)`.as("n"))
      .where("work_author.work_id", "in", ids())
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("work_teacher")
      .select(sql<number>`count(distinct work_teacher.user_id)`.as("n"))
      .where("work_teacher.work_id", "in", ids())
      .executeTakeFirstOrThrow(),
    worksOf(db, f)
      .where("work.status", "=", "returned")
      .select(["work.return_reason", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("work.return_reason")
      .execute(),
    worksOf(db, f).where("work.status", "=", "format_returned").select("work.format_reasons").execute(),
  ]);
  const reasons: SchoolFigures["reasons"] = returned
    .map((r) => ({ kind: "school", reason: r.return_reason?.trim() || "（未填写原因）", count: num(r.n) }))
    .sort((a, b) => b.count - a.count)
    .slice(0, 20);
  const codes = new Map<string, number>();
  for (const r of formatRows) {
    let list: unknown;
    try {
      list = JSON.parse(r.format_reasons ?? "[]");
    } catch {
      list = [];
    }
    for (const c of Array.isArray(list) ? list : []) codes.set(String(c), (codes.get(String(c)) ?? 0) + 1);
  }
  for (const [code, count] of [...codes].sort((a, b) => b[1] - a[1]))
    reasons.push({ kind: "format", reason: (FORMAT_REASON_NAMES as Record<string, string>)[code] ?? code, count });
  const nWorks = num(works.n);
  const nStudents = num(students.n);
  return {
    schoolId,
    schoolName: school?.name ?? String(schoolId),
    works: nWorks,
    students: nStudents,
    worksPerStudent: nStudents ? nWorks / nStudents : 0,
    teachers: num(teachers.n),
    returnedBySchool: returned.reduce((a, r) => a + num(r.n), 0),
    returnedByFormat: formatRows.length,
    reasons,
  };
}
