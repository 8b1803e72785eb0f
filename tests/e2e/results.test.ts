/**
 * Results in a real browser (demo data of results-demo.ts: the 人工智能应用组 of the Zhejiang
 * contest, online judging finished; the 大数据应用组 has defence scores only): the contest
 * admin computes the results on /ContestAdmin/ContestResult, sees the harsh judge and the
 * disputed work, allocates awards by ratio, sets one award by hand, proposes 优秀指导教师 by
 * the rule, publishes (confirming that some works lack online scores), removes a teacher
 * honour with a reason (a result version; the certificate revoked), and an anonymous visitor
 * then finds the award through the public work lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { login, settled, startE2E, type E2E } from "./harness";

const TOP = "基于大模型的课堂问答助教";
const DISPUTED = "城市道路积水智能识别";
const LAST = "渔船作业行为智能监测";

const workId = async (e: E2E, name: string) =>
  Number((await e.db.selectFrom("work").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id);
const row = (page: Page, text: string) => page.getByTestId("result-ranking").locator("tr.ant-table-row", { hasText: text });

describe("contest results in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedResultsDemo(e.db, new Date(), { compute: false })).toBe(true);
  });
  afterAll(async () => e?.close());

  it("the contest admin computes, allocates, adjusts and publishes; the public lookup then shows the award", async () => {
    const page = await login(e, "contest_admin");
    await page.goto(e.base + "/ContestAdmin/ContestResult");
    await page.getByText("尚未计算成绩：评委提交网评评分后").waitFor();

    // 计算成绩
    await page.getByTestId("result-compute").click();
    await page.getByRole("dialog").getByText("分歧阈值（分差）").waitFor();
    await page.getByTestId("result-compute-ok").click();
    await page.getByText("已计算 15 件作品的成绩，10 件排名").waitFor();
    await page.getByRole("tab", { name: /人工智能应用组/ }).click();
    await expect.poll(() => row(page, TOP).locator("td").first().textContent()).toBe("1");
    const disputed = await workId(e, DISPUTED);
    await row(page, DISPUTED).getByTestId(`flag-${disputed}`).waitFor();
    await expect.poll(() => page.getByTestId("summary-flagged").textContent()).toContain("1");

    // The harsh judge in the model panel.
    await page.getByText("标准化模型与评委效应").click();
    const fit = page.getByTestId("result-fit").locator("tr", { hasText: "张评审" });
    await expect.poll(() => fit.textContent()).toContain("偏严");

    // 增加评委: the proposal for the disputed work.
    await row(page, DISPUTED).getByTestId(`extra-${disputed}`).click();
    const extra = page.getByRole("dialog", { name: `为作品 ${disputed} 增加评委` });
    await extra.getByText("已有评委").waitFor();
    await extra.getByRole("button", { name: "取消", exact: true }).click();

    // 按比例分配奖项
    await page.getByTestId("result-allocate").click();
    await page.getByRole("dialog").getByText("每个结果分组按排名从高到低分配奖项").waitFor();
    await page.getByTestId("result-allocate-ok").click();
    await page.getByText(/已为 2 个分组分配奖项，共 6 件作品获奖/).waitFor();
    const top = await workId(e, TOP);
    await row(page, TOP).getByText("一等奖").waitFor();
    await expect.poll(() => page.getByTestId("summary-awarded").textContent()).toContain("6");

    // An award by hand for the last work.
    const last = await workId(e, LAST);
    await page.getByTestId(`award-${last}`).click();
    await page.locator(".ant-select-dropdown:visible").getByText("优秀奖", { exact: true }).click();
    await row(page, LAST).getByText("手动").waitFor();
    await expect.poll(() => page.getByTestId("summary-awarded").textContent()).toContain("7");

    // 优秀指导教师 by the rule: the teachers of the awarded works, best first.
    const honours = page.getByTestId("honours");
    await honours.getByRole("tab", { name: /优秀指导教师/ }).click();
    await honours.getByText("不限人数（本奖项未设比例和名额）").first().waitFor();
    await honours.locator('[data-testid^="honour-level-"]:visible').getByTestId("honour-propose").click();
    await page
      .getByRole("dialog", { name: "按规则生成「优秀指导教师」名单？" })
      .getByText("结果尚未发布：发布时按此名单为指导教师和学校签发证书")
      .waitFor();
    await page.getByTestId("honour-ok").click();
    await page.getByText(/优秀指导教师：按规则新增 7 项/).waitFor();
    const firstRow = honours
      .locator('[data-testid^="honour-level-"]:visible')
      .getByTestId("honour-rows")
      .locator("tr.ant-table-row")
      .first();
    await expect.poll(() => firstRow.textContent()).toContain(TOP);

    // 发布结果: five works of the defence group have no online scores: confirm first.
    await page.getByTestId("result-publish").click();
    const dialog = page.getByRole("dialog", { name: "发布结果" });
    await dialog.getByText("有 5 件作品的网评评分未完成").waitFor();
    expect(await page.getByTestId("result-publish-ok").isDisabled()).toBe(true);
    // Once the dialog has stopped zooming in: the box is checked (check() fails if the click did not check it).
    await settled(dialog);
    await page.getByTestId("result-confirm-incomplete").check();
    await page.getByTestId("result-publish-ok").click();
    await page.getByTestId("result-published").waitFor();
    await expect.poll(() => page.getByTestId("result-published").textContent()).toContain("公示期已开始");
    expect(await page.getByTestId("result-compute").isDisabled()).toBe(true);

    // After publication a removal asks for a reason, makes a result version and revokes the certificate.
    await honours.getByTestId("honours-published").waitFor();
    const teacherRow = honours
      .locator('[data-testid^="honour-level-"]:visible')
      .getByTestId("honour-rows")
      .locator("tr.ant-table-row")
      .last();
    const teacherName = (await teacherRow.locator("td").nth(1).textContent())!;
    const issued = await e.db
      .selectFrom("certificate")
      .select(["number", "status"])
      .where("holder_kind", "=", "teacher")
      .where("holder_name", "=", teacherName)
      .executeTakeFirstOrThrow();
    expect(issued.status).toBe("valid");
    await teacherRow.getByRole("button", { name: /移\s*除/ }).click();
    await page.getByRole("dialog").getByText("结果已发布：此修改将生成该奖项的新结果版本").waitFor();
    await page.getByTestId("honour-reason").fill("指导关系有误");
    await page.getByTestId("honour-ok").click();
    await page.getByText(/已生成「优秀指导教师」结果第 2 版，证书已同步/).waitFor();
    expect(
      (
        await e.db
          .selectFrom("certificate")
          .select("status")
          .where("number", "=", issued.number)
          .orderBy("version", "desc")
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("revoked");
    await page.context().close();

    // The public lookup shows the award now.
    const author = (
      await e.db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("app_user.name")
        .where("work_author.work_id", "=", top)
        .where("work_author.rank", "=", 1)
        .executeTakeFirstOrThrow()
    ).name;
    const anon = await e.newPage();
    await anon.goto(e.base + "/query-work");
    await anon.getByTestId("query-work-id").fill(String(top));
    await anon.getByTestId("query-author-name").fill(author);
    await anon.getByTestId("query-submit").click();
    await anon.getByTestId("query-result").waitFor();
    await expect.poll(() => anon.getByTestId("query-result").textContent()).toContain("省赛一等奖");
    await anon.context().close();
  });
});
