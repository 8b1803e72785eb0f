/**
 * The offline defence in a real browser, on the demo's 大数据应用组 (leader 李评审 of 浙江大学,
 * 陈评审 of 浙江工业大学, 刘评审 of 杭州电子科技大学; 陈评审 has scored all four works she may
 * judge, 刘评审 three of four): an author opens the defence link and uploads the defence
 * material; 刘评审 scores the last work; the leader, who never sees the work of his own
 * school, scores his four and sees the material; on the group sheet he signs off after
 * confirming, sees the means and the signature; the judges' pages are then read-only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, zhejiangContestId, startE2E, type E2E } from "./harness";

/** Scores one work through the row's button and the modal. */
async function scoreWork(
  page: Page,
  workId: number,
  score: string,
  recommendation: "强烈推荐" | "推荐" | "不推荐",
  comment: string,
) {
  await page.getByTestId(`score-${workId}`).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByTestId("score-form").waitFor();
  await dialog.getByTestId("score-input").fill(score);
  await dialog.getByText(recommendation, { exact: true }).click();
  await dialog.locator("textarea").fill(comment);
  await dialog.getByRole("button", { name: "保存评分" }).click();
  await dialog.waitFor({ state: "hidden" });
  const row = page.getByTestId("slots").locator("tr.ant-table-row", { hasText: String(workId) });
  await expect.poll(() => row.getByTestId("my-score").textContent()).toContain(recommendation);
}

describe("offline defence in a real browser", () => {
  let e: E2E;
  let zj: number, session: number;
  const work: Record<string, number> = {};
  let code: string;

  beforeAll(async () => {
    e = await startE2E();
    zj = await zhejiangContestId(e.db);
    const s = await e.db
      .selectFrom("defence_session")
      .innerJoin("judge_group", "judge_group.id", "defence_session.group_id")
      .select("defence_session.id")
      .where("judge_group.name", "=", "大数据应用组")
      .executeTakeFirstOrThrow();
    session = s.id;
    const slots = await e.db
      .selectFrom("defence_slot")
      .innerJoin("work", "work.id", "defence_slot.work_id")
      .innerJoin("school", "school.id", "work.school_id")
      .select(["work.id", "school.name", "defence_slot.code"])
      .where("session_id", "=", session)
      .execute();
    for (const x of slots) work[x.name] = Number(x.id);
    code = slots.find((x) => x.name === "浙江工业大学")!.code;
  });
  afterAll(async () => e?.close());

  it("an author of the work opens the defence link and uploads the defence material", async () => {
    // Anyone with the link sees the slot; uploading needs the author's login.
    const anon = await e.newPage();
    await anon.goto(`${e.base}/contest/reply/${code}`);
    await anon.getByTestId("reply-page").waitFor();
    await expect.poll(() => anon.getByTestId("reply-work").textContent()).toBe("《运河沿岸客流大数据分析系统》");
    await expect.poll(() => anon.getByTestId("reply-time").textContent()).toMatch(/^2026年7月20日 \d\d:\d\d – \d\d:\d\d$/);
    await anon.getByTestId("reply-login").waitFor();
    await anon.context().close();

    const author = await login(e, "student4", "/account/StudentLogin");
    await author.goto(`${e.base}/contest/reply/${code}`);
    await author.getByTestId("reply-upload").waitFor();
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    await author.locator("input[type=file]").setInputFiles({ name: "答辩演示.pdf", mimeType: "application/pdf", buffer: pdf });
    await expect.poll(() => author.getByTestId("reply-files").textContent()).toContain("答辩演示.pdf");
    await expect.poll(() => author.getByTestId("reply-files").textContent()).toContain("当前");
    await author.context().close();
  });

  it("the judges score, the leader signs off on the group sheet and the result is final", async () => {
    // 刘评审 scores the one work left; the work of his own school is not on his page.
    const liu = await login(e, "judge3");
    await liu.goto(`${e.base}/judge/Offline/${zj}`);
    await liu.getByTestId("slots").waitFor();
    expect(await liu.getByTestId("slots").textContent()).not.toContain(String(work["杭州电子科技大学"]));
    await scoreWork(liu, work["温州大学"], "78", "推荐", "分析扎实，展示清楚");
    await expect.poll(() => liu.getByTestId("scored-count").textContent()).toBe("4");

    // The leader scores his four works; the 浙江大学 work is not shown to him.
    const lead = await login(e, "judge");
    await lead.goto(`${e.base}/judge/Offline/${zj}`);
    await lead.getByTestId("slots").waitFor();
    const table = lead.getByTestId("slots");
    expect(await table.textContent()).not.toContain(String(work["浙江大学"]));
    expect(await lead.getByText("本组另有 1 件作品与您存在回避关系").count()).toBe(1);
    // The material uploaded by the authors is there to download.
    await expect
      .poll(() => table.locator("tr.ant-table-row", { hasText: String(work["浙江工业大学"]) }).textContent())
      .toContain("答辩演示.pdf");
    await scoreWork(lead, work["杭州电子科技大学"], "93", "强烈推荐", "选题好，模型验证充分");
    await scoreWork(lead, work["宁波大学"], "85", "推荐", "");
    await scoreWork(lead, work["浙江工业大学"], "80", "推荐", "数据授权需补充说明");
    await scoreWork(lead, work["温州大学"], "70.5", "不推荐", "结论缺少数据支撑");
    await expect.poll(() => lead.getByTestId("scored-count").textContent()).toBe("4");

    // The group sheet, reached from the page without a session: the leader picks the group.
    await lead.goto(`${e.base}/judge/offline-group-result`);
    await lead.getByTestId(`sheet-link-${session}`).click();
    await lead.waitForURL(new RegExp(`offline-group-result\\?session=${session}$`));
    // Every member's score, the means; signing needs the confirmation.
    await lead.getByTestId("group-sheet").waitFor();
    const sheet = lead.getByTestId("sheet-table");
    const hdu = sheet.locator("tr.ant-table-row", { hasText: String(work["杭州电子科技大学"]) });
    // 陈评审 91 and 李评审 93 (刘评审 avoids the work of his school).
    await expect.poll(() => hdu.getByTestId("row-mean").textContent()).toBe("92.00");
    await expect.poll(() => hdu.textContent()).toContain("回避");
    const wzu = sheet.locator("tr.ant-table-row", { hasText: String(work["温州大学"]) });
    await expect.poll(() => wzu.getByTestId("row-mean").textContent()).toBe(((73 + 78 + 70.5) / 3).toFixed(2));
    expect(await sheet.textContent()).not.toContain(String(work["浙江大学"]));
    await lead.getByText("全部评委已评完，可以签署").waitFor();
    await lead.getByTestId("sign-off").locator("textarea").fill("全组评委均已到场评分");
    await lead.getByTestId("sign-button").click();
    await lead.getByRole("dialog").getByRole("button", { name: "确认签署" }).click();
    await lead.getByTestId("signed").waitFor();
    await expect.poll(() => lead.getByTestId("signed").textContent()).toContain("本组结果已由专家组长 李评审");
    await expect.poll(() => lead.getByTestId("signed").textContent()).toContain("全组评委均已到场评分");
    await expect.poll(() => lead.getByTestId("session-status").textContent()).toBe("组长已签署");
    expect(await lead.getByTestId("sign-off").count()).toBe(0);

    // Signed: the judges' score buttons are disabled.
    await liu.reload();
    await liu.getByTestId("slots").waitFor();
    await expect.poll(() => liu.getByTestId("session-status").textContent()).toBe("组长已签署");
    expect(await liu.getByTestId(`score-${work["温州大学"]}`).isDisabled()).toBe(true);
    const row = await e.db
      .selectFrom("defence_session")
      .select(["signed_off_at", "sign_off_note"])
      .where("id", "=", session)
      .executeTakeFirstOrThrow();
    expect(row.sign_off_note).toBe("全组评委均已到场评分");
    expect(row.signed_off_at).not.toBeNull();
    await liu.context().close();
    await lead.context().close();
  });
});
