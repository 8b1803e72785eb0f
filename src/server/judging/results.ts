/**
 * The results of a contest, pure: from the submitted online scores (and the defence scores)
 * of each result group to its ranking, the award allocation and the choice of works
 * promoted to the next contest level. The service (service/results/) loads and stores;
 * everything decided here is decided from plain values, so it is tested without a database
 * and a publication can be recomputed from what it stored.
 *
 * RESULT GROUPS. A work is ranked in its judge group; a work in no judge group in the group
 * of its 大类 ("c<category id>"). Each group is normalised on its own (its judges form
 * their own panels).
 *
 * RANKING. The score a group ranks by is the normalised online score (additive judge-effect
 * model, ../scoring.ts) or, when the admin chose it for the group, the mean of its defence
 * scores. Equal scores (within 1e-9) share a rank (1, 2, 2, 4); works without a score are
 * not ranked. INCOMPLETE WORKS: a work with fewer submitted online scores than it needs (the
 * reviews per work, or its judges if more) is not ranked while the group ranks by the online
 * score — one lenient score must not put it above works every judge scored; it is listed
 * apart (rank null, its provisional score kept) until its scores are complete.
 *
 * AWARDS. The contest level's work awards in their order (一等奖 first). A level with a
 * ratio gives ⌊works in the group × ratio⌋ awards, a level with a maximum count at most that
 * many per group (both: the smaller); a level with neither (优秀奖 by default) is only given
 * by hand. Only the ranked (complete) works count, for the number of awards and for the
 * positions, unless the admin explicitly includes the incomplete works: then every scored
 * work is ranked by its score for the allocation (allocationRanks). Going down the ranking, position p (0-based, counting every ranked work) gets the
 * first level whose cumulative count exceeds p. TIES AT A BOUNDARY: works sharing a rank get
 * the award of the first of them, so a tie straddling a boundary all get the better award
 * and the next level is that much smaller. An award set by hand is kept (the work still
 * takes its position in the ranking).
 *
 * PROMOTION. Candidates are the works with an award (at most as low as a given level),
 * best award first, then by the relative rank in their group ((rank − 1) / works in the
 * group, so groups of different sizes compare), then by score, then by work id. They are
 * taken in that order while the contest's quota to its parent (in all, and per 大类) lasts;
 * a work that does not fit its 大类 does not stop works of other 大类.
 */
import { levelCounts } from "../../shared/judging/award-quota";
import { normaliseScores, type FitParameters, type JudgeEffect, type NormaliseOptions, type Score } from "./scoring";

export type Basis = "online" | "defence";

/** "g<judge group id>" or, for works in no judge group, "c<大类 id>". */
export const groupKeyOf = (groupId: number | null, categoryId: number) => (groupId !== null ? `g${groupId}` : `c${categoryId}`);

export interface GroupInput {
  key: string;
  /** Every work of the group, scored or not. */
  workIds: readonly number[];
  /** The submitted online scores of the group's works. */
  scores: readonly Score[];
  /** Defence mean and count per work (works with defence scores only). */
  defence: ReadonlyMap<number, { mean: number; count: number }>;
  basis: Basis;
  /** Works with fewer online scores than they need: not ranked on the online basis. */
  incomplete?: ReadonlySet<number>;
}

export interface ComputedRow {
  workId: number;
  judgeCount: number;
  rawMean: number | null;
  normalised: number | null;
  spread: number | null;
  flagged: boolean;
  defenceMean: number | null;
  defenceCount: number;
  /** What the group ranks by (normalised or defence mean); null: no score. */
  score: number | null;
  /** Not ranked because its online scores are incomplete (online basis only). */
  incomplete: boolean;
  rank: number | null;
}

export interface ComputedGroup {
  key: string;
  basis: Basis;
  rows: ComputedRow[];
  fit: FitParameters;
  judges: JudgeEffect[];
  extraJudge: { workId: number; existingJudgeIds: number[]; needed: number }[];
}

const TIE = 1e-9;
const tied = (a: number, b: number) => Math.abs(a - b) <= TIE * Math.max(1, Math.abs(a), Math.abs(b));

/** Competition ranks (1, 2, 2, 4) by score, highest first; null scores get no rank. Ordered by rank, then work id. */
export function rankRows<T extends { workId: number; score: number | null }>(
  rows: readonly T[],
): (T & { rank: number | null })[] {
  const sorted = [...rows].sort((a, b) => {
    if (a.score === null || b.score === null)
      return a.score === null && b.score === null ? a.workId - b.workId : a.score === null ? 1 : -1;
    return tied(a.score, b.score) ? a.workId - b.workId : b.score - a.score;
  });
  let rank = 0;
  return sorted.map((r, i) => {
    if (r.score === null) return { ...r, rank: null };
    if (i === 0 || sorted[i - 1].score === null || !tied(sorted[i - 1].score!, r.score)) rank = i + 1;
    return { ...r, rank };
  });
}

/** Normalises, flags and ranks one group. */
export function computeGroup(g: GroupInput, options: Partial<NormaliseOptions>): ComputedGroup {
  const inGroup = new Set(g.workIds);
  const scores = g.scores.filter((s) => inGroup.has(s.workId));
  const fitted = normaliseScores(scores, options);
  const byWork = new Map(fitted.works.map((w) => [w.workId, w]));
  const rows = g.workIds.map((workId) => {
    const w = byWork.get(workId);
    const d = g.defence.get(workId);
    const normalised = w ? w.normalised : null;
    const defenceMean = d ? d.mean : null;
    return {
      workId,
      judgeCount: w?.count ?? 0,
      rawMean: w ? w.rawMean : null,
      normalised,
      spread: w ? w.spread : null,
      flagged: !!w?.disagreement,
      defenceMean,
      defenceCount: d?.count ?? 0,
      score: g.basis === "defence" ? defenceMean : normalised,
      incomplete: g.basis === "online" && !!g.incomplete?.has(workId),
    };
  });
  // Complete works ranked first; the incomplete ones follow unranked (listed apart), by work id.
  const ranked = rankRows(rows.filter((r) => !r.incomplete));
  const apart = rows
    .filter((r) => r.incomplete)
    .sort((a, b) => a.workId - b.workId)
    .map((r) => ({ ...r, rank: null }));
  return {
    key: g.key,
    basis: g.basis,
    rows: [...ranked, ...apart],
    fit: fitted.fit,
    judges: fitted.judges,
    extraJudge: fitted.extraJudge,
  };
}

export interface AwardLevelRule {
  id: number;
  ratio: number | null;
  maxCount: number | null;
}

// How many awards each level gives in a group of n works: shared with the results screen's warning.
export { levelCounts };

export interface AllocRow {
  workId: number;
  rank: number | null;
  manual: boolean;
  awardLevelId: number | null;
}

/**
 * The award of every row of one group (manual rows keep theirs), by the rules of the module
 * comment. `rows` are the group's works in any order; `levels` in award order.
 */
export function allocateAwards(rows: readonly AllocRow[], levels: readonly AwardLevelRule[]): Map<number, number | null> {
  const counts = levelCounts(levels, rows.length);
  const bounds: { id: number; upTo: number }[] = [];
  let cum = 0;
  levels.forEach((l, i) => {
    const c = counts[i];
    if (c === null) return;
    cum += c;
    bounds.push({ id: l.id, upTo: cum });
  });
  const ranked = rows.filter((r) => r.rank !== null).sort((a, b) => a.rank! - b.rank! || a.workId - b.workId);
  const out = new Map<number, number | null>();
  let tieStart = 0;
  ranked.forEach((r, p) => {
    if (p > 0 && ranked[p - 1].rank !== r.rank) tieStart = p;
    const award = bounds.find((b) => tieStart < b.upTo)?.id ?? null;
    out.set(r.workId, r.manual ? r.awardLevelId : award);
  });
  for (const r of rows) if (r.rank === null) out.set(r.workId, r.manual ? r.awardLevelId : null);
  return out;
}

/**
 * The ranks the award allocation goes by, per work: the stored ranks (complete works only)
 * or, when the admin includes the incomplete works, every scored work ranked by its score.
 * Works not taking part get null (and count neither for the number of awards).
 */
export function allocationRanks(
  rows: readonly { workId: number; rank: number | null; score: number | null }[],
  includeIncomplete: boolean,
): Map<number, number | null> {
  if (!includeIncomplete) return new Map(rows.map((r) => [r.workId, r.rank]));
  return new Map(rankRows(rows.map((r) => ({ workId: r.workId, score: r.score }))).map((r) => [r.workId, r.rank]));
}

export interface PromotionCandidate {
  workId: number;
  categoryId: number;
  /** sort of the work's award level (lower is better) */
  awardSort: number;
  rank: number;
  groupSize: number;
  score: number;
}

export interface PromotionChoice {
  promoted: number[];
  /** candidates left out by the quota */
  left: { workId: number; categoryId: number; reason: "total" | "category" }[];
}

/** Takes candidates in order (module comment) while the total and per-大类 quotas last (null: no limit). */
export function choosePromotions(
  candidates: readonly PromotionCandidate[],
  total: number | null,
  perCategory: Readonly<Record<string, number>>,
): PromotionChoice {
  const order = [...candidates].sort(
    (a, b) =>
      a.awardSort - b.awardSort ||
      (a.rank - 1) / a.groupSize - (b.rank - 1) / b.groupSize ||
      b.score - a.score ||
      a.workId - b.workId,
  );
  const used = new Map<number, number>();
  const promoted: number[] = [];
  const left: PromotionChoice["left"] = [];
  for (const c of order) {
    if (total !== null && promoted.length >= total) {
      left.push({ workId: c.workId, categoryId: c.categoryId, reason: "total" });
      continue;
    }
    const cap = perCategory[String(c.categoryId)];
    const n = used.get(c.categoryId) ?? 0;
    if (cap !== undefined && n >= cap) {
      left.push({ workId: c.workId, categoryId: c.categoryId, reason: "category" });
      continue;
    }
    used.set(c.categoryId, n + 1);
    promoted.push(c.workId);
  }
  return { promoted, left };
}
