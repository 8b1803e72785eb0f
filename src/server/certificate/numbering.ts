/**
 * Certificate numbers: `<contest code>-<award rank>-<sequence>`, e.g. 2026-JS-1-000123.
 *
 * - contest code: the contest's natural key (contest.code, "2026-JS": year and province; it
 *   starts with the year), or `<year>-C<id>` for a contest without a code;
 * - award rank: the award level's sort (1 一等奖, 2 二等奖, 3 三等奖, 4 优秀奖, 5 优秀指导教师,
 *   6 优秀组织奖) at the first issue;
 * - sequence: six digits (more when needed), counted per prefix (code + rank) from 1.
 * A number never changes once issued: a reissue (a changed award, a corrected name) keeps it
 * and bumps the version, so the rank digit tells the award the certificate was first issued
 * for; the current award is in the certificate's facts.
 */
import type { Handle } from "../work/repository";

export const numberPrefix = (contest: { id: number; year: number; code: string | null }, awardRank: number) =>
  `${contest.code?.trim() || `${contest.year}-C${contest.id}`}-${awardRank}`;

export const formatNumber = (prefix: string, seq: number) => `${prefix}-${String(seq).padStart(6, "0")}`;

/** The next `count` numbers of a prefix: one atomic increment of its counter row. */
export async function nextNumbers(db: Handle, prefix: string, count = 1): Promise<string[]> {
  await db
    .insertInto("certificate_sequence")
    .values({ prefix, last: 0 })
    .onConflict((oc) => oc.column("prefix").doNothing())
    .execute();
  const row = await db
    .updateTable("certificate_sequence")
    .set((eb) => ({ last: eb("last", "+", count) }))
    .where("prefix", "=", prefix)
    .returning("last")
    .executeTakeFirstOrThrow();
  const last = Number(row.last);
  return Array.from({ length: count }, (_, i) => formatNumber(prefix, last - count + 1 + i));
}
