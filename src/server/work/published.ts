/**
 * What the later rounds made public about a work, as its page and the public lookups read it:
 * the test of a publication in force (resultsPublished, used by every reader of published
 * results), the published awards per level, and the national entry's status. Judging and the
 * national round write these rows; the reads live here, below them, so the works domain shows
 * them without reaching up (judging/service/results/publish.ts re-exports the first three).
 */
import { sql, type RawBuilder } from "kysely";
import { CONTEST_LEVELS, CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../shared/contest/stages";
import type { Handle } from "./repository";

/**
 * Whether the results of a contest are published and the publication is in force (not
 * withdrawn): the one test every reader of published results uses (public pages, lookups,
 * certificates, best works, judges' profiles). `contest` is the column holding the contest's
 * id in the outer query (e.g. "contest_result.contest_id") or an id.
 */
export function resultsPublished(contest: string | number): RawBuilder<boolean> {
  const id = typeof contest === "number" ? sql`${contest}` : sql.ref(contest);
  return sql<boolean>`exists (select 1 from result_publication as in_force where in_force.contest_id = ${id} and in_force.withdrawn_at is null)`;
}

/**
 * The published awards of a work per contest level (in contests whose publication is in
 * force), highest level first: the award's name, the level it was promoted to, and both in
 * words, e.g. "省赛一等奖，推荐晋级国赛".
 */
export async function publishedAwards(
  db: Handle,
  workId: number,
): Promise<{ level: ContestLevelKey; award: string | null; promotedTo: ContestLevelKey | null; text: string }[]> {
  const rows = await db
    .selectFrom("contest_result")
    .innerJoin("contest", "contest.id", "contest_result.contest_id")
    .leftJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .leftJoin("contest as parent", "parent.id", "contest.parent_id")
    .select(["contest.level", "award_level.name as award", "contest_result.promoted", "parent.level as parent_level"])
    .where("contest_result.work_id", "=", workId)
    .where((eb) => eb.or([eb("contest_result.award_level_id", "is not", null), eb("contest_result.promoted", "=", 1)]))
    .where(resultsPublished("contest_result.contest_id"))
    .execute();
  return rows
    .sort((a, b) => CONTEST_LEVELS.indexOf(a.level) - CONTEST_LEVELS.indexOf(b.level))
    .map((r) => {
      const promotedTo = Number(r.promoted) && r.parent_level ? r.parent_level : null;
      const parts = [
        r.award ? `${CONTEST_LEVEL_NAMES[r.level]}${r.award}` : null,
        promotedTo ? `推荐晋级${CONTEST_LEVEL_NAMES[promotedTo]}` : null,
      ].filter(Boolean);
      return { level: r.level, award: r.award, promotedTo, text: parts.join("，") };
    });
}

/** The award shown by the public work lookup: the published awards in one line, national first; null when none. */
export async function publishedAward(db: Handle, workId: number): Promise<string | null> {
  const all = await publishedAwards(db, workId);
  return all.length ? all.map((a) => a.text).join("；") : null;
}

/** The national status of a work, for its page: null when it never entered. */
export async function nationalStatus(db: Handle, workId: number) {
  const e = await db
    .selectFrom("national_entry as e")
    .innerJoin("contest as c", "c.id", "e.contest_id")
    .select(["e.status", "e.format_status", "e.withdraw_reason", "c.name"])
    .where("e.work_id", "=", workId)
    .executeTakeFirst();
  return e ? { contestName: e.name, status: e.status, formatStatus: e.format_status, withdrawReason: e.withdraw_reason } : null;
}
