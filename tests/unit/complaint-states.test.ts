/** The complaint state machine as data: every step well-formed, final states final, names complete. */
import { describe, expect, it } from "vitest";
import {
  COMPLAINT_ACTIONS,
  COMPLAINT_STATE_NAMES,
  COMPLAINT_STATES,
  COMPLAINT_TRANSITIONS,
  DUE_STAGE,
  FINAL_STATES,
  OPEN_STATES,
  actionAllowed,
  complaintActionsFor,
} from "../../src/shared/complaint/states";

describe("complaint states", () => {
  it("every step goes from known states to a known state, by someone, with a name", () => {
    for (const a of COMPLAINT_ACTIONS) {
      const t = COMPLAINT_TRANSITIONS[a];
      expect(t.from.length).toBeGreaterThan(0);
      for (const s of [...t.from, t.to]) expect(COMPLAINT_STATES).toContain(s);
      expect(t.by.length).toBeGreaterThan(0);
      expect(t.name).toBeTruthy();
    }
    for (const s of COMPLAINT_STATES) expect(COMPLAINT_STATE_NAMES[s]).toBeTruthy();
  });

  it("final states have no way out and no due time; every open state has a way on", () => {
    for (const s of FINAL_STATES) {
      expect(COMPLAINT_ACTIONS.filter((a) => COMPLAINT_TRANSITIONS[a].from.includes(s))).toEqual([]);
      expect(DUE_STAGE[s]).toBeUndefined();
    }
    for (const s of OPEN_STATES) expect(COMPLAINT_ACTIONS.some((a) => COMPLAINT_TRANSITIONS[a].from.includes(s))).toBe(true);
  });

  it("only root confirms, only the arbitrator arbitrates, a party requests arbitration, a rejected complaint changes nothing", () => {
    expect(complaintActionsFor("arbitrated", ["admin", "reviewer", "arbitrator"])).toEqual([]);
    expect(complaintActionsFor("arbitrated", ["root"])).toEqual(["confirm", "return"]);
    expect(complaintActionsFor("arbitration_requested", ["root", "admin"])).toEqual([]);
    expect(complaintActionsFor("decided", ["party"])).toEqual(["request_arbitration"]);
    expect(complaintActionsFor("submitted", ["filer", "party"])).toEqual(["withdraw"]);
    expect(actionAllowed("rejected", "disqualify")).toBe(false);
    expect(actionAllowed("rejected", "no_change")).toBe(true);
    expect(actionAllowed("partly_upheld", "change_award")).toBe(true);
  });
});
