/**
 * A decision's action, applied through the existing services inside the complaint step's
 * transaction, never by hand:
 * - disqualify: the works transition (disqualify, on the decision's authority) and the
 *   award and promotion withdrawn in every contest result of the work;
 * - change_award: the work's award in the complaint's contest (a work award of the contest's
 *   level, or none), set by hand so a later allocation keeps it;
 * - rejudge: new conflict-free judges of the work's group, excluding every judge who ever
 *   judged the work (any contest), through applyAssignments; once they have all submitted,
 *   their scores replace the old ones (applyRejudge, a handler's step);
 * - no_change: nothing.
 * A change of a published result makes a new version of its group (changePublished).
 */
import type { Transaction } from "kysely";
import { DECISION_ACTION_NAMES, type DecisionAction } from "../../shared/complaint/states";
import { badRequest } from "../../shared/errors";
import { complaintLabel } from "../../shared/complaint/labels";
import type { DB, User } from "../db/schema";
import { minCostFlow } from "../judging/assign";
import { applyAssignments } from "../judging/service/apply";
import { settingsOf as judgingSettingsOf, type ContestInfo } from "../judging/service/contest";
import { computeAll } from "../judging/service/results/compute";
import { loadInputs, loadSetting, requireWorkAwardLevel, workAwardLevels } from "../judging/service/results/load";
import { changePublished } from "../judging/service/results/versions";
import { loadSnapshot } from "../judging/service/snapshot";
import { applyTransition } from "../work/service/transition";
import type { ComplaintRow } from "./scope";

export interface ActionInput {
  action: DecisionAction;
  awardLevelId?: number | null;
  judgeIds?: number[];
}

interface Ctx {
  trx: Transaction<DB>;
  user: User;
  now: Date;
  complaint: ComplaintRow;
  /** plain text of the reason, for the work's disqualify reason and the version */
  reason: string;
  /** set by change_award: what it replaced (stored with the decision) */
  undo?: string;
  /** set by rejudge: the judges it assigned */
  rejudgeJudges?: number[];
}

const contestInfo = async (trx: Transaction<DB>, id: number): Promise<ContestInfo> =>
  (await trx
    .selectFrom("contest")
    .select(["id", "name", "level", "school_id"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow()) as ContestInfo;

const versionText = (v: { version: number | null; groupName: string | null }) =>
  v.version ? `；已发布「${v.groupName}」结果第 ${v.version} 版` : "";

/** Checks what can be checked before anything is written (awards exist, the work can take the action). */
export async function checkAction(trx: Transaction<DB>, c: ComplaintRow, a: ActionInput): Promise<void> {
  if (a.action === "change_award") {
    if (a.awardLevelId === undefined) throw badRequest("变更奖项须选择新的奖项（或选择“无奖项”）");
    const row = await trx
      .selectFrom("contest_result")
      .select("id")
      .where("contest_id", "=", c.contest_id)
      .where("work_id", "=", c.work_id)
      .executeTakeFirst();
    if (!row) throw badRequest(`作品 ${c.work_id} 在本赛事没有成绩记录，不能变更奖项`);
    if (a.awardLevelId !== null)
      requireWorkAwardLevel(
        await workAwardLevels(trx, (await contestInfo(trx, c.contest_id)).level),
        a.awardLevelId,
        (await contestInfo(trx, c.contest_id)).level,
      );
  }
  if (a.action === "disqualify") {
    const w = await trx.selectFrom("work").select("status").where("id", "=", c.work_id).executeTakeFirstOrThrow();
    if (w.status === "disqualified") throw badRequest(`作品 ${c.work_id} 已被取消资格，请选择其他处理方式`);
  }
}

/** Applies the action; returns what it did (for the complaint's record and the mails). */
export async function applyAction(ctx: Ctx, a: ActionInput): Promise<string | null> {
  const { trx, user, complaint: c } = ctx;
  const tag = `（${complaintLabel(c)}）`;
  switch (a.action) {
    case "no_change":
      return null;
    case "disqualify": {
      await applyTransition({ db: trx, user, now: ctx.now }, c.work_id, "disqualify", { reason: `${ctx.reason}${tag}` }, "root");
      const results = await trx.selectFrom("contest_result").select(["contest_id"]).where("work_id", "=", c.work_id).execute();
      let text = "作品已取消资格，奖项和晋级已撤销";
      for (const r of results) {
        const v = await changePublished(
          trx,
          {
            contestId: r.contest_id,
            workId: c.work_id,
            reason: `取消作品 ${c.work_id} 的资格，撤销奖项：${ctx.reason}`,
            complaintId: c.id,
            userId: user.id,
          },
          async () => {
            await trx
              .updateTable("contest_result")
              .set({ award_level_id: null, promoted: 0, award_manual: 1, updated_at: ctx.now.toISOString() })
              .where("contest_id", "=", r.contest_id)
              .where("work_id", "=", c.work_id)
              .execute();
          },
        );
        text += versionText(v);
      }
      return text;
    }
    case "change_award": {
      const info = await contestInfo(trx, c.contest_id);
      const before = await trx
        .selectFrom("contest_result")
        .select(["award_level_id", "award_manual", "promoted"])
        .where("contest_id", "=", c.contest_id)
        .where("work_id", "=", c.work_id)
        .executeTakeFirstOrThrow();
      ctx.undo = JSON.stringify({
        awardLevelId: before.award_level_id,
        awardManual: Number(before.award_manual),
        promoted: Number(before.promoted),
      });
      const level = a.awardLevelId
        ? requireWorkAwardLevel(await workAwardLevels(trx, info.level), a.awardLevelId, info.level)
        : null;
      const v = await changePublished(
        trx,
        {
          contestId: c.contest_id,
          workId: c.work_id,
          reason: `作品 ${c.work_id} 的奖项变更为「${level?.name ?? "无奖项"}」：${ctx.reason}`,
          complaintId: c.id,
          userId: user.id,
        },
        async () => {
          await trx
            .updateTable("contest_result")
            .set({
              award_level_id: level?.id ?? null,
              award_manual: 1,
              updated_at: ctx.now.toISOString(),
              ...(level ? {} : { promoted: 0 }),
            })
            .where("contest_id", "=", c.contest_id)
            .where("work_id", "=", c.work_id)
            .execute();
        },
      );
      return `奖项已变更为「${level?.name ?? "无奖项"}」${versionText(v)}`;
    }
    case "rejudge":
      return rejudge(ctx, a.judgeIds);
  }
}

/**
 * Takes back a decision's change_award when the arbitration revises it: the award, its
 * manual flag and the promotion as they were before (a new result version when published).
 * A disqualification or a re-judge is not taken back (refused before the ruling).
 */
export async function undoDecision(ctx: Ctx): Promise<string | null> {
  const { trx, complaint: c, user } = ctx;
  if (c.decision_action !== "change_award" || !c.decision_undo) return null;
  const u = JSON.parse(c.decision_undo) as { awardLevelId: number | null; awardManual: number; promoted: number };
  const name = u.awardLevelId
    ? ((await trx.selectFrom("award_level").select("name").where("id", "=", u.awardLevelId).executeTakeFirst())?.name ?? null)
    : null;
  const v = await changePublished(
    trx,
    {
      contestId: c.contest_id,
      workId: c.work_id,
      reason: `仲裁变更决定，作品 ${c.work_id} 恢复原奖项「${name ?? "无奖项"}」：${ctx.reason}`,
      complaintId: c.id,
      userId: user.id,
    },
    async () => {
      await trx
        .updateTable("contest_result")
        .set({
          award_level_id: u.awardLevelId,
          award_manual: u.awardManual,
          promoted: u.promoted,
          updated_at: ctx.now.toISOString(),
        })
        .where("contest_id", "=", c.contest_id)
        .where("work_id", "=", c.work_id)
        .execute();
    },
  );
  return `已恢复原奖项「${name ?? "无奖项"}」${versionText(v)}`;
}

/** Every judge who was ever assigned or scored the work, in any contest. */
export async function earlierJudges(db: Transaction<DB>, workId: number): Promise<number[]> {
  const a = await db.selectFrom("judge_assignment").select("judge_id").where("work_id", "=", workId).execute();
  const s = await db.selectFrom("judge_score").select("judge_id").where("work_id", "=", workId).execute();
  return [...new Set([...a, ...s].map((r) => r.judge_id))].sort((x, y) => x - y);
}

async function rejudge(ctx: Ctx, named?: number[]): Promise<string> {
  const { trx, complaint: c, user } = ctx;
  const info = await contestInfo(trx, c.contest_id);
  const settings = await judgingSettingsOf(trx, info.id);
  const snap = await loadSnapshot(trx, info, settings, [c.work_id]);
  const w = snap.input.works.find((x) => x.id === c.work_id);
  if (!w) throw badRequest(`作品 ${c.work_id} 不在本赛事的评审作品中（或尚未分入评审组），不能重新评审`);
  const earlier = await earlierJudges(trx, c.work_id);
  const existing = w.existingJudgeIds ?? [];
  let add: { workId: number; judgeId: number }[];
  if (named?.length) {
    const again = named.filter((j) => earlier.includes(j));
    if (again.length) throw badRequest(`重新评审不能由此前评过该作品的评委担任（用户 ${again.join("、")}）`);
    add = [...new Set(named)].map((judgeId) => ({ workId: w.id, judgeId }));
  } else {
    // As many fresh judges as a work needs, or as many as the group still has free of conflicts.
    const extraConflicts = earlier.map((judgeId) => ({ workId: w.id, judgeId }));
    add = [];
    for (let k = settings.reviewsPerWork; k >= 1 && !add.length; k--) {
      const proposal = minCostFlow.propose(
        {
          ...snap.input,
          extraConflicts: [...(snap.input.extraConflicts ?? []), ...extraConflicts],
          works: [{ ...w, needed: existing.length + k }],
        },
        minCostFlow.defaults,
      );
      if (proposal.rows.length === k) add = proposal.rows.filter((r) => !earlier.includes(r.judgeId));
    }
    if (!add.length)
      throw badRequest(`作品 ${w.id} 所在评审组没有未评过该作品且无回避关系的评委，无法重新评审；请先为评审组增加评委`);
  }
  await applyAssignments(trx, {
    contest: info,
    userId: user.id,
    add,
    settings: { ...settings, reviewsPerWork: Math.max(settings.reviewsPerWork, existing.length + add.length) },
  });
  ctx.rejudgeJudges = add.map((x) => x.judgeId);
  const names = await trx
    .selectFrom("app_user")
    .select(["id", "name"])
    .where(
      "id",
      "in",
      add.map((x) => x.judgeId),
    )
    .execute();
  return `已为作品分配 ${add.length} 位新评委重新评审（${names.map((n) => n.name).join("、")}），此前的 ${earlier.length} 位评委均已回避；新评分全部提交后替换原评分`;
}

/**
 * The re-judge's scores replace the old ones: once every judge the re-judge assigned has
 * submitted, the earlier scores of the work in the contest are marked superseded (kept, no
 * longer counted), the work's result group is computed again with the contest's last
 * options and its rows' scores and ranks updated (awards and promotions stay as they are; a
 * change of award is another decision) — a new result version when published.
 */
export async function applyRejudge(ctx: Ctx): Promise<string> {
  const { trx, complaint: c, user } = ctx;
  const judges = c.rejudge_judges ? (JSON.parse(c.rejudge_judges) as number[]) : [];
  if (!judges.length) throw badRequest("该申诉的决定没有重新评审");
  if (c.rejudge_applied_at) throw badRequest("重新评审的成绩已经替换过原成绩");
  const submitted = await trx
    .selectFrom("judge_score")
    .select("judge_id")
    .where("contest_id", "=", c.contest_id)
    .where("work_id", "=", c.work_id)
    .where("judge_id", "in", judges)
    .where("status", "=", "submitted")
    .execute();
  const missing = judges.filter((j) => !submitted.some((s) => s.judge_id === j));
  if (missing.length) {
    const names = await trx.selectFrom("app_user").select("name").where("id", "in", missing).execute();
    throw badRequest(`重新评审尚未完成：${names.map((n) => n.name).join("、")} 尚未提交评分`);
  }
  const info = await contestInfo(trx, c.contest_id);
  const at = ctx.now.toISOString();
  const v = await changePublished(
    trx,
    {
      contestId: c.contest_id,
      workId: c.work_id,
      reason: `作品 ${c.work_id} 重新评审，新评分替换原评分：${ctx.reason}`,
      complaintId: c.id,
      userId: user.id,
    },
    async () => {
      await trx
        .updateTable("judge_score")
        .set({ superseded_at: at })
        .where("contest_id", "=", c.contest_id)
        .where("work_id", "=", c.work_id)
        .where("judge_id", "not in", judges)
        .where("superseded_at", "is", null)
        .execute();
      const setting = await loadSetting(trx, c.contest_id);
      const inputs = await loadInputs(trx, info);
      const key = inputs.works.get(c.work_id)?.key;
      const group = key ? computeAll(inputs, setting.threshold, setting.basis).find((g) => g.key === key) : undefined;
      if (!group) throw badRequest(`作品 ${c.work_id} 已不在本赛事的评审作品中，不能更新成绩`);
      for (const r of group.rows) {
        await trx
          .updateTable("contest_result")
          .set({
            raw_mean: r.rawMean,
            normalised: r.normalised,
            judge_count: r.judgeCount,
            spread: r.spread,
            flagged: r.flagged ? 1 : 0,
            rank: r.rank,
            defence_mean: r.defenceMean,
            defence_count: r.defenceCount,
            updated_at: at,
          })
          .where("contest_id", "=", c.contest_id)
          .where("work_id", "=", r.workId)
          .execute();
      }
    },
  );
  const row = await trx
    .selectFrom("contest_result")
    .select(["rank", "normalised"])
    .where("contest_id", "=", c.contest_id)
    .where("work_id", "=", c.work_id)
    .executeTakeFirst();
  return `重新评审的 ${judges.length} 位评委的评分已替换原评分，作品现排名第 ${row?.rank ?? "—"}（标准化成绩 ${row?.normalised === null || row?.normalised === undefined ? "—" : Number(row.normalised).toFixed(2)}）${versionText(v)}`;
}

export const actionName = (a: DecisionAction) => DECISION_ACTION_NAMES[a];
