/**
 * Keyboard only (issue 31, WCAG 2.1.1): no mouse click anywhere — page.keyboard presses Tab,
 * arrows, Enter and types. The student logs in, opens 我的作品 from the side menu, opens the
 * returned work and submits it again; the judge logs in, opens 评审赛事 (by its address), goes
 * into online judging, picks a work, fills every scoring item and submits the score.
 *
 * The returned work's required files are put in place as rows beforehand (uploading is the work
 * tests' subject, works-author.test.ts); everything on screen is done by keyboard.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD, startE2E, type E2E } from "./harness";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";

const RETURNED = "基于大模型的古诗词学习助手";

/** What has the focus: tag, text, test id, role, path. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName ?? "",
      text: (el?.innerText ?? el?.getAttribute("aria-label") ?? "").replace(/\s+/g, " ").trim().slice(0, 60),
      testId: el?.closest("[data-testid]")?.getAttribute("data-testid") ?? "",
      ownTestId: el?.getAttribute("data-testid") ?? "",
      placeholder: el?.getAttribute("placeholder") ?? "",
      menuPath: el?.closest("[data-menu-path]")?.getAttribute("data-menu-path") ?? "",
      role: el?.getAttribute("role") ?? "",
      value: el instanceof HTMLInputElement ? el.value : "",
    };
  });
type Focus = Awaited<ReturnType<typeof focused>>;

/** Presses `key` (Tab by default) until `want` holds for the focused element; fails after `max` presses. */
async function pressUntil(page: Page, want: (f: Focus) => boolean, what: string, key = "Tab", max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    if (want(f)) {
      console.log(`「${what}」：${i + 1} 次 ${key}`);
      return i + 1;
    }
  }
  throw new Error(`${max} 次 ${key} 后焦点仍未到达「${what}」（停在 ${JSON.stringify(await focused(page))}）`);
}

/** Logs in on `path` by keyboard: Tab to 用户名或邮箱, type, Tab to 密码, type, Enter. */
async function keyboardLogin(e: E2E, username: string, path: string) {
  const page = await e.newPage();
  await page.goto(e.base + path);
  await page.getByPlaceholder("用户名或邮箱").waitFor();
  await pressUntil(page, (f) => f.placeholder === "用户名或邮箱", "用户名");
  await page.keyboard.type(username);
  await pressUntil(page, (f) => f.placeholder === "密码", "密码");
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Enter");
  await page.getByTestId("user-center").waitFor();
  return page;
}

/** Opens a page of the side menu by keyboard: Tab into the menu, arrows to the entry (opening its group), Enter. */
async function openFromMenu(page: Page, path: string, group: string) {
  await pressUntil(page, (f) => f.menuPath !== "", "侧边菜单");
  // Down the menu; a closed group opens with Enter (or →) on its title.
  for (let i = 0; i < 40; i++) {
    const f = await focused(page);
    if (f.menuPath === path) break;
    if (f.text === group) {
      const open = await page.evaluate(() => document.activeElement?.getAttribute("aria-expanded"));
      if (open !== "true") {
        await page.keyboard.press("Enter");
        continue;
      }
    }
    await page.keyboard.press("ArrowDown");
  }
  expect((await focused(page)).menuPath).toBe(path);
  await page.keyboard.press("Enter");
  await page.waitForURL(`**${path}`);
}

describe("keyboard only", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
    // The returned work's required files (rows only: nothing downloads them here).
    const w = await e.db.selectFrom("work").select(["id", "created_by"]).where("name", "=", RETURNED).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await e.db
      .insertInto("work_file")
      .values(
        [
          ["defense", "答辩材料.pdf", "application/pdf"],
          ["source", "源码.zip", "application/zip"],
          ["docs", "设计文档.pdf", "application/pdf"],
          ["video", "演示视频.mp4", "video/mp4"],
        ].map(([kind, filename, mime]) => ({
          work_id: w.id,
          kind,
          filename,
          size: 1024,
          mime,
          sha256: "0".repeat(64),
          uploaded_by: w.created_by,
          created_at: at,
          replaced_at: null,
          deleted_at: null,
          deleted_by: null,
        })),
      )
      .execute();
  });
  afterAll(async () => e?.close());

  it("a student logs in, opens 我的作品 and submits the returned work", { timeout: 240_000 }, async () => {
    const page = await keyboardLogin(e, "student", "/account/StudentLogin");
    await openFromMenu(page, "/author/work-management", "作者");
    const row = page.getByTestId("my-works").locator("tr", { hasText: RETURNED });
    await row.waitFor();
    // 编辑 of the returned work's row.
    await pressUntil(page, (f) => f.ownTestId === "work-open" && f.text.includes("编辑"), "编辑");
    const rowOfFocus = await page.evaluate(() => document.activeElement?.closest("tr")?.textContent ?? "");
    if (!rowOfFocus.includes(RETURNED))
      await pressUntil(page, (f) => f.ownTestId === "work-open" && f.text.includes("编辑"), "编辑（退回的作品）").then(async () =>
        expect(await page.evaluate(() => document.activeElement?.closest("tr")?.textContent)).toContain(RETURNED),
      );
    await page.keyboard.press("Enter");
    const drawer = page.getByTestId("work-drawer");
    await drawer.getByText(RETURNED).first().waitFor();
    // The tabs: Tab to the active one, arrows to 提交作品.
    await pressUntil(page, (f) => f.role === "tab", "抽屉的标签页");
    await pressUntil(page, (f) => f.role === "tab" && f.text.endsWith("提交作品"), "提交作品标签", "ArrowRight", 8);
    await page.keyboard.press("Enter");
    await drawer.getByTestId("work-submit").waitFor();
    await pressUntil(page, (f) => f.ownTestId === "work-submit", "提交按钮");
    await page.keyboard.press("Enter");
    // The confirmation takes the focus on its 提交 button.
    await expect.poll(async () => (await focused(page)).text).toMatch(/^提\s*交$/);
    await page.keyboard.press("Enter");
    await expect.poll(() => drawer.getByTestId("work-status").first().textContent()).toMatch(/已提交|待审/);
    await page.context().close();
  });

  it("a judge logs in, opens 评审赛事, picks a work and submits its score", { timeout: 240_000 }, async () => {
    const page = await keyboardLogin(e, "judge", "/account/Login");
    // 评审赛事 by its address (typed, as into the address bar).
    await page.goto(e.base + "/judge");
    await pressUntil(page, (f) => f.ownTestId === "go-online", "线上评审");
    await page.keyboard.press("Enter");
    await page.getByTestId("online-works").waitFor();
    // The first work not yet scored.
    await pressUntil(page, (f) => f.ownTestId === "online-work-open", "作品列表");
    await page.keyboard.press("Enter");
    await page.getByTestId("score-form").waitFor();
    // Every scoring item: Tab to its (still empty) number field and type.
    const items = await page.getByTestId("score-form").getByRole("spinbutton").count();
    expect(items).toBeGreaterThan(0);
    for (let i = 0; i < items; i++) {
      await pressUntil(page, (f) => f.role === "spinbutton" && f.value === "", `评分项 ${i + 1}`);
      await page.keyboard.type("10");
    }
    await pressUntil(page, (f) => f.ownTestId === "submit-score", "提交评分");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.getByText(/总分 \d+(\.\d+)? 分/).waitFor();
    await pressUntil(page, (f) => f.text === "确认提交", "确认提交");
    await page.keyboard.press("Enter");
    await page.getByTestId("score-submitted").waitFor();
    await page.context().close();
  });
});
