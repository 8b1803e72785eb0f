/**
 * How every change of the results runs: in one transaction, on a contest the user manages
 * (404 otherwise), locked against concurrent changes, and refused while a publication is in
 * force.
 */
import type { Transaction } from "kysely";
import { conflict } from "../../../../shared/errors";
import type { Db } from "../../../db";
import type { DB, User } from "../../../db/schema";
import { lockContest, type Handle } from "../../../work/repository";
import { requireManagedContest, type ContestInfo } from "../contest";

export const PUBLISHED_REFUSAL = "本赛事的结果已发布，不能再修改；如需更正，请先撤回发布（须填写原因）";

/** The publication in force, if any. */
export async function activePublication(db: Handle, contestId: number) {
  return db
    .selectFrom("result_publication")
    .selectAll()
    .where("contest_id", "=", contestId)
    .where("withdrawn_at", "is", null)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Runs a change of the contest's results in one transaction, after the contest check and its
 * lock; refused (409) while the results are published unless `whilePublished` (withdrawing).
 */
export function changeResults<T>(
  db: Db,
  user: User,
  contestId: number,
  change: (trx: Transaction<DB>, c: ContestInfo) => Promise<T>,
  { whilePublished = false }: { whilePublished?: boolean } = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const c = await requireManagedContest(trx, user, contestId);
    await lockContest(trx, c.id);
    if (!whilePublished && (await activePublication(trx, c.id))) throw conflict(PUBLISHED_REFUSAL);
    return change(trx, c);
  });
}
