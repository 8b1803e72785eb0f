/**
 * Own certificates in a real browser, on the demo's published Zhejiang result: an author finds
 * 获奖证书 on their works page, downloads the PDF and opens 核验 (the certificate's QR address),
 * which shows 有效 with the signature checked in the browser; a teacher holding a
 * 优秀指导教师 certificate finds it on their advised-works page.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { login, startE2E, type E2E } from "./harness";

describe("own certificates in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
  });
  afterAll(async () => e?.close());

  it("an author downloads their certificate's PDF from the works page and verifies it", async () => {
    const cert = await e.db
      .selectFrom("certificate as c")
      .innerJoin("app_user as u", "u.id", "c.holder_user_id")
      .select(["c.number", "c.work_id", "c.award_name", "u.username"])
      .where("c.holder_kind", "=", "author")
      .where("c.status", "=", "valid")
      .orderBy("c.number")
      .executeTakeFirstOrThrow();
    const page = await login(e, cert.username, "/account/StudentLogin");
    await page.goto(e.base + "/author/work-management");
    const section = page.getByTestId("my-certificates");
    const row = section.locator("tr", { hasText: cert.number });
    await expect.poll(() => row.textContent()).toContain(cert.award_name);
    expect(await row.getByTestId("my-certificate-status").textContent()).toBe("有效");

    const [download] = await Promise.all([page.waitForEvent("download"), row.getByTestId("my-certificate-pdf").click()]);
    expect(download.suggestedFilename()).toBe(`证书-${cert.number}.pdf`);
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // The work row's action opens the same certificate.
    await page
      .getByTestId("my-works")
      .locator("tr", { hasText: String(cert.work_id) })
      .getByTestId("work-certificates")
      .click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain(cert.number);
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });

    await row.getByTestId("my-certificate-verify").click();
    await page.waitForURL(/\/verify-cert\?number=/);
    await expect.poll(() => page.getByTestId("cert-status").textContent()).toBe("有效");
    await expect.poll(() => page.getByTestId("signature-check").textContent()).toContain("签名已在本机核验");
    await page.context().close();
  });

  it("a teacher holding a 优秀指导教师 certificate finds it on the advised-works page", async () => {
    const cert = await e.db
      .selectFrom("certificate as c")
      .innerJoin("app_user as u", "u.id", "c.holder_user_id")
      .select(["c.number", "c.award_name", "u.username"])
      .where("c.holder_kind", "=", "teacher")
      .where("c.status", "=", "valid")
      .orderBy("c.number")
      .executeTakeFirst();
    if (!cert) throw new Error("the demo has no teacher certificate");
    const page = await login(e, cert.username, "/account/TeacherLogin");
    await page.goto(e.base + "/teacher/WorkManagement");
    const row = page.getByTestId("my-certificates").locator("tr", { hasText: cert.number });
    await expect.poll(() => row.textContent()).toContain(cert.award_name);
    expect(await row.textContent()).toContain("指导教师");
    await row.getByTestId("my-certificate-pdf").waitFor();
    await page.context().close();
  });
});
