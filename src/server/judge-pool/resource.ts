/**
 * The pool as a resource of the generic router (src/server/crud/resource.ts): list, one,
 * create, update, and the Excel template, import (dry run with row errors, then confirm, as
 * a job) and export (a job) — keyed by email. Root and contest admins (api.judgePool); a
 * contest admin's contacts follow scope.ts: null outside the scope in lists and exports, and
 * an import row whose email belongs to a record outside it is refused.
 */
import { forbidden } from "../../shared/errors";
import {
  JudgePersonCreate,
  JudgePersonFilters,
  JudgePersonUpdate,
  JudgePersonView,
  SORTABLE,
  type JudgePersonCreate as TCreate,
  type JudgePersonUpdate as TUpdate,
  type JudgePersonView as TView,
} from "../../shared/judge-pool/schema";
import type { ResourceDef } from "../crud/resource";
import { getPerson, insertPerson, listPersons, updatePerson } from "./persons";
import { normEmailOrNull } from "../common/email";
import { contactScope, contactVisible } from "./scope";
import { linkJudgeAccounts } from "./link";

interface Prep {
  /** "大类", "大类/小类" and unambiguous 小类 names → id */
  categories: Map<string, number>;
  ambiguous: Set<string>;
}

const YES = new Set(["是", "可", "可以", "可参评", "y", "yes", "1", "true"]);
const NO = new Set(["否", "不", "不可", "不可以", "不可参评", "n", "no", "0", "false"]);
const split = (t: string) =>
  t
    .split(/[、,，;；\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** 大类 by name, 小类 as "大类/小类": what the import reads back. */
const categoryText = (v: TView) => v.categories.map((c) => (c.parentName ? `${c.parentName}/${c.name}` : c.name)).join("、");

export const judgePoolResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.judgePool",
  entity: "judge_person",
  label: "评委",
  path: "/Backend/JudgePool/persons",
  tags: ["评委库"],
  view: JudgePersonView,
  createSchema: JudgePersonCreate,
  updateSchema: JudgePersonUpdate,
  filters: JudgePersonFilters,
  sortable: SORTABLE,

  async list(ctx, { filters, sort, offset, limit }) {
    // Judge accounts without a record get one before the pool is shown ("on first need").
    if (offset === 0) await linkJudgeAccounts(ctx.db);
    return listPersons(ctx.db, await contactScope(ctx.db, ctx.user), filters, sort, offset, limit);
  },

  async get(ctx, id) {
    return getPerson(ctx.db, await contactScope(ctx.db, ctx.user), id);
  },

  async create(ctx, trx, input) {
    const id = await insertPerson(trx, ctx.user.id, input);
    return (await getPerson(trx, await contactScope(trx, ctx.user), id))!;
  },

  async update(ctx, trx, before, input) {
    if ((input.email !== undefined || input.phone !== undefined) && !before.contactVisible) {
      throw forbidden("您只能修改本人赛事的评委、您邀请或录入的评委的联系方式");
    }
    await updatePerson(trx, before.id, input);
    return (await getPerson(trx, await contactScope(trx, ctx.user), before.id))!;
  },

  excel: {
    sheet: "评委库",
    keyField: "email",
    columns: [
      { key: "name", header: "姓名", width: 12, get: (v) => v.name },
      { key: "schoolName", header: "学校", width: 24, get: (v) => v.schoolName },
      { key: "province", header: "省份", width: 10, get: (v) => v.province },
      { key: "title", header: "职称", width: 12, get: (v) => v.title },
      { key: "email", header: "邮箱", width: 26, get: (v) => v.email, parse: (t) => t.trim().toLowerCase() },
      // Masked like the list (the export reads the views): a sheet travels further than the screen, and
      // imported back it changes no phone (a cell equal to the view is no change); full numbers: /contact.
      { key: "phone", header: "手机", width: 14, get: (v) => v.phone },
      {
        key: "categoryIds",
        header: "评审类别（以、分隔；小类可写“大类/小类”）",
        width: 36,
        get: categoryText,
        parse: (t, prep: Prep) =>
          split(t).map((name) => {
            const key = name.replace(/\s+/g, "").replace(/／/g, "/");
            if (prep.ambiguous.has(key)) throw new Error(`小类“${name}”在多个大类中都有，请写成“大类/小类”`);
            const id = prep.categories.get(key);
            if (id === undefined) throw new Error(`没有名为“${name}”的作品类别`);
            return id;
          }),
      },
      { key: "tags", header: "专业特长（以、分隔）", width: 30, get: (v) => v.tags.join("、"), parse: (t) => split(t) },
      {
        key: "available",
        header: "本年度可参评",
        width: 12,
        get: (v) => (v.available === null ? "" : v.available ? "是" : "否"),
        parse: (t) => {
          const x = t.trim().toLowerCase();
          if (YES.has(x)) return true;
          if (NO.has(x)) return false;
          throw new Error("请填写“是”或“否”");
        },
      },
      { key: "account", header: "账号", width: 14, get: (v) => v.account?.username ?? null, readOnly: true },
      { key: "contests", header: "参评赛事数", width: 10, get: (v) => v.contests, readOnly: true },
      { key: "worksScored", header: "已评作品数", width: 10, get: (v) => v.worksScored, readOnly: true },
    ],
    async prepare(ctx) {
      const rows = await ctx.db
        .selectFrom("work_category")
        .select(["id", "name", "parent_id"])
        .where("archived", "=", 0)
        .execute();
      const tops = new Map(rows.filter((r) => r.parent_id === null).map((r) => [r.id, r.name]));
      const categories = new Map<string, number>();
      const ambiguous = new Set<string>();
      const norm = (s: string) => s.replace(/\s+/g, "");
      for (const r of rows) if (r.parent_id === null) categories.set(norm(r.name), r.id);
      for (const r of rows) {
        if (r.parent_id === null) continue;
        categories.set(`${norm(tops.get(r.parent_id) ?? "")}/${norm(r.name)}`, r.id);
        const n = norm(r.name);
        if (tops.has(r.parent_id) && [...tops.values()].map(norm).includes(n)) continue;
        if (categories.has(n) && !ambiguous.has(n)) {
          categories.delete(n);
          ambiguous.add(n);
        } else if (!ambiguous.has(n)) categories.set(n, r.id);
      }
      return { categories, ambiguous } satisfies Prep;
    },
    async findByKeys(ctx, keys) {
      const out = new Map<string, TView | null>();
      const scope = await contactScope(ctx.db, ctx.user);
      const byEmail = new Map<string, string[]>();
      for (const k of keys) {
        const e = normEmailOrNull(k);
        if (e) byEmail.set(e, [...(byEmail.get(e) ?? []), k]);
      }
      const emails = [...byEmail.keys()];
      for (let i = 0; i < emails.length; i += 500) {
        const rows = await ctx.db
          .selectFrom("judge_person as p")
          .select((eb) => ["p.id", "p.email", eb.case().when(contactVisible(eb, scope)).then(1).else(0).end().as("visible")])
          .where("p.email", "in", emails.slice(i, i + 500))
          .where("p.merged_into", "is", null)
          .execute();
        for (const r of rows) {
          const view = Number(r.visible) === 1 ? ((await getPerson(ctx.db, scope, r.id)) ?? null) : null;
          for (const k of byEmail.get(r.email!) ?? []) out.set(k, view);
        }
      }
      return out;
    },
  },
};
