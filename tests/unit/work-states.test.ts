import { describe, expect, it } from "vitest";
import { actionsFor, canTransition, formatWorkId, isEditable, isWorkId, PUBLIC_STATES, SLOT_STATES, stageWindow, TRANSITIONS, WORK_STATES, yearOfWorkId } from "../../src/shared/work/states";

describe("work lifecycle", () => {
  it("lets authors submit only drafts and returned works", () => {
    expect(WORK_STATES.filter((s) => canTransition("submit", s, "author"))).toEqual(["draft", "returned"]);
    expect(canTransition("submit", "school_approved", "author")).toBe(false);
    expect(canTransition("approve", "submitted", "author")).toBe(false);
  });

  it("gives each actor its buttons", () => {
    expect(actionsFor("submitted", "school")).toEqual(["return", "approve"]);
    expect(actionsFor("school_approved", "school")).toEqual(["return", "withdraw_approval", "recommend"]);
    expect(actionsFor("recommended", "contest")).toEqual(["accept", "reject", "disqualify"]);
    expect(actionsFor("disqualified", "root")).toEqual([]);
  });

  it("reaches disqualified from every state but itself, always with a reason", () => {
    expect(WORK_STATES.filter((s) => canTransition("disqualify", s, "contest"))).toEqual(WORK_STATES.filter((s) => s !== "disqualified"));
    expect(TRANSITIONS.disqualify.reason).toBe(true);
    expect(TRANSITIONS.return.reason).toBe(true);
  });

  it("numbers works as year and six-digit sequence", () => {
    expect(formatWorkId(2026, 49861)).toBe(2026049861);
    expect(yearOfWorkId(2026049861)).toBe(2026);
    expect(isWorkId(2026049861)).toBe(true);
    expect(isWorkId(2026000000)).toBe(false);
    expect(isWorkId(12345)).toBe(false);
  });
});

describe("stage windows, slots and the public lookup", () => {
  it("submits drafts during registration, resubmits returned works also during school review", () => {
    expect(stageWindow("submit", "draft")).toEqual(["registration"]);
    expect(stageWindow("submit", "returned")).toEqual(["registration", "school_review"]);
  });

  it("keeps the school's actions to registration and school review, and contest decisions to no window", () => {
    for (const a of ["approve", "return", "withdraw_approval", "recommend", "unrecommend"] as const) expect(stageWindow(a, "submitted")).toEqual(["registration", "school_review"]);
    for (const a of ["accept", "reject", "disqualify"] as const) expect(stageWindow(a, "recommended")).toEqual([]);
  });

  it("counts recommended and accepted works against a quota, and never shows drafts to the public", () => {
    expect(SLOT_STATES).toEqual(["recommended", "accepted"]);
    expect(PUBLIC_STATES).not.toContain("draft");
    expect(PUBLIC_STATES).toHaveLength(WORK_STATES.length - 1);
    expect(WORK_STATES.filter(isEditable)).toEqual(["draft", "returned"]);
  });
});
