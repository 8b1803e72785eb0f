/**
 * Online judging in a real browser, on the demo data plus the scoring demo: three judges
 * (李评审, 陈评审, 刘评审) each log in, go from /judge to 线上评审, pick the same work and score
 * it — a draft first, a submission refused while an item is empty, a deduction, the live
 * total — and see it 已提交 and read-only; the contest admin then sees 3 / 3 submitted for
 * the work, checks the score log and reopens one score with a reason, which the judge sees.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, startE2E, type E2E } from "./harness";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";

const WORK = "中小学编程作业自动评测平台";

const item = (page: Page, name: string) => page.getByRole("spinbutton", { name });

describe("online judging in a real browser", () => {
  let e: E2E;
  let workId: number;
  let contestId: number;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
    const w = await e.db.selectFrom("work").select(["id", "contest_id"]).where("name", "=", WORK).executeTakeFirstOrThrow();
    workId = Number(w.id);
    contestId = w.contest_id;
  });
  afterAll(async () => e?.close());

  /** From /judge into online judging, the work selected and its blank form shown. */
  async function openWork(username: string) {
    const page = await login(e, username);
    await page.goto(e.base + "/judge");
    const card = page.getByTestId(`judge-contest-${contestId}`);
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain("网络评审进度");
    await card.getByTestId("go-online").click();
    await page.getByTestId("online-works").waitFor();
    expect(page.url()).toContain(`/judge/Online/${contestId}`);
    await page.getByTestId(`online-work-${workId}`).click();
    await page.getByTestId("work-title").filter({ hasText: WORK }).waitFor();
    await page.getByTestId("score-form").waitFor();
    return page;
  }

  async function submit(page: Page, total: string) {
    await page.getByTestId("submit-score").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(`总分 ${total} 分`).waitFor();
    await dialog.getByRole("button", { name: "确认提交" }).click();
    const done = page.getByTestId("score-submitted");
    await done.waitFor();
    await expect.poll(() => done.textContent()).toContain(`总分 ${total} 分`);
    await expect.poll(() => page.getByTestId(`online-work-${workId}`).getByTestId("score-status").textContent()).toBe("已提交");
    // Read-only now: no inputs, no buttons.
    expect(await page.getByTestId("score-form").count()).toBe(0);
    expect(await page.getByTestId("submit-score").count()).toBe(0);
  }

  it("three judges each score the same work online", async () => {
    // 李评审: a partial draft, a refused submission, then the full score.
    let page = await openWork("judge");
    await expect.poll(() => page.getByTestId(`online-work-${workId}`).getByTestId("score-status").textContent()).toBe("未评");
    await item(page, "主题与内容").fill("18");
    await item(page, "方案概要").fill("22.5");
    await page.getByTestId("save-draft").click();
    await page.getByText("草稿已保存（当前总分 40.5）").waitFor();
    await page.getByTestId(`online-work-${workId}`).getByText("草稿").waitFor();
    await item(page, "核心内容").fill("30");
    await page.getByTestId("submit-score").click();
    await page.getByText("「技术与创新」尚未评分，请为全部评分项打分后再提交").waitFor();
    await item(page, "技术与创新").fill("16");
    await page.getByLabel("评语").fill("评测沙箱设计扎实，错误提示对初学者友好。");
    await page.getByTestId("live-total").getByText("86.5").waitFor();
    await submit(page, "86.5");
    await expect.poll(() => page.getByTestId("online-progress").textContent()).toContain("已提交 1 / 分配 6");
    // After a reload the same work is still selected and still submitted.
    await page.reload();
    await page.getByTestId("score-submitted").waitFor();
    await expect.poll(() => page.getByTestId("work-title").textContent()).toContain(WORK);
    await page.context().close();

    // 陈评审 takes the 非原创 deduction.
    page = await openWork("judge2");
    for (const [name, v] of [
      ["主题与内容", "15"],
      ["方案概要", "20"],
      ["核心内容", "28"],
      ["技术与创新", "12"],
    ])
      await item(page, name).fill(v);
    await page.getByTestId("live-total").getByText("75").waitFor();
    await page.getByLabel("非原创（扣 10 分）").check();
    await page.getByTestId("live-total").getByText("65").waitFor();
    await submit(page, "65");
    await page.context().close();

    // 刘评审.
    page = await openWork("judge3");
    for (const [name, v] of [
      ["主题与内容", "17"],
      ["方案概要", "21"],
      ["核心内容", "31"],
      ["技术与创新", "17"],
    ])
      await item(page, name).fill(v);
    await submit(page, "86");
    await page.context().close();
  });

  it("the contest admin sees three submitted scores, checks the log and reopens one", async () => {
    const page = await login(e, "contest_admin");
    await page.goto(e.base + `/ContestAdmin/OnlineJudging/${contestId}`);
    const progress = page.getByTestId(`work-progress-${workId}`);
    await progress.waitFor();
    expect((await progress.textContent())?.replace(/\s/g, "")).toBe("3/3");
    const row = page.getByTestId("score-works").locator("tr.ant-table-row", { hasText: String(workId) });
    await expect.poll(() => row.textContent()).toContain(String(Math.round(((86.5 + 65 + 86) / 3) * 100) / 100));
    await row.locator(".ant-table-row-expand-icon").click();
    const scores = page.locator("tr.ant-table-expanded-row");
    await scores.getByText("刘评审").waitFor();
    expect(await scores.getByTestId("score-status").allTextContents()).toEqual(["已提交", "已提交", "已提交"]);

    await page.getByTestId("verify-log").click();
    await page.getByTestId("verify-result").waitFor();
    await expect.poll(() => page.getByTestId("verify-result").textContent()).toMatch(/评分日志完整：共 \d+ 条记录/);

    await scores.locator("tr", { hasText: "刘评审" }).getByTestId("reopen-score").click();
    const dialog = page.getByRole("dialog");
    // The form is in place (the dialog opens with an animation) before 退回 is pressed empty.
    await dialog.getByLabel("退回原因").waitFor();
    await expect
      .poll(
        async () => {
          await dialog
            .getByRole("button", { name: "退 回" })
            .or(dialog.getByRole("button", { name: "退回" }))
            .click();
          return dialog.getByText("请填写退回原因").isVisible();
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await dialog.getByLabel("退回原因").fill("技术与创新一项评分偏高，请复核");
    await dialog
      .getByRole("button", { name: "退 回" })
      .or(dialog.getByRole("button", { name: "退回" }))
      .click();
    await page.getByText(/已退回评委「刘评审」对作品/).waitFor();
    await progress.filter({ hasText: "2" }).waitFor();
    await page.context().close();

    const judge = await openWork("judge3");
    await expect.poll(() => judge.getByTestId("reopen-reason").textContent()).toContain("技术与创新一项评分偏高，请复核");
    expect(await item(judge, "技术与创新").inputValue()).toBe("17");
    await item(judge, "技术与创新").fill("14");
    await submit(judge, "83");
    await judge.context().close();
  });
});
