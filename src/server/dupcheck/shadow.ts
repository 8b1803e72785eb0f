/**
 * The rebuild's shadow in the database: its phase (./rebuild-state.ts) stored in the row
 * "bandShadow" of dup_setting, read under the shadow's advisory lock on PostgreSQL (writers
 * take it shared, a rebuild's page exclusively), and a writer's part of a running rebuild.
 */
import { sql } from "kysely";
import { decodeKeys } from "./minhash";
import { appendsToLoad, decodeShadow, encodeShadow, moveShadow, type ShadowPhase, type ShadowStep } from "./rebuild-state";
import { appendLoad, chunks, fromBytes, isPg, type DupDb } from "./store";

export const SHADOW_KEY = "bandShadow";
/** The advisory lock key of the shadow (PostgreSQL): writers take it shared, a rebuild page exclusively. */
export const SHADOW_LOCK = 7_301_024;

/** The stored phase; `lock` (PostgreSQL) takes the shadow's advisory lock first, shared or exclusive. */
export async function readShadow(trx: DupDb, lock: "share" | "update" | null): Promise<ShadowPhase> {
  if (lock && isPg(trx)) {
    if (lock === "share") await sql`select pg_advisory_xact_lock_shared(${sql.lit(SHADOW_LOCK)})`.execute(trx);
    else await sql`select pg_advisory_xact_lock(${sql.lit(SHADOW_LOCK)})`.execute(trx);
  }
  const r = await trx.selectFrom("dup_setting").select("value").where("key", "=", SHADOW_KEY).executeTakeFirst();
  return decodeShadow(r?.value);
}

/** Stores the phase `step` leads to from `from` (read with readShadow(trx, "update") in the same transaction). */
export async function stepShadow(trx: DupDb, from: ShadowPhase, step: ShadowStep): Promise<ShadowPhase> {
  const next = moveShadow(from, step);
  const value = encodeShadow(next);
  await trx
    .insertInto("dup_setting")
    .values({ key: SHADOW_KEY, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
  return next;
}

/**
 * A writer's part of a running rebuild (inside the writer's transaction, after readShadow):
 * for works the rebuild has read, the load gets -1 for the keys it holds for the work (the
 * staged ones, else the entry's stored ones) and +1 for `next` (null: the work is removed).
 */
export async function shadowWrite(
  trx: DupDb,
  st: ShadowPhase,
  changes: Array<{ workId: number; stored: number[]; next: number[] | null }>,
): Promise<void> {
  const touched = changes.filter((c) => appendsToLoad(st, c.workId));
  if (touched.length === 0) return;
  const staged = new Map<number, number[]>();
  const ids = touched.map((c) => c.workId);
  for (const part of chunks(ids, 500)) {
    const rows = await trx.selectFrom("dup_entry_next").select(["work_id", "bands"]).where("work_id", "in", part).execute();
    for (const r of rows) staged.set(Number(r.work_id), r.bands ? decodeKeys(fromBytes(r.bands)) : []);
  }
  const load: number[] = [];
  for (const c of touched) {
    for (const k of new Set(staged.get(c.workId) ?? c.stored)) load.push(k, c.workId, -1);
    for (const k of new Set(c.next ?? [])) load.push(k, c.workId, 1);
  }
  await appendLoad(trx, load);
  for (const part of chunks(ids, 500)) await trx.deleteFrom("dup_entry_next").where("work_id", "in", part).execute();
}
