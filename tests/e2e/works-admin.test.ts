/**
 * Works administration in a real browser: an anonymous visitor looks up the demo student's
 * submitted work by id and an author's name; the school admin returns it with a reason and
 * sees 已退回修改 (a reason is required first); root finds a work by id on /WorkManagement;
 * the registration print page shows the work's name and authors, and an unknown id shows
 * the error screen with the server's text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, startE2E, type E2E } from "./harness";

const SUBMITTED = "校园能耗数据可视化分析系统";

describe("works administration in a real browser", () => {
  let e: E2E;
  let workId: number;
  beforeAll(async () => {
    e = await startE2E();
    workId = (await e.db.selectFrom("work").select("id").where("name", "=", SUBMITTED).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => e?.close());

  it("an anonymous visitor looks up a submitted demo work by id and author name and sees only its status and award", async () => {
    const page = await e.newPage();
    await page.goto(e.base + "/query-work");
    await page.getByTestId("query-work-id").fill(String(workId));
    await page.getByTestId("query-author-name").fill("林雨桐");
    await page.getByTestId("query-submit").click();
    const result = page.getByTestId("query-result");
    await result.waitFor();
    await expect.poll(() => result.textContent()).toContain("已提交");
    await expect.poll(() => result.textContent()).toContain("暂无");
    expect(await result.textContent()).not.toContain(SUBMITTED);
    // A name that is not an author's gets the server's one generic answer.
    await page.getByTestId("query-author-name").fill("张三");
    await page.getByTestId("query-submit").click();
    await page.getByTestId("query-error").waitFor();
    await expect.poll(() => page.getByTestId("query-error").textContent()).toContain("未找到匹配的作品");
    await page.context().close();
  });

  it("the school admin returns the demo student's submitted work with a reason and sees 已退回修改", async () => {
    const page = await login(e, "school_admin");
    await page.goto(e.base + "/school/WorkManagement");
    await page.getByTestId("quota-card").first().waitFor();
    const row = page.getByTestId("work-table").locator("tr.ant-table-row", { hasText: String(workId) });
    await expect.poll(() => row.getByTestId("work-status").textContent()).toBe("已提交");
    await row.getByTestId("action-return").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "退回修改" }).click();
    await dialog.getByText("请填写「退回修改」的原因").waitFor();
    await page.getByTestId("reason-input").fill("请补充作品演示视频和安装说明");
    await dialog.getByRole("button", { name: "退回修改" }).click();
    await page.getByText("已退回修改", { exact: true }).first().waitFor();
    await expect.poll(() => row.getByTestId("work-status").textContent()).toBe("已退回修改");
    // The detail shows the reason and the log records the step.
    await page.goto(e.base + `/workDetail/${workId}`);
    await expect.poll(() => page.getByTestId("return-reason").textContent()).toContain("请补充作品演示视频和安装说明");
    await page.getByTestId("work-log").getByText("退回修改").first().waitFor();
    await page.context().close();
  });

  it("root finds a work by its id on /WorkManagement", async () => {
    const page = await login(e, "root");
    await page.goto(e.base + "/WorkManagement");
    const rows = page.getByTestId("work-table").locator("tr.ant-table-row");
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(1);
    await page.getByTestId("filter-id").fill(String(workId));
    await page.getByTestId("filter-search").click();
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.first().textContent()).toContain(SUBMITTED);
    await page.context().close();
  });

  it("the contest admin opens fast review from a work awaiting format review on /WorkManagement", async () => {
    const waiting = await e.db
      .selectFrom("work")
      .select(["id", "name", "contest_id"])
      .where("status", "=", "accepted")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const page = await login(e, "contest_admin");
    await page.goto(e.base + "/WorkManagement");
    const rows = page.getByTestId("work-table").locator("tr.ant-table-row");
    await rows.first().waitFor();
    await page.getByTestId("filter-id").fill(String(waiting.id));
    await page.getByTestId("filter-search").click();
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByTestId(`fast-review-${waiting.id}`).click();
    await page.waitForURL(new RegExp(`/reviewer/fastReview/${waiting.contest_id}/startFrom/${waiting.id}`));
    await page.getByText(waiting.name).first().waitFor();
    await page.context().close();
  });

  it("the registration print page shows the work and its authors; an unknown id shows the server's text", async () => {
    const page = await login(e, "student", "/account/StudentLogin");
    await page.goto(e.base + `/print/Registration/${workId}`);
    await page.getByTestId("print-registration").waitFor();
    await expect.poll(() => page.getByTestId("print-work-name").textContent()).toBe(SUBMITTED);
    const authors = await page.getByTestId("print-authors").textContent();
    expect(authors).toContain("冯同学");
    expect(authors).toContain("林雨桐");
    await page.getByText("作者签名").waitFor();
    await page.getByText("学校盖章").waitFor();
    await page.goto(e.base + `/print/Registration/${workId + 900000}`);
    await page.getByTestId("error-screen").waitFor();
    await expect.poll(() => page.getByTestId("error-screen").textContent()).toContain("作品不存在或您无权查看");
    await page.context().close();
  });
});
