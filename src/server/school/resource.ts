/** Schools: root all; a contest admin the schools of the contest's province; a school admin the own school. */
import { sql, type SelectQueryBuilder } from "kysely";
import { ROLE } from "../../shared/roles";
import { badRequest, forbidden, invalid } from "../../shared/errors";
import {
  SchoolCreate,
  SchoolFilters,
  SchoolUpdate,
  SchoolView,
  type SchoolCreate as TCreate,
  type SchoolUpdate as TUpdate,
  type SchoolView as TView,
} from "../../shared/school/schema";
import type { DB } from "../db/schema";
import type { Ctx, ResourceDef, Trx } from "../crud/resource";
import { adminProvinces } from "../scope";
import { syncSchoolCertificates } from "../certificate/issue";

type Row = DB["school"];

async function scoped(ctx: Ctx, q: SelectQueryBuilder<DB, "school", object>) {
  const u = ctx.user;
  if (u.user_type === ROLE.schoolAdmin) return q.where("school.id", "=", u.school_id ?? -1);
  const provinces = await adminProvinces(ctx.db, u);
  if (provinces === "all") return q;
  return provinces.length ? q.where("school.province", "in", provinces) : q.where(sql<boolean>`1 = 0`);
}

async function mayWriteProvince(ctx: Ctx, province: string) {
  if (ctx.user.user_type === ROLE.schoolAdmin) return false;
  const provinces = await adminProvinces(ctx.db, ctx.user);
  return provinces === "all" || provinces.includes(province);
}

const base = (ctx: Ctx) =>
  ctx.db
    .selectFrom("school")
    .select([
      "school.id",
      "school.name",
      "school.code",
      "school.province",
      "school.former_names",
      "school.contact",
      "school.archived",
      "school.updated_at",
    ])
    .select((eb) =>
      eb
        .selectFrom("app_user")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("app_user.school_id", "=", eb.ref("school.id"))
        .where("app_user.user_type", "=", ROLE.schoolAdmin)
        .as("admin_count"),
    );

type Selected = {
  id: number;
  name: string;
  code: string;
  province: string;
  former_names: string;
  contact: string | null;
  archived: number;
  updated_at: string;
  admin_count: number | null;
};

const toView = (r: Selected): TView => ({
  id: r.id,
  name: r.name,
  code: r.code,
  province: r.province,
  formerNames: JSON.parse(r.former_names) as string[],
  contact: r.contact,
  archived: !!r.archived,
  adminCount: Number(r.admin_count ?? 0),
  updatedAt: r.updated_at,
});

const SORT: Record<string, string> = {
  id: "school.id",
  name: "school.name",
  code: "school.code",
  province: "school.province",
  updatedAt: "school.updated_at",
};

async function ensureUnique(trx: Trx, code: string | undefined, selfId?: number) {
  if (!code) return;
  let q = trx.selectFrom("school").select("id").where("code", "=", code);
  if (selfId) q = q.where("id", "!=", selfId);
  if (await q.executeTakeFirst()) throw invalid("code", `学校代码 ${code} 已被使用`);
}

export const schoolResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.schools",
  entity: "school",
  label: "学校",
  path: "/Backend/Admin/school",
  tags: ["学校"],
  view: SchoolView,
  createSchema: SchoolCreate,
  updateSchema: SchoolUpdate,
  filters: SchoolFilters,
  sortable: Object.keys(SORT),
  rest: { table: "school", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    let q = await scoped(ctx, base(ctx) as never);
    const f = filters as { keyword?: string; province?: string; archived?: boolean };
    if (f.keyword?.trim()) {
      const kw = `%${f.keyword.trim()}%`;
      q = q.where((eb) =>
        eb.or([eb("school.name", "like", kw), eb("school.code", "like", kw), eb("school.former_names", "like", kw)]),
      );
    }
    if (f.province) q = q.where("school.province", "=", f.province);
    if (f.archived !== undefined) q = q.where("school.archived", "=", f.archived ? 1 : 0);
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length
      ? sort
      : ([
          ["province", "asc"],
          ["name", "asc"],
        ] as const))
      page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("school.id").offset(offset).limit(limit).execute()) as unknown as Selected[];
    return { list: rows.map(toView), total: Number((total as { n: number }).n) };
  },

  async get(ctx, id) {
    const q = await scoped(ctx, base(ctx).where("school.id", "=", id) as never);
    const r = (await q.executeTakeFirst()) as Selected | undefined;
    return r && toView(r);
  },

  async create(ctx, trx, input) {
    if (!(await mayWriteProvince(ctx, input.province))) throw forbidden(`您不能在${input.province}新建学校`);
    await ensureUnique(trx, input.code);
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto("school")
      .values({
        name: input.name.trim(),
        code: input.code,
        province: input.province,
        former_names: JSON.stringify(input.formerNames ?? []),
        contact: input.contact ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await schoolResource.get(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    const schoolAdmin = ctx.user.user_type === ROLE.schoolAdmin;
    if (
      schoolAdmin &&
      (input.code !== undefined || input.province !== undefined || input.archived !== undefined || input.name !== undefined)
    ) {
      throw forbidden("学校管理员只能修改本校的联系方式和曾用名，名称和代码请联系赛事管理员");
    }
    if (input.province && !(await mayWriteProvince(ctx, input.province))) throw forbidden(`您不能把学校移到${input.province}`);
    await ensureUnique(trx, input.code, before.id);
    const set: Partial<Row> = { updated_at: new Date().toISOString() } as Partial<Row>;
    let formerNames = input.formerNames ?? before.formerNames;
    // A renamed school keeps its earlier name, so its history stays findable.
    if (input.name && input.name.trim() !== before.name && !formerNames.includes(before.name))
      formerNames = [...formerNames, before.name];
    Object.assign(set, {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.code !== undefined ? { code: input.code } : {}),
      ...(input.province !== undefined ? { province: input.province } : {}),
      ...(input.contact !== undefined ? { contact: input.contact } : {}),
      ...(input.archived !== undefined ? { archived: input.archived ? 1 : 0 } : {}),
      former_names: JSON.stringify(formerNames),
    });
    await trx
      .updateTable("school")
      .set(set as never)
      .where("id", "=", before.id)
      .execute();
    // Certificates print the school's name: a rename reissues them under their numbers.
    if (input.name !== undefined && input.name.trim() !== before.name) await syncSchoolCertificates(trx, before.id, before.name);
    return (await schoolResource.get(ctx, before.id))!;
  },

  async remove(ctx, trx, before) {
    if (!(await mayWriteProvince(ctx, before.province))) throw forbidden("您不能删除该学校");
    const users = await trx
      .selectFrom("app_user")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("school_id", "=", before.id)
      .executeTakeFirstOrThrow();
    const contests = await trx
      .selectFrom("contest")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("school_id", "=", before.id)
      .executeTakeFirstOrThrow();
    if (Number(users.n) || Number(contests.n)) {
      if (before.archived) throw badRequest(`该学校有 ${users.n} 个账号、${contests.n} 个校赛，不能删除；它已经归档`);
      await trx
        .updateTable("school")
        .set({ archived: 1, updated_at: new Date().toISOString() })
        .where("id", "=", before.id)
        .execute();
      return "archived";
    }
    await trx.deleteFrom("school").where("id", "=", before.id).execute();
    return "deleted";
  },

  excel: {
    sheet: "学校",
    keyField: "code",
    columns: [
      { key: "code", header: "学校代码", width: 12, get: (v) => v.code },
      { key: "name", header: "学校名称", width: 28, get: (v) => v.name },
      { key: "province", header: "省份", width: 10, get: (v) => v.province },
      {
        key: "formerNames",
        header: "曾用名（以、分隔）",
        width: 30,
        get: (v) => v.formerNames.join("、"),
        parse: (t) =>
          t
            .split(/[、,，;；]/)
            .map((s) => s.trim())
            .filter(Boolean),
      },
      { key: "contact", header: "联系方式", width: 30, get: (v) => v.contact },
      { key: "archived", header: "已归档", width: 8, get: (v) => (v.archived ? "是" : "否"), readOnly: true },
    ],
    async findByKeys(ctx, keys) {
      const out = new Map<string, TView | null>();
      for (let i = 0; i < keys.length; i += 500) {
        const all = await ctx.db
          .selectFrom("school")
          .select(["id", "code"])
          .where("code", "in", keys.slice(i, i + 500))
          .execute();
        for (const r of all) out.set(r.code, null);
      }
      const visible = await schoolResource.list(ctx, { filters: {}, sort: [], offset: 0, limit: 1_000_000 });
      for (const v of visible.list) if (out.has(v.code)) out.set(v.code, v);
      return out;
    },
  },
};
