/**
 * Publishing the results and withdrawing the publication; what a publication stores so that
 * every published score can be reproduced; the publications of a contest. (Whether results are
 * published and the published awards of a work are read in ../../../work/published.ts.)
 */
import type { Transaction } from "kysely";
import { badRequest, conflict } from "../../../../shared/errors";
import type { Basis, PublicationView, PublishBody } from "../../../../shared/judging/result-schema";
import type { Db } from "../../../db";
import type { DB, User } from "../../../db/schema";
import { record } from "../../../common/audit";
import { emit } from "../../../events";
import type { Handle } from "../../../work/repository";
// The publication test and the published awards are read below judging (by the works pages too).
export { publishedAward, publishedAwards, resultsPublished } from "../../../work/published";
import { NORMALISE_DEFAULTS, SCORING_MODEL, SCORING_MODEL_VERSION, type FitParameters } from "../../scoring";
import { settingsOf } from "../contest";
import { encodeHeads } from "../../score-log";
import { lockScoreLog, scoreLogHead } from "../score-log-store";
import { activePublication, changeResults } from "./change";
import { changedWorks, computeAll } from "./compute";
import { isIncomplete, loadInputs, loadSetting, push, resultGroupNames } from "./load";
import { storedRows } from "./rows";

const DAY = 86_400_000;
/** A publicity period the publication opens when the contest has none running. */
export const PUBLICITY_DAYS = 7;

/** What a publication stores in params: enough to recompute every published score. */
export interface PublishedParams {
  model: string;
  version: number;
  options: { disagreementThreshold: number; tolerance: number; maxIterations: number; center: string };
  groups: {
    key: string;
    name: string;
    basis: Basis;
    fit: FitParameters;
    judges: { judgeId: number; effect: number; count: number }[];
    /** [workId, judgeId, score] */
    scores: [number, number, number][];
    /** works not ranked: fewer online scores than needed (issue 15) */
    incomplete?: number[];
    /** the award allocation included the incomplete works (the admin's explicit choice) */
    includeIncomplete?: boolean;
  }[];
  /** the reviews per work the completeness was judged by */
  reviewsPerWork?: number;
  /** the publicity stage before and after the publication (null: not changed) */
  publicity: { before: { startsAt: string; endsAt: string } | null; after: { startsAt: string; endsAt: string } } | null;
}

/** The contest's publications, newest first. */
export async function publications(db: Handle, contestId: number): Promise<PublicationView[]> {
  const rows = await db
    .selectFrom("result_publication as r")
    .innerJoin("app_user as p", "p.id", "r.published_by")
    .leftJoin("app_user as w", "w.id", "r.withdrawn_by")
    .select([
      "r.id",
      "r.published_at",
      "r.model",
      "r.model_version",
      "r.log_head",
      "r.log_seq",
      "r.note",
      "r.withdrawn_at",
      "r.withdraw_reason",
    ])
    .select(["p.name as published_by", "w.name as withdrawn_by"])
    .where("r.contest_id", "=", contestId)
    .orderBy("r.id", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    publishedAt: r.published_at,
    publishedBy: r.published_by,
    model: r.model,
    modelVersion: Number(r.model_version),
    logHead: r.log_head,
    logSeq: Number(r.log_seq),
    note: r.note,
    withdrawnAt: r.withdrawn_at,
    withdrawnBy: r.withdrawn_by ?? null,
    withdrawReason: r.withdraw_reason,
  }));
}

const publication = async (db: Handle, contestId: number, id: number) =>
  (await publications(db, contestId)).find((p) => p.id === id)!;

const publicityStage = (trx: Transaction<DB>, contestId: number) =>
  trx
    .selectFrom("contest_stage")
    .select(["id", "starts_at", "ends_at"])
    .where("contest_id", "=", contestId)
    .where("stage", "=", "publicity")
    .executeTakeFirst();

/** Starts the publicity stage now: created, moved forward or reopened for PUBLICITY_DAYS; null when it is running. */
async function openPublicity(trx: Transaction<DB>, contestId: number, now: Date): Promise<PublishedParams["publicity"]> {
  const stage = await publicityStage(trx, contestId);
  const t = now.getTime();
  const startsAt = now.toISOString();
  const week = new Date(t + PUBLICITY_DAYS * DAY).toISOString();
  if (!stage) {
    await trx
      .insertInto("contest_stage")
      .values({ contest_id: contestId, stage: "publicity", starts_at: startsAt, ends_at: week })
      .execute();
    return { before: null, after: { startsAt, endsAt: week } };
  }
  const before = { startsAt: stage.starts_at, endsAt: stage.ends_at };
  if (Date.parse(stage.starts_at) <= t && t < Date.parse(stage.ends_at)) return null;
  const after = { startsAt, endsAt: Date.parse(stage.ends_at) > t ? stage.ends_at : week };
  await trx
    .updateTable("contest_stage")
    .set({ starts_at: after.startsAt, ends_at: after.endsAt })
    .where("id", "=", stage.id)
    .execute();
  return { before, after };
}

export async function publishResults(db: Db, user: User, contestId: number, body: PublishBody): Promise<PublicationView> {
  return changeResults(db, user, contestId, async (trx, c) => {
    // No score changes from here on: the heads anchored below are those of the scores read now.
    await lockScoreLog(trx, c.id);
    const setting = await loadSetting(trx, c.id);
    const stored = await storedRows(trx, c.id);
    if (!stored.length || !setting.computedAt) throw badRequest("请先计算成绩并分配奖项，再发布结果");
    const inputs = await loadInputs(trx, c);
    const groups = computeAll(inputs, setting.threshold, setting.basis);
    const changed = changedWorks(stored, groups, inputs.works);
    if (changed.length)
      throw conflict(
        `计算成绩之后评分有变化（${changed.length} 件作品，如作品 ${changed.slice(0, 3).join("、")}），请重新计算成绩并核对奖项后再发布`,
      );
    if (!stored.some((r) => r.award_level_id !== null)) throw badRequest("还没有作品获奖，请先分配奖项再发布结果");
    const needed = (await settingsOf(trx, c.id)).reviewsPerWork;
    const incomplete = stored.filter((r) => isIncomplete(r.judge_count, needed, inputs.assigned.get(r.work_id) ?? 0));
    if (incomplete.length && !body.confirmIncomplete) {
      throw badRequest(
        `有 ${incomplete.length} 件作品的网评评分未完成（如作品 ${incomplete
          .slice(0, 3)
          .map((r) => r.work_id)
          .join("、")}）；确认仍要发布请勾选“评分未完成时仍发布”`,
      );
    }
    const names = await resultGroupNames(
      trx,
      c.id,
      groups.map((g) => g.key),
    );
    const now = new Date();
    const publicity = await openPublicity(trx, c.id, now);
    const scoresBy = new Map<string, [number, number, number][]>();
    for (const s of [...inputs.scores].sort((a, b) => a.workId - b.workId || a.judgeId - b.judgeId)) {
      const key = inputs.works.get(s.workId)!.key;
      push(scoresBy, key, [s.workId, s.judgeId, s.score]);
    }
    const params: PublishedParams = {
      model: SCORING_MODEL,
      version: SCORING_MODEL_VERSION,
      options: {
        disagreementThreshold: setting.threshold,
        tolerance: NORMALISE_DEFAULTS.tolerance,
        maxIterations: NORMALISE_DEFAULTS.maxIterations,
        center: NORMALISE_DEFAULTS.center,
      },
      groups: groups.map((g) => ({
        key: g.key,
        name: names.get(g.key) ?? g.key,
        basis: g.basis,
        fit: g.fit,
        judges: g.judges.map((j) => ({ judgeId: j.judgeId, effect: j.effect, count: j.count })),
        scores: scoresBy.get(g.key) ?? [],
        incomplete: g.rows.filter((r) => r.incomplete).map((r) => r.workId),
        includeIncomplete: setting.includeIncomplete.includes(g.key),
      })),
      reviewsPerWork: needed,
      publicity,
    };
    const head = await scoreLogHead(trx, c.id);
    const row = await trx
      .insertInto("result_publication")
      .values({
        contest_id: c.id,
        published_at: now.toISOString(),
        published_by: user.id,
        model: SCORING_MODEL,
        model_version: SCORING_MODEL_VERSION,
        params: JSON.stringify(params),
        log_head: head.hash,
        log_seq: head.seq,
        log_heads: encodeHeads(head.heads),
        note: body.note?.trim() || null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The certificates and the national entries follow, in this transaction (src/server/effects.ts).
    await emit(trx, "results.changed", { contestId: c.id, userId: user.id, at: now });
    await record(trx, user.id, {
      entity: "result_publication",
      entityId: row.id,
      action: "publish",
      changes: {
        contest: [null, c.id],
        logHead: [null, head.hash],
        logSeq: [null, head.seq],
        publicity: [publicity?.before ?? null, publicity?.after ?? null],
      },
    });
    return publication(trx, c.id, row.id);
  });
}

export async function unpublishResults(db: Db, user: User, contestId: number, reason: string): Promise<PublicationView> {
  return changeResults(
    db,
    user,
    contestId,
    async (trx, c) => {
      const pub = await activePublication(trx, c.id);
      if (!pub) throw badRequest("本赛事的结果尚未发布，无需撤回");
      const text = reason.trim();
      if (text.length < 2) throw badRequest("请填写撤回发布的原因");
      const at = new Date().toISOString();
      await trx
        .updateTable("result_publication")
        .set({ withdrawn_at: at, withdrawn_by: user.id, withdraw_reason: text })
        .where("id", "=", pub.id)
        .execute();
      const params = JSON.parse(pub.params) as PublishedParams;
      if (params.publicity) {
        const stage = await publicityStage(trx, c.id);
        // Only when nobody changed the stage since the publication set it.
        if (stage && stage.starts_at === params.publicity.after.startsAt && stage.ends_at === params.publicity.after.endsAt) {
          const before = params.publicity.before;
          if (before)
            await trx
              .updateTable("contest_stage")
              .set({ starts_at: before.startsAt, ends_at: before.endsAt })
              .where("id", "=", stage.id)
              .execute();
          else await trx.deleteFrom("contest_stage").where("id", "=", stage.id).execute();
        }
      }
      await emit(trx, "results.changed", { contestId: c.id, userId: user.id });
      await record(trx, user.id, {
        entity: "result_publication",
        entityId: pub.id,
        action: "withdraw",
        changes: { withdrawn: [null, at], reason: [null, text] },
      });
      return publication(trx, c.id, pub.id);
    },
    { whilePublished: true },
  );
}

/** The stored params of a publication (for the reproduction check and audits). */
export async function publicationParams(db: Handle, publicationId: number): Promise<PublishedParams> {
  const row = await db
    .selectFrom("result_publication")
    .select("params")
    .where("id", "=", publicationId)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.params) as PublishedParams;
}
