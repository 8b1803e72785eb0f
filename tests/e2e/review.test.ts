/**
 * Format review in a real browser: the demo reviewer sees the Zhejiang contest with its
 * progress, opens fast review, passes works with the keyboard (P and Enter) — the server's
 * status changes and the next work shows at once, its review sheet having been fetched
 * before the key was pressed — moves with J/K, reloads and resumes where it was (the
 * address and the position saved on the server), and returns a work with a reason code
 * chosen by its number key, a text and the default deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_REVIEW_WORKS } from "../../src/server/seed/review-demo";
import { login, zhejiangContestId, startE2E, type E2E } from "./harness";

describe("format review in a real browser", () => {
  let e: E2E;
  let page: Page;
  let zj: number;
  /** the demo works waiting for review, in work id order */
  let works: { id: number; name: string }[];
  /** every work of the contest's format review (other demo data has passed ones), by id */
  let all: number[];
  let reviewed0: number;
  const requests: string[] = [];

  const statusOf = async (id: number) =>
    e.db
      .selectFrom("work")
      .select(["status", "format_reasons", "return_reason", "format_deadline"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const shown = () => page.getByTestId("fast-work-name").textContent();
  const press = async (key: string) => {
    // The work card must be there before a key is a command.
    await page.getByTestId("fast-work").waitFor();
    await page.keyboard.press(key);
  };

  beforeAll(async () => {
    e = await startE2E();
    zj = await zhejiangContestId(e.db);
    works = (
      await e.db
        .selectFrom("work")
        .select(["id", "name"])
        .where("contest_id", "=", zj)
        .where("status", "=", "accepted")
        .orderBy("id")
        .execute()
    ).map((w) => ({ id: Number(w.id), name: w.name }));
    expect(works.map((w) => w.name)).toEqual(DEMO_REVIEW_WORKS.map((w) => w.name));
    page = await login(e, "reviewer");
    // The contest's whole format review (also works of its school contests), as the server lists it.
    const inReview = (await (await page.request.get(`${e.base}/Backend/Review/contest/${zj}/works?pageSize=500`)).json()).data
      .list as { id: number; status: string }[];
    all = inReview.map((w) => w.id);
    reviewed0 = inReview.filter((w) => w.status !== "accepted" && w.status !== "format_resubmitted").length;
    page.on("request", (r) => requests.push(r.url()));
  });
  afterAll(async () => e?.close());

  it("shows the reviewer's contest with its progress and starts fast review at the first work", async () => {
    await page.goto(e.base + "/ContestReviewer/SelectContest");
    const card = page.getByTestId(`review-contest-${zj}`);
    await card.waitFor();
    await expect.poll(() => card.getByTestId("review-progress").textContent()).toBe(`${reviewed0} / ${all.length}`);
    await card.getByTestId("fast-review").click();
    await page.waitForURL(`**/reviewer/fastReview/${zj}/startFrom/${works[0].id}`);
    await expect.poll(shown).toBe(works[0].name);
    // The keys are on screen.
    const keys = await page.getByTestId("fast-keys").textContent();
    for (const k of ["P/Enter 通过", "R 退回修改", "X 不符合要求", "J/→ 下一件", "K/← 上一件"]) expect(keys).toContain(k);
    // The position comes with the contest's order, which may arrive after the work itself.
    await expect
      .poll(() => page.getByTestId("fast-position").textContent())
      .toBe(`第 ${all.indexOf(works[0].id) + 1} / ${all.length} 件`);
  });

  it("passes works with P and Enter: the server's status changes and the preloaded next work shows", async () => {
    // The next work's sheet is fetched while the reviewer reads this one.
    await page.getByTestId("fast-next").getByText("已预加载").waitFor();
    const sheetUrl = (id: number) => requests.some((u) => u.endsWith(`/Backend/Review/work/${id}`));
    expect(sheetUrl(works[1].id)).toBe(true);
    const before = requests.length;

    await press("p");
    await expect.poll(shown).toBe(works[1].name);
    expect((await statusOf(works[0].id)).status).toBe("format_passed");
    await page.waitForURL(`**/startFrom/${works[1].id}`);
    // Shown from the cache: the sheet was not fetched again after the key.
    expect(requests.slice(before).filter((u) => u.endsWith(`/Backend/Review/work/${works[1].id}`))).toEqual([]);

    await press("Enter");
    await expect.poll(shown).toBe(works[2].name);
    expect((await statusOf(works[1].id)).status).toBe("format_passed");
    await expect.poll(() => page.getByTestId("fast-progress").textContent()).toContain(`已审 ${reviewed0 + 2} / ${all.length}`);
  });

  it("moves with J and K, and a reload resumes at the same work, saved on the server", async () => {
    // J: the next work of the filter (all states), here the next demo work.
    expect(all[all.indexOf(works[2].id) + 1]).toBe(works[3].id);
    await press("j");
    await expect.poll(shown).toBe(works[3].name);
    await press("k");
    await expect.poll(shown).toBe(works[2].name);
    await page.waitForURL(`**/startFrom/${works[2].id}`);
    // A reload of the page shows the same work.
    await page.reload();
    await expect.poll(shown).toBe(works[2].name);
    // The position is on the server: the contest list resumes there.
    await expect
      .poll(async () =>
        Number(
          (await e.db.selectFrom("review_position").select("work_id").where("contest_id", "=", zj).executeTakeFirst())?.work_id,
        ),
      )
      .toBe(works[2].id);
    await page.goto(e.base + "/ContestReviewer/SelectContest");
    const card = page.getByTestId(`review-contest-${zj}`);
    await expect.poll(() => card.getByTestId("review-progress").textContent()).toBe(`${reviewed0 + 2} / ${all.length}`);
    await card.getByTestId("fast-review").click();
    await page.waitForURL(`**/startFrom/${works[2].id}`);
    await expect.poll(shown).toBe(works[2].name);
  });

  it("returns a work with R: a reason code by its number key, a text, the default deadline", async () => {
    await press("r");
    const modal = page.getByTestId("outcome-modal");
    await modal.waitFor();
    // Submitting without a reason code or text is refused in the form, nothing sent.
    await page.keyboard.press("Control+Enter");
    await modal.getByText("请至少选择一个问题类型").waitFor();
    expect((await statusOf(works[2].id)).status).toBe("accepted");
    // 1 = 材料缺失 (the focus starts on the reason codes).
    await modal.locator("input[type=checkbox]").first().focus();
    await page.keyboard.press("1");
    await page.keyboard.press("1");
    await page.keyboard.press("2");
    await page.getByTestId("outcome-reason").fill("请上传可以播放的作品演示视频");
    await page.keyboard.press("Control+Enter");
    await expect.poll(shown).toBe(works[3].name);
    const w = await statusOf(works[2].id);
    expect(w).toMatchObject({ status: "format_returned", return_reason: "请上传可以播放的作品演示视频" });
    expect(JSON.parse(w.format_reasons!)).toEqual(["video_unplayable"]);
    // Seven days ahead, at the end of the day.
    const days = (Date.parse(w.format_deadline!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6);
    expect(days).toBeLessThan(8);
  });

  it("lists the decisions on the review list and opens a review sheet with its checklist", async () => {
    await page.goto(e.base + `/ContestReviewer/Review/${zj}?status=returned`);
    const rows = page.getByTestId("review-table").locator("tr.ant-table-row");
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.first().textContent()).toContain(works[2].name);
    await expect.poll(() => rows.first().getByTestId("work-status").textContent()).toBe("形式审查退回修改");
    await rows.first().getByTestId("review-sheet-link").click();
    await page.getByTestId("review-detail").waitFor();
    await expect.poll(() => page.getByTestId("sheet-decision").textContent()).toContain("视频无法播放");
    // The checklist names the category's required attachments (none uploaded in this demo).
    const video = page.getByTestId("check-file:video");
    expect(await video.getAttribute("data-ok")).toBe("no");
    await expect.poll(() => video.textContent()).toContain("作品演示视频");
  });
});
