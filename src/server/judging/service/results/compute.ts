/**
 * Computing the results: the pool's submitted scores normalised per result group, the
 * defence scores, ranks → contest_result, and the options and the fit → result_setting;
 * and the comparison of the stored results with a fresh computation (publish refuses when
 * they differ).
 */
import { badRequest } from "../../../../shared/errors";
import type { Basis, ComputeBody, ComputeOutcome } from "../../../../shared/judging/result-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { record } from "../../../common/audit";
import { computeGroup, type ComputedGroup } from "../../results";
import type { Score } from "../../scoring";
import { settingsOf } from "../contest";
import { changeResults } from "./change";
import {
  chunks,
  incompleteWorks,
  isIncomplete,
  loadInputs,
  loadSetting,
  push,
  type Inputs,
  type PoolWork,
  type StoredFit,
} from "./load";
import { storedRows, type StoredRow } from "./rows";

/** Every result group computed, in key order. */
export function computeAll(inputs: Inputs, threshold: number, basis: Record<string, Basis>): ComputedGroup[] {
  const byGroup = new Map<string, number[]>();
  for (const w of inputs.works.values()) push(byGroup, w.key, w.id);
  const scoresBy = new Map<string, Score[]>();
  for (const s of inputs.scores) {
    const key = inputs.works.get(s.workId)!.key;
    push(scoresBy, key, s);
  }
  const incomplete = incompleteWorks(inputs);
  return [...byGroup.keys()].sort().map((key) =>
    computeGroup(
      {
        key,
        workIds: byGroup.get(key)!,
        scores: scoresBy.get(key) ?? [],
        defence: inputs.defence,
        basis: basis[key] ?? "online",
        incomplete,
      },
      { disagreementThreshold: threshold },
    ),
  );
}

const same = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));

/** Works whose stored result differs from the computed one (or that came or went). */
export function changedWorks(
  stored: readonly StoredRow[],
  computed: readonly ComputedGroup[],
  works: Map<number, PoolWork>,
): number[] {
  const byWork = new Map(stored.map((r) => [r.work_id, r]));
  const out: number[] = [];
  const seen = new Set<number>();
  for (const g of computed) {
    for (const c of g.rows) {
      seen.add(c.workId);
      const s = byWork.get(c.workId);
      const w = works.get(c.workId)!;
      if (
        !s ||
        s.group_id !== w.groupId ||
        s.judge_count !== c.judgeCount ||
        !same(s.raw_mean, c.rawMean) ||
        !same(s.normalised, c.normalised) ||
        !same(s.defence_mean, c.defenceMean) ||
        s.rank !== c.rank ||
        !!s.flagged !== c.flagged
      )
        out.push(c.workId);
    }
  }
  for (const s of stored) if (!seen.has(s.work_id)) out.push(s.work_id);
  return out;
}

export async function computeResults(
  db: Db,
  user: User,
  contestId: number,
  body: ComputeBody,
): Promise<ComputeOutcome & { awardsCleared: boolean }> {
  return changeResults(db, user, contestId, async (trx, c) => {
    const setting = await loadSetting(trx, c.id);
    const threshold = body.disagreementThreshold ?? setting.threshold;
    const inputs = await loadInputs(trx, c);
    if (!inputs.works.size) throw badRequest("本赛事还没有参加评审的作品（省级及以上赛事须已通过形式审查）");
    const basis: Record<string, Basis> = {};
    for (const [key, b] of Object.entries({ ...setting.basis, ...(body.basis ?? {}) })) {
      if (b !== "defence") continue;
      const g = inputs.groups.get(key);
      if (!g) {
        if (body.basis?.[key]) throw badRequest(`结果分组 ${key} 不存在或没有作品`);
        continue;
      }
      const withDefence = [...inputs.works.values()].some((w) => w.key === key && inputs.defence.has(w.id));
      if (!withDefence) {
        if (body.basis?.[key]) throw badRequest(`「${g.name}」还没有答辩成绩，不能按答辩成绩排名`);
        continue;
      }
      basis[key] = "defence";
    }
    const groups = computeAll(inputs, threshold, basis);
    const stored = await storedRows(trx, c.id);
    const rankingChanged = changedWorks(stored, groups, inputs.works).length > 0;
    const keep = new Map(stored.map((r) => [r.work_id, r]));
    const at = new Date().toISOString();
    let manualKept = 0;
    const rows = groups.flatMap((g) =>
      g.rows.map((r) => {
        const before = keep.get(r.workId);
        const manual = !!before?.award_manual;
        if (manual) manualKept++;
        const keepAuto = !rankingChanged && !!before;
        return {
          contest_id: c.id,
          work_id: r.workId,
          group_id: inputs.works.get(r.workId)!.groupId,
          raw_mean: r.rawMean,
          normalised: r.normalised,
          judge_count: r.judgeCount,
          spread: r.spread,
          flagged: r.flagged ? 1 : 0,
          rank: r.rank,
          award_level_id: manual || keepAuto ? (before?.award_level_id ?? null) : null,
          award_manual: manual ? 1 : 0,
          promoted: keepAuto ? (before?.promoted ?? 0) : 0,
          defence_mean: r.defenceMean,
          defence_count: r.defenceCount,
          updated_at: at,
        };
      }),
    );
    await trx.deleteFrom("contest_result").where("contest_id", "=", c.id).execute();
    for (const part of chunks(rows)) await trx.insertInto("contest_result").values(part).execute();

    const fit: StoredFit[] = groups.map((g) => ({
      key: g.key,
      basis: g.basis,
      fit: g.fit,
      judges: g.judges.map((j) => ({
        judgeId: j.judgeId,
        count: j.count,
        mean: j.mean,
        sd: j.sd,
        effect: j.effect,
        identified: j.identified,
      })),
    }));
    const values = {
      disagreement_threshold: threshold,
      group_basis: JSON.stringify(basis),
      fit: JSON.stringify(fit),
      computed_at: at,
      computed_by: user.id,
      updated_at: at,
    };
    await trx
      .insertInto("result_setting")
      .values({ contest_id: c.id, ...values })
      .onConflict((oc) => oc.column("contest_id").doUpdateSet(values))
      .execute();

    const needed = (await settingsOf(trx, c.id)).reviewsPerWork;
    const outcome = {
      works: rows.length,
      ranked: rows.filter((r) => r.rank !== null).length,
      unscored: rows.filter((r) => r.judge_count === 0).length,
      flagged: rows.filter((r) => r.flagged).length,
      incomplete: rows.filter((r) => isIncomplete(r.judge_count, needed, inputs.assigned.get(r.work_id) ?? 0)).length,
      groups: groups.length,
      manualKept,
      awardsCleared: rankingChanged && stored.some((r) => (r.award_level_id !== null && !r.award_manual) || r.promoted),
    };
    await record(trx, user.id, {
      entity: "contest_result",
      entityId: c.id,
      action: "compute",
      changes: { threshold: [setting.threshold, threshold], basis: [setting.basis, basis], works: [stored.length, rows.length] },
    });
    return outcome;
  });
}
