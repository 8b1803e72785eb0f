/**
 * Issue 15 in a real browser: a work with missing online scores is listed apart on the results
 * page (not ranked above the complete works, even with a perfect score from its one judge), and
 * the allocation dialog offers to include it explicitly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { login, startE2E, type E2E } from "./harness";

const LATE = "渔船作业行为智能监测";

describe("results: incomplete works listed apart", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    expect(await seedResultsDemo(e.db, new Date(), { compute: false })).toBe(true);
  });
  afterAll(async () => e?.close());

  it("shows the work with 1 of its scores in the 评分未完成 list, not at the top of the ranking", async () => {
    const late = Number((await e.db.selectFrom("work").select("id").where("name", "=", LATE).executeTakeFirstOrThrow()).id);
    const scores = await e.db
      .selectFrom("judge_score")
      .select("id")
      .where("work_id", "=", late)
      .where("status", "=", "submitted")
      .orderBy("id")
      .execute();
    expect(scores.length).toBeGreaterThan(1);
    // One judge gave 100; the others have not submitted.
    await e.db.updateTable("judge_score").set({ total: 100 }).where("id", "=", scores[0].id).execute();
    await e.db
      .updateTable("judge_score")
      .set({ status: "draft" })
      .where(
        "id",
        "in",
        scores.slice(1).map((s) => s.id),
      )
      .execute();

    const page = await login(e, "contest_admin");
    await page.goto(e.base + "/ContestAdmin/ContestResult");
    await page.getByTestId("result-compute").click();
    await page.getByTestId("result-compute-ok").click();
    await page.getByText(/已计算 15 件作品的成绩/).waitFor();
    await page.getByRole("tab", { name: /人工智能应用组/ }).click();
    const apart = page.getByTestId("result-incomplete");
    await apart.getByText(/评分未完成（1 件，暂不排名）/).waitFor();
    await apart.locator("tr.ant-table-row", { hasText: LATE }).waitFor();
    expect(await page.getByTestId("result-ranking").locator("tr.ant-table-row", { hasText: LATE }).count()).toBe(0);
    const first = page.getByTestId("result-ranking").locator("tr.ant-table-row").first();
    await expect.poll(() => first.locator("td").first().textContent()).toBe("1");
    expect(await first.textContent()).not.toContain(LATE);

    // The allocation leaves it out by default and offers the explicit choice.
    await page.getByTestId("result-allocate").click();
    await page.getByTestId("result-include-incomplete").waitFor();
    await page.getByTestId("result-allocate-ok").click();
    await page.getByText(/件评分未完成的作品未参与分配/).waitFor();
    await page.context().close();
  });
});
