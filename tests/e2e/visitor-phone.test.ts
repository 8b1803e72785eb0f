/**
 * The visitor pages outside the main page (issue 29) in a real browser: /complaint and
 * /verify-cert (the page a certificate's QR code opens) load the light public app, not the admin
 * bundle, and fit a 360 px phone — no sideways scrolling, a header that reads in lines rather
 * than a character per line, the main actions on screen (查询我的投诉 as a tab of its own, not
 * behind 「…」; the certificate's 查询 button). A logged-in user opening /complaint gets the same
 * page and its way into the complaint view.
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { verifyUrl } from "../../src/shared/certificate/layout";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { login, startE2E, type E2E } from "./harness";
import { onScreen } from "./viewport";

const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), "visitor-phone-e2e");
mkdirSync(SHOTS, { recursive: true });

describe("visitor pages on a phone, from the light public entry", { timeout: 240_000 }, () => {
  let e: E2E;
  let qr = "";
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
    const cert = await e.db
      .selectFrom("certificate")
      .select(["number", "signature"])
      .where("status", "=", "valid")
      .orderBy("number")
      .executeTakeFirstOrThrow();
    qr = verifyUrl(e.base, cert.number, cert.signature);
  });
  afterAll(async () => e?.close());

  /** A new visitor's page at `width`, recording the scripts it loads. */
  const open = async (width: number) => {
    const ctx = await e.browser.newContext({
      locale: "zh-CN",
      viewport: { width, height: width < 400 ? 780 : 900 },
      isMobile: width < 400,
      hasTouch: width < 400,
    });
    const page = await ctx.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => scripts.push(new URL(r.url()).pathname));
    page.on("pageerror", (err) => console.error(`[browser] ${err.message}`));
    return { page, scripts };
  };

  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  /** The page's title (the card's head) and the site header: lines of text, not a character per line. */
  const headerLines = (page: Page) =>
    page.evaluate(() => {
      const lines = (el: Element | null) => {
        if (!el) return 99;
        const r = document.createRange();
        r.selectNodeContents(el);
        const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
        return tops.size;
      };
      return {
        brand: lines(document.querySelector("header .mp-brand-link strong")),
        title: lines(document.querySelector("main .ant-card-head-title")),
      };
    });

  it("/verify-cert from the QR code at 360 px: light entry, no sideways scroll, the verdict and 查询 on screen", async () => {
    const { page, scripts } = await open(360);
    await page.goto(qr);
    await page.getByTestId("cert-status").waitFor({ timeout: 90_000 });
    expect(await page.getByTestId("cert-status").textContent()).toBe("有效");
    expect(scripts.filter((p) => p.includes("admin-main"))).toEqual([]);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await headerLines(page)).toEqual({ brand: 1, title: 1 });
    expect(await page.locator("aside").count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, "verify-cert-360.png"), fullPage: true });
    await page.getByTestId("verify-submit").scrollIntoViewIfNeeded();
    expect(await onScreen(page.getByTestId("verify-submit"))).toBe(true);
    // The offline tab fits too.
    await page.getByRole("tab", { name: "离线核验" }).click();
    await page.getByTestId("offline-submit").waitFor();
    expect(new URL(page.url()).searchParams.get("tab")).toBe("offline");
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, "verify-cert-offline-360.png"), fullPage: true });
    await page.context().close();
  });

  it("/complaint at 360 px: light entry, no sideways scroll, the windows as cards, every tab on screen", async () => {
    const { page, scripts } = await open(360);
    await page.goto(e.base + "/complaint");
    await page.getByTestId("complaint-notices").waitFor({ timeout: 90_000 });
    await page.getByTestId("complaint-windows").getByText("受理中").first().waitFor();
    expect(scripts.filter((p) => p.includes("admin-main"))).toEqual([]);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await headerLines(page)).toEqual({ brand: 1, title: 1 });
    // No tab is folded into the 「…」 menu: each one is on screen.
    for (const name of ["规则说明", "我要投诉", "查询我的投诉"]) {
      const tab = page.getByRole("tab", { name });
      expect(await tab.isVisible()).toBe(true);
      const box = (await tab.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 360).toBe(true);
    }
    // The windows' names and dates read as text, not a character per line.
    const widest = await page
      .getByTestId("complaint-windows")
      .locator(".ant-card-head-title")
      .first()
      .evaluate((el) => el.getBoundingClientRect().width);
    expect(widest).toBeGreaterThan(120);
    await page.screenshot({ path: join(SHOTS, "complaint-360.png"), fullPage: true });
    // The rules, the first view, come without the visitor tabs' code (the form, its upload, the lookup).
    const tabChunk = (name: string) => scripts.some((p) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(p));
    expect([tabChunk("visitor-file"), tabChunk("visitor-lookup"), tabChunk("ComplaintForm")]).toEqual([false, false, false]);
    await page.getByRole("tab", { name: "查询我的投诉" }).click();
    await page.getByPlaceholder("name@example.com").waitFor();
    expect(tabChunk("visitor-lookup")).toBe(true);
    expect(new URL(page.url()).searchParams.get("tab")).toBe("lookup");
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await onScreen(page.getByTestId("send-code"))).toBe(true);
    await page.context().close();
  });

  it("on a desktop the same pages keep the light entry; a logged-in user enters the complaint view from /complaint", async () => {
    const { page, scripts } = await open(1280);
    await page.goto(e.base + "/verify-cert");
    await page.getByTestId("verify-submit").waitFor({ timeout: 90_000 });
    await page.screenshot({ path: join(SHOTS, "verify-cert-1280.png"), fullPage: true });
    await page.goto(e.base + "/complaint");
    await page.getByTestId("complaint-windows").getByText("受理中").first().waitFor({ timeout: 90_000 });
    await page.screenshot({ path: join(SHOTS, "complaint-1280.png"), fullPage: true });
    expect(scripts.filter((p) => p.includes("admin-main"))).toEqual([]);
    await page.context().close();

    const student = await login(e, "student", "/account/StudentLogin");
    await student.goto(e.base + "/complaint");
    await student.getByTestId("enter-complaint-view").click({ timeout: 90_000 });
    await student.waitForURL(/\/complaint-view\/complaint$/);
    await student.locator('[data-menu-path="/complaint-view/view-complaint"]').waitFor({ timeout: 90_000 });
    await student.context().close();
  });
});
