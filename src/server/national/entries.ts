/**
 * The national round (issue 14): works promoted by a published provincial result enter the
 * parent national contest as national_entry rows (see migration 0022 for why a row and not a
 * moved work.contest_id). syncNationalEntries runs inside the transaction that publishes,
 * withdraws or changes a published provincial result, so the entries always follow the
 * promotions in force, exactly once per (work, national contest). The quota per province and
 * 大类 is the provincial contest's promotion quota (contest.recommend_quota, category_quotas:
 * the national contest has no quota model of its own).
 */
import type { Transaction } from "kysely";
import { badRequest, notFound } from "../../shared/errors";
import type { Db } from "../db";
import type { DB, User } from "../db/schema";
import { appendLog, type Handle } from "../work/repository";
import { requireManagedContest } from "../judging/service/contest";
import { activePublication } from "../judging/service/results/change";
import { quotaState } from "../judging/service/results/load";
import type { IncomingEntry, IncomingProvince, PromotedOut } from "../../shared/national/types";

/** Brings the national entries of a provincial contest in line with its promotions in force. */
export async function syncNationalEntries(
  trx: Transaction<DB> | Handle,
  provincialId: number,
  userId: number | null,
): Promise<void> {
  const c = await trx
    .selectFrom("contest")
    .select(["id", "level", "parent_id", "province"])
    .where("id", "=", provincialId)
    .executeTakeFirst();
  if (!c || c.level !== "provincial" || !c.parent_id) return;
  const parent = await trx.selectFrom("contest").select(["id", "level"]).where("id", "=", c.parent_id).executeTakeFirst();
  if (!parent || parent.level !== "national") return;
  const published = !!(await activePublication(trx, c.id));
  const promoted = published
    ? await trx
        .selectFrom("contest_result as r")
        .innerJoin("work as w", "w.id", "r.work_id")
        .select(["r.work_id", "w.category_id", "r.rank"])
        .where("r.contest_id", "=", c.id)
        .where("r.promoted", "=", 1)
        .orderBy("r.rank")
        .orderBy("r.work_id")
        .execute()
    : [];
  const entries = await trx
    .selectFrom("national_entry")
    .selectAll()
    .where("contest_id", "=", parent.id)
    .where("from_contest_id", "=", c.id)
    .execute();
  const byWork = new Map(entries.map((e) => [e.work_id, e]));
  const want = new Set(promoted.map((p) => p.work_id));
  const at = new Date().toISOString();
  // Taken back: promotion removed or publication withdrawn — refused once the national judging of one of them began.
  const leaving = entries.filter((e) => e.status === "entered" && !want.has(e.work_id));
  const judging = await judgingRefusal(
    trx,
    parent.id,
    leaving.map((e) => e.work_id),
  );
  if (judging) throw badRequest(judging);
  for (const e of entries) {
    if (e.status === "entered" && !want.has(e.work_id)) {
      await trx
        .updateTable("national_entry")
        .set({
          status: "withdrawn",
          withdraw_kind: "sync",
          withdraw_reason: published ? "省赛晋级已取消" : "省赛结果已撤回发布",
          withdrawn_by: userId,
          withdrawn_at: at,
          updated_at: at,
        })
        .where("id", "=", e.id)
        .execute();
      await appendLog(trx, { workId: e.work_id, userId, action: "national_leave", changes: { national: [parent.id, null] } });
    }
  }
  const q = await quotaState(trx, c.id);
  let used = entries.filter((e) => e.status === "entered" && want.has(e.work_id)).length;
  const usedIn = new Map<number, number>();
  for (const e of entries)
    if (e.status === "entered" && want.has(e.work_id)) usedIn.set(e.category_id, (usedIn.get(e.category_id) ?? 0) + 1);
  for (const p of promoted) {
    const e = byWork.get(p.work_id);
    if (e && (e.status === "entered" || e.withdraw_kind === "admin")) continue;
    const perCat = q.perCategory[String(p.category_id)];
    if ((q.total !== null && used >= q.total) || (perCat !== undefined && (usedIn.get(p.category_id) ?? 0) >= perCat)) continue;
    used++;
    usedIn.set(p.category_id, (usedIn.get(p.category_id) ?? 0) + 1);
    if (e)
      await trx
        .updateTable("national_entry")
        .set({
          status: "entered",
          withdraw_kind: null,
          withdraw_reason: null,
          withdrawn_by: null,
          withdrawn_at: null,
          updated_at: at,
        })
        .where("id", "=", e.id)
        .execute();
    else
      await trx
        .insertInto("national_entry")
        .values({
          work_id: p.work_id,
          contest_id: parent.id,
          from_contest_id: c.id,
          province: c.province,
          category_id: p.category_id,
          status: "entered",
          withdraw_kind: null,
          withdraw_reason: null,
          withdrawn_by: null,
          withdrawn_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    await appendLog(trx, {
      workId: p.work_id,
      userId,
      action: "national_enter",
      changes: { national: [null, parent.id], from: [null, c.id] },
    });
  }
}

/** The national contest's incoming works per province with the quota used (its admins and root). */
export async function incoming(db: Db, user: User, contestId: number): Promise<IncomingProvince[]> {
  const c = await requireManagedContest(db, user, contestId);
  if (c.level !== "national") throw badRequest("只有国赛可以查看晋级作品");
  const rows = await db
    .selectFrom("national_entry as e")
    .innerJoin("work as w", "w.id", "e.work_id")
    .innerJoin("work_category as k", "k.id", "e.category_id")
    .innerJoin("contest as p", "p.id", "e.from_contest_id")
    .select([
      "e.id",
      "e.work_id",
      "w.name as work_name",
      "e.category_id",
      "k.name as category_name",
      "e.status",
      "e.format_status",
      "e.withdraw_reason",
      "e.from_contest_id",
      "p.name as from_name",
      "e.province",
    ])
    .where("e.contest_id", "=", c.id)
    .orderBy("e.from_contest_id")
    .orderBy("e.id")
    .execute();
  const out = new Map<number, IncomingProvince>();
  for (const r of rows) {
    let g = out.get(r.from_contest_id);
    if (!g) {
      const q = await quotaState(db, r.from_contest_id);
      const names = new Map(
        (await db.selectFrom("work_category").select(["id", "name"]).where("parent_id", "is", null).execute()).map((x) => [
          x.id,
          x.name,
        ]),
      );
      g = {
        fromContestId: r.from_contest_id,
        fromContestName: r.from_name,
        province: r.province,
        quota: q.total,
        used: 0,
        perCategory: Object.entries(q.perCategory).map(([id, n]) => ({
          categoryId: Number(id),
          categoryName: names.get(Number(id)) ?? id,
          quota: n,
          used: 0,
        })),
        entries: [],
      };
      out.set(r.from_contest_id, g);
    }
    g.entries.push({
      id: r.id,
      workId: r.work_id,
      workName: r.work_name,
      categoryId: r.category_id,
      categoryName: r.category_name,
      status: r.status,
      formatStatus: r.format_status,
      withdrawReason: r.withdraw_reason,
    });
    if (r.status === "entered") {
      g.used++;
      let pc = g.perCategory.find((x) => x.categoryId === r.category_id);
      if (!pc) g.perCategory.push((pc = { categoryId: r.category_id, categoryName: r.category_name, quota: null, used: 0 }));
      pc.used++;
    }
  }
  return [...out.values()];
}

/**
 * Why a national entry can no longer leave the national contest: its national judging has
 * begun — it is in a national judge group, has judges assigned or scores, or a national
 * result. Withdrawing it then would silently drop judges' work and change a ranking others
 * have seen; the national contest's admins decide (e.g. 取消资格, which keeps the record).
 * Null when it may leave.
 */
export async function judgingRefusal(db: Handle, nationalId: number, workIds: number[]): Promise<string | null> {
  if (!workIds.length) return null;
  const has = async (table: "judge_group_work" | "judge_assignment" | "contest_result") =>
    (
      await db
        .selectFrom(table)
        .select("work_id")
        .where("contest_id", "=", nationalId)
        .where("work_id", "in", workIds)
        .limit(1)
        .executeTakeFirst()
    )?.work_id;
  const hit = (await has("judge_group_work")) ?? (await has("judge_assignment")) ?? (await has("contest_result"));
  if (hit === undefined) return null;
  const w = await db.selectFrom("work").select(["id", "name"]).where("id", "=", Number(hit)).executeTakeFirstOrThrow();
  return `作品「${w.name}」（${w.id}）已进入国赛评审（已分组、分配评委或评分），不能再撤回晋级；如需退出国赛，请联系国赛管理员处理`;
}

/** The national registration's end of a national contest; withdrawing is allowed before it (or without one). */
async function registrationOf(db: Handle, nationalId: number) {
  const reg = await db
    .selectFrom("contest_stage")
    .select(["ends_at"])
    .where("contest_id", "=", nationalId)
    .where("stage", "=", "registration")
    .executeTakeFirst();
  return { endsAt: reg?.ends_at ?? null, open: !reg || Date.parse(reg.ends_at) > Date.now() };
}

/** A provincial contest's works promoted into the national contest (its admins and root), for the withdraw button. */
export async function promotedOut(db: Db, user: User, provincialId: number): Promise<PromotedOut> {
  const c = await requireManagedContest(db, user, provincialId);
  const rows = await db
    .selectFrom("national_entry as e")
    .innerJoin("work as w", "w.id", "e.work_id")
    .innerJoin("work_category as k", "k.id", "e.category_id")
    .innerJoin("contest as n", "n.id", "e.contest_id")
    .select([
      "e.id",
      "e.work_id",
      "w.name as work_name",
      "e.category_id",
      "k.name as category_name",
      "e.status",
      "e.format_status",
      "e.withdraw_reason",
      "e.contest_id",
      "n.name as national_name",
    ])
    .where("e.from_contest_id", "=", c.id)
    .orderBy("e.id")
    .execute();
  const parent = rows[0]
    ? { id: rows[0].contest_id, name: rows[0].national_name }
    : await db
        .selectFrom("contest")
        .select(["id", "name"])
        .where(
          "id",
          "=",
          (await db.selectFrom("contest").select("parent_id").where("id", "=", c.id).executeTakeFirst())?.parent_id ?? -1,
        )
        .where("level", "=", "national")
        .executeTakeFirst();
  const reg = parent ? await registrationOf(db, parent.id) : { endsAt: null, open: false };
  return {
    nationalContestId: parent?.id ?? null,
    nationalContestName: parent?.name ?? null,
    registrationEndsAt: reg.endsAt,
    open: reg.open,
    entries: rows.map((r) => ({
      id: r.id,
      workId: r.work_id,
      workName: r.work_name,
      categoryId: r.category_id,
      categoryName: r.category_name,
      status: r.status,
      formatStatus: r.format_status,
      withdrawReason: r.withdraw_reason,
    })),
  };
}

/**
 * The provincial admin withdraws a promoted work from the national contest, with a reason,
 * until the national registration closes (no registration stage: allowed); logged in the work log.
 */
export async function withdrawEntry(
  db: Db,
  user: User,
  provincialId: number,
  workId: number,
  reason: string,
): Promise<IncomingEntry> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, provincialId);
    const e = await trx
      .selectFrom("national_entry")
      .selectAll()
      .where("from_contest_id", "=", c.id)
      .where("work_id", "=", workId)
      .executeTakeFirst();
    if (!e) throw notFound("该作品没有晋级国赛");
    if (e.status !== "entered") throw badRequest("该作品已退出国赛，无需再撤回");
    const text = reason.trim();
    if (text.length < 2) throw badRequest("请填写撤回晋级的原因");
    const reg = await registrationOf(trx, e.contest_id);
    const judging = await judgingRefusal(trx, e.contest_id, [workId]);
    if (judging) throw badRequest(judging);
    if (!reg.open) throw badRequest(`国赛报名已于 ${reg.endsAt!.slice(0, 10)} 截止，不能再撤回晋级作品`);
    const at = new Date().toISOString();
    await trx
      .updateTable("national_entry")
      .set({
        status: "withdrawn",
        withdraw_kind: "admin",
        withdraw_reason: text,
        withdrawn_by: user.id,
        withdrawn_at: at,
        updated_at: at,
      })
      .where("id", "=", e.id)
      .execute();
    await appendLog(trx, {
      workId,
      userId: user.id,
      action: "national_withdraw",
      changes: { national: [e.contest_id, null], reason: [null, text] },
    });
    const w = await trx
      .selectFrom("work as w")
      .innerJoin("work_category as k", "k.id", "w.category_id")
      .select(["w.name", "k.name as cat"])
      .where("w.id", "=", workId)
      .executeTakeFirstOrThrow();
    return {
      id: e.id,
      workId,
      workName: w.name,
      categoryId: e.category_id,
      categoryName: w.cat,
      status: "withdrawn" as const,
      formatStatus: e.format_status,
      withdrawReason: text,
    };
  });
}
