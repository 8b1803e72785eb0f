import { WORK_STATE_NAMES, type WorkState } from "../work/states";

/** The national round's incoming works per province (src/server/national/entries.ts). */
export interface IncomingEntry {
  id: number;
  workId: number;
  workName: string;
  categoryId: number;
  categoryName: string;
  status: "entered" | "withdrawn";
  formatStatus: string;
  withdrawReason: string | null;
}
/** A provincial contest's works entered in the national contest, and until when it may withdraw them. */
export interface PromotedOut {
  nationalContestId: number | null;
  nationalContestName: string | null;
  /** the national registration's end (ISO), null when no registration stage is set */
  registrationEndsAt: string | null;
  /** withdrawing is still allowed (the national registration has not closed) */
  open: boolean;
  entries: IncomingEntry[];
}
export interface IncomingProvince {
  fromContestId: number;
  fromContestName: string;
  province: string | null;
  quota: number | null;
  used: number;
  perCategory: { categoryId: number; categoryName: string; quota: number | null; used: number }[];
  entries: IncomingEntry[];
}

/**
 * A national entry's format review state (national_entry.format_status) as the work state the
 * review and judging pipeline reads for it, and back: the national contest's lists, pool and
 * transitions treat an entered entry like a work received in that state.
 */
export const ENTRY_FORMAT_STATE = {
  pending: "accepted",
  resubmitted: "format_resubmitted",
  returned: "format_returned",
  passed: "format_passed",
  rejected: "format_rejected",
} as const;
export type EntryFormatStatus = keyof typeof ENTRY_FORMAT_STATE;
export const entryFormatOf = (state: string): EntryFormatStatus | null =>
  (Object.keys(ENTRY_FORMAT_STATE) as EntryFormatStatus[]).find((k) => ENTRY_FORMAT_STATE[k] === state) ?? null;

/** The name of a work's state in a national contest (its entry's format review seen as a work state). */
export const nationalStateName = (s: WorkState): string => (s === "accepted" ? "国赛已接收" : `国赛${WORK_STATE_NAMES[s]}`);
