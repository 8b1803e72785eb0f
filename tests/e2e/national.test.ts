/**
 * The national round in a real browser (issue 14): the demo national contest admin sees the
 * works the published Zhejiang result promoted in 晋级作品（各省）, opens the national
 * contest's format review from there and passes the first entry with the keyboard — the
 * entry's format review changes, the provincial work stays as it was. The works management
 * filtered by the national contest shows the entry's national state; the first author of an
 * entry the national review returned edits it in the work drawer — the entry's own values
 * change, the provincial work row does not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { answerOf, login, nationalContestId, startE2E, type E2E } from "./harness";

describe("national round in a real browser", () => {
  let e: E2E;
  let page: Page;
  let cn: number;
  let first: { work_id: number; name: string; status: string };

  beforeAll(async () => {
    e = await startE2E();
    // The demo as `npm start` seeds it: the Zhejiang result computed and published, promoting its awarded works.
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
    cn = await nationalContestId(e.db);
    const rows = await e.db
      .selectFrom("national_entry")
      .innerJoin("work", "work.id", "national_entry.work_id")
      .select(["national_entry.work_id", "work.name", "work.status"])
      .where("national_entry.contest_id", "=", cn)
      .where("national_entry.status", "=", "entered")
      .orderBy("national_entry.work_id")
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    first = { ...rows[0], work_id: Number(rows[0].work_id) };
    page = await login(e, "national_admin");
  });
  afterAll(async () => e?.close());

  it("sees the incoming works per province and format-reviews the first in fast review", async () => {
    await page.goto(`${e.base}/ContestAdmin/ContestResult?contestId=${cn}`);
    const panel = page.getByTestId("national-incoming");
    await panel.waitFor();
    await expect.poll(() => panel.textContent()).toContain("浙江省");
    expect(await panel.textContent()).toContain(first.name);
    await page.getByTestId("national-fast-review").click();
    await page.waitForURL(`**/reviewer/fastReview/${cn}/startFrom/${first.work_id}`);
    await expect.poll(() => page.getByTestId("fast-work-name").textContent()).toBe(first.name);
    await page.getByTestId("fast-work").waitFor();
    await page.keyboard.press("p");
    const entry = () =>
      e.db
        .selectFrom("national_entry")
        .select("format_status")
        .where("work_id", "=", first.work_id)
        .where("contest_id", "=", cn)
        .executeTakeFirstOrThrow();
    await expect.poll(async () => (await entry()).format_status).toBe("passed");
    // The provincial record is unchanged.
    expect(
      (await e.db.selectFrom("work").select("status").where("id", "=", first.work_id).executeTakeFirstOrThrow()).status,
    ).toBe(first.status);
    // Back on the results page the entry shows as passed.
    await page.goto(`${e.base}/ContestAdmin/ContestResult?contestId=${cn}`);
    await expect.poll(() => page.getByTestId("national-incoming").textContent()).toContain("形式审查通过");
  });

  it("works management filtered by the national contest shows the entry's national state", async () => {
    await page.goto(`${e.base}/WorkManagement?contestId=${cn}`);
    const row = page.getByTestId("work-table").locator("tr", { hasText: String(first.work_id) });
    await expect.poll(() => row.getByTestId("work-status").textContent()).toBe("国赛形式审查通过");
  });

  it("the first author edits an entry the national review returned; the provincial record stays", async () => {
    const second = (
      await e.db
        .selectFrom("national_entry")
        .select("work_id")
        .where("contest_id", "=", cn)
        .where("status", "=", "entered")
        .where("format_status", "=", "pending")
        .orderBy("work_id")
        .executeTakeFirstOrThrow()
    ).work_id;
    const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const r = await page.request.post(`${e.base}/Backend/Review/work/${second}/format_return`, {
      data: { reasonCodes: ["missing_material"], reason: "请按国赛要求补充作品简介", deadline },
      headers: { origin: e.base },
    });
    expect((await r.json()).error).toBe(0);
    const before = await e.db.selectFrom("work").selectAll().where("id", "=", Number(second)).executeTakeFirstOrThrow();
    const username = (
      await e.db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("app_user.username")
        .where("work_author.work_id", "=", second)
        .orderBy("rank")
        .executeTakeFirstOrThrow()
    ).username;
    const author = await login(e, username, "/account/StudentLogin");
    await author.goto(`${e.base}/author/work-management?work=${second}&tab=info`);
    const drawer = author.getByTestId("work-drawer");
    await drawer.getByText("国赛形式审查退回修改").first().waitFor();
    await drawer.getByText("国赛阶段按省赛推荐时的大类和组别参赛，不能修改").first().waitFor();
    await drawer.getByTestId("work-summary").fill("国赛版简介：补充了在三所高校课堂的试用效果。");
    await answerOf(author, "PATCH", `/Backend/Work/work/${second}`, () => drawer.getByTestId("work-save").click());
    const entry = await e.db
      .selectFrom("national_entry")
      .select("fields")
      .where("work_id", "=", second)
      .where("contest_id", "=", cn)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.fields!).summary).toBe("国赛版简介：补充了在三所高校课堂的试用效果。");
    expect(await e.db.selectFrom("work").selectAll().where("id", "=", Number(second)).executeTakeFirstOrThrow()).toEqual(before);
    await author.context().close();
  });
});
