/**
 * The public main page in a real browser (issue 14): a visitor on a 360 px wide screen reads
 * the news on /mainpage/home and opens an article, finds a winning work in 获奖名单 and opens
 * its page; root publishes a best work in /admin/BestWork and it shows on 优秀作品. The
 * visitor's pages load the light public entry only (no antd).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, startE2E, type E2E } from "./harness";
import { seedBestWorksDemo } from "../../src/server/db/seed/mainpage-demo";

describe("public main page in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    await seedBestWorksDemo(e.db);
  });
  afterAll(async () => e?.close());

  const phone = async () => {
    const ctx = await e.browser.newContext({ locale: "zh-CN", viewport: { width: 360, height: 780 } });
    const page = await ctx.newPage();
    page.on("pageerror", (err) => console.error(`[browser] ${err.message}`));
    return page;
  };

  it("a visitor at 360 px sees the news and the timeline, opens an article and comes back", async () => {
    const page = await phone();
    const scripts: string[] = [];
    page.on("request", (r) => { if (/\.(js|css)$/.test(new URL(r.url()).pathname)) scripts.push(new URL(r.url()).pathname); });
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
    const unpublished = await e.db.selectFrom("best_work").innerJoin("work", "work.id", "best_work.work_id").select(["best_work.work_id", "work.name"]).where("best_work.published", "=", 0).executeTakeFirstOrThrow();
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
