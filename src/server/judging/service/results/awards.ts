/**
 * Awards and promotion: the contest level's work awards allocated per result group over the
 * ranking (awards set by hand are kept), an award or a promotion set by hand, and the best
 * awarded works promoted within the contest's quota.
 */
import { badRequest, invalid, notFound } from "../../../../shared/errors";
import { CONTEST_LEVEL_NAMES } from "../../../../shared/contest/stages";
import { zeroQuotaWarnings } from "../../../../shared/judging/award-quota";
import type {
  AllocateBody,
  AllocateOutcome,
  PromoteBody,
  PromoteOutcome,
  ResultPatch,
  ResultRow,
} from "../../../../shared/judging/result-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { record } from "../../../common/audit";
import { allocateAwards, allocationRanks, choosePromotions } from "../../results";
import { changeResults } from "./change";
import {
  categoryNames,
  chunks,
  loadSetting,
  push,
  quotaState,
  requireWorkAwardLevel,
  resultGroupNames,
  tally,
  workAwardLevels,
} from "./load";
import { keyOfRow, rowQuery, storedRows, toRows, type StoredRow } from "./rows";

/** Promotion needs a higher contest: the national contest (the highest) and a contest without a parent have none. */
const noParent = (level: string) =>
  invalid(
    "promoted",
    level === "national" ? "国赛是最高级别的赛事，没有可晋级的上级赛事，不能推荐晋级" : "本赛事没有上级赛事，不能推荐晋级",
  );

export async function allocateResults(db: Db, user: User, contestId: number, body: AllocateBody): Promise<AllocateOutcome> {
  return changeResults(db, user, contestId, async (trx, c) => {
    const rows = await storedRows(trx, c.id);
    if (!rows.length) throw badRequest("请先计算成绩，再分配奖项");
    const levels = await workAwardLevels(trx, c.level);
    const rules = levels.filter((l) => l.ratio !== null || l.maxCount !== null);
    if (!rules.length)
      throw badRequest(
        `${CONTEST_LEVEL_NAMES[c.level]}的作品奖项都没有设置比例或名额，请在奖项管理中设置后再分配，或逐件手动设置`,
      );
    const byGroup = new Map<string, StoredRow[]>();
    for (const r of rows) push(byGroup, keyOfRow(r), r);
    const wanted = body.groups?.length ? body.groups : [...byGroup.keys()];
    for (const k of wanted) if (!byGroup.has(k)) throw badRequest(`结果分组 ${k} 不存在，请刷新后重试`);
    const names = await resultGroupNames(trx, c.id, wanted);
    const setting = await loadSetting(trx, c.id);
    const include = !!body.includeIncomplete;
    const levelName = new Map(levels.map((l) => [l.id, l.name]));
    const at = new Date().toISOString();
    const out: AllocateOutcome = {
      groups: [],
      manualKept: 0,
      manualOnly: levels.filter((l) => l.ratio === null && l.maxCount === null).map((l) => l.name),
      warnings: [],
    };
    let changed = 0;
    for (const key of wanted.sort()) {
      const list = byGroup.get(key)!;
      const basis = setting.basis[key] ?? "online";
      // Ranked by the online score: only the complete (ranked) works count, unless included.
      const taking = basis === "online" && !include ? list.filter((r) => r.rank !== null) : list;
      const ranks = allocationRanks(
        taking.map((r) => ({ workId: r.work_id, rank: r.rank, score: basis === "defence" ? r.defence_mean : r.normalised })),
        include && basis === "online",
      );
      const alloc = allocateAwards(
        taking.map((r) => ({
          workId: r.work_id,
          rank: ranks.get(r.work_id) ?? null,
          manual: !!r.award_manual,
          awardLevelId: r.award_level_id,
        })),
        rules,
      );
      out.manualKept += list.filter((r) => r.award_manual).length;
      const updates = new Map<number | null, number[]>();
      for (const r of list) {
        if (r.award_manual) continue;
        const award = alloc.get(r.work_id) ?? null;
        if (award === r.award_level_id) continue;
        push(updates, award, r.work_id);
        changed++;
      }
      for (const [award, ids] of updates) {
        for (const part of chunks(ids)) {
          await trx
            .updateTable("contest_result")
            .set({ award_level_id: award, updated_at: at, ...(award === null ? { promoted: 0 } : {}) })
            .where("contest_id", "=", c.id)
            .where("work_id", "in", part)
            .where("award_manual", "=", 0)
            .execute();
        }
      }
      const counts = new Map<number, number>();
      for (const r of list) {
        const a = r.award_manual ? r.award_level_id : (alloc.get(r.work_id) ?? null);
        if (a !== null) tally(counts, a);
      }
      out.groups.push({
        key,
        name: names.get(key) ?? key,
        works: taking.length,
        left: list.length - taking.length,
        awards: levels
          .filter((l) => counts.has(l.id))
          .map((l) => ({ awardLevelId: l.id, name: levelName.get(l.id)!, count: counts.get(l.id)! })),
      });
    }
    out.warnings = zeroQuotaWarnings(out.groups, rules);
    // The choice per group, for the overview and the publication's params.
    const included = new Set(setting.includeIncomplete);
    for (const k of wanted)
      if (include) included.add(k);
      else included.delete(k);
    await trx
      .updateTable("result_setting")
      .set({ include_incomplete: JSON.stringify([...included].sort()), updated_at: at })
      .where("contest_id", "=", c.id)
      .execute();
    await record(trx, user.id, {
      entity: "contest_result",
      entityId: c.id,
      action: "allocate",
      changes: { groups: [null, wanted], changed: [null, changed], includeIncomplete: [null, include] },
    });
    return out;
  });
}

export async function patchResult(db: Db, user: User, contestId: number, workId: number, body: ResultPatch): Promise<ResultRow> {
  return changeResults(db, user, contestId, async (trx, c) => {
    const rows = await storedRows(trx, c.id);
    const row = rows.find((r) => r.work_id === workId);
    if (!row) throw notFound(`作品 ${workId} 没有本赛事的成绩记录，请先计算成绩`);
    if (body.awardLevelId === undefined && body.manual === undefined && body.promoted === undefined)
      throw badRequest("请指定要修改的奖项或晋级");
    const set: { award_level_id?: number | null; award_manual?: number; promoted?: number; updated_at: string } = {
      updated_at: new Date().toISOString(),
    };
    const changes: Record<string, [unknown, unknown]> = {};
    if (body.awardLevelId !== undefined) {
      if (body.awardLevelId !== null) requireWorkAwardLevel(await workAwardLevels(trx, c.level), body.awardLevelId, c.level);
      set.award_level_id = body.awardLevelId;
      set.award_manual = 1;
      changes.award = [row.award_level_id, body.awardLevelId];
      changes.manual = [row.award_manual, 1];
    } else if (body.manual === false) {
      set.award_level_id = null;
      set.award_manual = 0;
      changes.award = [row.award_level_id, null];
      changes.manual = [row.award_manual, 0];
    }
    if (body.promoted !== undefined && body.promoted !== !!row.promoted) {
      if (body.promoted) {
        const q = await quotaState(trx, c.id);
        if (!q.parent) throw noParent(c.level);
        if (row.rank === null) throw badRequest(`作品 ${workId} 没有成绩排名，不能晋级`);
        const promoted = rows.filter((r) => r.promoted);
        if (q.total !== null && promoted.length >= q.total)
          throw badRequest(`晋级名额已用完（共 ${q.total} 个，已晋级 ${promoted.length} 件）`);
        const cap = q.perCategory[String(row.category_id)];
        const inCat = promoted.filter((r) => r.category_id === row.category_id).length;
        if (cap !== undefined && inCat >= cap) {
          const cat = (await categoryNames(trx, [row.category_id])).get(row.category_id);
          throw badRequest(`大类「${cat ?? row.category_id}」的晋级名额已用完（共 ${cap} 个，已晋级 ${inCat} 件）`);
        }
      }
      set.promoted = body.promoted ? 1 : 0;
      changes.promoted = [row.promoted, set.promoted];
    }
    await trx.updateTable("contest_result").set(set).where("contest_id", "=", c.id).where("work_id", "=", workId).execute();
    await record(trx, user.id, { entity: "contest_result", entityId: `${c.id}:${workId}`, action: "update", changes });
    return (await toRows(trx, c.id, await rowQuery(trx, c.id).where("contest_result.work_id", "=", workId).execute()))[0];
  });
}

export async function promoteResults(db: Db, user: User, contestId: number, body: PromoteBody): Promise<PromoteOutcome> {
  return changeResults(db, user, contestId, async (trx, c) => {
    const q = await quotaState(trx, c.id);
    if (!q.parent) throw noParent(c.level);
    const rows = await storedRows(trx, c.id);
    if (!rows.length) throw badRequest("请先计算成绩并分配奖项，再推荐晋级");
    const levels = await workAwardLevels(trx, c.level);
    const sortOf = new Map(levels.map((l) => [l.id, l.sort]));
    const lowest =
      body.lowestAwardLevelId !== undefined
        ? requireWorkAwardLevel(levels, body.lowestAwardLevelId, c.level).sort
        : Number.POSITIVE_INFINITY;
    const size = new Map<string, number>();
    for (const r of rows) tally(size, keyOfRow(r));
    const candidates = rows
      // An award given to an incomplete work (allocation that included them) counts as last of its group.
      .filter(
        (r) =>
          r.award_level_id !== null &&
          (r.rank !== null || r.normalised !== null || r.defence_mean !== null) &&
          sortOf.has(r.award_level_id) &&
          sortOf.get(r.award_level_id)! <= lowest,
      )
      .map((r) => ({
        workId: r.work_id,
        categoryId: r.category_id,
        awardSort: sortOf.get(r.award_level_id!)!,
        rank: r.rank ?? size.get(keyOfRow(r))!,
        groupSize: size.get(keyOfRow(r))!,
        score: Number(r.normalised ?? r.defence_mean ?? 0),
      }));
    if (!candidates.length)
      throw badRequest(
        rows.some((r) => r.award_level_id !== null) ? "没有符合条件的获奖作品可以晋级" : "请先分配奖项，再推荐晋级",
      );
    const choice = choosePromotions(candidates, q.total, q.perCategory);
    const at = new Date().toISOString();
    await trx
      .updateTable("contest_result")
      .set({ promoted: 0, updated_at: at })
      .where("contest_id", "=", c.id)
      .where("promoted", "=", 1)
      .execute();
    for (const part of chunks(choice.promoted))
      await trx
        .updateTable("contest_result")
        .set({ promoted: 1, updated_at: at })
        .where("contest_id", "=", c.id)
        .where("work_id", "in", part)
        .execute();
    const catIds = [...new Set(candidates.map((x) => x.categoryId))];
    const names = await categoryNames(trx, catIds);
    const chosen = new Set(choice.promoted);
    await record(trx, user.id, {
      entity: "contest_result",
      entityId: c.id,
      action: "promote",
      changes: { promoted: [null, choice.promoted.length <= 50 ? choice.promoted : `${choice.promoted.length} 件`] },
    });
    return {
      parentName: q.parent.name,
      total: q.total,
      candidates: candidates.length,
      promoted: choice.promoted.length,
      notFitting: choice.left.length,
      categories: catIds
        .sort((a, b) => a - b)
        .map((id) => ({
          categoryId: id,
          name: names.get(id) ?? `大类 ${id}`,
          quota: q.perCategory[String(id)] ?? null,
          candidates: candidates.filter((x) => x.categoryId === id).length,
          promoted: candidates.filter((x) => x.categoryId === id && chosen.has(x.workId)).length,
        })),
    };
  });
}
