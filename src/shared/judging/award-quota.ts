/**
 * How many works of a result group each work award takes when awards are allocated by ratio
 * (⌊works × ratio⌋, at most the level's count; null: given by hand only), and the warning the
 * contest admin reads when a level's share of a group rounds down to none although the group
 * has works (5 works × 10 % gives no 一等奖). Pure: the server allocates with it
 * (src/server/judging/results.ts), the results screen shows the warning before allocating.
 */

export interface QuotaRule {
  ratio: number | null;
  maxCount: number | null;
}

/** How many awards each level gives in a group of n works (null: only by hand). */
export function levelCounts<L extends QuotaRule>(levels: readonly L[], n: number): (number | null)[] {
  return levels.map((l) => {
    if (l.ratio === null && l.maxCount === null) return null;
    let count = l.ratio !== null ? Math.floor(n * l.ratio + 1e-9) : Number.POSITIVE_INFINITY;
    if (l.maxCount !== null) count = Math.min(count, l.maxCount);
    return count;
  });
}

const pct = (ratio: number) => `${Math.round(ratio * 1000) / 10}%`;

/**
 * One Chinese sentence per group with works where a level's quota is 0, naming the levels and
 * why (the rounding, or a count of 0); empty when every level gets at least one award.
 */
export function zeroQuotaWarnings(
  groups: readonly { name: string; works: number }[],
  levels: readonly (QuotaRule & { name: string })[],
): string[] {
  const out: string[] = [];
  for (const g of groups) {
    if (g.works <= 0) continue;
    const counts = levelCounts(levels, g.works);
    const zero = levels
      .map((l, i) => ({ l, c: counts[i] }))
      .filter((x) => x.c === 0)
      .map(({ l }) => (l.maxCount === 0 ? `${l.name}（名额为 0）` : `${l.name}（⌊${g.works} × ${pct(l.ratio!)}⌋ = 0）`));
    if (zero.length)
      out.push(
        `「${g.name}」共 ${g.works} 件作品，${zero.join("、")}：按比例分配时本组没有${zero.length > 1 ? "这些奖项" : "该奖项"}；如需颁发，请在排名表中手动设置奖项`,
      );
  }
  return out;
}
