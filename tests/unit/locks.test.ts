import { describe, expect, it } from "vitest";
import { lockedFields, type LockRule } from "../../src/server/contest/locks";
import { demoStages } from "../../src/server/seed/contest-demo";
import { currentStage } from "../../src/shared/contest/stages";

const stages = [
  { stage: "registration", startsAt: "2026-01-01T00:00:00.000Z", endsAt: "2026-04-30T16:00:00.000Z" },
  { stage: "format_review", startsAt: "2026-05-16T00:00:00.000Z", endsAt: "2026-05-31T16:00:00.000Z" },
  { stage: "online_judging", startsAt: "2026-06-01T00:00:00.000Z", endsAt: "2026-06-30T16:00:00.000Z" },
];
const all = (field: string, fromStage: string): LockRule => ({ field, fromStage, contestId: null });
const mine = (field: string, fromStage: string): LockRule => ({ field, fromStage, contestId: 7 });

describe("lockedFields", () => {
  const locks = [all("name", "format_review"), all("authors", "format_review"), all("attachments", "online_judging")];

  it("locks nothing before the lock's stage starts", () => {
    expect(lockedFields(locks, stages, "2026-03-01T00:00:00Z")).toEqual(new Set());
    expect(lockedFields(locks, stages, "2026-05-15T23:59:59.999Z")).toEqual(new Set());
  });

  it("locks a field from the moment its stage starts, and keeps it locked afterwards", () => {
    expect(lockedFields(locks, stages, "2026-05-16T00:00:00Z")).toEqual(new Set(["name", "authors"]));
    expect(lockedFields(locks, stages, new Date("2026-06-15T00:00:00Z"))).toEqual(new Set(["name", "authors", "attachments"]));
    expect(lockedFields(locks, stages, "2027-01-01T00:00:00Z")).toEqual(new Set(["name", "authors", "attachments"]));
  });

  it("ignores a lock whose stage the contest does not have", () => {
    expect(lockedFields([all("summary", "offline_judging")], stages, "2027-01-01T00:00:00Z")).toEqual(new Set());
  });

  it("lets a contest's own lock override the lock of all contests on the same field", () => {
    const later = [all("name", "format_review"), mine("name", "online_judging")];
    expect(lockedFields(later, stages, "2026-05-20T00:00:00Z")).toEqual(new Set());
    expect(lockedFields(later, stages, "2026-06-02T00:00:00Z")).toEqual(new Set(["name"]));
    const earlier = [all("teachers", "online_judging"), mine("teachers", "registration")];
    expect(lockedFields(earlier, stages, "2026-02-01T00:00:00Z")).toEqual(new Set(["teachers"]));
  });
});

describe("demo stages", () => {
  it("keep registration open when seeded, early or late in the year, start before end", () => {
    for (const now of [new Date("2026-02-10T00:00:00Z"), new Date("2026-11-22T00:00:00Z"), new Date("2026-12-31T15:00:00Z")]) {
      const s = demoStages(2026, now);
      expect(s.map((x) => x.stage)).toEqual([
        "registration",
        "school_review",
        "format_review",
        "online_judging",
        "offline_judging",
        "publicity",
        "complaint",
      ]);
      expect(currentStage(s, now)).toBe("registration");
      for (const x of s) expect(Date.parse(x.startsAt)).toBeLessThan(Date.parse(x.endsAt));
      expect(s[0].startsAt).toBe("2025-12-31T16:00:00.000Z");
    }
  });
});
