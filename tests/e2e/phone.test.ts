/**
 * On a 360 × 740 phone (issue 31): the menu is a drawer behind the header's menu button, and the
 * student's submit story (to-do, my works, the work form, team, attachments, submit) and the
 * judge's scoring story (online scoring, a work, its score) never scroll sideways; the main
 * buttons are at least 44 px high (tap targets).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { DEMO_PASSWORD, startE2E, submitLogin, type E2E } from "./harness";

/** Minimal files whose first bytes are those of their type (as in works-author.test.ts). */
const FILES: Record<string, { name: string; mimeType: string; buffer: Buffer }> = {
  defense: { name: "答辩材料.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n", "latin1") },
  source: {
    name: "源码.zip",
    mimeType: "application/zip",
    buffer: Buffer.concat([Buffer.from("PK\x05\x06", "latin1"), Buffer.alloc(18)]),
  },
  docs: { name: "设计文档.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n% doc\n%%EOF\n", "latin1") },
  video: {
    name: "演示视频.mp4",
    mimeType: "video/mp4",
    buffer: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom", "latin1"), Buffer.alloc(12)]),
  },
};

async function phoneLogin(e: E2E, username: string, path: string): Promise<Page> {
  const ctx = await e.browser.newContext({
    locale: "zh-CN",
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await ctx.newPage();
  page.on("pageerror", (err) => console.error(`[browser] ${err.message}`));
  await submitLogin(page, e.base + path, username, DEMO_PASSWORD);
  await page.getByTestId("user-center").waitFor();
  return page;
}

/** The page does not scroll sideways (its content, not only the window, is at most 360 px wide). */
async function fits(page: Page, where: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${where}: the page is ${width} px wide`).toBeLessThanOrEqual(360);
}

/** The visible buttons inside `scope` that are lower than 44 px (tap targets). */
const smallButtons = (page: Page, scope: string) =>
  page.locator(`${scope} button:visible`).evaluateAll((buttons) =>
    buttons
      .map((b) => ({ text: (b.textContent ?? b.getAttribute("aria-label") ?? "").trim(), h: b.getBoundingClientRect().height }))
      .filter((b) => b.h > 0 && b.h < 44)
      .map((b) => `${b.text} (${Math.round(b.h)} px)`),
  );

/** Opens the menu drawer from the header's button and follows the entry `label` (of the closed `group`). */
async function viaMenu(page: Page, label: string, group?: string) {
  const button = page.getByTestId("menu-button");
  expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await button.click();
  const drawer = page.getByTestId("menu-drawer");
  const nav = drawer.getByRole("navigation", { name: "主菜单" });
  await nav.waitFor();
  if (group) await nav.locator(`li[data-menu-group="${group}"] > .ant-menu-submenu-title`).click();
  const item = nav.locator("li[data-menu-path]", { hasText: label });
  await item.waitFor();
  expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await item.click();
  await drawer.waitFor({ state: "hidden" });
}

describe("students and judges on a 360 px phone", { timeout: 240_000 }, () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
  });
  afterAll(async () => e?.close());

  it("the student goes from the to-do list to a submitted work without scrolling sideways", async () => {
    const page = await phoneLogin(e, "student", "/account/StudentLogin");
    // No side menu beside the page: the menu is behind the header's button.
    expect(await page.locator("aside[data-testid=app-sider]").count()).toBe(0);
    await page.getByTestId("todo-card").waitFor();
    await fits(page, "用户中心");

    await viaMenu(page, "我的作品", "作者");
    await page.waitForURL(/\/author\/work-management/);
    await page.getByTestId("menu-button").click();
    await expect.poll(() => page.getByTestId("menu-drawer").locator('nav [aria-current="page"]').textContent()).toBe("我的作品");
    await page
      .getByTestId("menu-drawer")
      .getByRole("button", { name: /Close|关闭/ })
      .click();
    await page.getByTestId("menu-drawer").waitFor({ state: "hidden" });
    const works = page.getByTestId("my-works");
    await works.getByTestId("work-open").first().waitFor();
    await fits(page, "我的作品");
    expect(await smallButtons(page, "main")).toEqual([]);

    await works.getByTestId("work-open").first().click();
    const drawer = page.getByTestId("work-drawer");
    await drawer.getByTestId("work-form").waitFor();
    await fits(page, "作品信息");
    await drawer.getByTestId("work-save").click();
    await page.locator(".ant-message-notice").first().waitFor();

    await drawer.getByRole("tab", { name: "团队成员" }).click();
    await drawer.getByTestId("team-authors").waitFor();
    await fits(page, "团队成员");

    await drawer.getByRole("tab", { name: "作品附件" }).click();
    await drawer.getByTestId("attachments").waitFor();
    for (const [kind, file] of Object.entries(FILES)) {
      const input = drawer.getByTestId(`file-input-${kind}`);
      if (!(await input.count())) continue;
      await input.setInputFiles(file);
      await drawer.getByTestId(`file-${kind}`).getByText(file.name).waitFor();
    }
    await fits(page, "作品附件");

    await drawer.getByRole("tab", { name: "提交作品" }).click();
    await drawer.getByTestId("submit-checks").waitFor();
    await expect.poll(() => drawer.getByTestId("submit-checks").locator(".anticon-close-circle").count()).toBe(0);
    await fits(page, "提交作品");
    await drawer.getByTestId("work-submit").click();
    await page
      .locator(".ant-popover:not(.ant-popover-hidden)")
      .getByRole("button", { name: /提\s*交/ })
      .click();
    await expect.poll(() => drawer.getByTestId("work-status").first().textContent()).toBe("已提交");
    await fits(page, "已提交");
    await page.context().close();
  });

  it("the judge scores a work online without scrolling sideways", async () => {
    const page = await phoneLogin(e, "judge", "/account/Login");
    await fits(page, "用户中心");
    await viaMenu(page, "评审赛事", "评委");
    await page.getByTestId("go-online").first().click();
    await page.getByTestId("online-works").waitFor();
    await fits(page, "线上评审");

    await page.locator("[data-testid^=online-work-]").first().click();
    await page.getByTestId("score-form").waitFor();
    await fits(page, "作品与评分");
    const items = page.getByTestId("score-form").getByRole("spinbutton");
    const count = await items.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) await items.nth(i).fill("10");
    await page.getByTestId("submit-score").click();
    await page.getByRole("dialog").getByRole("button", { name: "确认提交" }).click();
    await page.getByTestId("score-submitted").waitFor();
    await fits(page, "已提交的评分");
    await page.context().close();
  });
});
