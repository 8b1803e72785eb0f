/** Loads what lockedFields needs for one contest, for the works use cases. */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../db/schema";
import { lockedFields } from "./locks";

type Handle = Kysely<DB> | Transaction<DB>;

/** The locks of the contest and of all contests, and the contest's stages. */
export async function loadLockInputs(db: Handle, contestId: number) {
  const locks = await db
    .selectFrom("entry_lock")
    .select(["field", "from_stage", "contest_id"])
    .where((eb) => eb.or([eb("contest_id", "=", contestId), eb("contest_id", "is", null)]))
    .execute();
  const stages = await db
    .selectFrom("contest_stage")
    .select(["stage", "starts_at", "ends_at"])
    .where("contest_id", "=", contestId)
    .execute();
  return {
    locks: locks.map((l) => ({ field: l.field, fromStage: l.from_stage, contestId: l.contest_id })),
    stages: stages.map((s) => ({ stage: s.stage, startsAt: s.starts_at, endsAt: s.ends_at })),
  };
}

/** The work fields locked in the contest at `now`. */
export async function lockedFieldsOf(db: Handle, contestId: number, now: Date = new Date()): Promise<Set<string>> {
  const { locks, stages } = await loadLockInputs(db, contestId);
  return lockedFields(locks, stages, now);
}
