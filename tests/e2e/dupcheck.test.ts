/**
 * The duplicate check in a real browser: a copy of a Zhejiang work waiting for format review
 * is planted in the same contest; root builds the index (the rebuild job of /admin/ElasticSearch,
 * its progress bar to done); the demo reviewer opens the copy's review sheet, sees it flagged
 * with the original as its top match, opens the side by side view and sees the shared
 * passages highlighted in both texts with their positions. Root checks the copy by id on
 * /dup-check and a pasted paragraph, whose side by side opens in a drawer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { insertDemoWork } from "../../src/server/seed/demo-helpers";
import { DEMO_REVIEW_WORKS } from "../../src/server/seed/review-demo";
import { login, startE2E, zhejiangContestId, type E2E } from "./harness";

const NOTES =
  "系统采集学生的历史选课记录与成绩，利用课程知识图谱刻画课程之间的先修关系、知识点覆盖和难度梯度，结合图神经网络学习学生与课程的表示。对于刚入学、没有选课记录的学生，系统根据专业培养方案和兴趣问卷给出初始推荐。推荐结果附带可解释的理由，例如某门课程能够补足学生在数据结构方面的薄弱环节。";

describe("duplicate check in a real browser", () => {
  let e: E2E;
  let original: { id: number; name: string };
  let copy: number;

  beforeAll(async () => {
    e = await startE2E();
    const zj = await zhejiangContestId(e.db);
    const spec = DEMO_REVIEW_WORKS[0];
    const row = await e.db
      .selectFrom("work")
      .select(["id", "name", "category_id", "subcategory_id", "summary", "design_idea", "key_points"])
      .where("contest_id", "=", zj)
      .where("name", "=", spec.name)
      .executeTakeFirstOrThrow();
    original = { id: Number(row.id), name: row.name };
    await e.db.updateTable("work").set({ other_notes: NOTES }).where("id", "=", original.id).execute();
    // The planted copy: another school's work with the original's text, lightly edited.
    const school =
      (await e.db.selectFrom("school").select("id").where("name", "=", "浙江海洋大学").executeTakeFirst()) ??
      (await e.db.selectFrom("school").select("id").where("name", "=", "宁波大学").executeTakeFirstOrThrow());
    const now = new Date().toISOString();
    const author = async (username: string) =>
      Number(
        (
          await e.db
            .insertInto("app_user")
            .values({
              username,
              password_hash: "x",
              name: `作者${username}`,
              user_type: 100,
              email: `${username}@example.com`,
              email_verified: 1,
              phone: null,
              school_id: school.id,
              member_no: username,
              major_code: "080901",
              has_complaint_right: 0,
              is_school_contest_judge: 0,
              locked: 0,
              created_at: now,
              updated_at: now,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
    copy = await insertDemoWork(e.db, {
      year: new Date().getFullYear(),
      contestId: zj,
      categoryId: row.category_id,
      subcategoryId: row.subcategory_id,
      name: "课程智能推荐助手",
      status: "accepted",
      schoolId: school.id,
      authors: [await author("dup_e2e_a"), await author("dup_e2e_b")],
      text: { summary: row.summary, design_idea: row.design_idea, key_points: row.key_points },
      version: 1,
      at: now,
    });
    await e.db
      .updateTable("work")
      .set({ other_notes: NOTES.replace("百分之八十七", "百分之九十") })
      .where("id", "=", copy)
      .execute();
  });
  afterAll(async () => e?.close());

  it("root rebuilds the index on /admin/ElasticSearch with a progress bar", async () => {
    const page = await login(e, "root");
    await page.goto(`${e.base}/admin/ElasticSearch`);
    await page.getByTestId("dup-stats").waitFor();
    await page.getByTestId("dup-rebuild-start").click();
    await page.getByTestId("dup-rebuild-done").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("dup-rebuild-done").textContent()).toContain("查重索引已重建");
    await expect
      .poll(async () => Number(await page.getByTestId("dup-stat-indexed").locator(".ant-statistic-content-value").textContent()))
      .toBeGreaterThan(10);
    expect(await page.getByTestId("dup-benchmark").textContent()).toMatch(/尚未记录|作品数/);
    await page.close();
  });

  it("the reviewer sees the planted copy flagged on the review sheet and opens the side by side view", async () => {
    const page: Page = await login(e, "reviewer");
    await page.goto(`${e.base}/reviewer/reviewDetail/${copy}`);
    const panel = page.getByTestId("dup-sheet");
    await panel.getByTestId("dup-sheet-flag").waitFor();
    expect(await panel.getByTestId("dup-sheet-flag").textContent()).toContain("疑似重复");
    const match = panel.getByTestId(`dup-sheet-match-${original.id}`);
    await match.waitFor();
    expect(await match.textContent()).toContain(original.name);
    expect(await match.getByTestId("dup-level").getAttribute("data-level")).toBe("likely");

    await match.getByTestId("dup-sheet-compare").click();
    await page.waitForURL(`**/dup-check/compare/${copy}/${original.id}`);
    await page.getByTestId("dup-pair").waitFor();
    // Both texts in full, the shared passages marked in each.
    expect(await page.getByTestId("dup-side-a").getAttribute("data-redacted")).toBe("no");
    expect(await page.getByTestId("dup-side-b").getAttribute("data-redacted")).toBe("no");
    await expect.poll(() => page.getByTestId("dup-highlight-a").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId("dup-highlight-b").count()).toBeGreaterThan(0);
    const marked = (await page.getByTestId("dup-highlight-b").allTextContents()).join("");
    expect(marked).toContain("课程知识图谱刻画课程之间的先修关系");
    expect(await page.getByTestId("dup-side-b").textContent()).toContain(original.name);
    // The passages with their positions in both texts.
    const rows = page.getByTestId("dup-passages").locator("tbody tr.ant-table-row");
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    expect(await rows.first().textContent()).toMatch(/第 \d+–\d+ 字.*第 \d+–\d+ 字/);
    expect(Number((await page.getByTestId("dup-containment-ab").textContent())!.replace("%", ""))).toBeGreaterThan(60);
    await page.close();
  });

  it("root checks the copy by id and a pasted paragraph on /dup-check", async () => {
    const page = await login(e, "root");
    await page.goto(`${e.base}/dup-check`);
    await page.getByTestId("dup-work-id").fill(String(copy));
    await page.getByTestId("dup-work-check").click();
    await page.getByTestId("dup-work-result").waitFor();
    const row = page.getByTestId(`dup-match-${original.id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(original.name);
    expect(await page.getByTestId("dup-index-status").getAttribute("data-status")).toBe("indexed");

    await page.getByRole("tab", { name: "粘贴文本" }).click();
    await page.getByTestId("dup-text-input").fill(NOTES.slice(0, 120));
    await page.getByTestId("dup-text-check").click();
    const result = page.getByTestId("dup-text-result");
    await result.waitFor();
    await result.getByTestId(`dup-match-${original.id}`).getByTestId("dup-compare").click();
    await page.locator(".ant-drawer").getByTestId("dup-pair").waitFor();
    await expect.poll(() => page.locator(".ant-drawer").getByTestId("dup-highlight-a").count()).toBeGreaterThan(0);
    // A tiny text: no 0 %, a clear message.
    await page.keyboard.press("Escape");
    await page.getByTestId("dup-text-input").fill("你好");
    await page.getByTestId("dup-text-check").click();
    await page.getByTestId("dup-too-short").waitFor();
    expect(await page.getByTestId("dup-too-short").textContent()).toMatch(/过短|太短/);
    await page.close();
  });
});
