/**
 * axe-core (@axe-core/playwright) for the browser accessibility tests (issue 31): the WCAG 2.1
 * A/AA rules, the written list of accepted exceptions, waiting for a page's data, and a run over
 * a list of pages that records the critical and serious violations per page. Used by
 * a11y.test.ts (visitors) and a11y-roles.test.ts (every page of the route table as its role).
 */
import { appendFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import type { E2E } from "./harness";
import { ROUTES } from "../../src/client/routes";
import { matchEntry } from "../../src/client/routing/model";

export const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Violations whose fix belongs to a library: the rule, the element — its HTML as axe reports it
 * (`html`) or a CSS selector axe reports (`target`), and what axe says is wrong (`summary`), each a
 * regular expression — the reason and the upstream issue. Only that rule on such an element is excused. Keep this list short.
 */
export const ACCEPTED: { rule: string; html?: RegExp; target?: RegExp; summary?: RegExp; why: string }[] = [
  {
    // antd 5 Select in a required Form.Item: Form.Item gives the control aria-required, and Select
    // puts it on its root <div class="ant-select"> (no role) instead of the combobox input. Our
    // side cannot move it; the field's label and its error are read correctly. Fixed in antd 6.
    rule: "aria-allowed-attr",
    html: /^<div (?=[^>]*\bclass="ant-select[ "])(?=[^>]*\baria-required="true")/,
    summary: /^Fix all of the following:\s+ARIA attribute is not allowed: aria-required="true"$/,
    why: "antd Select: aria-required on the root div — https://github.com/ant-design/ant-design/issues/46030",
  },
  {
    // rc-table 7.54 (antd 5 Table with scroll.x) draws a hidden measuring row (aria-hidden) with a
    // copy of every column title, so a selectable table's select-all checkbox is in it twice; antd
    // sets the table's measureRowRender itself, our side cannot replace the copy.
    rule: "aria-hidden-focus",
    html: /^<tr aria-hidden="true" class="ant-table-measure-row"/,
    why: "antd Table's measure row copies the header's checkbox — https://github.com/react-component/table/pull/1346, https://github.com/ant-design/ant-design/issues/54906",
  },
];

const accepted = (rule: string, node: { html: string; target: unknown[]; failureSummary?: string }) =>
  ACCEPTED.some(
    (a) =>
      a.rule === rule &&
      (!a.html || a.html.test(node.html)) &&
      (!a.summary || a.summary.test(node.failureSummary?.trim() ?? "")) &&
      (!a.target || node.target.some((t) => a.target!.test(String(t)))),
  );

export interface Visit {
  url: string;
  /** The page's content has shown when this locator is visible (default: the layout's content or a main region). */
  ready?: string;
}

export interface PageResult {
  who: string;
  path: string;
  critical: number;
  serious: number;
  rules: string[];
  /** the first elements of each violation, for the report */
  nodes: string[];
}

export const results: PageResult[] = [];

/**
 * Waits for the page's data to arrive: the application has rendered and no spinner, skeleton or
 * loading logo is left, twice in a row 250 ms apart (not "network idle": the to-do badges and
 * change notifications keep requests going).
 */
export async function settle(page: Page) {
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
export async function check(page: Page, who: string, path: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode(true).analyze();
  const bad = violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => ({
      ...v,
      nodes: v.nodes.filter((n) => !accepted(v.id, n)),
    }))
    .filter((v) => v.nodes.length > 0);
  const result: PageResult = {
    who,
    path,
    critical: bad.filter((v) => v.impact === "critical").length,
    serious: bad.filter((v) => v.impact === "serious").length,
    rules: bad.map((v) => `${v.id}(${v.nodes.length})`),
    nodes: bad.flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id} ${n.target.join(" ")}`)),
  };
  results.push(result);
  // A11Y_LOG=<file>: each page's result as it is checked (a long run shows its progress).
  if (process.env.A11Y_LOG) appendFileSync(process.env.A11Y_LOG, JSON.stringify(result) + "\n");
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

/** The route pattern of an address (the public main page's sections are pages of their own, one route each). */
export function patternOf(e: E2E, url: string): string {
  const pathname = new URL(url, e.base).pathname;
  return pathname.startsWith("/mainpage") ? pathname : (matchEntry(ROUTES, pathname)?.path ?? pathname);
}

/**
 * Opens and checks each page in turn. A route already checked by an earlier role (the same
 * pattern, e.g. /admin/NoticeManagement/:noticeSection, /account/security) is not checked again
 * unless `opts.again`: the run stays short. With `opts.stay`, a page that sent the browser to
 * another route (a login page, an error, another page) is a failure: it was not the page meant.
 */
export async function visitAll(
  page: Page,
  e: E2E,
  who: string,
  visits: Visit[],
  opts: { again?: boolean; stay?: boolean } = {},
): Promise<string[]> {
  const failures: string[] = [];
  for (const v of visits) {
    const key = `${who === "visitor" ? "v" : "u"}:${patternOf(e, v.url)}`;
    if (checked.has(key) && !opts.again) continue;
    checked.add(key);
    await page.goto(e.base + v.url);
    if (v.ready) await page.locator(v.ready).first().waitFor();
    await settle(page);
    const landed = patternOf(e, page.url());
    if (opts.stay && landed !== patternOf(e, v.url)) failures.push(`${who} ${v.url}: 打开后到了 ${page.url()}`);
    failures.push(...(await check(page, who, v.url)));
  }
  return failures;
}

/** Writes the results to A11Y_REPORT (JSON, one line per file) when set, and prints the pages with violations. */
export function reportResults() {
  const report = process.env.A11Y_REPORT;
  if (report) appendFileSync(report, JSON.stringify(results) + "\n");
  for (const r of results)
    if (r.critical + r.serious)
      console.log(`${r.who.padEnd(18)} ${r.path.padEnd(50)} ${r.critical}/${r.serious} ${r.rules.join(" ")}`);
}
