/**
 * How a contest's stage dates are shown (issue 29: the home timeline listed them without years and
 * by start time, so a publicity moved forward by a publication came before 校内审核). One source:
 * the contest's stage rows (contest_stage), put in the contract's order (STAGE_KEYS) and written
 * with years, on the public timeline and the complaint entry alike.
 */
import { formatBeijing } from "../time";
import { STAGE_KEYS } from "./stages";

const rank = (stage: string) => {
  const i = (STAGE_KEYS as readonly string[]).indexOf(stage);
  return i < 0 ? STAGE_KEYS.length : i;
};

/** The stages in the contract's order (报名 → 校内审核 → … → 公示 → 申诉), whatever order they came in. */
export function inStageOrder<T extends { stage: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => rank(a.stage) - rank(b.stage));
}

/**
 * "2026-09-01 至 2026-09-15" in Beijing time. The end is exclusive (a stage "to 09-15" ends at 09-16
 * 00:00), so the last day shown is the day of the instant before it.
 */
export function stageDates(startsAt: string, endsAt: string): string {
  const start = Date.parse(startsAt);
  const end = Math.max(start, Date.parse(endsAt) - 1);
  return `${formatBeijing(start, "YYYY-MM-DD")} 至 ${formatBeijing(end, "YYYY-MM-DD")}`;
}
