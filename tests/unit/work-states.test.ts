import { describe, expect, it } from "vitest";
import {
  actionsFor,
  canTransition,
  FORMAT_FILTERS,
  FORMAT_PENDING_STATES,
  FORMAT_REVIEW_STATES,
  formatWorkId,
  isEditable,
  isWorkId,
  PUBLIC_STATES,
  SLOT_STATES,
  stageWindow,
  TRANSITIONS,
  WORK_STATES,
  yearOfWorkId,
} from "../../src/shared/work/states";

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
    expect(WORK_STATES.filter((s) => canTransition("disqualify", s, "contest"))).toEqual(
      WORK_STATES.filter((s) => s !== "disqualified"),
    );
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
    for (const a of ["approve", "return", "withdraw_approval", "recommend", "unrecommend"] as const)
      expect(stageWindow(a, "submitted")).toEqual(["registration", "school_review"]);
    for (const a of ["accept", "reject", "disqualify"] as const) expect(stageWindow(a, "recommended")).toEqual([]);
  });

  it("counts recommended works against a quota through acceptance and format review, and never shows drafts to the public", () => {
    expect(SLOT_STATES).toEqual([
      "recommended",
      "accepted",
      "format_returned",
      "format_resubmitted",
      "format_passed",
      "format_rejected",
    ]);
    expect(SLOT_STATES).not.toContain("disqualified");
    expect(PUBLIC_STATES).not.toContain("draft");
    expect(PUBLIC_STATES).toHaveLength(WORK_STATES.length - 1);
    expect(WORK_STATES.filter(isEditable)).toEqual(["draft", "returned", "format_returned"]);
  });
});

describe("format review", () => {
  it("lets the contest's reviewers, its admins and root decide on accepted and resubmitted works", () => {
    for (const actor of ["reviewer", "contest", "root"] as const) {
      expect(actionsFor("accepted", actor)).toEqual(expect.arrayContaining(["format_pass", "format_return", "format_reject"]));
      expect(actionsFor("format_resubmitted", actor)).toEqual(
        expect.arrayContaining(["format_pass", "format_return", "format_reject"]),
      );
    }
    expect(actionsFor("accepted", "reviewer")).toEqual(["format_pass", "format_return", "format_reject"]);
    expect(actionsFor("accepted", "school")).toEqual([]);
    expect(actionsFor("accepted", "author")).toEqual([]);
  });

  it("returns with a reason for the authors to fix and resubmit; only the first author resubmits", () => {
    expect(TRANSITIONS.format_return).toMatchObject({ to: "format_returned", reason: true });
    expect(WORK_STATES.filter((s) => canTransition("format_resubmit", s, "author"))).toEqual(["format_returned"]);
    expect(canTransition("format_resubmit", "format_returned", "reviewer")).toBe(false);
    expect(TRANSITIONS.format_resubmit.to).toBe("format_resubmitted");
    expect(isEditable("format_returned")).toBe(true);
    expect(isEditable("format_resubmitted")).toBe(false);
  });

  it("rejects with a reason, also a returned work (the deadline is checked by the server), and undoes a pass or a rejection", () => {
    expect(TRANSITIONS.format_reject).toMatchObject({ to: "format_rejected", reason: true });
    expect(TRANSITIONS.format_reject.from).toEqual(["accepted", "format_resubmitted", "format_returned"]);
    expect(WORK_STATES.filter((s) => canTransition("format_reopen", s, "reviewer"))).toEqual([
      "format_passed",
      "format_rejected",
    ]);
    expect(TRANSITIONS.format_reopen.to).toBe("accepted");
    expect(canTransition("format_pass", "format_returned", "reviewer")).toBe(false);
  });

  it("has no stage window and offers its filters over exactly the review states", () => {
    for (const a of ["format_pass", "format_return", "format_resubmit", "format_reject", "format_reopen"] as const)
      expect(stageWindow(a, "accepted")).toEqual([]);
    expect(FORMAT_PENDING_STATES).toEqual(["accepted", "format_resubmitted"]);
    expect(
      Object.values(FORMAT_FILTERS)
        .flatMap((f) => f.states)
        .sort(),
    ).toEqual([...FORMAT_REVIEW_STATES].sort());
  });
});
