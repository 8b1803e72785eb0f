/**
 * Lists keep their view in the address (issue 31), in a real browser: root filters the user list
 * by role, sorts it by user name and goes to page 2; the address says so; after another page and
 * Back the same rows, page, filter and sort are shown; the copied address opens the same view in a
 * fresh browser. A link to /WorkManagement with a state filter opens the works in that state with
 * the filter shown, and survives opening a work and Back; an address with bad values opens the
 * list at its defaults.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, selectOption, startE2E, type E2E } from "./harness";

/** The rows' first cells (user name / work id), as shown. */
const firstCells = (page: Page, table: string) =>
  page.getByTestId(table).locator("tr.ant-table-row td:not(.ant-table-selection-column)").first().textContent();

const activePage = (page: Page) => page.locator(".ant-pagination-item-active").textContent();

/** The shown sort of a column header: antd marks the sorted header with aria-sort. */
const sortOf = (page: Page, title: string) => page.locator("th", { hasText: title }).first().getAttribute("aria-sort");

describe("list views in the address", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("the user list's page, filter and sort survive another page and Back, and a copied address", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/UserManagement");
    const rows = page.getByTestId("user-table").locator("tr.ant-table-row");
    await rows.first().waitFor();

    await page.getByTestId("user-role-filter").click();
    await selectOption(page, "作者（学生）").click();
    await page.keyboard.press("Escape");
    await page.waitForURL(/userType=100/);
    await page.locator("th", { hasText: "用户名 / 姓名" }).first().click();
    await expect.poll(() => sortOf(page, "用户名 / 姓名")).toBe("ascending");
    await page.locator(".ant-pagination-item-2").click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => activePage(page)).toBe("2");
    const url = new URL(page.url());
    expect(url.searchParams.get("userType")).toBe("100");
    expect(url.searchParams.get("sort")).toBe("username");
    expect(url.searchParams.get("order")).toBe("asc");
    // Every row on page 2 is a student's; remember what page 2 shows.
    await expect.poll(() => rows.locator("td", { hasText: "作者（学生）" }).count()).toBe(await rows.count());
    const shown = await firstCells(page, "user-table");
    expect(shown).toBeTruthy();

    // Another page through the menu, then Back.
    await page.locator('aside[data-testid=app-sider] li[data-menu-path="/admin/SchoolManagement"]').click();
    await page.waitForURL(/\/admin\/SchoolManagement$/);
    await page.getByTestId("school-search").waitFor();
    await page.goBack();
    await page.waitForURL(/\/admin\/UserManagement\?/);
    await expect.poll(() => firstCells(page, "user-table")).toBe(shown);
    await expect.poll(() => activePage(page)).toBe("2");
    await expect.poll(() => sortOf(page, "用户名 / 姓名")).toBe("ascending");
    await expect.poll(() => page.getByTestId("user-role-filter").textContent()).toContain("作者（学生）");

    // The copied address in a fresh browser: the same view.
    const copied = page.url();
    await page.context().close();
    const fresh = await login(e, "root");
    await fresh.goto(copied);
    await expect.poll(() => firstCells(fresh, "user-table")).toBe(shown);
    await expect.poll(() => activePage(fresh)).toBe("2");
    await expect.poll(() => sortOf(fresh, "用户名 / 姓名")).toBe("ascending");
    await expect.poll(() => fresh.getByTestId("user-role-filter").textContent()).toContain("作者（学生）");
    await fresh.context().close();
  }, 240_000);

  it("a link to /WorkManagement with a state filter opens those works with the filter shown, also after a work and Back", async () => {
    const accepted = await e.db.selectFrom("work").select(["id", "name"]).where("status", "=", "accepted").execute();
    expect(accepted.length).toBeGreaterThan(1);
    const page = await login(e, "root");
    await page.goto(e.base + "/WorkManagement?status=accepted&sort=name&order=desc");
    const rows = page.getByTestId("work-table").locator("tr.ant-table-row");
    await expect.poll(() => rows.count()).toBe(accepted.length);
    await expect.poll(() => rows.getByTestId("work-status").allTextContents()).toEqual(accepted.map(() => "省赛已接收"));
    await expect.poll(() => sortOf(page, "作品名称")).toBe("descending");
    await expect.poll(() => page.getByTestId("work-filters").textContent()).toContain("省赛已接收");

    // Open a work, then Back: the same filtered, sorted list.
    const first = await rows.first().locator("a").first().textContent();
    await rows.first().locator("a").first().click();
    await page.waitForURL(/\/workDetail\//);
    await page.goBack();
    await expect.poll(() => rows.count()).toBe(accepted.length);
    expect(await rows.first().locator("a").first().textContent()).toBe(first);
    await expect.poll(() => page.getByTestId("work-filters").textContent()).toContain("省赛已接收");
    await expect.poll(() => sortOf(page, "作品名称")).toBe("descending");

    // Bad values: the list at its defaults (all works, newest id first), no error.
    await page.goto(e.base + "/WorkManagement?status=bogus&page=abc&pageSize=7&sort=evil&order=sideways&contestId=-1");
    await expect.poll(() => rows.count()).toBeGreaterThan(accepted.length);
    await expect.poll(() => sortOf(page, "作品编号")).toBe("descending");
    await expect.poll(() => activePage(page)).toBe("1");
    await page.context().close();
  }, 240_000);
});
