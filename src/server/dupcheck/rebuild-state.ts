/**
 * The full rebuild's shadow protocol as a typed state (pure: no database; ./shadow.ts stores
 * it, ./rebuild-bands.ts and the writers in ./write.ts move and follow it).
 *
 * A full rebuild (recomputeBands) does not rewrite dup_band in place: it gathers every work's
 * new keys in memory (KeyRows, ./key-sort.ts), writes dup_band_next from them in key order
 * (SQLite: WITHOUT ROWID, PostgreSQL: the primary key after the load), applies the rows
 * writers appended meanwhile to dup_band_load (a heap: no index), and swaps it in with a
 * rename in one transaction, with the entries' staged columns (dup_entry_next). Past its
 * memory budget (DUP_REBUILD_SORT_MB) the keys go to dup_band_load too, and dup_band_next is
 * built from the load by the database (group by band_key, work_id having sum(sign) > 0).
 *
 * Phases (ShadowPhase), stored in the row "bandShadow" of dup_setting (none = idle):
 * - idle: no rebuild runs; writers write dup_band only.
 * - reading: the rebuild reads the entries page by page in work id order; `cursor` is the
 *   last work id read. A writer changing a work at or below the cursor also appends to the
 *   load the keys the rebuild holds for it with sign -1 and its new keys with +1 (and drops
 *   its staged columns); works above the cursor are read later.
 * - building: every entry is read; dup_band_next is built from the keys read and the load's
 *   rows up to `buildMaxId`; every writer appends to the load (later rows are applied at the
 *   swap).
 * The keys read plus the load's rows, taken in order (the last sign of a (band_key, work_id)
 * wins: lastSigns; summed, where the database sums the load), are then each work's current
 * keys. Readers (checks, explanations, statistics) read dup_band and dup_entry in every phase:
 * the shadow tables are the rebuild's alone, and its results appear at once with the swap.
 *
 * Every writer of dup_band reads the phase first in its transaction, on PostgreSQL after
 * taking the shadow's advisory lock shared (a rebuild's page holds it exclusively, so pages
 * and writers never interleave; an advisory lock needs no row, so a migrated database holds
 * no data rows and restores into it stay possible).
 */

export type ShadowPhase = { phase: "idle" } | { phase: "reading"; cursor: number } | { phase: "building"; buildMaxId: number };

export type ShadowStep =
  /** the rebuild's shadow tables are created (a rebuild that died left its phase behind: a new one starts over) */
  | { step: "open" }
  /** a page is read: the cursor moves forward to its last work id */
  | { step: "advance"; cursor: number }
  /** every entry is read: load rows up to buildMaxId go into dup_band_next, later ones at the swap */
  | { step: "finishReading"; buildMaxId: number }
  /** dup_band_next became dup_band, the staged columns are in dup_entry, the shadow tables are gone */
  | { step: "swap" }
  /** the rebuild failed or was cancelled: the shadow tables are gone, dup_band is as writers left it */
  | { step: "drop" };

type PhaseName = ShadowPhase["phase"];
type StepName = ShadowStep["step"];

export const IDLE: ShadowPhase = { phase: "idle" };

/** The allowed transitions: each step, the phases it may start from and the phase it leads to. */
export const TRANSITIONS: Readonly<Record<StepName, { from: readonly PhaseName[]; to: PhaseName }>> = {
  open: { from: ["idle", "reading", "building"], to: "reading" },
  advance: { from: ["reading"], to: "reading" },
  finishReading: { from: ["reading"], to: "building" },
  swap: { from: ["building"], to: "idle" },
  drop: { from: ["idle", "reading", "building"], to: "idle" },
};

/** What each phase means for readers and writers of the index (see the header). */
export const PHASE_RULES: Readonly<
  Record<
    PhaseName,
    { readersRead: "dup_band"; shadowTables: readonly string[]; writersAppendToLoad: "none" | "read works" | "all" }
  >
> = {
  idle: { readersRead: "dup_band", shadowTables: [], writersAppendToLoad: "none" },
  reading: { readersRead: "dup_band", shadowTables: ["dup_band_load", "dup_entry_next"], writersAppendToLoad: "read works" },
  building: {
    readersRead: "dup_band",
    shadowTables: ["dup_band_load", "dup_entry_next", "dup_band_next"],
    writersAppendToLoad: "all",
  },
};

export class ShadowTransitionError extends Error {
  constructor(state: ShadowPhase, step: ShadowStep, why: string) {
    super(`rebuild shadow: ${step.step} not allowed in phase ${state.phase} (${why})`);
  }
}

const wholeId = (v: number) => Number.isSafeInteger(v) && v >= 0;

/** The one way between phases: the phase `step` leads to from `state`, or ShadowTransitionError. */
export function moveShadow(state: ShadowPhase, step: ShadowStep): ShadowPhase {
  const t = TRANSITIONS[step.step];
  if (!t.from.includes(state.phase)) throw new ShadowTransitionError(state, step, `allowed from ${t.from.join(", ")}`);
  switch (step.step) {
    case "open":
      return { phase: "reading", cursor: 0 };
    case "advance":
      if (!wholeId(step.cursor)) throw new ShadowTransitionError(state, step, `cursor ${step.cursor}`);
      if (state.phase === "reading" && step.cursor <= state.cursor)
        throw new ShadowTransitionError(state, step, `the cursor only moves forward: ${state.cursor} → ${step.cursor}`);
      return { phase: "reading", cursor: step.cursor };
    case "finishReading":
      if (!wholeId(step.buildMaxId)) throw new ShadowTransitionError(state, step, `buildMaxId ${step.buildMaxId}`);
      return { phase: "building", buildMaxId: step.buildMaxId };
    case "swap":
    case "drop":
      return IDLE;
  }
}

/** Whether a writer changing `workId` in this phase appends the work's keys to the load (besides writing dup_band). */
export function appendsToLoad(state: ShadowPhase, workId: number): boolean {
  if (state.phase === "idle") return false;
  if (state.phase === "building") return true;
  return workId <= state.cursor;
}

/** The stored form (dup_setting "bandShadow", unchanged since the first shadow rebuild). */
interface StoredShadow {
  active: boolean;
  cursor: number;
  /** load rows up to this id are in dup_band_next; later ones are applied at the swap */
  buildMaxId: number;
}

/** Reading done: the cursor stored past every work id. */
const READ_ALL = Number.MAX_SAFE_INTEGER;

export function encodeShadow(state: ShadowPhase): string {
  const stored: StoredShadow =
    state.phase === "idle"
      ? { active: false, cursor: 0, buildMaxId: 0 }
      : state.phase === "reading"
        ? { active: true, cursor: state.cursor, buildMaxId: 0 }
        : { active: true, cursor: READ_ALL, buildMaxId: state.buildMaxId };
  return JSON.stringify(stored);
}

/** The phase of a stored value (null or undefined: no row, idle). */
export function decodeShadow(value: string | null | undefined): ShadowPhase {
  if (value == null) return IDLE;
  const s: StoredShadow = { active: false, cursor: 0, buildMaxId: 0, ...(JSON.parse(value) as Partial<StoredShadow>) };
  if (!s.active) return IDLE;
  if (s.cursor >= READ_ALL) return { phase: "building", buildMaxId: s.buildMaxId };
  return { phase: "reading", cursor: s.cursor };
}

/** The state if it is in phase `phase`, else an error naming what needed it. */
export function expectPhase<P extends PhaseName>(state: ShadowPhase, phase: P, what: string): Extract<ShadowPhase, { phase: P }> {
  if (state.phase !== phase) throw new Error(`rebuild shadow: ${what} needs phase ${phase}, not ${state.phase}`);
  return state as Extract<ShadowPhase, { phase: P }>;
}

export interface LoadRow {
  band_key: number | string;
  work_id: number | string;
  sign: number | string;
}

/** Load rows (in id order) folded per (key, work): the last row's sign says whether the band row is there. */
export function lastSigns(rows: LoadRow[]): { del: Array<{ k: number; w: number }>; ins: Array<{ k: number; w: number }> } {
  const final = new Map<string, { k: number; w: number; s: number }>();
  for (const r of rows)
    final.set(`${r.band_key}:${r.work_id}`, { k: Number(r.band_key), w: Number(r.work_id), s: Number(r.sign) });
  const del: Array<{ k: number; w: number }> = [];
  const ins: Array<{ k: number; w: number }> = [];
  for (const x of final.values()) {
    if (x.s < 0) del.push({ k: x.k, w: x.w });
    else if (x.s > 0) ins.push({ k: x.k, w: x.w });
  }
  return { del, ins };
}
