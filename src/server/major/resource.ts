/**
 * Majors (national major codes): read by every logged-in user, written by root (policy).
 * Rows are addressed by an integer id; the code stays unique. A major that accounts or a
 * category's 专业组 refer to is archived instead of deleted, and its code cannot change.
 */
import { sql, type Expression, type SqlBool } from "kysely";
import { badRequest, invalid } from "../../shared/errors";
import {
  DISCIPLINES,
  MAJOR_CODE_PATTERN,
  MAJOR_CODE_RULE,
  MajorCreate,
  MajorFilters,
  MajorUpdate,
  MajorView,
  type MajorCreate as TCreate,
  type MajorUpdate as TUpdate,
  type MajorView as TView,
} from "../../shared/major/schema";
import type { Ctx, ResourceDef, Trx } from "../crud/resource";

type Handle = Ctx["db"] | Trx;

/** A 大类 whose 专业组 list (a JSON array of codes) contains the code. */
const listsMajor = (code: Expression<string>) =>
  sql<SqlBool>`(work_category.parent_id IS NULL AND work_category.professional_majors LIKE ('%"' || ${code} || '"%'))`;

const base = (db: Handle) =>
  db
    .selectFrom("major")
    .select(["major.id", "major.code", "major.name", "major.discipline", "major.archived"])
    .select((eb) => [
      eb
        .selectFrom("app_user")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("app_user.major_code", "=", eb.ref("major.code"))
        .as("user_count"),
      eb
        .selectFrom("work_category")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where(listsMajor(eb.ref("major.code")))
        .as("category_count"),
    ]);

type Selected = {
  id: number;
  code: string;
  name: string;
  discipline: string | null;
  archived: number;
  user_count: number | null;
  category_count: number | null;
};

const toView = (r: Selected): TView => ({
  id: r.id,
  code: r.code,
  name: r.name,
  discipline: r.discipline,
  archived: !!r.archived,
  userCount: Number(r.user_count ?? 0),
  categoryCount: Number(r.category_count ?? 0),
});

const SORT: Record<string, string> = { id: "major.id", code: "major.code", name: "major.name", discipline: "major.discipline" };

const normCode = (code: string) => code.trim().toUpperCase();

/** The normalised code; a Chinese reason when it is not a national major code. */
function validCode(code: string): string {
  const c = normCode(code);
  if (!new RegExp(MAJOR_CODE_PATTERN).test(c)) throw invalid("code", `${MAJOR_CODE_RULE}，「${code}」不符合`);
  return c;
}

function checkDiscipline(d: string | null | undefined) {
  if (d && !(DISCIPLINES as readonly string[]).includes(d))
    throw invalid("discipline", `学科门类「${d}」无效，应为：${DISCIPLINES.join("、")}`);
}

async function ensureUnique(trx: Trx, code: string, selfId?: number) {
  let q = trx.selectFrom("major").select(["id", "name"]).where("code", "=", code);
  if (selfId) q = q.where("id", "!=", selfId);
  const other = await q.executeTakeFirst();
  if (other) throw invalid("code", `专业代码 ${code} 已被「${other.name}」使用`);
}

export const majorResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.majors",
  entity: "major",
  label: "专业",
  path: "/Backend/Admin/major",
  tags: ["专业"],
  view: MajorView,
  createSchema: MajorCreate,
  updateSchema: MajorUpdate,
  filters: MajorFilters,
  sortable: Object.keys(SORT),
  rest: { table: "major", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    let q = base(ctx.db);
    const f = filters as { keyword?: string; discipline?: string; archived?: boolean };
    if (f.keyword?.trim()) {
      const kw = `%${f.keyword.trim()}%`;
      q = q.where((eb) => eb.or([eb("major.code", "like", kw.toUpperCase()), eb("major.name", "like", kw)]));
    }
    if (f.discipline) q = q.where("major.discipline", "=", f.discipline);
    if (f.archived !== undefined) q = q.where("major.archived", "=", f.archived ? 1 : 0);
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length ? sort : ([["code", "asc"]] as const)) page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("major.id").offset(offset).limit(limit).execute()) as Selected[];
    return { list: rows.map(toView), total: Number(total.n) };
  },

  async get(ctx, id) {
    const r = (await base(ctx.db).where("major.id", "=", id).executeTakeFirst()) as Selected | undefined;
    return r && toView(r);
  },

  async create(ctx, trx, input) {
    const code = validCode(input.code);
    checkDiscipline(input.discipline);
    await ensureUnique(trx, code);
    const { id } = await trx
      .insertInto("major")
      .values({ code, name: input.name.trim(), discipline: input.discipline || null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await majorResource.get(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    checkDiscipline(input.discipline);
    const code = input.code !== undefined ? validCode(input.code) : before.code;
    if (code !== before.code) {
      if (before.userCount || before.categoryCount) {
        throw invalid("code", `该专业已被 ${before.userCount} 个账号、${before.categoryCount} 个作品大类使用，不能修改专业代码`);
      }
      await ensureUnique(trx, code, before.id);
    }
    await trx
      .updateTable("major")
      .set({
        code,
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.discipline !== undefined ? { discipline: input.discipline || null } : {}),
        ...(input.archived !== undefined ? { archived: input.archived ? 1 : 0 } : {}),
      })
      .where("id", "=", before.id)
      .execute();
    return (await majorResource.get(ctx, before.id))!;
  },

  async remove(_ctx, trx, before) {
    if (before.userCount || before.categoryCount) {
      const uses = `${before.userCount} 个账号、${before.categoryCount} 个作品大类的专业组`;
      if (before.archived) throw badRequest(`专业 ${before.code} ${before.name} 仍被 ${uses}使用，不能删除；它已经归档`);
      await trx.updateTable("major").set({ archived: 1 }).where("id", "=", before.id).execute();
      return "archived";
    }
    await trx.deleteFrom("major").where("id", "=", before.id).execute();
    return "deleted";
  },

  excel: {
    sheet: "专业",
    keyField: "code",
    columns: [
      {
        key: "code",
        header: "专业代码",
        width: 12,
        get: (v) => v.code,
        parse: (t) => {
          const c = normCode(t);
          if (!new RegExp(MAJOR_CODE_PATTERN).test(c)) throw new Error(MAJOR_CODE_RULE);
          return c;
        },
      },
      { key: "name", header: "专业名称", width: 28, get: (v) => v.name },
      { key: "discipline", header: "学科门类", width: 12, get: (v) => v.discipline },
      { key: "archived", header: "已归档", width: 8, get: (v) => (v.archived ? "是" : "否"), readOnly: true },
      { key: "userCount", header: "账号数", width: 8, get: (v) => v.userCount, readOnly: true },
    ],
    async findByKeys(ctx, keys) {
      const out = new Map<string, TView | null>();
      for (let i = 0; i < keys.length; i += 500) {
        const chunk = keys.slice(i, i + 500);
        const rows = (await base(ctx.db).where("major.code", "in", chunk.map(normCode)).execute()) as Selected[];
        const byCode = new Map(rows.map((r) => [r.code, toView(r)]));
        for (const k of chunk) if (byCode.has(normCode(k))) out.set(k, byCode.get(normCode(k))!);
      }
      return out;
    },
  },
};
