/**
 * WCAG 2.1 AA in a real browser (issue 31): axe-core (@axe-core/playwright) runs on the public and
 * login entries as a visitor — the pages everyone opens first. No page may have a critical or
 * serious violation of the wcag2a/2aa/21a/21aa rules, except the few written in ACCEPTED,
 * whose fix belongs to a library (tests/e2e/axe.ts). Every page of the route table as its role:
 * a11y-roles.test.ts.
 *
 * One browser, the pages one after the other. Set A11Y_REPORT=<file> to write the violations per
 * page (JSON) there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2E, type E2E } from "./harness";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { reportResults, visitAll, type Visit } from "./axe";

describe("WCAG 2.1 AA on the public and login entries (axe-core)", () => {
  let e: E2E;

  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
    await seedComplaintsDemo(e.db, e.base);
  });
  afterAll(async () => {
    reportResults();
    await e?.close();
  });

  it("the public and login entries as a visitor", { timeout: 600_000 }, async () => {
    const page = await e.newPage();
    const visits: Visit[] = [
      "/",
      "/mainpage/home",
      "/mainpage/news",
      "/mainpage/notices",
      "/mainpage/intro",
      "/mainpage/results",
      "/mainpage/best",
      "/mainpage/editions",
      "/complaint",
      "/verify-cert",
      "/query-work",
      "/account/StudentLogin",
      "/account/TeacherLogin",
      "/account/Login",
      "/account/Register",
      "/account/claim-account",
      "/verify-email-claim",
    ].map((url) => ({ url }));
    expect(await visitAll(page, e, "visitor", visits)).toEqual([]);
    await page.context().close();
  });
});
