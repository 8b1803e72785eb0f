/**
 * Issue 29's dead ends in a real browser, on the demo as `npm start` seeds it (the Zhejiang result
 * published, its awarded works entered in the national contest, the demo complaints):
 *
 * - national_admin reaches the national contest's format review from the menu (评审 → 选择赛事 →
 *   快速审核), as README's national story step 1 says;
 * - fast review opened on the last pending work (作品管理 lists newest first: its first row) goes on
 *   with the other pending works, wrapping around, and says 当前筛选下已没有待审查的作品 only when
 *   none is left;
 * - the arbitrator's 新奖项 picker offers the contest level's work awards, each once, no
 *   优秀指导教师 / 优秀组织奖;
 * - a browser print whose preview is closed without confirming 已打印 leaves no print record; 是
 *   records it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { login, nationalContestId, startE2E, zhejiangContestId, type E2E } from "./harness";
import { STEP_TIMEOUT_MS } from "./limits";

describe("issue 29: dead ends of the new flows", () => {
  let e: E2E;
  let cn: number;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
    cn = await nationalContestId(e.db);
  });
  afterAll(async () => e?.close());

  /** The national entries still waiting for format review, by work id. */
  const pendingEntries = async () =>
    (
      await e.db
        .selectFrom("national_entry")
        .select("work_id")
        .where("contest_id", "=", cn)
        .where("status", "=", "entered")
        .where("format_status", "in", ["pending", "resubmitted"])
        .orderBy("work_id")
        .execute()
    ).map((r) => Number(r.work_id));

  it("national_admin opens the national format review from the menu and fast review finishes every pending work from the last one", async () => {
    const page = await login(e, "national_admin");
    // 评审 → 选择赛事 (README's national story, step 1).
    const entry = page.locator('[data-menu-path="/ContestReviewer/SelectContest"] a:visible');
    if (!(await entry.isVisible())) await page.locator('[data-menu-group="评审"] .ant-menu-submenu-title').click();
    await entry.click();
    await page.waitForURL("**/ContestReviewer/SelectContest");
    const card = page.getByTestId(`review-contest-${cn}`);
    await card.waitFor();
    expect(await page.getByText("抱歉，您无权访问此页面").count()).toBe(0);
    const pending = await pendingEntries();
    expect(pending.length).toBeGreaterThanOrEqual(3);
    await card.getByTestId("fast-review").click();
    await page.waitForURL(`**/reviewer/fastReview/${cn}/startFrom/${pending[0]}`);
    await page.getByTestId("fast-work").waitFor();

    // Opened on the last pending work (the first row of 作品管理, newest first): P on each in turn.
    await page.goto(`${e.base}/reviewer/fastReview/${cn}/startFrom/${pending.at(-1)}`);
    const seen: string[] = [];
    for (let i = 0; i < pending.length; i++) {
      await page.getByTestId("fast-work").waitFor();
      const name = (await page.getByTestId("fast-work-name").textContent())!;
      seen.push(name);
      await page.keyboard.press("p");
      // The next pending work, or (after the last) the end.
      // (read without waiting: the name leaves the page when the end shows)
      await expect
        .poll(
          async () =>
            (await page.getByTestId("fast-done").count())
              ? "done"
              : (await page.getByTestId("fast-work-name").allTextContents()).join(""),
          { timeout: STEP_TIMEOUT_MS },
        )
        .toSatisfy((v: string) => v === "done" || (v !== "" && v !== name));
    }
    await page.getByTestId("fast-done").getByText("当前筛选下已没有待审查的作品").waitFor();
    expect(new Set(seen).size).toBe(pending.length);
    expect(await pendingEntries()).toEqual([]);
    await page.context().close();
  });

  it("the arbitrator's 新奖项 picker offers the provincial work awards, each once", async () => {
    const zj = await zhejiangContestId(e.db);
    // The author of the demo's decided 申诉 requests arbitration.
    const c = await e.db
      .selectFrom("complaint")
      .select(["id", "work_id"])
      .where("contest_id", "=", zj)
      .where("type", "=", "appeal")
      .where("state", "=", "decided")
      .executeTakeFirstOrThrow();
    const author = await e.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.username")
      .where("work_author.work_id", "=", c.work_id)
      .where("work_author.rank", "=", 1)
      .executeTakeFirstOrThrow();
    const s = await login(e, author.username, "/account/StudentLogin");
    const asked = await s.request.post(`${e.base}/Backend/Complaint/mine/${c.id}/arbitration`, {
      headers: { origin: e.base },
      data: { reason: "评分明显偏低，对维持原成绩的决定不服，申请仲裁。" },
    });
    expect((await asked.json()).error).toBe(0);
    await s.context().close();

    const arb = await login(e, "arbitrator");
    await arb.goto(e.base + "/Arbitrate");
    await arb.getByTestId("complaint-list").locator("tr.ant-table-row").first().click();
    await arb.getByTestId("arbitration-form").waitFor();
    await arb.getByTestId("arbitration-outcome").getByText("变更决定").click();
    await arb.getByTestId("revised-outcome").getByText("成立", { exact: true }).click();
    await arb.getByTestId("revised-action").getByText("变更奖项").click();
    await arb.getByTestId("revised-award").click();
    const options = arb.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    await options.first().waitFor();
    expect(await options.allTextContents()).toEqual(["一等奖", "二等奖", "三等奖", "优秀奖"]);
    await arb.context().close();
  });

  it("a browser print closed without confirming 已打印 leaves no print record; 是 records it", async () => {
    const zj = await zhejiangContestId(e.db);
    const page = await login(e, "root");
    // The print dialog is the browser's: here it returns at once, and the page hears afterprint.
    await page.addInitScript(() => {
      window.print = () => void setTimeout(() => window.dispatchEvent(new Event("afterprint")), 50);
    });
    await page.goto(`${e.base}/admin/PrintCertification?contestId=${zj}&holderKind=author`);
    const row = page.getByTestId("cert-list").locator("tr.ant-table-row").first();
    await row.waitFor();
    expect(await row.getByTestId("cert-printed").textContent()).toBe("未打印");
    const number = (await row.getByTestId("cert-number").textContent())!;
    const printed = async () =>
      (
        await e.db
          .selectFrom("certificate_print")
          .innerJoin("certificate", "certificate.id", "certificate_print.certificate_id")
          .select("certificate_print.id")
          .where("certificate.number", "=", number)
          .execute()
      ).length;

    // Preview opened and closed without printing: 否.
    await row.locator(".ant-checkbox-input").check();
    await page.getByTestId("cert-print-browser").click();
    const ask = page.locator(".ant-modal-confirm").filter({ hasText: "已打印？" });
    await ask.waitFor();
    await page.getByTestId("cert-printed-no").click();
    await ask.waitFor({ state: "detached" });
    await page.getByTestId("cert-print-close").click();
    expect(await printed()).toBe(0);
    await page.reload();
    await expect.poll(() => row.getByTestId("cert-printed").textContent()).toBe("未打印");

    // Printed: 是 records it once.
    await row.locator(".ant-checkbox-input").check();
    await page.getByTestId("cert-print-browser").click();
    await ask.waitFor();
    // The record is the server's answer to 是: wait for it (a loaded machine may take longer than a poll).
    const confirmed = page.waitForResponse((r) => r.url().includes("/print/browser/confirm"), { timeout: 60_000 });
    await page.getByTestId("cert-printed-yes").click();
    const reply = await (await confirmed).json();
    expect(reply, JSON.stringify(reply)).toMatchObject({ error: 0 });
    await expect.poll(() => page.getByTestId("cert-print-logged").textContent()).toBe("已记录打印 1 次");
    await page.getByTestId("cert-print-close").click();
    expect(await printed()).toBe(1);
    await expect.poll(() => row.getByTestId("cert-printed").textContent()).toContain("已打印 1 次");
    await page.context().close();
  });
});
