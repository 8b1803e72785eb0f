/**
 * In a real browser, on the built front end: antd's styles come from the CSS file the build
 * extracts (src/server/static/antd-styles.ts), not from <style> tags generated while the page
 * loads, and they are the right ones (the primary button is antd's blue, a table header has
 * antd's grey, the login form its layout). Fails when the file is missing from index.html,
 * when its class hashes stop matching the bundle's (antd regenerates every style at run time),
 * or when the theme differs between the build and the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, startE2E, type E2E } from "./harness";

/** antd's run-time style tags (cssinjs marks each with data-css-hash). */
const runtimeStyles = (page: Page) => page.evaluate(() => [...document.querySelectorAll("style[data-css-hash]")].map((s) => (s.textContent ?? "").slice(0, 80)));

describe("antd styles from the built CSS file", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("index.html links the extracted stylesheet before the app's script", async () => {
    const html = await (await fetch(`${e.base}/account/Login`)).text();
    const link = html.indexOf('<link rel="stylesheet" crossorigin href="/assets/antd-');
    expect(link).toBeGreaterThan(0);
    expect(link).toBeLessThan(html.indexOf('<script type="module"'));
    const href = /href="(\/assets\/antd-[0-9a-f]+\.css)"/.exec(html)![1];
    const css = await (await fetch(e.base + href)).text();
    expect(css).toContain(".data-ant-cssinjs-cache-path{content:");
  });

  it("the login page and an admin list render with no run-time antd style and antd's colours", async () => {
    const page = await e.newPage();
    await page.goto(`${e.base}/account/Login`);
    const loginButton = page.getByRole("button", { name: /登\s*录/ });
    await loginButton.waitFor();
    expect(await loginButton.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(22, 119, 255)");
    expect(await runtimeStyles(page)).toEqual([]);
    await page.context().close();

    const admin = await login(e, "root");
    await admin.goto(`${e.base}/admin/SchoolManagement`);
    const th = admin.locator(".ant-table-thead th").first();
    await admin.locator(".ant-table-tbody .ant-table-row").first().waitFor();
    expect(await th.evaluate((t) => getComputedStyle(t).backgroundColor)).toBe("rgb(250, 250, 250)");
    expect(await admin.locator(".ant-layout-sider").first().evaluate((s) => getComputedStyle(s).position)).not.toBe("static");
    expect(await runtimeStyles(admin)).toEqual([]);
    await admin.context().close();
  });
});
