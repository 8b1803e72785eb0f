/**
 * Award levels per contest level (国赛, 省级赛, 校级赛): work awards (一等奖 …), teacher awards
 * (优秀指导教师), organisation awards (优秀组织奖), each capped by a ratio of the works and/or
 * a count. Read by every logged-in user, written by root (policy). The work-award ratios
 * of one contest level may not add up to more than 100%.
 */
import { sql } from "kysely";
import { invalid } from "../../shared/errors";
import {
  AWARD_KIND_LABELS,
  AwardCreate,
  AwardFilters,
  AwardUpdate,
  AwardView,
  CONTEST_LEVEL_LABELS,
  type AwardContestLevel,
  type AwardKind,
  type AwardCreate as TCreate,
  type AwardUpdate as TUpdate,
  type AwardView as TView,
} from "../../shared/award/schema";
import type { Ctx, ResourceDef, Trx } from "../crud/resource";
import { formatRatio, parseKind, parseRatio, parseRef, refOf } from "./excel";

type Handle = Ctx["db"] | Trx;

const base = (db: Handle) =>
  db.selectFrom("award_level").select(["id", "contest_level", "name", "kind", "ratio", "max_count", "sort", "archived"]);
type Selected = {
  id: number;
  contest_level: string;
  name: string;
  kind: string;
  ratio: number | null;
  max_count: number | null;
  sort: number;
  archived: number;
};

const toView = (r: Selected): TView => ({
  id: r.id,
  contestLevel: r.contest_level as AwardContestLevel,
  name: r.name,
  kind: r.kind as AwardKind,
  ratio: r.ratio === null ? null : Number(r.ratio),
  maxCount: r.max_count,
  sort: r.sort,
  archived: !!r.archived,
});

const SORT: Record<string, string> = {
  id: "id",
  contestLevel: "contest_level",
  name: "name",
  kind: "kind",
  ratio: "ratio",
  sort: "sort",
};
const EPS = 1e-9;

interface Final {
  contestLevel: AwardContestLevel;
  name: string;
  kind: AwardKind;
  ratio: number | null;
  archived: boolean;
}

/** Name unique within the contest level; work-award ratios of a level sum to at most 1. */
async function validate(trx: Trx, v: Final, selfId?: number) {
  const label = CONTEST_LEVEL_LABELS[v.contestLevel];
  let dup = trx.selectFrom("award_level").select("id").where("contest_level", "=", v.contestLevel).where("name", "=", v.name);
  if (selfId) dup = dup.where("id", "!=", selfId);
  if (await dup.executeTakeFirst()) throw invalid("name", `${label}已有奖项「${v.name}」`);
  if (v.kind !== "work" || v.archived || v.ratio === null) return;
  let others = trx
    .selectFrom("award_level")
    .select(["ratio"])
    .where("contest_level", "=", v.contestLevel)
    .where("kind", "=", "work")
    .where("archived", "=", 0)
    .where("ratio", "is not", null);
  if (selfId) others = others.where("id", "!=", selfId);
  const used = (await others.execute()).reduce((s, r) => s + Number(r.ratio), 0);
  if (used + v.ratio > 1 + EPS) {
    throw invalid(
      "ratio",
      `${label}作品奖项的比例之和不能超过 100%：其他作品奖项已占 ${formatRatio(used)}，加上本项 ${formatRatio(v.ratio)} 共 ${formatRatio(used + v.ratio)}`,
    );
  }
}

export const awardResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.awards",
  entity: "award_level",
  label: "奖项",
  path: "/Backend/Admin/award",
  tags: ["奖项"],
  view: AwardView,
  createSchema: AwardCreate,
  updateSchema: AwardUpdate,
  filters: AwardFilters,
  sortable: Object.keys(SORT),
  rest: { table: "award_level", columns: SORT },

  async list(ctx, { filters, sort, offset, limit }) {
    let q = base(ctx.db);
    const f = filters as { keyword?: string; contestLevel?: string; kind?: string; archived?: boolean };
    if (f.keyword?.trim()) q = q.where("name", "like", `%${f.keyword.trim()}%`);
    if (f.contestLevel) q = q.where("contest_level", "=", f.contestLevel as AwardContestLevel);
    if (f.kind) q = q.where("kind", "=", f.kind);
    if (f.archived !== undefined) q = q.where("archived", "=", f.archived ? 1 : 0);
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    const order = sort.length
      ? sort
      : ([
          ["contestLevel", "asc"],
          ["sort", "asc"],
        ] as const);
    for (const [field, dir] of order) page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("id").offset(offset).limit(limit).execute()) as Selected[];
    return { list: rows.map(toView), total: Number(total.n) };
  },

  async get(ctx, id) {
    const r = (await base(ctx.db).where("id", "=", id).executeTakeFirst()) as Selected | undefined;
    return r && toView(r);
  },

  async create(ctx, trx, input) {
    const fromRef = input.ref ? parseRef(input.ref) : undefined;
    if (input.ref && !fromRef) throw invalid("ref", `等级/奖项「${input.ref}」格式不正确，应如「省级赛/一等奖」`);
    const contestLevel = input.contestLevel ?? fromRef?.contestLevel;
    const name = (input.name ?? fromRef?.name ?? "").trim();
    if (!contestLevel) throw invalid("contestLevel", "请选择赛事级别（国赛、省级赛或校级赛）");
    if (!name) throw invalid("name", "请填写奖项名称");
    const ratio = input.ratio ?? null;
    await validate(trx, { contestLevel, name, kind: input.kind, ratio, archived: false });
    const sort =
      input.sort ??
      Number(
        (
          await trx
            .selectFrom("award_level")
            .select((eb) => eb.fn.max("sort").as("m"))
            .where("contest_level", "=", contestLevel)
            .executeTakeFirst()
        )?.m ?? 0,
      ) + 1;
    const { id } = await trx
      .insertInto("award_level")
      .values({ contest_level: contestLevel, name, kind: input.kind, ratio, max_count: input.maxCount ?? null, sort })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await awardResource.get(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    const next: Final = {
      contestLevel: input.contestLevel ?? before.contestLevel,
      name: input.name !== undefined ? input.name.trim() : before.name,
      kind: input.kind ?? before.kind,
      ratio: input.ratio !== undefined ? input.ratio : before.ratio,
      archived: input.archived ?? before.archived,
    };
    if (!next.name) throw invalid("name", "请填写奖项名称");
    await validate(trx, next, before.id);
    await trx
      .updateTable("award_level")
      .set({
        contest_level: next.contestLevel,
        name: next.name,
        kind: next.kind,
        ratio: next.ratio,
        archived: next.archived ? 1 : 0,
        ...(input.maxCount !== undefined ? { max_count: input.maxCount } : {}),
        ...(input.sort !== undefined ? { sort: input.sort } : {}),
      })
      .where("id", "=", before.id)
      .execute();
    return (await awardResource.get(ctx, before.id))!;
  },

  // Nothing refers to an award level yet; the awards of works will (then: archive instead).
  async remove(_ctx, trx, before) {
    await trx.deleteFrom("award_level").where("id", "=", before.id).execute();
    return "deleted";
  },

  excel: {
    sheet: "奖项",
    keyField: "ref",
    columns: [
      {
        key: "ref",
        header: "等级/奖项",
        width: 20,
        get: refOf,
        parse: (t) => {
          const r = parseRef(t);
          if (!r) throw new Error("格式应为「级别/奖项名称」，如「省级赛/一等奖」");
          return `${CONTEST_LEVEL_LABELS[r.contestLevel]}/${r.name}`;
        },
      },
      { key: "kind", header: "奖项类别", width: 10, get: (v) => AWARD_KIND_LABELS[v.kind], parse: parseKind },
      {
        key: "ratio",
        header: "比例上限",
        width: 10,
        get: (v) => (v.ratio === null ? null : formatRatio(v.ratio)),
        parse: parseRatio,
      },
      {
        key: "maxCount",
        header: "数量上限",
        width: 10,
        get: (v) => v.maxCount,
        parse: (t) => {
          if (!/^[0-9]+$/.test(t)) throw new Error("应为正整数");
          return Number(t);
        },
      },
      {
        key: "sort",
        header: "排序",
        width: 8,
        get: (v) => v.sort,
        parse: (t) => {
          if (!/^[0-9]+$/.test(t)) throw new Error("应为整数");
          return Number(t);
        },
      },
      { key: "archived", header: "已归档", width: 8, get: (v) => (v.archived ? "是" : "否"), readOnly: true },
    ],
    async findByKeys(ctx, keys) {
      const out = new Map<string, TView | null>();
      const parsed = keys
        .map((k) => [k, parseRef(k)] as const)
        .filter((p): p is readonly [string, NonNullable<ReturnType<typeof parseRef>>] => !!p[1]);
      if (!parsed.length) return out;
      const rows = (await base(ctx.db)
        .where("name", "in", [...new Set(parsed.map(([, r]) => r.name))])
        .execute()) as Selected[];
      const byRef = new Map(rows.map((r) => [`${r.contest_level}/${r.name}`, toView(r)]));
      for (const [k, r] of parsed) {
        const v = byRef.get(`${r.contestLevel}/${r.name}`);
        if (v) out.set(k, v);
      }
      return out;
    },
  },
};
