/**
 * Contests, work types and field locks in a real browser: root creates a provincial contest
 * with a stage through the drawer and finds it in the list; the contest admin sees only the
 * own (Zhejiang) contest on 赛事设置 and saves a change; root edits a rubric and the form
 * enforces the 100-point sum before saving; root adds a field lock shown with Chinese names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { login, selectOption, startE2E, type E2E } from "./harness";

const YEAR = new Date().getFullYear();

/** Types a range into an antd RangePicker (start, Enter, end, Enter). */
async function fillRange(scope: Locator, from: string, to: string) {
  const inputs = scope.locator("input");
  await inputs.nth(0).click();
  await inputs.nth(0).fill(from);
  await inputs.nth(0).press("Enter");
  await inputs.nth(1).fill(to);
  await inputs.nth(1).press("Enter");
}

describe("contests, work types and field locks in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("root creates a provincial contest with a registration stage in the drawer and finds it in the list", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/contest/ProvinceContest");
    await page.getByTestId("contest-table").getByText(`${YEAR}-ZJ`).waitFor();
    await page.getByTestId("contest-create").click();
    const drawer = page.locator(".ant-drawer-open");
    await drawer.getByText("新建省赛").waitFor();
    await drawer.getByLabel("赛事名称").fill(`${YEAR}年中国大学生计算机设计大赛安徽省级赛`);
    await drawer.getByLabel("赛事代码").fill(`${YEAR}-AH`);
    await drawer.getByLabel("省份（赛区）").fill("安徽省");
    await drawer.locator(".ant-drawer-title").click();
    await drawer.getByTestId("contest-parent").click();
    await selectOption(page, `${YEAR}-CN`).click();
    await fillRange(drawer.locator(".ant-form-item:has(label[title='报名'])"), `${YEAR}-03-01 08:00`, `${YEAR}-04-30 18:00`);
    await drawer.locator(".ant-drawer-title").click();
    await drawer.getByTestId("contest-save").click();
    await page.getByText("赛事已保存").waitFor();

    const row = page.getByTestId("contest-table").locator("tr", { hasText: `${YEAR}-AH` });
    await row.waitFor();
    expect(await row.innerText()).toContain("安徽省");
    // The saved stage comes back from the server into the edit drawer.
    await row.getByRole("button", { name: /编\s*辑/ }).click();
    const edit = page.locator(".ant-drawer-open");
    await edit.getByText(`编辑省赛：${YEAR}年中国大学生计算机设计大赛安徽省级赛`).waitFor();
    const reg = edit.locator(".ant-form-item:has(label[title='报名']) input");
    await expect.poll(() => reg.nth(0).inputValue()).toBe(`${YEAR}-03-01 08:00`);
    expect(await reg.nth(1).inputValue()).toBe(`${YEAR}-04-30 18:00`);
    await page.context().close();
  });

  it("the contest admin sees only the own Zhejiang contest on 赛事设置 and saves a change", async () => {
    const page = await login(e, "contest_admin");
    await page.goto(e.base + "/ContestAdmin/ContestSettings");
    const cards = page.locator("[data-testid^=my-contest-]");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(1);
    const text = await cards.first().innerText();
    expect(text).toContain("浙江省级赛");
    expect(text).not.toContain("江苏");
    await page.getByRole("button", { name: "编辑设置" }).click();
    const drawer = page.locator(".ant-drawer-open");
    await drawer.getByText("上级赛事由超级管理员设置").waitFor();
    await drawer.getByText("赛事管理员由超级管理员指定").waitFor();
    await drawer.getByLabel("简介").fill("浙江省级赛由赛事管理员更新的简介");
    await drawer.getByTestId("contest-save").click();
    await page.getByText("赛事已保存").waitFor();
    await cards.first().getByText("浙江省级赛由赛事管理员更新的简介").waitFor();
    await page.context().close();
  });

  it("root edits a rubric: the form refuses a sum other than 100, then saves", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/WorkTypeManagement");
    const row = page.getByTestId("work-type-table").locator("tr", { hasText: "软件应用与开发" }).first();
    await row.getByRole("button", { name: /编\s*辑/ }).click();
    const drawer = page.locator(".ant-drawer-open");
    await drawer.getByText("编辑大类：软件应用与开发").waitFor();
    const sum = drawer.getByTestId("rubric-sum");
    await expect.poll(() => sum.innerText()).toBe("合计 100 / 100 分");
    const first = drawer.getByTestId("rubric").locator("input.ant-input-number-input").first();
    await first.fill("25");
    await expect.poll(() => sum.innerText()).toBe("合计 105 / 100 分");
    await drawer.getByTestId("category-save").click();
    await drawer.getByText("各评分项满分之和须为 100 分，当前为 105 分").waitFor();
    await first.fill("15");
    await drawer.getByTestId("rubric").getByRole("button", { name: "添加评分项" }).click();
    const names = drawer.getByTestId("rubric").locator("input[placeholder^='评分项']");
    await names.last().fill("文档规范");
    await drawer.getByTestId("rubric").locator("input.ant-input-number-input").last().fill("5");
    await expect.poll(() => sum.innerText()).toBe("合计 100 / 100 分");
    await drawer.getByTestId("category-save").click();
    await page.getByText("作品大类已保存").waitFor();
    await row.getByText("文档规范 5").waitFor();
    await page.context().close();
  });

  it("root locks a field for all contests and sees it with Chinese names", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/EntryLock");
    await page.getByTestId("lock-create").click();
    const modal = page.locator(".ant-modal-wrap:visible");
    await modal.getByTestId("lock-field").click();
    await selectOption(page, "作品简介").click();
    await modal.getByTestId("lock-stage").click();
    await selectOption(page, "形式审查阶段开始起").click();
    await modal.getByRole("button", { name: /保\s*存/ }).click();
    const row = page.getByTestId("lock-table").locator("tr", { hasText: "作品简介" });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/全部赛事[\s\S]*作品简介[\s\S]*形式审查阶段开始起/);
    await page.context().close();
  });
});
