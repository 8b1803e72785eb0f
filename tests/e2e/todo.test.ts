/**
 * The to-do centre in a real browser (issue 15): a co-author sees the request to confirm on
 * /index (with the badge on 我的作品 in the menu), confirms from there, and the item is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, startE2E, type E2E } from "./harness";

const STUDENT_LOGIN = "/account/StudentLogin";

describe("to-do centre in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it("a co-author sees the confirmation on /index and confirms from there", async () => {
    const contest = await e.db
      .selectFrom("contest")
      .select(["id", "categories"])
      .where("code", "=", "2026-ZJ-10337")
      .executeTakeFirstOrThrow();
    const users = await e.db
      .selectFrom("app_user")
      .select(["id", "username"])
      .where("username", "in", ["student", "student5"])
      .execute();
    const taken = new Set(
      (
        await e.db
          .selectFrom("work_author")
          .select("category_id")
          .where(
            "user_id",
            "in",
            users.map((u) => u.id),
          )
          .execute()
      ).map((r) => r.category_id),
    );
    const category = (JSON.parse(contest.categories) as number[]).map(Number).find((c) => !taken.has(c))!;
    expect(category).toBeTruthy();

    // The first author creates a draft naming student5 as co-author.
    const author = await login(e, "student", STUDENT_LOGIN);
    const created = await author.evaluate(
      async (body) => {
        const r = await fetch("/Backend/Work/work", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return r.json();
      },
      { contestId: contest.id, categoryId: category, name: "待办确认作品", coAuthors: ["student5"], teachers: [] },
    );
    expect(created.error, created.info).toBe(0);
    const workId = created.data.id as number;

    const page = await login(e, "student5", STUDENT_LOGIN);
    const card = page.getByTestId("todo-card");
    const item = card.locator(`[data-todo-key="coauthor:${workId}"]`);
    await item.waitFor();
    await expect.poll(() => item.textContent()).toContain("待办确认作品");
    // The same count badges 我的作品 in the menu.
    // (in the page though its group may be closed; antd may also keep a hidden popup copy, see SiderMenu.tsx)
    await page.locator('[data-menu-badge="/author/work-management"]').first().waitFor({ state: "attached" });
    expect(await item.getByTestId("todo-link").getAttribute("href")).toBe(`/author/work-management?work=${workId}`);

    await item.getByTestId("invite-confirm").click();
    await item.waitFor({ state: "detached" });
    const row = await e.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("work_author.confirmed")
      .where("work_author.work_id", "=", workId)
      .where("app_user.username", "=", "student5")
      .executeTakeFirstOrThrow();
    expect(Number(row.confirmed)).toBe(1);
    await author.context().close();
    await page.context().close();
  });
});
