/**
 * Extra judges for flagged works (the judges' scores disagree beyond the threshold): the
 * conflict-free judge the assigner would add, and adding one through applyAssignments.
 */
import { badRequest, notFound } from "../../../../shared/errors";
import type { ExtraJudgeBody, ExtraJudgeOutcome, ExtraJudgeProposal } from "../../../../shared/judging/result-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { record } from "../../../common/audit";
import { minCostFlow } from "../../assign";
import type { ExtraJudgeRequest } from "../../scoring";
import { applyAssignments } from "../apply";
import { requireManagedContest, settingsOf } from "../contest";
import { loadSnapshot } from "../snapshot";
import { changeResults } from "./change";
import { judgeNames } from "./load";
import { keyOfRow, rowQuery, storedRows } from "./rows";

/** Flagged works: their judges and the conflict-free judge the assigner would add (or why none). */
export async function extraJudgeProposals(db: Db, user: User, contestId: number): Promise<ExtraJudgeProposal[]> {
  const c = await requireManagedContest(db, user, contestId);
  const flagged = await rowQuery(db, c.id).where("contest_result.flagged", "=", 1).orderBy("contest_result.work_id").execute();
  if (!flagged.length) return [];
  const ids = flagged.map((r) => Number(r.work_id));
  const settings = await settingsOf(db, c.id);
  const snap = await loadSnapshot(db, c, settings, ids);
  const requests: ExtraJudgeRequest[] = [];
  const pending = new Map<number, string>();
  for (const r of flagged) {
    const id = Number(r.work_id);
    const w = snap.input.works.find((x) => x.id === id);
    const existing = [...(w?.existingJudgeIds ?? [])];
    if (!w) pending.set(id, "作品已不在本赛事的评审作品中");
    else if (existing.length > Number(r.judge_count))
      pending.set(id, `已有 ${existing.length - Number(r.judge_count)} 位评委尚未提交评分，请等待评分后重新计算`);
    else requests.push({ workId: id, existingJudgeIds: existing, needed: existing.length + 1 });
  }
  const need = new Map(requests.map((q) => [q.workId, q.needed]));
  const input = {
    ...snap.input,
    works: snap.input.works.filter((w) => need.has(w.id)).map((w) => ({ ...w, needed: need.get(w.id)! })),
  };
  const proposal = input.works.length ? minCostFlow.propose(input, minCostFlow.defaults) : { rows: [], issues: [] };
  const names = await judgeNames(db, [
    ...new Set([...snap.assignments.map((a) => a.judge_id), ...proposal.rows.map((p) => p.judgeId)]),
  ]);
  const judge = (id: number) => ({ id, name: names.get(id) ?? `评委 ${id}` });
  return flagged.map((r) => {
    const id = Number(r.work_id);
    const existing = snap.assignments.filter((a) => a.work_id === id).map((a) => judge(a.judge_id));
    const p = proposal.rows.find((x) => x.workId === id);
    const issue = proposal.issues.find((i) => ("workId" in i && i.workId === id) || ("workIds" in i && i.workIds.includes(id)));
    return {
      workId: id,
      workName: r.work_name,
      groupKey: keyOfRow(r),
      spread: r.spread === null ? null : Number(r.spread),
      existingJudges: existing,
      needed: need.get(id) ?? existing.length,
      proposed: p ? judge(p.judgeId) : null,
      problem: pending.get(id) ?? (p ? null : (issue?.message ?? "没有可增加的无回避评委")),
    };
  });
}

/** Adds one conflict-free judge to a flagged work, through applyAssignments (the single writer). */
export async function addExtraJudge(db: Db, user: User, contestId: number, body: ExtraJudgeBody): Promise<ExtraJudgeOutcome> {
  return changeResults(db, user, contestId, async (trx, c) => {
    const row = (await storedRows(trx, c.id)).find((r) => r.work_id === body.workId);
    if (!row) throw notFound(`作品 ${body.workId} 没有本赛事的成绩记录，请先计算成绩`);
    if (!row.flagged) throw badRequest(`作品 ${body.workId} 的评委评分没有明显分歧（分差未超过阈值），无需增加评委`);
    const settings = await settingsOf(trx, c.id);
    const snap = await loadSnapshot(trx, c, settings, [body.workId]);
    const w = snap.input.works.find((x) => x.id === body.workId);
    if (!w) throw badRequest(`作品 ${body.workId} 已不在本赛事的评审作品中，或尚未分入评审组`);
    const existing = w.existingJudgeIds ?? [];
    if (existing.length > row.judge_count)
      throw badRequest(
        `作品 ${body.workId} 已增加评委，尚有 ${existing.length - row.judge_count} 位评委未提交评分，请等待评分后重新计算成绩`,
      );
    const needed = existing.length + 1;
    let add = body.judgeId !== undefined ? [{ workId: w.id, judgeId: body.judgeId }] : [];
    if (!add.length) {
      const proposal = minCostFlow.propose({ ...snap.input, works: [{ ...w, needed }] }, minCostFlow.defaults);
      if (!proposal.rows.length)
        throw badRequest(
          `没有可为作品 ${w.id} 增加的无回避评委：${proposal.issues[0]?.message ?? "评审组内的评委都已评过或存在回避"}`,
        );
      add = proposal.rows.slice(0, 1);
    }
    await applyAssignments(trx, {
      contest: c,
      userId: user.id,
      add,
      settings: { ...settings, reviewsPerWork: Math.max(settings.reviewsPerWork, needed) },
    });
    const judge = await trx
      .selectFrom("app_user")
      .select(["id", "name"])
      .where("id", "=", add[0].judgeId)
      .executeTakeFirstOrThrow();
    await record(trx, user.id, {
      entity: "contest_result",
      entityId: `${c.id}:${w.id}`,
      action: "extra_judge",
      changes: { judges: [existing, [...existing, judge.id]] },
    });
    return { workId: w.id, judge, judges: needed };
  });
}
