/**
 * 统计 (issue 32) in a real browser: root, a contest admin and a school admin each open 统计 from
 * the menu and see the dashboards drawn as charts with Chinese labels and the numbers beside them;
 * a click on a bar of 作品状态 opens the works list filtered to that state; the PNG and .xlsx
 * downloads are valid files; the user centre shows the three figures without loading the charts;
 * axe finds no critical or serious violation on the dashboards. STATS_SHOTS=<dir> also saves a
 * screenshot of every dashboard as every role there (to look at).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { login, startE2E, type E2E } from "./harness";
import { loadWorkbook } from "../helpers/xlsx";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { STATS_DASHBOARDS, STATS_DASHBOARD_NAMES } from "../../src/shared/stats/schema";
import { WORK_STATES, WORK_STATE_NAMES } from "../../src/shared/work/states";
import { PRIMARY } from "../../src/client/providers/antd-theme";

const SHOTS = process.env.STATS_SHOTS;
const HAN = /[\u4e00-\u9fff]/;

/** Opens 统计 from the side menu and waits until the first chart is drawn. */
async function openStats(page: Page) {
  await page.locator('aside[data-testid=app-sider] li[data-menu-path="/statistics"]').click();
  await page.waitForURL(/\/statistics/);
  await page.getByTestId("stats-page").waitFor();
  await page.locator("[data-chart-drawn]").first().waitFor();
}

async function openTab(page: Page, d: (typeof STATS_DASHBOARDS)[number]) {
  await page.getByTestId("stats-tabs").getByRole("tab", { name: STATS_DASHBOARD_NAMES[d] }).click();
  await page.locator(`[data-dashboard=${d}]`).waitFor();
}

/** Every chart on the page: drawn (a canvas with pixels), named in Chinese, with a table of headers beside it. */
async function expectCharts(page: Page) {
  const charts = page.locator("[role=img][aria-label][data-chart-drawn]");
  await expect.poll(() => charts.count()).toBeGreaterThan(0);
  for (const label of await charts.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? "")))
    expect(label).toMatch(HAN);
  expect(await page.locator("[role=img][data-chart-drawn] canvas").count()).toBeGreaterThan(0);
  const headers = await page.locator("[data-testid=figure-table] th").allTextContents();
  expect(headers.length).toBeGreaterThan(0);
  expect(headers.join("")).toMatch(HAN);
}

async function shoot(page: Page, who: string, d: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(400); // the charts' entry animation (300 ms)
  await page.screenshot({ path: join(SHOTS, `${who}-${d}.png`), fullPage: true });
}

/** Clicks the first bar of the chart drawn in `color` (CSS hex), below its legend; returns false when there is none. */
async function clickBar(page: Page, chart: ReturnType<Page["locator"]>, color: string): Promise<boolean> {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  const at = await chart.locator("canvas").evaluate(
    (c: HTMLCanvasElement, rgb: number[]) => {
      const ctx = c.getContext("2d")!;
      const scale = c.width / c.getBoundingClientRect().width;
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      // Below the legend (its icons share the colour): from 48 CSS pixels down.
      for (let y = Math.round(48 * scale); y < c.height; y += 2)
        for (let x = 0; x < c.width; x += 2) {
          const i = (y * c.width + x) * 4;
          if (Math.abs(data[i] - rgb[0]) < 6 && Math.abs(data[i + 1] - rgb[1]) < 6 && Math.abs(data[i + 2] - rgb[2]) < 6)
            return { x: x / scale + 2, y: y / scale + 2 };
        }
      return null;
    },
    [r, g, b],
  );
  if (!at) return false;
  const box = (await chart.boundingBox())!;
  await page.mouse.click(box.x + at.x, box.y + at.y);
  return true;
}

describe("统计 in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
    await seedComplaintsDemo(e.db, e.base);
  });
  afterAll(async () => e?.close());

  for (const who of ["root", "contest_admin", "school_admin"]) {
    it(`${who} sees the user centre's three figures (no charts loaded there), then every dashboard as charts`, async () => {
      const scripts: Promise<string>[] = [];
      const page = await e.newPage();
      page.on("response", (r) => {
        if (r.url().endsWith(".js")) scripts.push(r.text().catch(() => ""));
      });
      await login(e, who, "/account/Login", { page });
      const summary = page.getByTestId("stats-summary");
      await summary.locator(".ant-statistic").first().waitFor();
      expect(await summary.locator(".ant-statistic").count()).toBe(3);
      expect((await summary.locator(".ant-statistic-title").allTextContents()).join("")).toMatch(HAN);
      // The user centre's scripts hold no ECharts (it comes with the dashboards' chunk only).
      expect((await Promise.all(scripts)).some((s) => s.includes("_echarts_instance_"))).toBe(false);

      await openStats(page);
      expect((await Promise.all(scripts)).some((s) => s.includes("_echarts_instance_"))).toBe(true);
      for (const d of STATS_DASHBOARDS) {
        await openTab(page, d);
        if (d === "timeline" || d === "pipeline" || d === "breakdown") await expectCharts(page);
        await shoot(page, who, d);
      }
      await page.context().close();
    }, 120_000);
  }

  for (const [who, list] of [
    ["contest_admin", "/WorkManagement"],
    ["school_admin", "/school/WorkManagement"],
  ] as const) {
    it(`${who}: a click on a bar of 作品状态 opens ${list} filtered to that state`, async () => {
      const page = await login(e, who);
      await page.goto(`${e.base}/statistics?tab=pipeline`);
      const chart = page.getByTestId("pipeline-card").locator("[role=img][data-chart-drawn]");
      await chart.waitFor();
      expect(await clickBar(page, chart, PRIMARY)).toBe(true);
      await page.waitForURL((u) => u.pathname === list);
      await page.getByTestId("stats-page").waitFor({ state: "detached" });
      const url = new URL(page.url());
      const state = url.searchParams.get("status") as (typeof WORK_STATES)[number];
      expect(WORK_STATES).toContain(state);
      if (who === "contest_admin") expect(Number(url.searchParams.get("contestId"))).toBeGreaterThan(0);
      // The list shows works in that state only.
      const rows = page.locator(".ant-table-tbody .ant-table-row");
      await rows.first().waitFor();
      const texts = await rows.allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      for (const t of texts) expect(t).toContain(WORK_STATE_NAMES[state]);
      await page.context().close();
    }, 90_000);
  }

  it("the PNG of a chart and the .xlsx of a dashboard are valid files", async () => {
    const page = await login(e, "root");
    await page.goto(`${e.base}/statistics?tab=pipeline`);
    await page.getByTestId("pipeline-card").locator("[data-chart-drawn]").waitFor();
    const [png] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("pipeline-card").getByTestId("chart-png").click(),
    ]);
    expect(png.suggestedFilename()).toMatch(/^各状态作品数.*\.png$/);
    const bytes = readFileSync((await png.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.length).toBeGreaterThan(2000);

    const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByTestId("stats-xlsx").click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = await loadWorkbook(readFileSync((await xlsx.path())!));
    expect(book.worksheets.length).toBeGreaterThan(0);
    const sheet = book.worksheets[0];
    expect(sheet.name).toMatch(HAN);
    expect(sheet.rowCount).toBeGreaterThan(1);
    await page.context().close();
  });

  it("axe finds no critical or serious violation on the dashboards", async () => {
    const bad: string[] = [];
    for (const [who, tabs] of [
      ["root", STATS_DASHBOARDS],
      ["school_admin", ["breakdown"]],
    ] as const) {
      const page = await login(e, who);
      await page.goto(`${e.base}/statistics`);
      await page.locator("[data-chart-drawn]").first().waitFor();
      for (const d of tabs) {
        await openTab(page, d);
        const { violations } = await new AxeBuilder({ page })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
          .setLegacyMode(true)
          .analyze();
        for (const v of violations.filter((v) => v.impact === "critical" || v.impact === "serious"))
          bad.push(
            `${who} ${d}: ${v.id} ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(" | ")}`,
          );
      }
      await page.context().close();
    }
    expect(bad).toEqual([]);
  }, 180_000);
});
