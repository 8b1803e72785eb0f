/**
 * Which work fields are locked for a contest at a moment: a lock applies once the stage
 * it names has started in that contest. Pure: the caller loads the locks (those of the
 * contest and those of all contests) and the contest's stages (see lock-store.ts).
 *
 * A lock set for the contest itself overrides a lock of all contests on the same field,
 * so a contest can lock a field earlier or later than the general rule.
 */
import type { LockableField } from "../../shared/contest/lockable-fields";
import type { StageKey } from "../../shared/contest/stages";

export interface LockRule {
  field: LockableField | string;
  fromStage: StageKey | string;
  /** null: the lock of all contests */
  contestId: number | null;
}

export interface StageWindow {
  stage: StageKey | string;
  startsAt: string;
  endsAt?: string;
}

export function lockedFields(
  locks: readonly LockRule[],
  stages: readonly StageWindow[],
  now: Date | string = new Date(),
): Set<string> {
  const t = typeof now === "string" ? Date.parse(now) : now.getTime();
  const started = new Set(stages.filter((s) => Date.parse(s.startsAt) <= t).map((s) => s.stage));
  const specific = new Set(locks.filter((l) => l.contestId !== null).map((l) => l.field));
  const out = new Set<string>();
  for (const l of locks) {
    if (l.contestId === null && specific.has(l.field)) continue;
    if (started.has(l.fromStage)) out.add(l.field);
  }
  return out;
}
