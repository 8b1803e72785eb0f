/**
 * The rebuild's shadow protocol as a typed state (src/server/dupcheck/rebuild-state.ts): the
 * allowed and forbidden transitions, what writers do and readers read in each phase, the
 * stored form, and the load's fold (the keys read plus the load's rows give each work's keys).
 */
import { describe, expect, it } from "vitest";
import {
  IDLE,
  PHASE_RULES,
  TRANSITIONS,
  ShadowTransitionError,
  appendsToLoad,
  decodeShadow,
  encodeShadow,
  expectPhase,
  lastSigns,
  moveShadow,
  type ShadowPhase,
  type ShadowStep,
} from "../../src/server/dupcheck/rebuild-state";

const reading = (cursor: number): ShadowPhase => ({ phase: "reading", cursor });
const building = (buildMaxId: number): ShadowPhase => ({ phase: "building", buildMaxId });
const PHASES: ShadowPhase[] = [IDLE, reading(0), reading(40), building(7)];
const STEPS: ShadowStep[] = [
  { step: "open" },
  { step: "advance", cursor: 100 },
  { step: "finishReading", buildMaxId: 12 },
  { step: "swap" },
  { step: "drop" },
];

describe("the shadow's transitions", () => {
  it("runs a whole rebuild: open, pages, reading done, swap", () => {
    let st = moveShadow(IDLE, { step: "open" });
    expect(st).toEqual(reading(0));
    st = moveShadow(st, { step: "advance", cursor: 37 });
    st = moveShadow(st, { step: "advance", cursor: 74 });
    expect(st).toEqual(reading(74));
    st = moveShadow(st, { step: "finishReading", buildMaxId: 5 });
    expect(st).toEqual(building(5));
    expect(moveShadow(st, { step: "swap" })).toEqual(IDLE);
  });

  it("allows exactly the transitions in the table, to the phase it names", () => {
    for (const from of PHASES)
      for (const step of STEPS) {
        const allowed = TRANSITIONS[step.step].from.includes(from.phase);
        if (allowed) expect(moveShadow(from, step).phase).toBe(TRANSITIONS[step.step].to);
        else expect(() => moveShadow(from, step)).toThrow(ShadowTransitionError);
      }
  });

  it("forbids the steps out of order", () => {
    expect(() => moveShadow(IDLE, { step: "advance", cursor: 1 })).toThrow(ShadowTransitionError);
    expect(() => moveShadow(IDLE, { step: "finishReading", buildMaxId: 0 })).toThrow(ShadowTransitionError);
    expect(() => moveShadow(IDLE, { step: "swap" })).toThrow(ShadowTransitionError);
    // No swap before every entry is read, no page after it.
    expect(() => moveShadow(reading(10), { step: "swap" })).toThrow(ShadowTransitionError);
    expect(() => moveShadow(building(3), { step: "advance", cursor: 11 })).toThrow(ShadowTransitionError);
    expect(() => moveShadow(building(3), { step: "finishReading", buildMaxId: 4 })).toThrow(ShadowTransitionError);
  });

  it("moves the cursor only forward, to whole ids", () => {
    expect(() => moveShadow(reading(40), { step: "advance", cursor: 40 })).toThrow(/only moves forward/);
    expect(() => moveShadow(reading(40), { step: "advance", cursor: 39 })).toThrow(/only moves forward/);
    expect(() => moveShadow(reading(0), { step: "advance", cursor: 1.5 })).toThrow(ShadowTransitionError);
    expect(() => moveShadow(reading(0), { step: "advance", cursor: -1 })).toThrow(ShadowTransitionError);
    expect(() => moveShadow(reading(0), { step: "finishReading", buildMaxId: Number.NaN })).toThrow(ShadowTransitionError);
  });

  it("starts over from a rebuild that died, and a drop ends any phase", () => {
    for (const from of PHASES) {
      expect(moveShadow(from, { step: "open" })).toEqual(reading(0));
      expect(moveShadow(from, { step: "drop" })).toEqual(IDLE);
    }
  });

  it("names the phase a step needs", () => {
    expect(expectPhase(building(9), "building", "the build").buildMaxId).toBe(9);
    expect(() => expectPhase(reading(9), "building", "the build")).toThrow(/the build needs phase building, not reading/);
  });
});

describe("writers and readers in each phase", () => {
  it("appends to the load only for works the rebuild has read", () => {
    expect(appendsToLoad(IDLE, 1)).toBe(false);
    expect(appendsToLoad(reading(0), 1)).toBe(false);
    expect(appendsToLoad(reading(40), 39)).toBe(true);
    expect(appendsToLoad(reading(40), 40)).toBe(true);
    expect(appendsToLoad(reading(40), 41)).toBe(false);
    expect(appendsToLoad(building(0), 9_000_000_002)).toBe(true);
  });

  it("agrees with the phase rules, and readers read dup_band in every phase", () => {
    const duty = (st: ShadowPhase) => PHASE_RULES[st.phase].writersAppendToLoad;
    for (const st of PHASES) {
      expect(PHASE_RULES[st.phase].readersRead).toBe("dup_band");
      expect(PHASE_RULES[st.phase].shadowTables).not.toContain("dup_band");
      if (duty(st) === "none") expect([1, 1e9].some((w) => appendsToLoad(st, w))).toBe(false);
      if (duty(st) === "all") expect([1, 1e9].every((w) => appendsToLoad(st, w))).toBe(true);
    }
    expect(PHASE_RULES.idle.shadowTables).toEqual([]);
    expect(PHASE_RULES.building.shadowTables).toContain("dup_band_next");
  });
});

describe("the stored form", () => {
  it("is the row the first shadow rebuild wrote", () => {
    expect(JSON.parse(encodeShadow(IDLE))).toEqual({ active: false, cursor: 0, buildMaxId: 0 });
    expect(JSON.parse(encodeShadow(reading(40)))).toEqual({ active: true, cursor: 40, buildMaxId: 0 });
    expect(JSON.parse(encodeShadow(building(7)))).toEqual({ active: true, cursor: Number.MAX_SAFE_INTEGER, buildMaxId: 7 });
  });

  it("reads back every phase, and no row as idle", () => {
    for (const st of PHASES) expect(decodeShadow(encodeShadow(st))).toEqual(st);
    expect(decodeShadow(null)).toEqual(IDLE);
    expect(decodeShadow(undefined)).toEqual(IDLE);
    expect(decodeShadow(JSON.stringify({ active: true }))).toEqual(reading(0));
  });
});

describe("the load's fold", () => {
  it("gives each work's current keys: the keys read, then the writers' rows, the last sign winning", () => {
    // The rebuild read work 1 with keys 10, 11; then a writer changed it to 11, 12, then another back to 10, 12.
    const read = new Set(["10:1", "11:1"]);
    const rows = [
      { band_key: 10, work_id: 1, sign: -1 },
      { band_key: 11, work_id: 1, sign: -1 },
      { band_key: 11, work_id: 1, sign: 1 },
      { band_key: 12, work_id: 1, sign: 1 },
      { band_key: "11", work_id: "1", sign: "-1" },
      { band_key: 12, work_id: 1, sign: -1 },
      { band_key: 10, work_id: 1, sign: 1 },
      { band_key: 12, work_id: 1, sign: 1 },
      // work 2 removed after it was read
      { band_key: 20, work_id: 2, sign: -1 },
    ];
    read.add("20:2");
    const { del, ins } = lastSigns(rows);
    for (const x of del) read.delete(`${x.k}:${x.w}`);
    for (const x of ins) read.add(`${x.k}:${x.w}`);
    expect([...read].sort()).toEqual(["10:1", "12:1"]);
    expect(del).toEqual([
      { k: 11, w: 1 },
      { k: 20, w: 2 },
    ]);
  });
});
