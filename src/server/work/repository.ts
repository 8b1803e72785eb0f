/**
 * Queries of works, their teams and their log. The first argument is the handle: the
 * database or the use case's transaction (on the embedded SQLite a query on another
 * handle inside a transaction would wait for it). No business rules here.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import { badRequest } from "../../shared/errors";
import { formatWorkId } from "../../shared/work/states";
import { ENTRY_FORMAT_STATE } from "../../shared/national/types";
import type { DB, Work, WorkTable } from "../db/schema";
import type { Insertable, Updateable } from "kysely";

export type Handle = Kysely<DB> | Transaction<DB>;

/** A work with the names and rules it is shown and checked with. */
export const selectWorkFacts = (db: Handle) =>
  db
    .selectFrom("work")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .selectAll("work")
    .select([
      "contest.name as contest_name",
      "contest.level as contest_level",
      "contest.parent_id as contest_parent_id",
      "contest.archived as contest_archived",
      "contest.recommend_quota as contest_recommend_quota",
      "contest.category_quotas as contest_category_quotas",
      "contest.categories as contest_categories",
      "school.name as school_name",
      "school.code as school_code",
      "school.province as school_province",
      "cat.name as category_name",
      "cat.min_authors",
      "cat.max_authors",
      "cat.max_teachers",
      "cat.has_professional_group",
      "cat.professional_majors",
      "cat.teacher_review_required",
      "sub.name as subcategory_name",
    ]);

export type WorkRow = Awaited<ReturnType<ReturnType<typeof selectWorkFacts>["executeTakeFirstOrThrow"]>>;

export const findWork = (db: Handle, id: number): Promise<WorkRow | undefined> =>
  selectWorkFacts(db).where("work.id", "=", id).executeTakeFirst();

/** A work's entered national entry (issue 14), if any: the national contest's facts and the entry's format review. */
export const findNationalEntry = (db: Handle, workId: number) =>
  db
    .selectFrom("national_entry")
    .innerJoin("contest", "contest.id", "national_entry.contest_id")
    .select([
      "national_entry.id",
      "national_entry.contest_id",
      "national_entry.format_status",
      "national_entry.format_reasons",
      "national_entry.format_deadline",
      "national_entry.format_note",
      "national_entry.fields",
      "contest.name",
      "contest.parent_id",
      "contest.archived",
    ])
    .where("national_entry.work_id", "=", workId)
    .where("national_entry.status", "=", "entered")
    .executeTakeFirst();
export type NationalEntryRow = NonNullable<Awaited<ReturnType<typeof findNationalEntry>>>;

/** A national entry's own field values (migration 0029): { work column: value }. */
export const entryFields = (json: string | null | undefined): Partial<Pick<WorkRow, (typeof COLUMN)[keyof typeof COLUMN]>> =>
  json ? JSON.parse(json) : {};

/** The entry's own values of the given works in a national contest, by work id (for lists and the judges' view). */
export async function nationalFieldsOf(
  db: Handle,
  contestId: number,
  workIds: number[],
): Promise<Map<number, ReturnType<typeof entryFields>>> {
  if (!workIds.length) return new Map();
  const rows = await db
    .selectFrom("national_entry")
    .select(["work_id", "fields"])
    .where("contest_id", "=", contestId)
    .where("work_id", "in", workIds)
    .where("fields", "is not", null)
    .execute();
  return new Map(rows.map((r) => [Number(r.work_id), entryFields(r.fields)]));
}

/**
 * The work as the national contest's format review sees it: the entry's state, reasons and
 * deadline in place of the work's, and the national contest as the contest it is in. The
 * row is a view: writes of a national format review go to national_entry (transition.ts).
 */
export const asNationalEntry = (w: WorkRow, e: NationalEntryRow): WorkRow => ({
  ...w,
  ...entryFields(e.fields),
  status: ENTRY_FORMAT_STATE[e.format_status],
  format_reasons: e.format_reasons,
  format_deadline: e.format_deadline,
  return_reason: e.format_note,
  contest_id: e.contest_id,
  contest_name: e.name,
  contest_level: "national",
  contest_parent_id: e.parent_id,
  contest_archived: e.archived,
});

const memberColumns = [
  "app_user.id as user_id",
  "app_user.username",
  "app_user.name",
  "app_user.user_type",
  "app_user.school_id",
  "app_user.member_no",
  "app_user.major_code",
  "app_user.phone",
  "app_user.email",
  "app_user.archived",
  "major.name as major_name",
] as const;

export async function authorsOfWorks(db: Handle, ids: number[]) {
  const rows = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .leftJoin("major", "major.code", "app_user.major_code")
        .select(["work_author.work_id", "work_author.rank", "work_author.confirmed", ...memberColumns])
        .where("work_author.work_id", "in", ids.slice(i, i + 500))
        .orderBy("work_author.work_id")
        .orderBy("work_author.rank")
        .execute()),
    );
  }
  return rows;
}
export type AuthorRow = Awaited<ReturnType<typeof authorsOfWorks>>[number];

export async function teachersOfWorks(db: Handle, ids: number[]) {
  const rows = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom("work_teacher")
        .innerJoin("app_user", "app_user.id", "work_teacher.user_id")
        .leftJoin("major", "major.code", "app_user.major_code")
        .select(["work_teacher.work_id", "work_teacher.rank", ...memberColumns])
        .where("work_teacher.work_id", "in", ids.slice(i, i + 500))
        .orderBy("work_teacher.work_id")
        .orderBy("work_teacher.rank")
        .execute()),
    );
  }
  return rows;
}
export type TeacherRow = Awaited<ReturnType<typeof teachersOfWorks>>[number];

export const authorsOf = (db: Handle, workId: number) => authorsOfWorks(db, [workId]);
export const teachersOf = (db: Handle, workId: number) => teachersOfWorks(db, [workId]);

/** The next `count` work ids of a year: one atomic increment of the year's counter row. */
export async function nextWorkIds(db: Handle, year: number, count = 1): Promise<number[]> {
  await db
    .insertInto("work_sequence")
    .values({ year, last: 0 })
    .onConflict((oc) => oc.column("year").doNothing())
    .execute();
  const row = await db
    .updateTable("work_sequence")
    .set((eb) => ({ last: eb("last", "+", count) }))
    .where("year", "=", year)
    .returning("last")
    .executeTakeFirstOrThrow();
  const last = Number(row.last);
  if (last > 999_999) throw badRequest(`${year} 年的作品编号已用完，请联系系统管理员`);
  return Array.from({ length: count }, (_, i) => formatWorkId(year, last - count + 1 + i));
}

export async function insertWorks(db: Handle, rows: Insertable<WorkTable>[]) {
  for (let i = 0; i < rows.length; i += 400)
    await db
      .insertInto("work")
      .values(rows.slice(i, i + 400))
      .execute();
}

/**
 * Changes a work if it is still at `version`, and moves it to the next version.
 * false: someone changed it in between (nothing was written).
 */
export async function updateWorkAt(db: Handle, id: number, version: number, set: Updateable<WorkTable>): Promise<boolean> {
  const r = await db
    .updateTable("work")
    .set({ ...set, version: version + 1, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("version", "=", version)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Rewrites the denormalised author and teacher names of a work (rank order). */
export async function refreshNames(db: Handle, workId: number) {
  const authors = await db
    .selectFrom("work_author")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .select("app_user.name")
    .where("work_id", "=", workId)
    .orderBy("rank")
    .execute();
  const teachers = await db
    .selectFrom("work_teacher")
    .innerJoin("app_user", "app_user.id", "work_teacher.user_id")
    .select("app_user.name")
    .where("work_id", "=", workId)
    .orderBy("rank")
    .execute();
  await db
    .updateTable("work")
    .set({ author_names: authors.map((a) => a.name).join("、"), teacher_names: teachers.map((t) => t.name).join("、") })
    .where("id", "=", workId)
    .execute();
}

/** After a user's name changes: rewrites the names of every work they author or advise. */
export async function refreshNamesOfUser(db: Handle, userId: number) {
  const works = [
    ...(await db.selectFrom("work_author").select("work_id").where("user_id", "=", userId).execute()),
    ...(await db.selectFrom("work_teacher").select("work_id").where("user_id", "=", userId).execute()),
  ];
  for (const w of works) await refreshNames(db, w.work_id);
}

/** Is this error the one-work-per-author-per-大类 unique index refusing a row? */
export function isOnePerCategoryViolation(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; message?: string };
  if (err?.code === "23505") return err.constraint === "work_author_one_per_category";
  return /UNIQUE constraint failed: work_author\.user_id, work_author\.category_id, work_author\.year/.test(
    String(err?.message ?? ""),
  );
}

/**
 * Runs a write that the one-per-大类 index may refuse, inside a savepoint so the
 * transaction stays usable (PostgreSQL aborts it otherwise): "conflict" when refused.
 */
export async function guardOnePerCategory<T>(db: Handle, write: () => Promise<T>): Promise<T | "conflict"> {
  await sql`savepoint work_author_guard`.execute(db);
  try {
    const r = await write();
    await sql`release savepoint work_author_guard`.execute(db);
    return r;
  } catch (e) {
    if (!isOnePerCategoryViolation(e)) throw e;
    await sql`rollback to savepoint work_author_guard`.execute(db);
    return "conflict";
  }
}

/** The work an author already has in a 大类 and year (other than `exceptWorkId`). */
export async function entryOf(db: Handle, userId: number, categoryId: number, year: number, exceptWorkId?: number) {
  let q = db
    .selectFrom("work_author")
    .innerJoin("work", "work.id", "work_author.work_id")
    .select(["work.id", "work.name"])
    .where("work_author.user_id", "=", userId)
    .where("work_author.category_id", "=", categoryId)
    .where("work_author.year", "=", year);
  if (exceptWorkId !== undefined) q = q.where("work.id", "!=", exceptWorkId);
  return q.executeTakeFirst();
}

export const findUserByUsername = (db: Handle, username: string) =>
  db
    .selectFrom("app_user")
    .select(["id", "username", "name", "user_type", "school_id", "archived", "locked", "major_code"])
    .where("username", "=", username.trim())
    .executeTakeFirst();

export const findCategory = (db: Handle, id: number) =>
  db
    .selectFrom("work_category")
    .select([
      "id",
      "parent_id",
      "name",
      "archived",
      "min_authors",
      "max_authors",
      "max_teachers",
      "has_professional_group",
      "professional_majors",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
export type CategoryRow = NonNullable<Awaited<ReturnType<typeof findCategory>>>;

export const hasSubcategories = async (db: Handle, categoryId: number) =>
  !!(await db
    .selectFrom("work_category")
    .select("id")
    .where("parent_id", "=", categoryId)
    .where("archived", "=", 0)
    .limit(1)
    .executeTakeFirst());

export const findContest = (db: Handle, id: number) =>
  db
    .selectFrom("contest")
    .select([
      "id",
      "name",
      "level",
      "year",
      "parent_id",
      "province",
      "school_id",
      "archived",
      "categories",
      "recommend_quota",
      "category_quotas",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
export type ContestRow = NonNullable<Awaited<ReturnType<typeof findContest>>>;

export const stagesOf = async (db: Handle, contestId: number) =>
  (
    await db.selectFrom("contest_stage").select(["stage", "starts_at", "ends_at"]).where("contest_id", "=", contestId).execute()
  ).map((s) => ({ stage: s.stage, startsAt: s.starts_at, endsAt: s.ends_at }));

export const findSchool = (db: Handle, id: number) =>
  db.selectFrom("school").select(["id", "name", "code", "province", "archived"]).where("id", "=", id).executeTakeFirst();

/** Takes the contest row's lock (PostgreSQL) so quota counts and the recommendation that follows are serialised. */
export const lockContest = (db: Handle, id: number) =>
  db
    .updateTable("contest")
    .set((eb) => ({ updated_at: eb.ref("updated_at") }))
    .where("id", "=", id)
    .execute();

/** Works of a contest holding a recommendation slot: in all and per 大类. */
export async function slotCounts(db: Handle, contestId: number, states: readonly string[], schoolId?: number) {
  let q = db
    .selectFrom("work")
    .select(["category_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("contest_id", "=", contestId)
    .where("status", "in", states as Work["status"][]);
  if (schoolId !== undefined) q = q.where("school_id", "=", schoolId);
  const rows = await q.groupBy("category_id").execute();
  return new Map(rows.map((r) => [r.category_id, Number(r.n)]));
}

export interface LogEntry {
  workId: number;
  userId: number | null;
  action: string;
  changes: Record<string, [unknown, unknown]>;
}

/** Appends to the work log. The log is never updated or deleted. */
export async function appendLog(db: Handle, entries: LogEntry | LogEntry[]) {
  const list = Array.isArray(entries) ? entries : [entries];
  const at = new Date().toISOString();
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto("work_log")
      .values(
        list
          .slice(i, i + 500)
          .map((e) => ({ work_id: e.workId, at, user_id: e.userId, action: e.action, changes: JSON.stringify(e.changes) })),
      )
      .execute();
  }
}

/** The column of each editable field. */
export const COLUMN = {
  name: "name",
  categoryId: "category_id",
  subcategoryId: "subcategory_id",
  group: "group_type",
  summary: "summary",
  designIdea: "design_idea",
  keyPoints: "key_points",
  openSource: "open_source",
  installGuide: "install_guide",
  teacherReview: "teacher_review",
  otherNotes: "other_notes",
  deployLink1: "deploy_link1",
  deployLink2: "deploy_link2",
  aiDeclaration: "ai_declaration",
} as const satisfies Record<import("../../shared/work/fields").WorkField, keyof WorkTable>;
