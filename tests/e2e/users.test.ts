/**
 * In a real browser: a school admin creates a student through the form and finds it in
 * /school/AuthorManagement, which never lists another school's students; a contest admin
 * sees only judges and reviewers; root locks a user and the list shows the lock, and edits a user
 * in the drawer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { UserView } from "../../src/shared/user/schema";
import type { SchoolView } from "../../src/shared/school/schema";
import { login, startE2E, type E2E } from "./harness";

const rows = (page: Page) => page.getByTestId("user-table").locator("tbody tr.ant-table-row");

/** Types a keyword into the list's search box and waits for the server's answer. */
async function search(page: Page, keyword: string) {
  const answered = page.waitForResponse(
    (r) => r.url().includes("/Backend/Admin/user?") && r.url().includes(`keyword=${encodeURIComponent(keyword)}`),
  );
  await page.getByTestId("user-search").fill(keyword);
  await page.getByTestId("user-search").press("Enter");
  await answered;
  await page.waitForTimeout(200);
}

async function get<T>(page: Page, e: E2E, path: string): Promise<T> {
  const body = (await (await page.request.get(e.base + path)).json()) as { error: number; info: string; data: T };
  expect(body.error, body.info).toBe(0);
  return body.data;
}

describe("user management pages in a real browser", () => {
  let e: E2E;
  /** a student of a school other than the school admin's (浙江工业大学) */
  let foreign: UserView;

  beforeAll(async () => {
    e = await startE2E();
    // Root makes sure another school has a student, through the API.
    const page = await login(e, "root");
    const students = await get<{ list: UserView[] }>(page, e, "/Backend/Admin/user?userType=100&pageSize=100");
    foreign = students.list.find((u) => u.school && u.school.name !== "浙江工业大学")!;
    if (!foreign) {
      const schools = await get<{ list: SchoolView[] }>(
        page,
        e,
        `/Backend/Admin/school?keyword=${encodeURIComponent("浙江大学")}`,
      );
      const zju = schools.list.find((s) => s.name === "浙江大学")!;
      const reply = await page.request.post(e.base + "/Backend/Admin/user", {
        headers: { origin: e.base },
        data: { username: "e2e_zju_student", name: "浙大学生", role: 100, schoolId: zju.id, email: "e2e.zju@example.com" },
      });
      const body = (await reply.json()) as { error: number; info: string; data: UserView };
      expect(body.error, body.info).toBe(0);
      foreign = body.data;
    }
    await page.context().close();
  });
  afterAll(async () => e?.close());

  it("school_admin creates a student through the form and never sees another school's students", async () => {
    const page = await login(e, "school_admin");
    await page.goto(e.base + "/school/AuthorManagement");
    await rows(page).first().waitFor();

    await page.getByTestId("user-create").click();
    const drawer = page.locator(".ant-drawer-open");
    expect(await drawer.getByTestId("user-own-school").inputValue()).toBe("浙江工业大学");
    await drawer.getByLabel("用户名").fill("e2e_form_student");
    await drawer.getByLabel("姓名").fill("表单学生");
    await drawer.getByLabel("学号").fill("2026E2E01");
    await drawer.getByLabel("邮箱").fill("e2e.form.student@example.com");
    await drawer.getByTestId("user-save").click();

    const created = rows(page).filter({ hasText: "e2e_form_student" });
    await created.waitFor();
    const text = await created.innerText();
    expect(text).toContain("表单学生");
    expect(text).toContain("2026E2E01");
    expect(text).toContain("待激活");

    // The other school's student is not in the list, even when searched for by name.
    expect(await page.getByTestId("user-table").innerText()).not.toContain(foreign.username);
    await search(page, foreign.username);
    await page.getByTestId("user-table").locator(".ant-empty").waitFor();
    expect(await rows(page).count()).toBe(0);
    await page.context().close();
  });

  it("contest_admin sees only the judges and reviewers of the own contests", async () => {
    const page = await login(e, "contest_admin");
    await page.goto(e.base + "/ContestAdmin/UserManagement");
    await rows(page).first().waitFor();
    const texts = await rows(page).allInnerTexts();
    const usernames = texts.map((t) => t.split("\n")[1]?.trim());
    expect(usernames).toEqual(expect.arrayContaining(["judge", "reviewer"]));
    for (const t of texts) expect(t).toMatch(/评委|赛事审核员/);
    for (const other of ["student", "teacher", "school_admin", "root"]) expect(usernames).not.toContain(other);
    await page.context().close();
  });

  it("root locks a user and the list shows the lock", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/UserManagement");
    await rows(page).first().waitFor();
    await search(page, foreign.username);
    const row = rows(page).filter({ hasText: foreign.username });
    await row.waitFor();
    expect(await row.innerText()).not.toContain("已锁定");
    await page.getByTestId(`user-lock-${foreign.username}`).click();
    // The row's icon button is named 锁定 too (for screen readers): the confirmation's button.
    await page
      .locator(".ant-popconfirm")
      .getByRole("button", { name: /^锁\s*定$/ })
      .click();
    await page.getByText("账号已锁定").first().waitFor();
    await row.getByText("已锁定").waitFor();
    await page.getByTestId(`user-unlock-${foreign.username}`).waitFor();
    await page.context().close();
  });

  it("root edits a user in the drawer: the form shows the user's record, the list the saved change", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/UserManagement");
    await rows(page).first().waitFor();
    await search(page, foreign.username);
    const row = rows(page).filter({ hasText: foreign.username });
    await row.locator(".refine-edit-button").click();
    const drawer = page.locator(".ant-drawer-open");
    await expect.poll(() => drawer.getByLabel("姓名").inputValue()).toBe(foreign.name);
    expect(await drawer.getByLabel("用户名").inputValue()).toBe(foreign.username);
    await drawer.getByLabel("姓名").fill(`${foreign.name}改`);
    await drawer.getByTestId("user-save").click();
    await row.getByText(`${foreign.name}改`).waitFor();
    // The create drawer opened afterwards is empty (its own form).
    await page.getByTestId("user-create").click();
    await expect.poll(() => page.locator(".ant-drawer-open").getByLabel("用户名").inputValue()).toBe("");
    await page.context().close();
  });
});
