/**
 * Pool persons (judge_person and its category, tag and year rows): the list with its filters
 * and sorts, one record, and the writes shared by the admin forms, the Excel import and the
 * judge's own record. Contacts are read through scope.ts (null where not visible); a merged
 * duplicate (merged_into set) is never listed nor found.
 */
import { sql, type ExpressionBuilder } from "kysely";
import { invalid } from "../../shared/errors";
import type { JudgePersonCreate, JudgePersonFilters, JudgePersonUpdate, JudgePersonView } from "../../shared/judge-pool/schema";
import { ROLE } from "../../shared/roles";
import type { DB } from "../db/schema";
import type { Handle } from "../work/repository";
import { currentYear } from "../judging/service/judge-profile";
import { accountIds, contactVisible, type ContactScope } from "./scope";
import { normEmailOrNull } from "../common/email";
import { isMaskedPhone, maskPhone } from "../../shared/mask";

type P = ExpressionBuilder<
  DB & { p: DB["judge_person"]; s: DB["school"]; u: DB["app_user"]; y: DB["judge_person_year"] },
  "p" | "s" | "u" | "y"
>;

const clean = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);

/** Contests judged (distinct) over the person's accounts. */
const contestsCount = (eb: P) =>
  eb
    .selectFrom("contest_member as cmc")
    .select(sql<number>`count(distinct cmc.contest_id)`.as("n"))
    .where("cmc.role", "=", "judge")
    .where("cmc.user_id", "in", accountIds(eb, "p.id"));
/** Submitted online scores over the person's accounts. */
const scoresCount = (eb: P) =>
  eb
    .selectFrom("judge_score as jsc")
    .select((e) => e.fn.countAll<number>().as("n"))
    .where("jsc.status", "=", "submitted")
    .where("jsc.judge_id", "in", accountIds(eb, "p.id"));
const lastYear = (eb: P) =>
  eb
    .selectFrom("contest_member as cml")
    .innerJoin("contest as cl", "cl.id", "cml.contest_id")
    .select((e) => e.fn.max("cl.year").as("y"))
    .where("cml.role", "=", "judge")
    .where("cml.user_id", "in", accountIds(eb, "p.id"));

const SORT: Record<string, (eb: P) => any> = {
  id: (eb) => eb.ref("p.id"),
  name: (eb) => eb.ref("p.name"),
  school: (eb) => eb.fn.coalesce("s.name", "p.school_name"),
  province: (eb) => eb.ref("p.province"),
  title: (eb) => eb.ref("p.title"),
  updatedAt: (eb) => eb.ref("p.updated_at"),
  contests: (eb) => contestsCount(eb),
  worksScored: (eb) => scoresCount(eb),
};

/** Active persons with school, account and this year's availability; no columns selected. */
function base(db: Handle, year: number) {
  return db
    .selectFrom("judge_person as p")
    .leftJoin("school as s", "s.id", "p.school_id")
    .leftJoin("app_user as u", "u.id", "p.user_id")
    .leftJoin("judge_person_year as y", (j) => j.onRef("y.person_id", "=", "p.id").on("y.year", "=", year))
    .where("p.merged_into", "is", null);
}

function selected(db: Handle, year: number, scope: ContactScope | null) {
  return base(db, year).select((eb) => [
    "p.id",
    "p.name",
    "p.school_id",
    "s.name as school_record_name",
    "p.school_name",
    "p.province",
    "p.title",
    "p.email",
    "p.phone",
    "p.note",
    "p.user_id",
    "u.username",
    "u.name as account_name",
    "p.created_at",
    "p.updated_at",
    "y.available",
    "y.note as year_note",
    eb.case().when(contactVisible(eb, scope)).then(1).else(0).end().as("visible"),
    contestsCount(eb as P).as("contests"),
    scoresCount(eb as P).as("works_scored"),
    lastYear(eb as P).as("last_year"),
  ]);
}
type Row = Awaited<ReturnType<ReturnType<typeof selected>["executeTakeFirstOrThrow"]>>;

/** The 大类/小类 set a category filter matches: itself, its 小类, its 大类. */
async function categoryMatches(db: Handle, id: number): Promise<number[]> {
  const c = await db.selectFrom("work_category").select(["id", "parent_id"]).where("id", "=", id).executeTakeFirst();
  if (!c) return [id];
  const children = (await db.selectFrom("work_category").select("id").where("parent_id", "=", id).execute()).map((r) => r.id);
  return [id, ...children, ...(c.parent_id !== null ? [c.parent_id] : [])];
}

/** The filters on a query over base() (typed loosely: it serves the count and the page). */
function applyFilters<Q>(query: Q, f: JudgePersonFilters, scope: ContactScope | null, cats: number[] | null): Q {
  let q = query as unknown as ReturnType<typeof base>;
  if (f.keyword?.trim()) {
    const kw = `%${f.keyword.trim()}%`;
    const kwl = `%${f.keyword.trim().toLowerCase()}%`;
    // Email matches only where the caller sees the email: a search must not reveal it.
    q = q.where((eb) =>
      eb.or([
        eb("p.name", "like", kw),
        eb("s.name", "like", kw),
        eb("p.school_name", "like", kw),
        eb.and([eb("p.email", "like", kwl), contactVisible(eb, scope)]),
      ]),
    );
  }
  if (cats)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("judge_person_category as pc")
          .select("pc.person_id")
          .whereRef("pc.person_id", "=", "p.id")
          .where("pc.category_id", "in", cats),
      ),
    );
  if (f.tag?.trim())
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("judge_person_tag as pt")
          .select("pt.person_id")
          .whereRef("pt.person_id", "=", "p.id")
          .where("pt.tag", "=", f.tag!.trim()),
      ),
    );
  if (f.province) q = q.where("p.province", "=", f.province);
  if (f.schoolId !== undefined) q = q.where("p.school_id", "=", f.schoolId);
  if (f.available === "yes") q = q.where("y.available", "=", 1);
  else if (f.available === "no") q = q.where("y.available", "=", 0);
  else if (f.available === "unknown") q = q.where("y.person_id", "is", null);
  const judged = (eb: ExpressionBuilder<any, any>, year?: number) => {
    let sub = eb
      .selectFrom("contest_member as cmh")
      .innerJoin("contest as ch", "ch.id", "cmh.contest_id")
      .select("cmh.id")
      .where("cmh.role", "=", "judge")
      .where("cmh.user_id", "in", accountIds(eb, "p.id"));
    if (year !== undefined) sub = sub.where("ch.year", "=", year);
    return eb.exists(sub);
  };
  if (f.history === "any") q = q.where((eb) => judged(eb));
  else if (f.history === "none") q = q.where((eb) => eb.not(judged(eb)));
  if (f.judgedYear !== undefined) q = q.where((eb) => judged(eb, f.judgedYear));
  if (f.hasAccount !== undefined) q = q.where("p.user_id", f.hasAccount ? "is not" : "is", null);
  return q as unknown as Q;
}

async function toViews(db: Handle, rows: Row[], year: number): Promise<JudgePersonView[]> {
  const ids = rows.map((r) => r.id);
  const cats = ids.length
    ? await db
        .selectFrom("judge_person_category as pc")
        .innerJoin("work_category as c", "c.id", "pc.category_id")
        .leftJoin("work_category as cp", "cp.id", "c.parent_id")
        .select(["pc.person_id", "c.id", "c.name", "c.parent_id", "c.sort", "cp.name as parent_name"])
        .where("pc.person_id", "in", ids)
        .execute()
    : [];
  const parentSort = new Map<number, number>();
  if (cats.length) {
    const parents = [...new Set(cats.map((c) => c.parent_id ?? c.id))];
    for (const p of await db.selectFrom("work_category").select(["id", "sort"]).where("id", "in", parents).execute())
      parentSort.set(p.id, p.sort);
  }
  const order = (c: (typeof cats)[number]) => [parentSort.get(c.parent_id ?? c.id) ?? 0, c.parent_id === null ? -1 : c.sort];
  cats.sort((a, b) => {
    const [x1, x2] = order(a);
    const [y1, y2] = order(b);
    return x1 - y1 || x2 - y2 || a.id - b.id;
  });
  const tags = ids.length
    ? await db.selectFrom("judge_person_tag").select(["person_id", "tag"]).where("person_id", "in", ids).orderBy("tag").execute()
    : [];
  return rows.map((r) => {
    const visible = Number(r.visible) === 1;
    return {
      id: r.id,
      name: r.name,
      school: r.school_id !== null ? { id: r.school_id, name: r.school_record_name ?? "" } : null,
      schoolName: r.school_id !== null ? (r.school_record_name ?? null) : r.school_name,
      province: r.province,
      title: r.title,
      categories: cats
        .filter((c) => c.person_id === r.id)
        .map((c) => ({ id: c.id, name: c.name, parentId: c.parent_id, parentName: c.parent_name ?? null })),
      tags: tags.filter((t) => t.person_id === r.id).map((t) => t.tag),
      year,
      available: r.available === null || r.available === undefined ? null : Number(r.available) === 1,
      availabilityNote: r.year_note ?? "",
      account: r.user_id !== null ? { id: r.user_id, username: r.username ?? "", name: r.account_name ?? "" } : null,
      email: visible ? r.email : null,
      // Masked even where visible: the full number is on the audited contact route (routes.ts).
      phone: visible ? maskPhone(r.phone) : null,
      contactVisible: visible,
      note: r.note,
      contests: Number(r.contests ?? 0),
      worksScored: Number(r.works_scored ?? 0),
      lastYear: r.last_year === null || r.last_year === undefined ? null : Number(r.last_year),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  });
}

export async function listPersons(
  db: Handle,
  scope: ContactScope | null,
  f: JudgePersonFilters,
  sort: [string, "asc" | "desc"][],
  offset: number,
  limit: number,
) {
  const year = currentYear();
  const cats = f.categoryId !== undefined ? await categoryMatches(db, f.categoryId) : null;
  const filtered = applyFilters(base(db, year), f, scope, cats);
  const total = Number((await filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  let q = applyFilters(selected(db, year, scope), f, scope, cats);
  for (const [field, dir] of sort.length ? sort : ([["name", "asc"]] as const)) {
    const by = SORT[field];
    if (by) q = q.orderBy((eb) => by(eb as unknown as P), dir);
  }
  const rows = await q.orderBy("p.id").offset(offset).limit(limit).execute();
  return { list: await toViews(db, rows, year), total };
}

export async function getPerson(db: Handle, scope: ContactScope | null, id: number): Promise<JudgePersonView | undefined> {
  const year = currentYear();
  const row = await selected(db, year, scope).where("p.id", "=", id).executeTakeFirst();
  return row ? (await toViews(db, [row], year))[0] : undefined;
}

// ---- writes ----

async function checkCategories(db: Handle, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = (await db.selectFrom("work_category").select("id").where("id", "in", unique).execute()).map((r) => r.id);
  const missing = unique.filter((id) => !found.includes(id));
  if (missing.length) throw invalid("categoryIds", `评审类别 ${missing.join("、")} 不存在`);
  return unique;
}

export const cleanTags = (tags: readonly string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))];

export async function setCategories(db: Handle, personId: number, ids: number[]) {
  const wanted = await checkCategories(db, ids);
  await db.deleteFrom("judge_person_category").where("person_id", "=", personId).execute();
  if (wanted.length)
    await db
      .insertInto("judge_person_category")
      .values(wanted.map((category_id) => ({ person_id: personId, category_id })))
      .execute();
}

export async function setTags(db: Handle, personId: number, tags: readonly string[]) {
  const wanted = cleanTags(tags);
  await db.deleteFrom("judge_person_tag").where("person_id", "=", personId).execute();
  if (wanted.length)
    await db
      .insertInto("judge_person_tag")
      .values(wanted.map((tag) => ({ person_id: personId, tag })))
      .execute();
}

/** This year's availability: true/false with a note, null removes the statement. */
export async function setAvailability(
  db: Handle,
  personId: number,
  available: boolean | null | undefined,
  note: string | undefined,
) {
  const year = currentYear();
  const now = new Date().toISOString();
  const row = await db
    .selectFrom("judge_person_year")
    .select(["available", "note"])
    .where("person_id", "=", personId)
    .where("year", "=", year)
    .executeTakeFirst();
  if (available === null) {
    await db.deleteFrom("judge_person_year").where("person_id", "=", personId).where("year", "=", year).execute();
    return;
  }
  if (available === undefined && (note === undefined || !row)) return;
  const value = available === undefined ? row!.available : available ? 1 : 0;
  const text = note?.trim() ?? row?.note ?? "";
  if (row)
    await db
      .updateTable("judge_person_year")
      .set({ available: value, note: text, updated_at: now })
      .where("person_id", "=", personId)
      .where("year", "=", year)
      .execute();
  else
    await db
      .insertInto("judge_person_year")
      .values({ person_id: personId, year, available: value, note: text, updated_at: now })
      .execute();
}

/** The school columns from a school id or a name (an exact name of a listed school links it). */
async function schoolOf(db: Handle, input: { schoolId?: number | null; schoolName?: string | null; province?: string | null }) {
  if (input.schoolId) {
    const s = await db.selectFrom("school").select(["id", "province"]).where("id", "=", input.schoolId).executeTakeFirst();
    if (!s) throw invalid("schoolId", "学校不存在");
    return { school_id: s.id, school_name: null, province: clean(input.province) ?? s.province };
  }
  const name = clean(input.schoolName);
  if (name) {
    const s = await db.selectFrom("school").select(["id", "province"]).where("name", "=", name).executeTakeFirst();
    if (s) return { school_id: s.id, school_name: null, province: clean(input.province) ?? s.province };
  }
  return { school_id: null, school_name: name, province: clean(input.province) };
}

async function ensureEmailFree(db: Handle, email: string | null, selfId?: number) {
  if (!email) return;
  let q = db.selectFrom("judge_person").select("id").where("email", "=", email).where("merged_into", "is", null);
  if (selfId !== undefined) q = q.where("id", "!=", selfId);
  if (await q.executeTakeFirst()) throw invalid("email", `邮箱 ${email} 已在评委库中，请勿重复录入（同一人可合并）`);
}

/** The judge account with this email that has no pool record yet (linked at once). */
async function unlinkedJudgeByEmail(db: Handle, email: string | null): Promise<number | null> {
  if (!email) return null;
  const u = await db
    .selectFrom("app_user")
    .select("id")
    .where("user_type", "=", ROLE.judge)
    .where(sql<string>`lower(email)`, "=", email)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("judge_person as l").select("l.id").whereRef("l.user_id", "=", "app_user.id"))))
    .orderBy("id")
    .executeTakeFirst();
  return u?.id ?? null;
}

/** A phone as typed: a masked number (138****5678) is not one. */
function newPhone(input: string | null | undefined): string | null {
  const phone = clean(input);
  if (isMaskedPhone(phone)) throw invalid("phone", "请填写完整的手机号，脱敏显示的号码（如 138****5678）不能保存");
  return phone;
}

export async function insertPerson(db: Handle, userId: number | null, input: JudgePersonCreate): Promise<number> {
  const name = input.name.trim();
  if (!name) throw invalid("name", "请填写姓名");
  const email = normEmailOrNull(input.email);
  await ensureEmailFree(db, email);
  const school = await schoolOf(db, input);
  const now = new Date().toISOString();
  const account = await unlinkedJudgeByEmail(db, email);
  const { id } = await db
    .insertInto("judge_person")
    .values({
      name,
      ...school,
      title: clean(input.title),
      email,
      phone: newPhone(input.phone),
      user_id: account,
      note: input.note?.trim() ?? "",
      merged_into: null,
      created_by: userId,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (input.categoryIds) await setCategories(db, id, input.categoryIds);
  if (input.tags) await setTags(db, id, input.tags);
  await setAvailability(db, id, input.available, input.availabilityNote);
  return id;
}

export async function updatePerson(db: Handle, id: number, input: JudgePersonUpdate) {
  const set: Record<string, unknown> = {};
  if (input.name !== undefined) {
    if (!input.name.trim()) throw invalid("name", "请填写姓名");
    set.name = input.name.trim();
  }
  if (input.schoolId !== undefined || input.schoolName !== undefined) {
    Object.assign(
      set,
      await schoolOf(db, {
        schoolId: input.schoolId,
        schoolName: input.schoolName,
        province: input.province !== undefined ? input.province : null,
      }),
    );
  } else if (input.province !== undefined) set.province = clean(input.province);
  if (input.title !== undefined) set.title = clean(input.title);
  if (input.email !== undefined) {
    const email = normEmailOrNull(input.email);
    await ensureEmailFree(db, email, id);
    set.email = email;
    const account = await unlinkedJudgeByEmail(db, email);
    if (
      account !== null &&
      !(await db.selectFrom("judge_person").select("user_id").where("id", "=", id).executeTakeFirstOrThrow()).user_id
    )
      set.user_id = account;
  }
  if (input.phone !== undefined) {
    // The form and the exported sheet carry the masked number they were shown: that is no change.
    const stored = (await db.selectFrom("judge_person").select("phone").where("id", "=", id).executeTakeFirstOrThrow()).phone;
    const phone = clean(input.phone);
    if (!isMaskedPhone(phone)) set.phone = phone;
    else if (phone !== maskPhone(stored)) newPhone(phone);
  }
  if (input.note !== undefined) set.note = input.note.trim();
  await db
    .updateTable("judge_person")
    .set({ ...set, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .execute();
  if (input.categoryIds) await setCategories(db, id, input.categoryIds);
  if (input.tags) await setTags(db, id, input.tags);
  await setAvailability(db, id, input.available, input.availabilityNote);
}

/** Expertise tags in use on active records, most used first. */
export async function tagCounts(db: Handle) {
  const rows = await db
    .selectFrom("judge_person_tag as t")
    .innerJoin("judge_person as p", "p.id", "t.person_id")
    .select(["t.tag", (eb) => eb.fn.countAll<number>().as("n")])
    .where("p.merged_into", "is", null)
    .groupBy("t.tag")
    .orderBy("n", "desc")
    .orderBy("t.tag")
    .limit(200)
    .execute();
  return rows.map((r) => ({ tag: r.tag, count: Number(r.n) }));
}
