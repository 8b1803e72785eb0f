/**
 * The national round in a real browser (issue 14): the demo national contest admin sees the
 * works the published Zhejiang result promoted in 晋级作品（各省）, opens the national
 * contest's format review from there and passes the first entry with the keyboard — the
 * entry's format review changes, the provincial work stays as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { seedComplaintsDemo } from "../../src/server/db/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/db/seed/results-demo";
import { login, startE2E, type E2E } from "./harness";

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
    cn = (await e.db.selectFrom("contest").select("id").where("level", "=", "national").orderBy("year", "desc").executeTakeFirstOrThrow()).id;
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
    const entry = () => e.db.selectFrom("national_entry").select("format_status").where("work_id", "=", first.work_id).where("contest_id", "=", cn).executeTakeFirstOrThrow();
    await expect.poll(async () => (await entry()).format_status).toBe("passed");
    // The provincial record is unchanged.
    expect((await e.db.selectFrom("work").select("status").where("id", "=", first.work_id).executeTakeFirstOrThrow()).status).toBe(first.status);
    // Back on the results page the entry shows as passed.
    await page.goto(`${e.base}/ContestAdmin/ContestResult?contestId=${cn}`);
    await expect.poll(() => page.getByTestId("national-incoming").textContent()).toContain("形式审查通过");
  });
});
