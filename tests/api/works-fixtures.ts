/** Shared set-up of the works API tests: accounts, categories, contests, stages, works. */
import { sql } from "kysely";
import { Client, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";

export const W = "/Backend/Work/work";
export const AI_NONE = { used: false, tools: [] };
/** The works list's sort keys and the work columns they order by (the list tests compare with direct queries). */
export const SORT_COLUMNS: Record<string, string> = {
  id: "id",
  name: "name",
  status: "status",
  createdAt: "created_at",
  updatedAt: "updated_at",
  submittedAt: "submitted_at",
  categoryId: "category_id",
  schoolId: "school_id",
};

export async function idOf(t: TestApp, username: string) {
  return (await t.db.selectFrom("app_user").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
}
export async function schoolId(t: TestApp, name: string) {
  return (await t.db.selectFrom("school").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
}
export async function catId(t: TestApp, name: string) {
  return (await t.db.selectFrom("work_category").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
}
export async function contestId(t: TestApp, code: string) {
  return (await t.db.selectFrom("contest").select("id").where("code", "=", code).executeTakeFirstOrThrow()).id;
}

/**
 * The works a list should show, straight from the database: ids in the list's order (the sort
 * column, then id the same way), a range of them when `range` is given, and how many match.
 */
export async function orderedWorkIds(
  t: TestApp,
  where: { contests: number[] | null; status: string[] | null },
  field: string,
  dir: "asc" | "desc",
  range?: { offset: number; limit: number },
) {
  let q = t.db.selectFrom("work").select("id");
  if (where.contests) q = q.where("contest_id", "in", where.contests);
  if (where.status) q = q.where("status", "in", where.status as never[]);
  const total = Number(
    (
      await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  let o = q.orderBy(sql.ref(SORT_COLUMNS[field]), dir);
  if (field !== "id") o = o.orderBy("id", dir);
  if (range) o = o.offset(range.offset).limit(range.limit);
  return { ids: (await o.execute()).map((r) => Number(r.id)), total };
}

/** A new account (password Demo@2026) of a school, logged in. */
export async function account(
  t: TestApp,
  username: string,
  name: string,
  opts: { role?: 99 | 100 | 2; school?: string; major?: string | null } = {},
) {
  const hash = (
    await t.db.selectFrom("app_user").select("password_hash").where("username", "=", "student").executeTakeFirstOrThrow()
  ).password_hash;
  const now = new Date().toISOString();
  await t.db
    .insertInto("app_user")
    .values({
      username,
      password_hash: hash,
      name,
      user_type: opts.role ?? 100,
      email: `${username}@test.local`,
      email_verified: 1,
      phone: "13800000000",
      school_id: await schoolId(t, opts.school ?? "浙江工业大学"),
      member_no: `M${username}`,
      major_code: opts.major === undefined ? "080901" : opts.major,
      has_complaint_right: 0,
      is_school_contest_judge: 0,
      locked: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const c = new Client(t);
  await c.login(username, opts.role === 99 ? "teacher" : opts.role === 2 ? "admin" : "student");
  return c;
}

export async function login(t: TestApp, username: string) {
  const c = new Client(t);
  const row = await t.db.selectFrom("app_user").select("user_type").where("username", "=", username).executeTakeFirstOrThrow();
  await c.login(username, row.user_type === 100 ? "student" : row.user_type === 99 ? "teacher" : "admin");
  return c;
}

/** Sets a stage of a contest: relative days from now (negative: in the past). */
export async function setStage(t: TestApp, contest: number, stage: string, fromDays: number, toDays: number) {
  const at = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
  await t.db
    .deleteFrom("contest_stage")
    .where("contest_id", "=", contest)
    .where("stage", "=", stage as never)
    .execute();
  await t.db
    .insertInto("contest_stage")
    .values({ contest_id: contest, stage: stage as never, starts_at: at(fromDays), ends_at: at(toDays) })
    .execute();
}

/** The fields submit requires, for a 大类's first 小类. */
export async function filled(t: TestApp, category: number) {
  const sub = await t.db
    .selectFrom("work_category")
    .select("id")
    .where("parent_id", "=", category)
    .orderBy("sort")
    .executeTakeFirstOrThrow();
  return {
    subcategoryId: sub.id,
    summary: "作品简介：一个完整的作品。",
    designIdea: "设计思路：分层设计。",
    keyPoints: "重点和难点：性能与易用。",
    aiDeclaration: AI_NONE,
  };
}

/** Small files that pass the signature check of their type. */
export const SAMPLE: Record<string, Buffer> = {
  pdf: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
  zip: Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(60, 7)]),
  mp4: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom", "latin1"), Buffer.alloc(64, 1)]),
};

/** Uploads one attachment of a work: the kind field first, then the file. */
export function upload(c: Client, id: number, kind: string, filename: string, content: Buffer) {
  const m = multipart([
    { name: "kind", value: kind },
    { name: "file", filename, content },
  ]);
  return c.req("POST", `${W}/${id}/files`, m.body, m.headers);
}

/** Uploads a small valid file for every attachment the work's 大类 requires. */
export async function attachRequired(c: Client, id: number) {
  const { requirements } = (await c.get(`${W}/${id}/files`)).body.data as {
    requirements: { key: string; required: boolean; types: string[] }[];
  };
  for (const r of requirements.filter((x) => x.required)) {
    // docx and pptx are zip archives; other types are checked by extension only.
    const type = r.types.find((x) => x in SAMPLE) ?? r.types[0];
    const content = SAMPLE[type] ?? SAMPLE.zip;
    const res = await upload(c, id, r.key, `${r.key}.${type}`, content);
    if (res.status !== 201) throw new Error(`upload ${r.key} failed: ${res.status} ${res.body.info}`);
  }
}

/** A work created through the API by `author`, filled, with co-authors who confirm and the required files uploaded (files: false leaves them out). */
export async function makeWork(
  t: TestApp,
  author: Client,
  opts: {
    contest: number;
    category: number;
    name?: string;
    coAuthors?: Client[];
    teachers?: string[];
    confirm?: boolean;
    files?: boolean;
  },
) {
  const co = [];
  for (const c of opts.coAuthors ?? []) co.push((await c.get("/Backend/Common/user/get-current")).body.data.username as string);
  const r = await author.post(W, {
    contestId: opts.contest,
    categoryId: opts.category,
    name: opts.name ?? "测试作品",
    coAuthors: co,
    teachers: opts.teachers ?? [],
    ...(await filled(t, opts.category)),
  });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.body.info}`);
  const id = r.body.data.id as number;
  if (opts.confirm !== false)
    for (const c of opts.coAuthors ?? []) {
      const ok = await c.post(`${W}/${id}/confirm`, {});
      if (ok.status !== 200) throw new Error(`confirm failed: ${ok.body.info}`);
    }
  if (opts.files !== false) await attachRequired(author, id);
  return id;
}

export const statusOf = async (t: TestApp, id: number) =>
  await t.db.selectFrom("work").select(["status", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
export const logOf = async (t: TestApp, id: number) =>
  t.db.selectFrom("work_log").select(["action", "changes", "user_id"]).where("work_id", "=", id).orderBy("id").execute();
