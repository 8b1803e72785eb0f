/**
 * In a real browser: a student adds a co-author to a draft by typing the co-author's 学号
 * into the team form and picking the person shown (name, number, major); an anonymous
 * visitor opens that work's print page, is sent to the student login with the return
 * address, logs in and lands on the print page; a refused print page shows the server's
 * Chinese message without a stack.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOf, createDraft, login, selectOption, startE2E, submitLogin, type E2E } from "./harness";

const STUDENT_LOGIN = "/account/StudentLogin";
const WORK_NAME = "E2E 按学号找同学";

describe("finding people and deep links in a real browser", () => {
  let e: E2E;
  let workId = 0;

  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("a student adds a co-author by 学号", async () => {
    const page = await login(e, "student", STUDENT_LOGIN);
    // A draft in a 大类 where the student has no work yet.
    workId = await createDraft(e, page, WORK_NAME);
    expect(workId).toBeGreaterThan(0);

    await page.goto(e.base + "/author/work-management");
    await page.getByTestId("my-works").getByText(WORK_NAME).first().click();
    const drawer = page.getByTestId("work-drawer");
    await drawer.getByRole("tab", { name: "团队成员" }).click();
    await drawer.locator("[data-testid=team-author-search] input").fill("202305010103");
    const option = selectOption(page, "林雨桐");
    await option.waitFor();
    // The option shows the number and the major, not only a username.
    expect(await option.textContent()).toContain("202305010103");
    await option.click();
    await answerOf(page, "POST", `/Backend/Work/work/${workId}/authors`, () => drawer.getByTestId("team-author-add").click());
    await expect.poll(() => drawer.getByTestId("team-authors").textContent()).toContain("林雨桐（student3）");
    await page.context().close();
  });

  it("an anonymous visitor opens a print page, logs in and lands on it", async () => {
    const page = await e.newPage();
    await page.goto(`${e.base}/print/Registration/${workId}`);
    await page.waitForURL((u) => u.pathname === STUDENT_LOGIN);
    expect(new URL(page.url()).searchParams.get("to")).toBe(`/print/Registration/${workId}`);
    await page.getByPlaceholder("用户名或邮箱").fill("student");
    await page.getByPlaceholder("密码").fill("Demo@2026");
    await page.getByRole("button", { name: /登\s*录/ }).click();
    await page.getByTestId("print-registration").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/print/Registration/${workId}`);
    await page.context().close();
  });

  it("a session that ends mid-use leads to the student login with the page as return address, and back after logging in", async () => {
    const page = await login(e, "student", STUDENT_LOGIN);
    await page.goto(e.base + "/author/info");
    await page.getByText("个人信息").first().waitFor();
    // The session ends on the server (as after expiry or a logout elsewhere); the page still shows the user.
    const out = await page.request.post(e.base + "/Backend/Common/account/logout", { headers: { origin: e.base } });
    expect(out.status()).toBe(200);
    // The next request of the page (the menu's own, or opening 我的作品) finds no session.
    await page
      .getByRole("link", { name: "我的作品" })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    await page.waitForURL((u) => u.pathname === STUDENT_LOGIN);
    const to = new URL(page.url()).searchParams.get("to");
    expect(["/author/info", "/author/work-management"]).toContain(to);
    await page.getByText("登录已失效").first().waitFor();
    await page.getByPlaceholder("用户名或邮箱").fill("student");
    await page.getByPlaceholder("密码").fill("Demo@2026");
    await page.getByRole("button", { name: /登\s*录/ }).click();
    await page.waitForURL((u) => u.pathname === to);
    await page.context().close();
  });

  it("a signed-in user refused a print page sees the server's message, no stack; an open redirect is refused", async () => {
    const page = await login(e, "student4", STUDENT_LOGIN);
    await page.goto(`${e.base}/print/Registration/${workId}`);
    const screen = page.getByTestId("error-screen");
    await screen.waitFor();
    expect(await screen.textContent()).toMatch(/作品不存在|无权/);
    expect(await page.getByTestId("error-stack").count()).toBe(0);
    await page.context().close();

    const other = await e.newPage();
    await submitLogin(other, `${e.base}${STUDENT_LOGIN}?to=${encodeURIComponent("//evil.example/x")}`, "student");
    await other.waitForURL((u) => u.pathname === "/index");
    expect(new URL(other.url()).host).toBe(new URL(e.base).host);
    await other.context().close();
  });
});
