/**
 * The judge pool in a real browser, on the demo data plus the pool demo: the contest admin
 * filters /judgePool by a 大类 and sees exactly the persons who can judge it (also those with
 * one of its 小类), and no contacts of a person outside the admin's scope; a judge opens
 * /judgePool, states this year's availability with a note and declares a conflict with a
 * student through the school and student pickers — both stored and shown after a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, selectOption, startE2E, type E2E } from "./harness";
import { seedJudgePoolDemo } from "../../src/server/seed/judge-pool-demo";

const rowNames = async (page: Page) =>
  (await page.getByTestId("pool-table").locator("tbody tr.ant-table-row td:nth-child(2)").allTextContents())
    .map((s) => s.trim())
    .sort();

describe("judge pool in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedJudgePoolDemo(e.db)).toBe(true);
  });
  afterAll(async () => e?.close());

  async function pickCategory(page: Page, name: string) {
    const select = page.getByTestId("pool-category");
    await select.click();
    await page.keyboard.type(name);
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper", { hasText: name })
      .first()
      .click();
  }

  it("a contest admin filters the pool by category and sees the expected persons", async () => {
    const page = await login(e, "contest_admin");
    await page.goto(e.base + "/judgePool");
    await page.getByTestId("pool-table").waitFor();
    await expect.poll(() => rowNames(page)).toContain("孙立群");
    // A Jiangsu professor entered by root: public fields shown, contacts not.
    const sun = page.getByTestId("pool-table").locator("tr.ant-table-row", { hasText: "孙立群" });
    await expect.poll(() => sun.textContent()).toContain("无权查看");
    expect(await sun.textContent()).not.toContain("sunlq@");

    await pickCategory(page, "人工智能应用");
    await expect.poll(() => rowNames(page)).toEqual(["刘评审", "张评审", "陈评审"].sort());
    // A 大类 also finds the persons who judge one of its 小类 (陈评审: Web应用与开发, 王建国: 管理信息系统).
    await pickCategory(page, "软件应用与开发");
    await expect.poll(() => rowNames(page)).toEqual(["李评审", "王建国", "陈评审"].sort());

    // The detail drawer shows the computed history of a judge of the admin's contest, with the contact.
    await page.getByTestId("pool-table").getByText("陈评审").click();
    const drawer = page.getByTestId("person-drawer");
    await drawer.getByTestId("history").waitFor();
    await expect.poll(() => drawer.getByTestId("person-contact").textContent()).toContain("judge2@demo.saiwu.local");
    const history = await drawer.getByTestId("history").textContent();
    // This year's group, and last year's contest (the pool demo's membership).
    expect(history).toContain("软件应用与开发组");
    expect(history).toContain(`${new Date(Date.now() + 8 * 3600_000).getUTCFullYear() - 1}年中国大学生计算机设计大赛浙江省级赛`);
  });

  it("a judge states this year's availability and declares a conflict with a student", async () => {
    const page = await login(e, "judge");
    await page.goto(e.base + "/judgePool");
    await page.getByTestId("judge-self").waitFor();
    await page.getByTestId("self-available").getByText("不能参评").click();
    await page.getByTestId("self-note").fill("今年 7 月出国，无法参加");
    await page.getByTestId("self-save").click();
    await page.getByText("已保存").first().waitFor();

    const form = page.getByTestId("conflict-form");
    await form.getByText("学生", { exact: true }).click();
    await page.getByTestId("conflict-student-school").locator(".ant-select").click();
    await page.keyboard.type("浙江工业大学");
    await selectOption(page, "浙江工业大学").click();
    await page.getByTestId("conflict-student").click();
    // A student is found by full name (or student number) only.
    await page.keyboard.type("冯同学");
    await selectOption(page, "冯同学").click();
    await page.getByTestId("conflict-note").fill("曾指导的学生");
    await page.getByTestId("conflict-add").click();
    await expect.poll(() => page.getByTestId("conflicts").textContent()).toContain("冯同学（浙江工业大学）");

    await page.reload();
    await page.getByTestId("judge-self").waitFor();
    await expect
      .poll(() => page.getByTestId("judge-self").textContent())
      .toContain("2026年不可参评".replace("2026", String(new Date(Date.now() + 8 * 3600_000).getUTCFullYear())));
    await expect.poll(() => page.getByTestId("self-note").inputValue()).toBe("今年 7 月出国，无法参加");
    await expect.poll(() => page.getByTestId("conflicts").textContent()).toContain("曾指导的学生");

    const judge = await e.db.selectFrom("app_user").select("id").where("username", "=", "judge").executeTakeFirstOrThrow();
    const student = await e.db.selectFrom("app_user").select("id").where("username", "=", "student").executeTakeFirstOrThrow();
    const row = await e.db
      .selectFrom("declared_conflict")
      .select(["target", "user_id"])
      .where("judge_id", "=", judge.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ target: `u:${student.id}`, user_id: student.id });
  });
});
