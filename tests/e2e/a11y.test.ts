/**
 * WCAG 2.1 AA in a real browser (issue 31): axe-core (@axe-core/playwright) runs on the public and
 * login entries as a visitor — the pages everyone opens first. No page may have a critical or
 * serious violation of the wcag2a/2aa/21a/21aa rules, except the few written below in ACCEPTED,
 * whose fix belongs to a library. The signed-in pages of every role are not checked here yet
 * (issue 31 is open: 54 of them still had violations when this was written).
 *
 * One browser, the pages one after the other. Set A11Y_REPORT=<file> to write the violations per
 * page (JSON) there.
 */
import { appendFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { startE2E, type E2E } from "./harness";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { ROUTES } from "../../src/client/routes";
import { matchEntry } from "../../src/client/routing/model";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Violations whose fix belongs to a library: rule, the element (a CSS selector axe reports,
 * matched as a regular expression) and the upstream issue. Keep this list short.
 */
const ACCEPTED: { rule: string; target: RegExp; why: string }[] = [];

interface Visit {
  url: string;
  /** The page's content has shown when this locator is visible (default: the layout's content or a main region). */
  ready?: string;
}

interface PageResult {
  who: string;
  path: string;
  critical: number;
  serious: number;
  rules: string[];
  /** the first elements of each violation, for the report */
  nodes: string[];
}

const results: PageResult[] = [];

/**
 * Waits for the page's data to arrive: the application has rendered and no spinner, skeleton or
 * loading logo is left, twice in a row 250 ms apart (not "network idle": the to-do badges and
 * change notifications keep requests going).
 */
async function settle(page: Page) {
  const idle = () =>
    page
      .waitForFunction(
        () =>
          !!document.getElementById("root")?.childElementCount &&
          !document.querySelector(".ant-spin-spinning, .ant-skeleton, [data-testid=loading-logo]"),
        null,
        { timeout: 8_000, polling: 100 },
      )
      .catch(() => {});
  await idle();
  await page.waitForTimeout(250);
  await idle();
}

/** Runs axe on the page as it is now; records and returns the critical and serious violations not accepted. */
async function check(page: Page, who: string, path: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode(true).analyze();
  const bad = violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => ({
      ...v,
      nodes: v.nodes.filter((n) => !ACCEPTED.some((a) => a.rule === v.id && n.target.some((t) => a.target.test(String(t))))),
    }))
    .filter((v) => v.nodes.length > 0);
  results.push({
    who,
    path,
    critical: bad.filter((v) => v.impact === "critical").length,
    serious: bad.filter((v) => v.impact === "serious").length,
    rules: bad.map((v) => `${v.id}(${v.nodes.length})`),
    nodes: bad.flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id} ${n.target.join(" ")}`)),
  });
  return bad.map(
    (v) =>
      `${who} ${path}: [${v.impact}] ${v.id} — ${v.help}\n    ${v.nodes
        .slice(0, 4)
        .map((n) => `${n.target.join(" ")} :: ${n.failureSummary?.split("\n").slice(1, 2).join("")}`)
        .join("\n    ")}`,
  );
}

/** Routes checked so far, by pattern, for visitors ("v:") and for signed-in users ("u:"). */
const checked = new Set<string>();

/**
 * Opens and checks each page in turn. A route already checked by an earlier role (the same
 * pattern, e.g. /admin/NoticeManagement/:noticeSection, /account/security) is not checked again:
 * the run stays short.
 */
async function visitAll(page: Page, e: E2E, who: string, visits: Visit[]): Promise<string[]> {
  const failures: string[] = [];
  for (const v of visits) {
    const pathname = new URL(v.url, e.base).pathname;
    // The public main page's sections are pages of their own (the public app), one route here.
    const pattern = pathname.startsWith("/mainpage") ? pathname : (matchEntry(ROUTES, pathname)?.path ?? pathname);
    const key = `${who === "visitor" ? "v" : "u"}:${pattern}`;
    if (checked.has(key)) continue;
    checked.add(key);
    await page.goto(e.base + v.url);
    if (v.ready) await page.locator(v.ready).first().waitFor();
    await settle(page);
    failures.push(...(await check(page, who, v.url)));
  }
  return failures;
}

describe("WCAG 2.1 AA on the public and login entries (axe-core)", () => {
  let e: E2E;

  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
    await seedComplaintsDemo(e.db, e.base);
  });
  afterAll(async () => {
    const report = process.env.A11Y_REPORT;
    if (report) appendFileSync(report, JSON.stringify(results) + "\n");
    for (const r of results)
      if (r.critical + r.serious)
        console.log(`${r.who.padEnd(18)} ${r.path.padEnd(50)} ${r.critical}/${r.serious} ${r.rules.join(" ")}`);
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
