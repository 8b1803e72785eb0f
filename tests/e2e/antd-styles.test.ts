/**
 * In a real browser, on the built front end: an admin page's antd styles come from the CSS file
 * the build extracts (src/server/static/antd-styles.ts), not from <style> tags generated while
 * the page loads, and they are the right ones (the primary button the theme's blue (#0958d9), a table header
 * antd's grey, the sider laid out). Fails when the admin entry does not load the file, when its
 * class hashes stop matching the bundle's (antd regenerates every style at run time), or when the
 * theme differs between the build and the app. The light login page keeps run-time styles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, startE2E, type E2E } from "./harness";

/** antd's run-time style tags (cssinjs marks each with data-css-hash). */
const runtimeStyles = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll("style[data-css-hash]")].map((s) => (s.textContent ?? "").slice(0, 80)));

describe("antd styles from the built CSS file", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("an admin page takes antd's styles from the file: no run-time antd style, antd's colours", async () => {
    const admin = await login(e, "root");
    // A new document: the admin entry loads the file before its first render.
    await admin.goto(`${e.base}/WorkManagement`);
    await admin.locator(".ant-table-tbody .ant-table-row").first().waitFor();
    const href = await admin.locator('link[rel=stylesheet][href^="/assets/antd-"]').getAttribute("href");
    expect(await (await fetch(e.base + href)).text()).toContain(".data-ant-cssinjs-cache-path{content:");
    expect(await runtimeStyles(admin)).toEqual([]);
    expect(
      await admin
        .locator(".ant-table-thead th")
        .first()
        .evaluate((t) => getComputedStyle(t).backgroundColor),
    ).toBe("rgb(250, 250, 250)");
    expect(
      await admin
        .locator(".ant-layout-sider")
        .first()
        .evaluate((s) => getComputedStyle(s).position),
    ).not.toBe("static");
    expect(await admin.getByTestId("filter-search").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(9, 88, 217)");
    await admin.context().close();
  });

  it("the login page does without the file (its download stays small) and still has antd's look", async () => {
    const page = await e.newPage();
    await page.goto(`${e.base}/account/Login`);
    const loginButton = page.getByRole("button", { name: /登\s*录/ });
    await loginButton.waitFor();
    expect(await page.locator('link[href^="/assets/antd-"]').count()).toBe(0);
    expect(await loginButton.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(9, 88, 217)");
    expect((await runtimeStyles(page)).length).toBeGreaterThan(0);
    await page.context().close();
  });
});
