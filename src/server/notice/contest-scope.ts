/**
 * Rows that belong to the platform (contest null) or to one contest — notices and news:
 * root sees and writes all; a contest admin only rows of the own contests and their
 * children (scope.adminContestIds); platform-wide rows are root's alone.
 */
import { sql, type RawBuilder } from "kysely";
import { forbidden, invalid } from "../../shared/errors";
import type { Ctx } from "../crud/resource";
import { adminContestIds } from "../scope";

type ContestOwned = "notice" | "news";

/** A where-clause limiting rows of `table` to the user's contests. */
export async function contestScopeFilter(ctx: Ctx, table: ContestOwned): Promise<RawBuilder<boolean>> {
  const ids = await adminContestIds(ctx.db, ctx.user);
  if (ids === "all") return sql<boolean>`1 = 1`;
  if (!ids.length) return sql<boolean>`1 = 0`;
  return sql<boolean>`${sql.ref(`${table}.contest_id`)} in (${sql.join(ids)})`;
}

/** Refuses (403) a write to a contest outside the user's scope, or to the platform for a non-root; 422 for an unknown contest. */
export async function assertContestWritable(ctx: Ctx, contestId: number | null, what: string) {
  const ids = await adminContestIds(ctx.db, ctx.user);
  if (contestId === null) {
    if (ids !== "all") throw forbidden(`全平台的${what}只能由超级管理员维护，请选择您负责的赛事`);
    return;
  }
  if (ids !== "all" && !ids.includes(contestId)) throw forbidden(`您只能维护自己负责的赛事的${what}`);
  const contest = await ctx.db.selectFrom("contest").select("id").where("id", "=", contestId).executeTakeFirst();
  if (!contest) throw invalid("contestId", "所选赛事不存在");
}
