/**
 * /verify-cert in a real browser, as a visitor without login, on the demo's published Zhejiang
 * result (its certificates are issued on publication): the QR code's address shows 有效 and the
 * signature checked in the browser; a code changed in one character is refused; the offline
 * tab verifies a copy typed from the paper and refuses a changed name; after the work is
 * disqualified (works API, root) the same address shows 已撤销 with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { chineseDate, verifyUrl } from "../../src/shared/certificate/layout";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { login, startE2E, type E2E } from "./harness";

describe("certificate verification in a real browser", () => {
  let e: E2E;
  let cert: {
    number: string;
    holder_name: string;
    signature: string;
    work_id: number | null;
    work_title: string | null;
    award_name: string;
    contest_name: string;
    contest_date: string;
    key_id: string;
  };
  const qr = (code = cert.signature) => verifyUrl(e.base, cert.number, code);
  const status = (page: Page) => page.getByTestId("cert-status");
  const signature = (page: Page) => page.getByTestId("signature-check");

  beforeAll(async () => {
    e = await startE2E();
    // As `npm start` seeds it: the Zhejiang results computed, then published (certificates issued).
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
    cert = await e.db
      .selectFrom("certificate")
      .select([
        "number",
        "holder_name",
        "signature",
        "work_id",
        "work_title",
        "award_name",
        "contest_name",
        "contest_date",
        "key_id",
      ])
      .where("status", "=", "valid")
      .where("number", "like", "%-1-%")
      .orderBy("number")
      .executeTakeFirstOrThrow();
  });
  afterAll(async () => e?.close());

  it("a visitor opening the QR code's address sees 有效, the facts, and the signature checked in the browser", async () => {
    const page = await e.newPage();
    await page.goto(qr());
    await expect.poll(() => status(page).textContent()).toBe("有效");
    const facts = page.getByTestId("cert-facts");
    await expect.poll(() => facts.textContent()).toContain(cert.holder_name);
    expect(await facts.textContent()).toContain(`《${cert.work_title}》`);
    expect(await facts.textContent()).toContain(cert.award_name);
    await expect
      .poll(() => signature(page).textContent())
      .toMatch(new RegExp(`^签名已在本机核验：由 ${cert.key_id} 公钥签发（有效期 \\d{4}-\\d{2}-\\d{2} 起至今）$`));
    // The published keys are listed on the page.
    await page.getByTestId(`cert-key-${cert.key_id}`).waitFor();
    await page.context().close();
  });

  it("a code changed in one character is refused: not found from the QR address; with the name, the signature does not match", async () => {
    const i = cert.signature.length - 10;
    const tampered = cert.signature.slice(0, i) + (cert.signature[i] === "A" ? "B" : "A") + cert.signature.slice(i + 1);
    const page = await e.newPage();
    await page.goto(qr(tampered));
    await expect.poll(() => status(page).textContent()).toBe("未找到该证书");
    expect(await page.getByTestId("cert-facts").count()).toBe(0);
    // The holder's name typed in as well: the certificate is found, the code does not sign it —
    // and the headline says so instead of a green 有效.
    await page.getByTestId("verify-name").fill(cert.holder_name);
    await page.getByTestId("verify-submit").click();
    await expect.poll(() => status(page).textContent()).toBe("证书编号有效，但验证码不符");
    const headline = page.locator(".ant-alert", { has: page.getByTestId("cert-status") });
    expect(await headline.getAttribute("class")).toContain("ant-alert-error");
    await expect.poll(() => signature(page).textContent()).toBe("签名不符：证书内容被改动或为伪造");
    await page.context().close();
  });

  it("number + name finds the certificate; a wrong name gets the not-found answer", async () => {
    const page = await e.newPage();
    await page.goto(e.base + "/verify-cert");
    await page.getByTestId("verify-number").fill(cert.number.toLowerCase());
    await page.getByTestId("verify-name").fill(`${cert.holder_name}甲`);
    await page.getByTestId("verify-submit").click();
    await expect.poll(() => status(page).textContent()).toBe("未找到该证书");
    await page.getByTestId("verify-name").fill(cert.holder_name);
    await page.getByTestId("verify-submit").click();
    await expect.poll(() => status(page).textContent()).toBe("有效");
    await expect.poll(() => signature(page).textContent()).toContain("签名已在本机核验");
    await page.context().close();
  });

  it("the offline tab verifies a copy typed from the paper with the published keys, and refuses a one-character change", async () => {
    const page = await e.newPage();
    await page.goto(e.base + "/verify-cert?tab=offline");
    // The code pasted as the QR code's whole address fills the number too.
    await page.getByTestId("offline-code").fill(qr());
    await expect.poll(() => page.getByTestId("offline-number").inputValue()).toBe(cert.number);
    await expect.poll(() => page.getByTestId("offline-code").inputValue()).toBe(cert.signature);
    await page.getByTestId("offline-name").fill(cert.holder_name);
    await page.getByTestId("offline-award").fill(cert.award_name);
    await page.getByTestId("offline-work").fill(`《${cert.work_title}》`);
    // As printed, typed without the typesetting's spaces.
    await page.getByTestId("offline-contest").fill(cert.contest_name.replace(/\s+/g, ""));
    await page.getByTestId("offline-date").fill(chineseDate(cert.contest_date));
    await page.getByTestId("offline-submit").click();
    await expect
      .poll(() => page.getByTestId("offline-check").textContent())
      .toContain(`签名已在本机核验：由 ${cert.key_id} 公钥签发`);
    // One character of the name changed.
    await page.getByTestId("offline-name").fill(`${cert.holder_name.slice(0, -1)}甲`);
    await page.getByTestId("offline-submit").click();
    await expect.poll(() => page.getByTestId("offline-check").textContent()).toBe("签名不符：证书内容被改动或为伪造");
    await page.context().close();
  });

  it("after the work is disqualified, the same QR address shows 已撤销 with the date and reason", async () => {
    const root = await login(e, "root");
    const dq = await root.request.post(`${e.base}/Backend/Admin/work/${cert.work_id}/disqualify`, {
      data: { reason: "抄袭他人作品，经查属实" },
      headers: { origin: e.base },
    });
    expect((await dq.json()).error).toBe(0);
    await root.context().close();
    const page = await e.newPage();
    await page.goto(qr());
    await expect.poll(() => status(page).textContent()).toBe("已撤销");
    await expect
      .poll(() => page.getByTestId("cert-status-detail").textContent())
      .toMatch(/^该证书已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 撤销，原因：作品被取消资格。/);
    // The signature itself is still the platform's: the revocation is the status, not a forgery.
    await expect.poll(() => signature(page).textContent()).toContain("签名已在本机核验");
    expect(await page.getByTestId("cert-result").getAttribute("data-status")).toBe("revoked");
    await page.context().close();
  });
});
