/**
 * A pool person's judging history, computed from what the platform already holds (nothing is
 * stored): every account reachable from the record (its own and merged duplicates'), the
 * contests they judged (contest_member "judge") with their judge groups, their submitted
 * online scores and how many came in by the 网络评审 stage's end, and — from the PUBLISHED
 * normalisation fits (the newest non-withdrawn result_publication of each contest) — their
 * judge effect and the share of their works flagged as disagreements. The definitions are in
 * src/shared/judge-pool/schema.ts (HISTORY); what cannot be computed is null.
 */
import type { HistoryContest, JudgeHistory } from "../../shared/judge-pool/schema";
import type { Handle } from "../work/repository";
import type { PublishedParams } from "../judging/service/results/publish";

/** The accounts of a person: its own and those of the rows merged into it. */
export async function accountsOf(db: Handle, personId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("judge_person")
    .select("user_id")
    .where((eb) => eb.or([eb("id", "=", personId), eb("merged_into", "=", personId)]))
    .where("user_id", "is not", null)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.user_id!);
}

interface Fitted {
  /** Σ effect × count and Σ count over the groups the accounts are in */
  effectSum: number;
  count: number;
  /** works the accounts scored in published groups, and how many were flagged */
  works: number;
  flagged: number;
}

/** What the published fit of one contest says about these accounts (null: not in it). */
function fromPublication(params: PublishedParams, accounts: ReadonlySet<number>): Fitted | null {
  const out: Fitted = { effectSum: 0, count: 0, works: 0, flagged: 0 };
  const threshold = params.options?.disagreementThreshold ?? Number.POSITIVE_INFINITY;
  for (const g of params.groups ?? []) {
    for (const j of g.judges ?? []) {
      if (!accounts.has(j.judgeId)) continue;
      out.effectSum += j.effect * j.count;
      out.count += j.count;
    }
    const range = new Map<number, { min: number; max: number }>();
    const mine = new Set<number>();
    for (const [workId, judgeId, score] of g.scores ?? []) {
      const r = range.get(workId);
      if (r) {
        r.min = Math.min(r.min, score);
        r.max = Math.max(r.max, score);
      } else range.set(workId, { min: score, max: score });
      if (accounts.has(judgeId)) mine.add(workId);
    }
    for (const w of mine) {
      out.works++;
      const r = range.get(w)!;
      if (r.max - r.min > threshold) out.flagged++;
    }
  }
  return out.count > 0 || out.works > 0 ? out : null;
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function historyOf(db: Handle, personId: number): Promise<JudgeHistory> {
  const accountIds = await accountsOf(db, personId);
  const empty: JudgeHistory = {
    personId,
    accountIds,
    contests: [],
    groups: 0,
    worksScored: 0,
    onTimeRate: null,
    effect: null,
    disagreementRate: null,
    publishedScores: 0,
  };
  if (!accountIds.length) return empty;
  const accounts = new Set(accountIds);

  const member = await db
    .selectFrom("contest_member")
    .select("contest_id")
    .where("role", "=", "judge")
    .where("user_id", "in", accountIds)
    .execute();
  const groups = await db
    .selectFrom("judge_group_member as gm")
    .innerJoin("judge_group as g", "g.id", "gm.group_id")
    .select(["g.contest_id", "g.id", "g.name"])
    .where("gm.user_id", "in", accountIds)
    .orderBy("g.id")
    .execute();
  const scores = await db
    .selectFrom("judge_score")
    .select(["contest_id", "submitted_at"])
    .where("judge_id", "in", accountIds)
    .where("status", "=", "submitted")
    .execute();
  const contestIds = [
    ...new Set([...member.map((m) => m.contest_id), ...groups.map((g) => g.contest_id), ...scores.map((s) => s.contest_id)]),
  ];
  if (!contestIds.length) return empty;

  const contests = await db
    .selectFrom("contest")
    .select(["id", "name", "year", "level"])
    .where("id", "in", contestIds)
    .orderBy("year", "desc")
    .orderBy("id", "desc")
    .execute();
  const deadlines = new Map(
    (
      await db
        .selectFrom("contest_stage")
        .select(["contest_id", "ends_at"])
        .where("stage", "=", "online_judging")
        .where("contest_id", "in", contestIds)
        .execute()
    ).map((s) => [s.contest_id, s.ends_at]),
  );
  // The newest publication in force of each contest.
  const pubs = await db
    .selectFrom("result_publication")
    .select(["id", "contest_id", "params"])
    .where("contest_id", "in", contestIds)
    .where("withdrawn_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  const fits = new Map<number, Fitted | null>();
  for (const p of pubs) {
    if (fits.has(p.contest_id)) continue;
    let params: PublishedParams | null;
    try {
      params = JSON.parse(p.params) as PublishedParams;
    } catch {
      params = null;
    }
    fits.set(p.contest_id, params ? fromPublication(params, accounts) : null);
  }

  let onTime = 0;
  let withDeadline = 0;
  let effectSum = 0;
  let effectCount = 0;
  let works = 0;
  let flagged = 0;
  const list: HistoryContest[] = contests.map((c) => {
    const mine = scores.filter((s) => s.contest_id === c.id);
    const deadline = deadlines.get(c.id) ?? null;
    const inTime = deadline
      ? mine.filter((s) => s.submitted_at !== null && Date.parse(s.submitted_at) <= Date.parse(deadline)).length
      : 0;
    if (deadline) {
      withDeadline += mine.length;
      onTime += inTime;
    }
    const fit = fits.get(c.id) ?? null;
    if (fit) {
      effectSum += fit.effectSum;
      effectCount += fit.count;
      works += fit.works;
      flagged += fit.flagged;
    }
    return {
      contest: { id: c.id, name: c.name, year: c.year, level: c.level },
      groups: groups.filter((g) => g.contest_id === c.id).map((g) => g.name),
      worksScored: mine.length,
      deadline,
      onTime: inTime,
      effect: fit && fit.count ? round(fit.effectSum / fit.count, 3) : null,
      disagreementRate: fit && fit.works ? round(fit.flagged / fit.works) : null,
    };
  });
  return {
    personId,
    accountIds,
    contests: list,
    groups: new Set(groups.map((g) => g.id)).size,
    worksScored: scores.length,
    onTimeRate: withDeadline ? round(onTime / withDeadline) : null,
    effect: effectCount ? round(effectSum / effectCount, 3) : null,
    disagreementRate: works ? round(flagged / works) : null,
    publishedScores: effectCount,
  };
}
