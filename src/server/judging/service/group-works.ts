/**
 * Works in judge groups: automatically by category (group-match.ts), or by hand; the pool
 * list with each work's group and judges; the contest's judges with their groups and
 * loads. A work with judges assigned stays in its group until they are removed.
 */
import { badRequest, notFound } from "../../../shared/errors";
import type { AutoGroupResult, ContestJudge, JudgeGroupView, PoolFilters, PoolWork } from "../../../shared/judging/schema";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { record } from "../../common/audit";
import { keywordFilter } from "../../scope";
import { pickGroup } from "../group-match";
import {
  contestJudges,
  declaredOf,
  judgeSchoolFacts,
  poolWorks,
  requireManagedContest,
  settingsOf,
  type ContestInfo,
} from "./contest";
import { conflictsFor, formatConflictReasons } from "../conflict";
import { groupView, managedGroup } from "./groups";

const assignedCounts = async (db: Db | Parameters<typeof poolWorks>[0], contestId: number) =>
  new Map(
    (
      await db
        .selectFrom("judge_assignment")
        .select(["work_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("contest_id", "=", contestId)
        .groupBy("work_id")
        .execute()
    ).map((r) => [Number(r.work_id), Number(r.n)]),
  );

export async function autoGroup(db: Db, user: User, contestId: number, regroup: boolean): Promise<AutoGroupResult> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    const groups = await trx
      .selectFrom("judge_group")
      .select(["id", "category_id", "subcategory_id", "group_type"])
      .where("contest_id", "=", c.id)
      .orderBy("id")
      .execute();
    if (!groups.length) throw badRequest("本赛事还没有评审组，请先创建评审组");
    const works = await poolWorks(trx, c)
      .innerJoin("work_category as cat", "cat.id", "work.category_id")
      .select(["work.id", "work.name", "work.category_id", "work.subcategory_id", "work.group_type", "cat.name as category_name"])
      .orderBy("work.id")
      .execute();
    const placed = new Map(
      (await trx.selectFrom("judge_group_work").select(["work_id", "group_id"]).where("contest_id", "=", c.id).execute()).map(
        (r) => [Number(r.work_id), r.group_id],
      ),
    );
    const assigned = await assignedCounts(trx, c.id);
    // A work keeps its group when it has judges, or unless asked to regroup.
    const keeps = (id: number) => placed.has(id) && (!regroup || (assigned.get(id) ?? 0) > 0);
    const sizes = new Map<number, number>();
    for (const w of works)
      if (keeps(Number(w.id))) sizes.set(placed.get(Number(w.id))!, (sizes.get(placed.get(Number(w.id))!) ?? 0) + 1);
    const unmatched: AutoGroupResult["unmatched"] = [];
    const moves: { work_id: number; group_id: number }[] = [];
    for (const w of works) {
      const id = Number(w.id);
      if (keeps(id)) continue;
      const g = pickGroup(w, groups, sizes);
      if (g === null) unmatched.push({ id, name: w.name, categoryName: w.category_name });
      else if (placed.get(id) !== g) moves.push({ work_id: id, group_id: g });
    }
    const at = new Date().toISOString();
    for (let i = 0; i < moves.length; i += 500) {
      const part = moves.slice(i, i + 500);
      await trx
        .deleteFrom("judge_group_work")
        .where("contest_id", "=", c.id)
        .where(
          "work_id",
          "in",
          part.map((m) => m.work_id),
        )
        .execute();
      await trx
        .insertInto("judge_group_work")
        .values(part.map((m) => ({ contest_id: c.id, created_at: at, ...m })))
        .execute();
    }
    await record(trx, user.id, {
      entity: "judge_group_work",
      entityId: c.id,
      action: "update",
      changes: { grouped: [null, moves.length] },
    });
    return { grouped: moves.length, unmatched };
  });
}

export async function addWorks(db: Db, user: User, groupId: number, workIds: number[]): Promise<JudgeGroupView> {
  return db.transaction().execute(async (trx) => {
    const { g, c } = await managedGroup(trx, user, groupId);
    const ids = [...new Set(workIds)];
    const inPool = new Set(
      (await poolWorks(trx, c).select("work.id").where("work.id", "in", ids).execute()).map((r) => Number(r.id)),
    );
    const outside = ids.filter((id) => !inPool.has(id));
    if (outside.length)
      throw badRequest(
        `作品 ${outside.slice(0, 5).join("、")}${outside.length > 5 ? ` 等 ${outside.length} 件` : ""} 不在本赛事的评审作品中（省级及以上赛事须已通过形式审查）`,
      );
    const assigned = await assignedCounts(trx, c.id);
    const placed = new Map(
      (
        await trx
          .selectFrom("judge_group_work")
          .select(["work_id", "group_id"])
          .where("contest_id", "=", c.id)
          .where("work_id", "in", ids)
          .execute()
      ).map((r) => [Number(r.work_id), r.group_id]),
    );
    const locked = ids.filter((id) => placed.has(id) && placed.get(id) !== g.id && (assigned.get(id) ?? 0) > 0);
    if (locked.length)
      throw badRequest(`作品 ${locked.slice(0, 5).join("、")} 已在其他评审组分配了评委，请先移除这些分配再调整分组`);
    const moving = ids.filter((id) => placed.get(id) !== g.id);
    if (moving.length) {
      await trx.deleteFrom("judge_group_work").where("contest_id", "=", c.id).where("work_id", "in", moving).execute();
      const at = new Date().toISOString();
      await trx
        .insertInto("judge_group_work")
        .values(moving.map((work_id) => ({ contest_id: c.id, group_id: g.id, work_id, created_at: at })))
        .execute();
    }
    await record(trx, user.id, {
      entity: "judge_group",
      entityId: g.id,
      action: "update",
      changes: { addWorks: [null, moving.length <= 20 ? moving : moving.length] },
    });
    return groupView(trx, g.id);
  });
}

export async function removeWork(db: Db, user: User, groupId: number, workId: number): Promise<JudgeGroupView> {
  return db.transaction().execute(async (trx) => {
    const { g, c } = await managedGroup(trx, user, groupId);
    const row = await trx
      .selectFrom("judge_group_work")
      .select("id")
      .where("group_id", "=", g.id)
      .where("work_id", "=", workId)
      .executeTakeFirst();
    if (!row) throw notFound("该作品不在本评审组中");
    const n = (await assignedCounts(trx, c.id)).get(workId) ?? 0;
    if (n) throw badRequest(`作品 ${workId} 已分配 ${n} 位评委，请先移除这些分配再移出评审组`);
    await trx.deleteFrom("judge_group_work").where("id", "=", row.id).execute();
    await record(trx, user.id, {
      entity: "judge_group",
      entityId: g.id,
      action: "update",
      changes: { removeWork: [workId, null] },
    });
    return groupView(trx, g.id);
  });
}

export async function listPool(
  db: Db,
  user: User,
  contestId: number,
  f: PoolFilters,
  offset: number,
  limit: number,
): Promise<{ list: PoolWork[]; total: number }> {
  const c = await requireManagedContest(db, user, contestId);
  const settings = await settingsOf(db, c.id);
  const needed = settings.reviewsPerWork;
  let q = poolWorks(db, c);
  if (f.groupId !== undefined)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("judge_group_work as g1")
          .select("g1.id")
          .where("g1.contest_id", "=", c.id)
          .whereRef("g1.work_id", "=", "work.id")
          .where("g1.group_id", "=", f.groupId!),
      ),
    );
  if (f.ungrouped)
    q = q.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("judge_group_work as g2")
            .select("g2.id")
            .where("g2.contest_id", "=", c.id)
            .whereRef("g2.work_id", "=", "work.id"),
        ),
      ),
    );
  if (f.categoryId !== undefined) q = q.where("work.category_id", "=", f.categoryId);
  if (f.keyword?.trim()) q = q.where((eb) => keywordFilter(eb, f.keyword!));
  if (f.short) {
    q = q.where((eb) =>
      eb(
        eb
          .selectFrom("judge_assignment as a1")
          .select((x) => x.fn.countAll<number>().as("n"))
          .where("a1.contest_id", "=", c.id)
          .whereRef("a1.work_id", "=", "work.id"),
        "<",
        needed,
      ),
    );
  }
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const rows = await q
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .leftJoin("judge_group_work as gw", (j) => j.onRef("gw.work_id", "=", "work.id").on("gw.contest_id", "=", c.id))
    .leftJoin("judge_group as jg", "jg.id", "gw.group_id")
    .select([
      "work.id",
      "work.name",
      "work.category_id",
      "cat.name as category_name",
      "work.subcategory_id",
      "sub.name as subcategory_name",
      "work.group_type",
      "work.school_id",
      "school.name as school_name",
      "school.province",
      "jg.id as jg_id",
      "jg.name as jg_name",
    ])
    .orderBy("work.id")
    .offset(offset)
    .limit(limit)
    .execute();
  const ids = rows.map((r) => Number(r.id));
  const judges = ids.length
    ? await db
        .selectFrom("judge_assignment")
        .innerJoin("app_user", "app_user.id", "judge_assignment.judge_id")
        .select(["judge_assignment.id", "judge_assignment.work_id", "judge_assignment.judge_id", "app_user.name"])
        .where("judge_assignment.contest_id", "=", c.id)
        .where("judge_assignment.work_id", "in", ids)
        .orderBy("app_user.name")
        .execute()
    : [];
  const conflicts = await pageConflicts(db, c, settings.avoidProvince, rows);
  return {
    total,
    list: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      category: { id: r.category_id, name: r.category_name },
      subcategory: r.subcategory_id !== null ? { id: r.subcategory_id, name: r.subcategory_name ?? "" } : null,
      group: r.group_type,
      school: { id: r.school_id, name: r.school_name },
      judgeGroup: r.jg_id !== null ? { id: r.jg_id, name: r.jg_name ?? "" } : null,
      judges: judges
        .filter((j) => Number(j.work_id) === Number(r.id))
        .map((j) => ({ assignmentId: j.id, judgeId: j.judge_id, name: j.name })),
      needed,
      conflicts: conflicts.get(Number(r.id)) ?? [],
    })),
  };
}

/**
 * The contest's judges who must not judge each work of a page (回避: same school, advised or
 * authored, declared, same province when the contest avoids it), by the rule the assignment
 * checks (conflictsFor): the add-judge picker greys them out with the reason.
 */
async function pageConflicts(
  db: Db,
  c: ContestInfo,
  avoidProvince: boolean,
  rows: { id: number | string; school_id: number; province: string | null }[],
): Promise<Map<number, { judgeId: number; reasons: string }[]>> {
  const out = new Map<number, { judgeId: number; reasons: string }[]>();
  if (!rows.length) return out;
  const ids = rows.map((r) => Number(r.id));
  const judges = await contestJudges(db, c);
  const declared = await declaredOf(
    db,
    judges.map((j) => j.id),
  );
  const advisors = await db.selectFrom("work_teacher").select(["work_id", "user_id"]).where("work_id", "in", ids).execute();
  const authors = await db.selectFrom("work_author").select(["work_id", "user_id"]).where("work_id", "in", ids).execute();
  for (const r of rows) {
    const id = Number(r.id);
    const work = {
      id,
      schoolId: r.school_id,
      province: r.province,
      advisorIds: advisors.filter((a) => Number(a.work_id) === id).map((a) => a.user_id),
      authorIds: authors.filter((a) => Number(a.work_id) === id).map((a) => a.user_id),
    };
    for (const j of judges) {
      const reasons = conflictsFor({ id: j.id, ...judgeSchoolFacts(c, j), declared: declared.get(j.id) }, work, {
        avoidProvince,
      });
      if (reasons.length) out.set(id, [...(out.get(id) ?? []), { judgeId: j.id, reasons: formatConflictReasons(reasons) }]);
    }
  }
  return out;
}

export async function listContestJudges(db: Db, user: User, contestId: number): Promise<ContestJudge[]> {
  const c = await requireManagedContest(db, user, contestId);
  const judges = await contestJudges(db, c);
  const groups = await db
    .selectFrom("judge_group_member")
    .innerJoin("judge_group", "judge_group.id", "judge_group_member.group_id")
    .select(["judge_group_member.user_id", "judge_group.id", "judge_group.name"])
    .where("judge_group.contest_id", "=", c.id)
    .orderBy("judge_group.id")
    .execute();
  const loads = new Map(
    (
      await db
        .selectFrom("judge_assignment")
        .select(["judge_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("contest_id", "=", c.id)
        .groupBy("judge_id")
        .execute()
    ).map((r) => [r.judge_id, Number(r.n)]),
  );
  const declared = await declaredOf(
    db,
    judges.map((j) => j.id),
  );
  return judges.map((j) => ({
    id: j.id,
    name: j.name,
    username: j.username,
    school: j.school_id !== null ? { id: j.school_id, name: j.school_name ?? "" } : null,
    province: j.province,
    groups: groups.filter((g) => g.user_id === j.id).map((g) => ({ id: g.id, name: g.name })),
    load: loads.get(j.id) ?? 0,
    declared:
      (declared.get(j.id)?.workIds.length ?? 0) +
      (declared.get(j.id)?.schoolIds.length ?? 0) +
      (declared.get(j.id)?.userIds.length ?? 0),
  }));
}
