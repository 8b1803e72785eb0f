/**
 * In a real browser: every demo account logs in through its own login page and sees
 * exactly the menus its role may see; anonymous visitors see theirs; an unknown path
 * shows the 404 error screen with its countdown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, startE2E, submitLogin, type E2E } from "./harness";

const OPEN = ["/complaint", "/verify-cert"];
const ACC = ["/account/security", "/account/logout"];
const NOTICE_SECTIONS = [
  "role_0",
  "role_1",
  "role_2",
  "role_3",
  "role_4",
  "role_5",
  "role_6",
  "role_7",
  "role_99",
  "role_100",
  "participant_management",
  "work_info_edit",
  "work_link_edit",
  "registration_material_edit",
].map((s) => `/admin/NoticeManagement/${s}`);

/** [username, login page, menu paths in order] */
const ROLES: [string, string, string[]][] = [
  [
    "root",
    "/account/Login",
    [
      ...NOTICE_SECTIONS,
      "/admin/UserManagement",
      "/admin/SchoolManagement",
      "/admin/WorkTypeManagement",
      "/admin/AwardManagement",
      "/admin/contest/ProvinceContest",
      "/admin/contest/NationalContest",
      "/admin/PrintCertification",
      "/work/export",
      "/admin/EntryLock",
      "/admin/MajorManagement",
      "/Article",
      "/admin/BestWork",
      "/admin/ArbitrateManagement",
      "/author/WorkLog",
      "/admin/Privacy",
      "/admin/ElasticSearch",
      "/WorkManagement",
      "/ComplaintManagement",
      "/judgePool",
      "/dup-check",
      "/statistics",
      ...OPEN,
      ...ACC,
    ],
  ],
  [
    "contest_admin",
    "/account/Login",
    [
      "/ContestAdmin/NoticeManagement",
      "/ContestAdmin/UserManagement",
      "/ContestAdmin/news",
      "/ContestAdmin/ContestSettings",
      "/ContestAdmin/AddWork",
      "/contest-admin/check-group-setting",
      "/ContestAdmin/Group",
      "/ContestAdmin/ContestResult",
      "/ContestAdmin/PrintAward",
      "/ContestAdmin/SchoolManagement",
      "/ContestReviewer/SelectContest",
      "/WorkManagement",
      "/judgePool",
      "/dup-check",
      "/statistics",
      ...OPEN,
      ...ACC,
    ],
  ],
  [
    "school_admin",
    "/account/Login",
    [
      "/school/schoolInfo",
      "/school/WorkManagement",
      "/school/AuthorManagement",
      "/school/TeacherManagement",
      "/school/SchoolContest",
      "/statistics",
      ...OPEN,
      ...ACC,
    ],
  ],
  ["reviewer", "/account/Login", ["/ContestReviewer/SelectContest", ...OPEN, ...ACC]],
  ["judge", "/account/Login", ["/judge/Info", "/judge", "/judge/yearWorkQuery", "/judgePool", "/dup-check", ...OPEN, ...ACC]],
  ["complaint_reviewer", "/account/Login", ["/ComplaintManagement", ...OPEN, ...ACC]],
  ["complaint_admin", "/account/Login", ["/ComplaintManagement", ...OPEN, ...ACC]],
  ["arbitrator", "/account/Login", ["/Arbitrate", ...OPEN, ...ACC]],
  ["teacher", "/account/TeacherLogin", ["/judge", "/teacher/info", "/teacher/WorkManagement", ...OPEN, ...ACC]],
  ["student", "/account/StudentLogin", ["/author/info", "/author/work-management", ...OPEN, ...ACC]],
];

const ANONYMOUS = [
  ...OPEN,
  "/query-work",
  "/account/StudentLogin",
  "/account/TeacherLogin",
  "/account/Login",
  "/account/Register",
  "/account/claim-account",
];

async function menuPaths(page: Page) {
  // attached: entries of a closed group are in the DOM but hidden (only the current page's group opens).
  await page.locator("aside[data-testid=app-sider] li[data-menu-path]").first().waitFor({ state: "attached" });
  return page
    .locator("aside[data-testid=app-sider] li[data-menu-path]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-menu-path")));
}

describe("menus per role in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  for (const [username, loginPath, expected] of ROLES) {
    it(`${username} logs in through ${loginPath} and sees exactly its menu`, async () => {
      const page = await login(e, username, loginPath);
      expect(await menuPaths(page)).toEqual(expected);
      await page.context().close();
    });
  }

  it("the collapsed side menu names an entry beside its icon on hover, and expands again", async () => {
    const page = await login(e, "student", "/account/StudentLogin");
    const entry = page.locator('aside[data-testid=app-sider] li[data-menu-path="/complaint"]');
    await entry.waitFor();
    await page.locator("aside[data-testid=app-sider] .ant-layout-sider-trigger").click();
    await expect.poll(() => page.getByTestId("app-sider").evaluate((el) => el.getBoundingClientRect().width)).toBeLessThan(100);
    await entry.hover();
    await expect.poll(() => page.locator(".ant-tooltip:visible").textContent()).toBe("申诉入口");
    await page.locator("aside[data-testid=app-sider] .ant-layout-sider-trigger").click();
    await expect.poll(() => page.getByTestId("app-sider").evaluate((el) => el.getBoundingClientRect().width)).toBe(220);
    expect(await menuPaths(page)).toEqual(ROLES.find(([u]) => u === "student")![2]);
    await page.context().close();
  });

  it("anonymous visitors see certificate and work lookup, the logins and registration", async () => {
    const page = await e.newPage();
    // "/" for a visitor is the public main page; its 登录 leads to the login choice (issue 14).
    const loaded: string[] = [];
    page.on("request", (r) => loaded.push(new URL(r.url()).pathname));
    await page.goto(e.base + "/");
    await page.getByTestId("nav-home").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    // The light public app with its own stylesheet, not the admin bundle.
    await expect.poll(() => page.getByTestId("mp-login").evaluate((a) => getComputedStyle(a).borderTopStyle)).toBe("solid");
    expect(loaded.filter((p) => p.includes("admin-main"))).toEqual([]);
    await page.getByTestId("mp-login").click();
    await page.waitForURL(e.base + "/account/choose");
    await page.getByTestId("landing").waitFor();
    expect(await menuPaths(page)).toEqual(ANONYMOUS);
    await page.locator('[data-landing-link="/account/StudentLogin"]').click();
    await page.waitForURL(e.base + "/account/StudentLogin");
    await page.goto(e.base + "/query-work");
    await page.locator("main").getByText("作品查询").first().waitFor();
    await page.goto(e.base + "/verify-cert");
    await page.locator("main").getByText("证书查询").first().waitFor();
    await page.context().close();
  });

  it("a visitor of a login page gets the guest menu without the admin bundle, which loads on logging in", async () => {
    const page = await e.newPage();
    const loaded: string[] = [];
    page.on("request", (r) => loaded.push(new URL(r.url()).pathname));
    await page.goto(e.base + "/account/TeacherLogin?to=" + encodeURIComponent("/teacher/info"));
    expect(await menuPaths(page)).toEqual(ANONYMOUS);
    await expect.poll(() => page.getByTestId("auth-card").textContent()).toContain("教师登录");
    await expect.poll(() => page.getByTestId("app-header").textContent()).toContain("您尚未登录");
    // Light entry (src/client/login): neither the admin application nor the policy engine.
    expect(loaded.filter((p) => p.includes("admin-main") || p.includes("access-control"))).toEqual([]);
    await page.getByPlaceholder("用户名或邮箱").fill("teacher");
    await page.getByPlaceholder("密码").fill("Demo@2026");
    await page.getByRole("button", { name: /登\s*录/ }).click();
    // Back to the return address in the admin application, with the teacher's menu.
    await page.waitForURL(e.base + "/teacher/info");
    expect(loaded.some((p) => p.includes("admin-main"))).toBe(true);
    expect(await menuPaths(page)).toEqual(ROLES.find(([u]) => u === "teacher")![2]);
    await page.context().close();
  });

  it("refuses a role on the wrong login page with a clear message", async () => {
    const page = await e.newPage();
    await submitLogin(page, e.base + "/account/Login", "teacher");
    const alert = page.getByTestId("login-error");
    await alert.waitFor();
    await expect.poll(() => alert.textContent()).toContain("教师登录");
    await page.context().close();
  });

  it("shows the 404 error screen for an unknown path and goes home after the countdown", async () => {
    const page = await e.newPage();
    await page.goto(e.base + "/no/such/place");
    await page.getByTestId("error-screen").waitFor();
    await expect.poll(() => page.getByTestId("error-screen").textContent()).toContain("来到了一片没有内容的荒原");
    await expect.poll(() => page.getByTestId("error-status").textContent()).toContain("404");
    await expect.poll(() => page.getByTestId("error-countdown").textContent()).toMatch(/[1-5] 秒后/);
    await page.waitForURL(e.base + "/", { timeout: 9000 });
    await page.getByTestId("nav-home").waitFor();
    await page.context().close();
  });

  it("stays on the error screen when the logo is clicked", async () => {
    const page = await e.newPage();
    await page.goto(e.base + "/another/missing/page");
    await page.getByTestId("error-logo").click();
    await page.waitForTimeout(6000);
    expect(page.url()).toBe(e.base + "/another/missing/page");
    expect(await page.getByTestId("error-screen").isVisible()).toBe(true);
    await page.context().close();
  });

  it("logs out: the session ends and the menu returns to the anonymous one", async () => {
    const page = await login(e, "student", "/account/StudentLogin");
    // A logged-in user at "/" still goes on to the user centre.
    await page.goto(e.base + "/");
    await page.waitForURL(e.base + "/index");
    await page.goto(e.base + "/account/logout");
    await page.getByTestId("nav-home").waitFor();
    await page.goto(e.base + "/account/choose");
    await page.getByTestId("landing").waitFor();
    expect(await menuPaths(page)).toEqual(ANONYMOUS);
    const me = await page.evaluate(() => fetch("/Backend/Common/user/get-current").then((r) => r.json()));
    expect(me.data.needToLogin).toBe(true);
    await page.context().close();
  });
});
