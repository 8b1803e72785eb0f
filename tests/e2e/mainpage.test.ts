/**
 * The public main page in a real browser (issue 14): a visitor on a 390 × 844 phone goes
 * through every section from the navigation (a screenshot of each, checked: nothing wider
 * than the screen, the navigation item reachable, the section's Chinese texts visible and
 * drawn as glyphs), opens a news article and finds a winning work in 获奖名单; on a 360 px
 * screen the visitor reads the news on /mainpage/home and opens an article, finds a winning
 * work and opens its page; root publishes a best work in /admin/BestWork and it shows on
 * 优秀作品. The visitor's pages load the light public entry only (no antd).
 * Screenshots go to E2E_SHOTS (default: the system's temporary folder, mainpage-e2e/).
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, startE2E, type E2E } from "./harness";
import { onScreen } from "./viewport";
import { seedBestWorksDemo } from "../../src/server/seed/mainpage-demo";

describe("public main page in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    await seedBestWorksDemo(e.db);
  });
  afterAll(async () => e?.close());

  const phone = async (viewport = { width: 360, height: 780 }) => {
    const ctx = await e.browser.newContext({
      locale: "zh-CN",
      viewport,
      isMobile: viewport.width < 400,
      hasTouch: viewport.width < 400,
    });
    const page = await ctx.newPage();
    page.on("pageerror", (err) => console.error(`[browser] ${err.message}`));
    return page;
  };

  const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), "mainpage-e2e");
  mkdirSync(SHOTS, { recursive: true });

  /** What the page shows and how wide it is: overflow, and whether Chinese text is drawn as glyphs (not as empty boxes). */
  const check = (page: Page) =>
    page.evaluate(() => {
      const el = document.scrollingElement!;
      // Two different characters drawn with the page's font give different pixels only when
      // a font has them: missing glyphs are all the same box (as a private-use character is).
      const draw = (ch: string) => {
        const c = document.createElement("canvas");
        c.width = c.height = 40;
        const g = c.getContext("2d")!;
        g.font = `32px ${getComputedStyle(document.body).fontFamily}`;
        g.fillText(ch, 2, 32);
        return Array.from(g.getImageData(0, 0, 40, 40).data).join(",");
      };
      const [a, b, tofu] = [draw("获"), draw("奖"), draw("\uE000")];
      return { scrollWidth: el.scrollWidth, glyphs: a !== b && a !== tofu && b !== tofu };
    });

  it("a visitor on a 390 × 844 phone reads every section from the navigation, opens a news article and finds a winning work", async () => {
    const page = await phone({ width: 390, height: 844 });
    const sections: { key: string; name: string; ready: string; texts: string[] }[] = [
      {
        key: "home",
        name: "首页",
        ready: "[data-news-list] > li",
        texts: ["赛程安排", "新闻动态", "通知公告", "作品查询", "证书查询"],
      },
      { key: "news", name: "新闻", ready: "[data-news-list] > li", texts: ["新闻"] },
      { key: "notices", name: "通知公告", ready: ".mp-articles > li", texts: ["通知公告"] },
      { key: "intro", name: "赛事介绍", ready: ".mp-category", texts: ["赛事介绍", "作品类别与评分标准"] },
      { key: "results", name: "获奖名单", ready: "[data-testid=results] .mp-result-name", texts: ["获奖名单", "搜索"] },
      { key: "best", name: "优秀作品", ready: "[data-testid=best-works] article", texts: ["优秀作品"] },
      { key: "editions", name: "往届", ready: "[data-testid=editions]", texts: ["往届"] },
    ];
    await page.goto(e.base + "/mainpage/home");
    for (const s of sections) {
      // Every section's item is on screen at the top of the page (not hidden past the edge of a scrolling bar) and is tapped.
      const nav = page.getByTestId(`nav-${s.key}`);
      expect(await onScreen(page.getByTestId(`nav-${s.key}`)), `导航「${s.name}」在屏幕内`).toBe(true);
      await nav.tap();
      await page.waitForURL(new RegExp(`/mainpage/${s.key}$`));
      await page.locator(s.ready).first().waitFor();
      expect(await nav.getAttribute("class")).toContain("mp-active");
      for (const text of s.texts)
        await page.getByText(text, { exact: true }).first().waitFor({ state: "visible", timeout: 5000 });
      if (s.key === "intro") {
        // A category opens to its rubric.
        const cat = page.locator(".mp-category", { has: page.locator("table") }).first();
        expect(await cat.locator("table").isVisible()).toBe(false);
        await cat.locator("summary").tap();
        await cat.locator("table").waitFor();
        expect(await cat.locator("th").allTextContents()).toContain("评分项");
      }
      await page.screenshot({ path: join(SHOTS, `390-${s.key}.png`), fullPage: true });
      const seen = await check(page);
      expect(seen.scrollWidth, `「${s.name}」没有横向溢出`).toBeLessThanOrEqual(390);
      expect(seen.glyphs, "中文字形已渲染").toBe(true);
      // At the top of the page, the login link is on screen next to the title.
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await onScreen(page.getByTestId("mp-login"))).toBe(true);
    }

    // A news article from 新闻.
    await page.getByTestId("nav-news").tap();
    const first = page.locator("[data-news-list] > li").first();
    await first.waitFor();
    const title = (await first.locator(".mp-article-title").textContent())!;
    await first.locator("a").tap();
    await page.getByTestId("article").locator("h1", { hasText: title }).waitFor();
    expect(page.url()).toMatch(/\/mainpage\/news\/\d+$/);
    await page.screenshot({ path: join(SHOTS, "390-article.png"), fullPage: true });
    expect((await check(page)).scrollWidth).toBeLessThanOrEqual(390);

    // A winning work in 获奖名单, found by its school, and its page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId("nav-results").tap();
    const names = page.getByTestId("results").locator(".mp-result-name");
    await names.first().waitFor();
    const work = (await names.first().textContent())!;
    const school = (await page.getByTestId("results").locator("li").first().locator(".mp-muted").first().textContent())!.split(
      " · ",
    )[0];
    await page.getByTestId("results-keyword").fill(school);
    await page.getByRole("button", { name: "搜索" }).tap();
    await page.waitForURL(/keyword=/);
    await expect.poll(() => names.allTextContents()).toContain(work);
    expect((await page.getByTestId("results").locator("li").allTextContents()).every((t) => t.includes(school))).toBe(true);
    await page.screenshot({ path: join(SHOTS, "390-results-search.png"), fullPage: true });
    expect((await check(page)).scrollWidth).toBeLessThanOrEqual(390);
    await names.filter({ hasText: work }).first().tap();
    await page.getByTestId("work").locator("h1", { hasText: work }).waitFor();
    await expect.poll(() => page.getByTestId("work").textContent()).toMatch(/(一|二|三)等奖/);
    await page.screenshot({ path: join(SHOTS, "390-work.png"), fullPage: true });
    expect((await check(page)).scrollWidth).toBeLessThanOrEqual(390);
    await page.context().close();
  });

  it("a visitor at 360 px sees the news and the timeline, opens an article and comes back", async () => {
    const page = await phone();
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (/\.(js|css)$/.test(new URL(r.url()).pathname)) scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(e.base + "/mainpage/home");
    const news = page.locator("[data-news-list] > li");
    await news.first().waitFor();
    expect(await news.count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId("timeline-today").or(page.locator(".mp-tl-current")).first().waitFor();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The light entry only: no admin bundle, no antd stylesheet.
    expect(scripts.some((s) => /admin-main/.test(s))).toBe(false);
    expect(await page.evaluate(() => !!document.querySelector("[class^=ant-], [class*=' ant-']"))).toBe(false);

    const title = (await news.first().locator(".mp-article-title").textContent())!;
    await news.first().locator("a").click();
    await page.getByTestId("article").waitFor();
    expect(page.url()).toMatch(/\/mainpage\/news\/\d+$/);
    expect(await page.locator("h1").textContent()).toBe(title);
    // The article's address is stable: a fresh load shows it again.
    await page.reload();
    await page.getByTestId("article").locator("h1", { hasText: title }).waitFor();
    await page.goBack();
    await page.waitForURL(/\/mainpage\/home$/);
    await page.locator("[data-news-list]").waitFor();

    await page.goto(e.base + "/mainpage/no-such-section");
    await page.getByTestId("error-screen").waitFor();
    await page.context().close();
  });

  it("a visitor finds a winning work in 获奖名单 and opens its page", async () => {
    const page = await phone();
    await page.goto(e.base + "/mainpage/results");
    const first = page.getByTestId("results").locator(".mp-result-name").first();
    await first.waitFor();
    const name = (await first.textContent())!;
    await page.getByTestId("results-keyword").fill(name);
    await page.getByRole("button", { name: "搜索" }).click();
    await page.waitForURL(/keyword=/);
    await expect.poll(() => page.getByTestId("results").locator(".mp-result-name").allTextContents()).toEqual([name]);
    await page.getByTestId("results").locator(".mp-result-name").first().click();
    await page.getByTestId("work").locator("h1", { hasText: name }).waitFor();
    await page.context().close();
  });

  it("root publishes a best work and it shows on 优秀作品", async () => {
    const unpublished = await e.db
      .selectFrom("best_work")
      .innerJoin("work", "work.id", "best_work.work_id")
      .select(["best_work.work_id", "work.name"])
      .where("best_work.published", "=", 0)
      .executeTakeFirstOrThrow();
    const visitor = await phone();
    await visitor.goto(e.base + "/mainpage/best");
    await visitor.getByTestId("best-works").waitFor();
    expect(await visitor.getByTestId("best-works").textContent()).not.toContain(unpublished.name);

    const root = await login(e, "root");
    await root.goto(e.base + "/admin/BestWork");
    const row = root.getByTestId(`best-${unpublished.work_id}`);
    await row.getByTestId("best-text").fill("评委推荐：完成度高");
    await row.getByTestId("best-save").click();
    await expect.poll(() => row.getByTestId("best-save").isDisabled()).toBe(true);
    await row.getByTestId("best-publish").click();
    await expect.poll(() => row.getByTestId("best-publish").getAttribute("aria-checked")).toBe("true");
    await root.context().close();

    await visitor.goto(e.base + "/mainpage/best");
    const card = visitor.getByTestId("best-works").locator("article", { hasText: unpublished.name });
    await card.waitFor();
    expect(await card.textContent()).toContain("评委推荐：完成度高");
    await visitor.context().close();
  });
});
