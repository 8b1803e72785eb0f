/**
 * In a real browser: root writes the students' announcement in the rich-text editor and a
 * student sees it (as formatted HTML) in the user centre; root publishes a news item that
 * the list shows as 已发布; root creates a major and finds it by keyword.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, startE2E, type E2E } from "./harness";

describe("notices, news and majors in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("root edits the students' announcement and a student sees it on /index", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/NoticeManagement/role_100");
    await page.getByTestId("notice-edit-platform").click();
    await page.getByTestId("notice-title").fill("报名截止提醒");
    const editor = page.locator("[data-testid=notice-content] .ProseMirror");
    await expect.poll(() => editor.innerText()).toContain("欢迎使用赛务平台");
    await editor.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("请在 ");
    await page.keyboard.press("Control+B");
    await page.keyboard.type("6 月 30 日前");
    await page.keyboard.press("Control+B");
    await page.keyboard.type(" 完成作品报名。");
    await page.getByTestId("notice-save").click();
    await page.getByTestId("notice-platform").getByText("报名截止提醒").waitFor();
    await page.context().close();

    const student = await login(e, "student", "/account/StudentLogin");
    const card = student.getByTestId("announcement");
    await card.getByText("报名截止提醒").waitFor();
    expect(await card.getByTestId("announcement-content").innerHTML()).toBe(
      "<p>请在 <strong>6 月 30 日前</strong> 完成作品报名。</p>",
    );
    await student.context().close();
  });

  it("root publishes a news item that the list shows as 已发布", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/Article");
    await page.getByTestId("news-create").click();
    await page.getByTestId("news-title").fill("全国总决赛日程公布");
    await page.locator("[data-testid=news-body] .ProseMirror").click();
    await page.keyboard.type("全国总决赛将于 8 月在多所高校举行。");
    await page.getByTestId("news-status").getByText("发布", { exact: true }).click();
    await page.getByTestId("news-save").click();
    const row = page.getByTestId("news-table").locator("tr", { hasText: "全国总决赛日程公布" });
    await row.waitFor();
    expect(await row.innerText()).toContain("已发布");
    expect(await row.innerText()).toContain("全国新闻");
    await page.context().close();
  });

  it("root creates a major and finds it by keyword", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/admin/MajorManagement");
    await page.getByTestId("major-create").click();
    const dialog = page.getByRole("dialog", { name: "新建专业" });
    await dialog.getByTestId("major-code").fill("080912T");
    await dialog.getByTestId("major-name").fill("新媒体技术");
    await dialog.getByRole("button", { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: "hidden" });
    const search = page.locator("input[data-testid=major-search], [data-testid=major-search] input").first();
    await search.fill("新媒体");
    await search.press("Enter");
    const rows = page.getByTestId("major-table").locator("tbody tr.ant-table-row");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(/080912T\s+新媒体技术/);
    await page.context().close();
  });
});
