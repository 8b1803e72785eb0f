/**
 * Section 6 of the seed, row by row, against casbin/policy.csv: for every row, exactly
 * the principals it names may, and every other role, anonymous included, may not.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makePolicy, type Principal } from "../../src/shared/access";
import { ROLE_CODES } from "../../src/shared/roles";
import { TODO_KINDS } from "../../src/shared/todo/schema";

const policy = await makePolicy(readFileSync("casbin/model.conf", "utf8"), readFileSync("casbin/policy.csv", "utf8"));

const role = (userType: number, flags: Partial<Principal> = {}): Principal => ({ needToLogin: false, userType, ...flags });
const anonymous: Principal = { needToLogin: true };

type Who = number | "anonymous";
/** [seed rule, object, roles allowed (plain accounts, no flags)] */
const MATRIX: [string, string, Who[]][] = [
  ["Root sees all /admin items and the group of admin pages.", "page.admin", [0]],
  ["School admin sees the school pages.", "page.school", [2]],
  ["Contest admin sees the ContestAdmin pages.", "page.contestAdmin", [1]],
  ["Contest reviewer sees the review pages; a contest admin too, for the format review of the", "page.review", [1, 3]],
  ["Judge sees the judge pages.", "page.judge", [4]],
  ["Teacher sees the teacher pages.", "page.teacher", [99]],
  ["Author sees the author pages.", "page.author", [100]],
  ["Arbitrator sees the arbitration page.", "page.arbitrate", [7]],
  ["Work management is open to root and contest admin.", "page.workManagement", [0, 1]],
  ["Complaint management is open to root or users with the complaint right.", "page.complaintManagement", [0]],
  ["Notice management is open to root only.", "page.noticeManagement", [0]],
  ["Work query is for anonymous visitors.", "page.queryWork", ["anonymous"]],
  ["Login and register pages are shown only when not logged in.", "page.guestAccount", ["anonymous"]],
  ["Account security and logout are shown only when logged in.", "page.account", [0, 1, 2, 3, 4, 5, 6, 7, 99, 100]],
  ["The judging contest selector is open to judges and users flagged as school contest judges.", "page.judgeSelect", [4]],
  ["Fast review is open to root, contest admin and contest reviewer.", "page.fastReview", [0, 1, 3]],
  ["The judge pool and duplicate check are open to root, contest admin and judge. (pool)", "page.judgePool", [0, 1, 4]],
  ["The judge pool and duplicate check are open to root, contest admin and judge. (dup check)", "page.dupCheck", [0, 1, 4]],
  ["Judge info, past works, online and offline judging and offline group result are judge only.", "page.judge", [4]],
  ["The province and national contest menu entries are root only.", "page.contestMenu", [0]],
];

const EVERYONE: Who[] = [...ROLE_CODES, "anonymous"];
const principal = (w: Who) => (w === "anonymous" ? anonymous : role(w));

describe("casbin policy encodes section 6 of the seed", () => {
  for (const [rule, obj, allowed] of MATRIX) {
    it(rule, async () => {
      const got: Who[] = [];
      for (const w of EVERYONE) if (await policy.can(principal(w), obj, "view")) got.push(w);
      expect(got).toEqual(allowed);
    });
  }

  it("the complaint right flag opens complaint management to any role, and nothing else", async () => {
    for (const code of ROLE_CODES) {
      const p = role(code, { hasComplaintRight: true });
      expect(await policy.can(p, "page.complaintManagement", "view")).toBe(true);
      expect(await policy.can(p, "page.admin", "view")).toBe(code === 0);
    }
    expect(await policy.can({ needToLogin: true, hasComplaintRight: true }, "page.complaintManagement", "view")).toBe(false);
  });

  it("the school-contest-judge flag opens the judging contest selector but not the judge-only pages", async () => {
    const teacherJudge = role(99, { isSchoolContestJudge: true });
    expect(await policy.can(teacherJudge, "page.judgeSelect", "view")).toBe(true);
    expect(await policy.can(teacherJudge, "page.judge", "view")).toBe(false);
    expect(await policy.can(teacherJudge, "page.teacher", "view")).toBe(true);
  });

  it("every object of the policy is one the code knows, with one action per line", () => {
    const lines = readFileSync("casbin/policy.csv", "utf8")
      .split("\n")
      .filter((l) => l.startsWith("p,"));
    for (const l of lines) {
      const [, sub, obj, act, ...rest] = l.split(",").map((s) => s.trim());
      expect(rest).toEqual([]);
      expect(sub).toMatch(/^(role:\d+|anonymous|authenticated|flag:(complaint_right|school_contest_judge))$/);
      expect(obj).toMatch(/^(page|api|todo)\.[A-Za-z]+$/);
      // the to-do centre's kinds (issue 15): each object names a kind the server computes
      if (obj.startsWith("todo.")) expect(TODO_KINDS as readonly string[]).toContain(obj.slice(5));
      expect(["view", "read", "create", "update", "delete"]).toContain(act);
    }
  });
});
