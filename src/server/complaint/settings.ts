/** Per-contest due times of complaints (days per step) and the reminder lead time. */
import { DEFAULT_DUE_DAYS, DUE_KEYS, DUE_STAGE, type ComplaintState, type DueKey } from "../../shared/complaint/states";
import type { ComplaintSettings } from "../../shared/complaint/schema";
import type { Handle } from "./scope";

const DAY = 86_400_000;

export async function settingsOf(db: Handle, contestId: number): Promise<ComplaintSettings> {
  const row = await db.selectFrom("complaint_setting").selectAll().where("contest_id", "=", contestId).executeTakeFirst();
  const stored = row ? (JSON.parse(row.due_days) as Partial<Record<DueKey, number>>) : {};
  const dueDays = Object.fromEntries(DUE_KEYS.map((k) => [k, Number(stored[k] ?? DEFAULT_DUE_DAYS[k])])) as Record<
    DueKey,
    number
  >;
  return { dueDays, remindHours: row ? Number(row.remind_hours) : 24 };
}

export async function saveSettings(db: Handle, contestId: number, s: ComplaintSettings, userId: number) {
  const values = {
    due_days: JSON.stringify(s.dueDays),
    remind_hours: s.remindHours,
    updated_at: new Date().toISOString(),
    updated_by: userId,
  };
  await db
    .insertInto("complaint_setting")
    .values({ contest_id: contestId, ...values })
    .onConflict((oc) => oc.column("contest_id").doUpdateSet(values))
    .execute();
}

/** The due time of the next step after entering `state` at `now` (null in final states). */
export function dueAt(state: ComplaintState, now: Date, s: ComplaintSettings): string | null {
  const key = DUE_STAGE[state];
  return key ? new Date(now.getTime() + s.dueDays[key] * DAY).toISOString() : null;
}
