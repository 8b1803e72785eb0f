/**
 * In a real browser: a student registers, verifies the mailed link, logs in; a teacher recovers a
 * password by link. Registration and recovery are pages of the light login entry (src/client/login):
 * neither downloads the admin application nor the policy engine before logging in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, startE2E, type E2E } from "./harness";

describe("accounts in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  /** The JS/CSS paths the page loads from now on. */
  function recordAssets(page: Page) {
    const loaded: string[] = [];
    page.on("request", (r) => loaded.push(new URL(r.url()).pathname));
    return loaded;
  }
  const adminBundle = (loaded: string[]) => loaded.filter((p) => p.includes("admin-main") || p.includes("access-control"));

  it("registers a student bound to a school, who logs in after verifying the mailed link", async () => {
    const page = await e.newPage();
    const loaded = recordAssets(page);
    // From the student login page's 注册账号, as a visitor comes.
    await page.goto(e.base + "/account/StudentLogin");
    await page.getByRole("link", { name: "注册账号" }).click();
    await page.waitForURL(e.base + "/account/Register");
    await page.getByRole("combobox").first().click();
    await page.keyboard.type("工业大学");
    await page.getByText("浙江工业大学（浙江省）").click();
    await page.getByLabel("用户名").fill("e2e_student");
    await page.getByLabel("密码", { exact: true }).fill("Passw0rd!e2e");
    await page.getByLabel("确认密码").fill("Passw0rd!e2e");
    await page.getByLabel("姓名").fill("柳测试");
    await page.getByLabel("邮箱").fill("e2e.student@example.com");
    await page.getByRole("button", { name: /注\s*册/ }).click();
    await page.getByText("e2e.student@example.com").first().waitFor();
    // The registration page in the frame and guest menu, light: no admin bundle.
    expect(await page.getByTestId("app-header").textContent()).toContain("您尚未登录");
    expect(loaded.some((p) => p.includes("/assets/register-"))).toBe(true);
    expect(adminBundle(loaded)).toEqual([]);

    const link = e
      .mailedLinks()
      .filter((l) => l.includes("/verify-email?token="))
      .pop()!;
    expect(link).toBeTruthy();
    await page.goto(link.replace(/^https?:\/\/[^/]+/, e.base));
    await page.getByText("验证成功").first().waitFor();
    // The mailed link's page is light too; its 学生登录 button leads to the (light) login page.
    expect(loaded.some((p) => p.includes("/assets/verify-email-"))).toBe(true);
    expect(adminBundle(loaded)).toEqual([]);
    await page.getByRole("button", { name: "学生登录" }).click();
    await page.waitForURL(e.base + "/account/StudentLogin");
    expect(adminBundle(loaded)).toEqual([]);

    await login(e, "e2e_student", "/account/StudentLogin", { page, password: "Passw0rd!e2e" });
    await expect.poll(() => page.getByTestId("user-center").textContent()).toContain("浙江工业大学");
    await page.context().close();
  });

  it("recovers a forgotten password through the mailed link", async () => {
    const page = await e.newPage();
    const loaded = recordAssets(page);
    await page.goto(e.base + "/account/claim-account");
    await page.getByLabel("用户名或邮箱").fill("teacher");
    await page.getByRole("button", { name: /发送/ }).click();
    await page
      .getByText(/已发送/)
      .first()
      .waitFor();
    const link = e
      .mailedLinks()
      .filter((l) => l.includes("/account/claim-account?token="))
      .pop()!;
    await page.goto(link.replace(/^https?:\/\/[^/]+/, e.base));
    await page.getByLabel("新密码", { exact: true }).fill("Renewed2026x");
    await page.getByLabel("确认新密码").fill("Renewed2026x");
    await page.getByRole("button", { name: /重置|设置|确认/ }).click();
    await page
      .getByText(/密码已重置/)
      .first()
      .waitFor();
    // Both the recovery page and its mailed link: the light entry, no admin bundle.
    expect(loaded.some((p) => p.includes("/assets/claim-account-"))).toBe(true);
    expect(adminBundle(loaded)).toEqual([]);
    // Its 教师登录 button leads to the (light) login page.
    await page.getByRole("button", { name: "教师登录" }).click();
    await page.waitForURL(e.base + "/account/TeacherLogin");
    expect(adminBundle(loaded)).toEqual([]);

    await login(e, "teacher", "/account/TeacherLogin", { page, password: "Renewed2026x" });
    await page.context().close();
  });
});
