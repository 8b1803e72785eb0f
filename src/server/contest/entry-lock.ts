/**
 * Field locks (/admin/EntryLock, root): which work field is locked from which stage on,
 * for one contest or for all contests (contest_id null). One lock per field and contest.
 */
import { sql } from "kysely";
import { invalid } from "../../shared/errors";
import { LOCKABLE_FIELD_NAMES, type LockableField } from "../../shared/contest/lockable-fields";
import {
  EntryLockCreate,
  EntryLockFilters,
  EntryLockUpdate,
  EntryLockView,
  type EntryLockCreate as TCreate,
  type EntryLockUpdate as TUpdate,
  type EntryLockView as TView,
} from "../../shared/contest/schema";
import { STAGE_NAMES, type StageKey } from "../../shared/contest/stages";
import type { Ctx, ResourceDef, Trx } from "../crud/resource";

const SORT: Record<string, string> = {
  id: "entry_lock.id",
  field: "entry_lock.field",
  fromStage: "entry_lock.from_stage",
  contestId: "entry_lock.contest_id",
  createdAt: "entry_lock.created_at",
};

const base = (ctx: Ctx) =>
  ctx.db
    .selectFrom("entry_lock")
    .leftJoin("contest", "contest.id", "entry_lock.contest_id")
    .select([
      "entry_lock.id",
      "entry_lock.contest_id",
      "contest.name as contest_name",
      "entry_lock.field",
      "entry_lock.from_stage",
      "entry_lock.created_at",
    ]);

type Row = {
  id: number;
  contest_id: number | null;
  contest_name: string | null;
  field: string;
  from_stage: StageKey;
  created_at: string;
};

const toView = (r: Row): TView => ({
  id: r.id,
  contestId: r.contest_id,
  contestName: r.contest_name,
  field: r.field as LockableField,
  fieldName: LOCKABLE_FIELD_NAMES[r.field as LockableField] ?? r.field,
  fromStage: r.from_stage,
  stageName: STAGE_NAMES[r.from_stage] ?? r.from_stage,
  createdAt: r.created_at,
});

async function check(trx: Trx, contestId: number | null, field: LockableField, selfId?: number) {
  if (contestId !== null) {
    const c = await trx.selectFrom("contest").select("id").where("id", "=", contestId).executeTakeFirst();
    if (!c) throw invalid("contestId", `赛事（编号 ${contestId}）不存在`);
  }
  let q = trx.selectFrom("entry_lock").select("id").where("field", "=", field);
  q = contestId === null ? q.where("contest_id", "is", null) : q.where("contest_id", "=", contestId);
  if (selfId) q = q.where("id", "!=", selfId);
  if (await q.executeTakeFirst()) {
    throw invalid(
      "field",
      `“${LOCKABLE_FIELD_NAMES[field]}”${contestId === null ? "对全部赛事" : "在该赛事中"}已设置锁定，请修改原有设置`,
    );
  }
}

export const entryLockResource: ResourceDef<TView, TCreate, TUpdate> = {
  object: "api.entryLocks",
  entity: "entry_lock",
  label: "字段锁定",
  path: "/Backend/Admin/entry-lock",
  tags: ["字段锁定"],
  view: EntryLockView,
  createSchema: EntryLockCreate,
  updateSchema: EntryLockUpdate,
  filters: EntryLockFilters,
  sortable: Object.keys(SORT),

  async list(ctx, { filters, sort, offset, limit }) {
    const f = filters as { contestId?: number; global?: boolean; field?: string; fromStage?: string };
    let q = base(ctx);
    if (f.contestId !== undefined) q = q.where("entry_lock.contest_id", "=", f.contestId);
    if (f.global) q = q.where("entry_lock.contest_id", "is", null);
    if (f.field) q = q.where("entry_lock.field", "=", f.field);
    if (f.fromStage) q = q.where("entry_lock.from_stage", "=", f.fromStage as StageKey);
    const total = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    let page = q;
    for (const [field, dir] of sort.length
      ? sort
      : ([
          ["contestId", "asc"],
          ["id", "asc"],
        ] as const))
      page = page.orderBy(sql.ref(SORT[field]), dir);
    const rows = (await page.orderBy("entry_lock.id").offset(offset).limit(limit).execute()) as Row[];
    return { list: rows.map(toView), total: Number(total.n) };
  },

  async get(ctx, id) {
    const r = (await base(ctx).where("entry_lock.id", "=", id).executeTakeFirst()) as Row | undefined;
    return r && toView(r);
  },

  async create(ctx, trx, input) {
    const contestId = input.contestId ?? null;
    await check(trx, contestId, input.field);
    const { id } = await trx
      .insertInto("entry_lock")
      .values({ contest_id: contestId, field: input.field, from_stage: input.fromStage, created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    return (await entryLockResource.get(ctx, id))!;
  },

  async update(ctx, trx, before, input) {
    const contestId = input.contestId !== undefined ? input.contestId : before.contestId;
    const field = input.field ?? before.field;
    await check(trx, contestId, field, before.id);
    await trx
      .updateTable("entry_lock")
      .set({ contest_id: contestId, field, from_stage: input.fromStage ?? before.fromStage })
      .where("id", "=", before.id)
      .execute();
    return (await entryLockResource.get(ctx, before.id))!;
  },

  async remove(_ctx, trx, before) {
    await trx.deleteFrom("entry_lock").where("id", "=", before.id).execute();
    return "deleted";
  },
};
