/**
 * Judge groups in a real browser: two works of the demo reviewer's contest have passed
 * format review (人工智能应用, of 温州大学 and 浙江大学). The contest admin builds a
 * 人工智能应用组 on /ContestAdmin/Group, adds two judges from a searchable select, puts the
 * works in groups by category, and the automatic assignment of the group is refused with the
 * server's exact reason (the group has 2 judges, each work needs 3); with two more judges it
 * assigns every work 3 judges with 0 conflicts and shows the load per judge. A judge then
 * declares a conflict with an assigned work: the check report shows the conflict with its
 * reason, the admin removes the assignment from the page, and the group's assignment fills
 * the missing judge with someone else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { expectFocusStaysInDrawer, login, selectOption, startE2E, zhejiangContestId, type E2E } from "./harness";

const AI_WORKS = ["鞋类表面瑕疵智能检测系统", "面向视障人士的出行辅助应用"];

describe("judge groups and assignment in a real browser", () => {
  let e: E2E;
  let page: Page;
  let zj: number;
  let works: { id: number; school_id: number }[];
  let groupId: number;

  const assignments = async () =>
    e.db
      .selectFrom("judge_assignment")
      .innerJoin("app_user", "app_user.id", "judge_assignment.judge_id")
      .select([
        "judge_assignment.id",
        "judge_assignment.work_id",
        "judge_assignment.judge_id",
        "app_user.username",
        "app_user.school_id",
      ])
      .where(
        "judge_assignment.work_id",
        "in",
        works.map((w) => w.id),
      )
      .orderBy("judge_assignment.id")
      .execute();
  const openGroup = async () => {
    await page.getByTestId("groups-table").locator("tr", { hasText: "人工智能应用组" }).getByTestId("group-open").click();
    await page.getByTestId("group-drawer").waitFor();
  };
  const closeDrawer = async () => {
    await page.locator(".ant-drawer-close").click();
    await page.getByTestId("group-drawer").waitFor({ state: "hidden" });
  };

  beforeAll(async () => {
    e = await startE2E();
    zj = await zhejiangContestId(e.db);
    // The reviewer has passed these two (format review has its own browser test).
    await e.db.updateTable("work").set({ status: "format_passed" }).where("name", "in", AI_WORKS).execute();
    works = (await e.db.selectFrom("work").select(["id", "school_id"]).where("name", "in", AI_WORKS).orderBy("id").execute()).map(
      (w) => ({ id: Number(w.id), school_id: w.school_id }),
    );
    expect(works).toHaveLength(2);
    page = await login(e, "contest_admin");
  });
  afterAll(async () => e?.close());

  it("builds a group for 人工智能应用 and adds judges from the contest's judges", async () => {
    await page.goto(e.base + "/ContestAdmin/Group");
    await page.getByTestId("groups-table").waitFor();
    await page.waitForURL(`**/ContestAdmin/Group?contestId=${zj}`);
    await page.getByTestId("group-create").click();
    await page.getByTestId("group-category").click();
    await selectOption(page, "人工智能应用").click();
    // The name follows the scope until the admin types one.
    await expect.poll(() => page.getByTestId("group-name").inputValue()).toBe("人工智能应用组");
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /保\s*存/ })
      .click();
    // The new group opens in its drawer, which keeps the focus once the form has closed (a
    // select opened in the drawer must not lose it to 新建评审组 and close).
    await page.getByTestId("group-drawer").waitFor();
    await expectFocusStaysInDrawer(page);
    groupId = (
      await e.db
        .selectFrom("judge_group")
        .select("id")
        .where("contest_id", "=", zj)
        .where("name", "=", "人工智能应用组")
        .executeTakeFirstOrThrow()
    ).id;
    const select = page.getByTestId("add-judges-select");
    await select.click();
    for (const u of ["judge2", "judge3"]) {
      await page.keyboard.type(u);
      await selectOption(page, `（${u}）`).click();
    }
    await page.getByTestId("add-judges").click();
    await expect.poll(() => page.getByTestId("group-judges").locator("tr.ant-table-row").count()).toBe(2);
    await expect.poll(() => page.getByTestId("group-judges").textContent()).toContain("浙江工业大学");
    await closeDrawer();
  });

  it("puts the works in groups by category; with two judges the group's assignment is refused with the exact reason", async () => {
    await page.getByTestId("auto-group").click();
    await expect
      .poll(
        async () =>
          (await e.db.selectFrom("judge_group_work").select("work_id").where("group_id", "=", groupId).execute()).length,
      )
      .toBe(2);
    await expect
      .poll(() => page.getByTestId("groups-table").locator("tr", { hasText: "人工智能应用组" }).textContent())
      .toContain("陈评审");
    await openGroup();
    await page.getByTestId("group-auto-assign").click();
    await page.getByTestId("auto-assign-run").click();
    const refused = page.getByTestId("auto-assign-refused");
    await refused.waitFor();
    const text = await refused.textContent();
    expect(text).toContain("无法为全部作品分配足够的评委，未写入任何分配");
    expect(text).toContain(
      `评审组“人工智能应用组”只有 2 位评委，每件作品需要 3 位（涉及作品 ${works.map((w) => w.id).join("、")}）`,
    );
    expect(await assignments()).toEqual([]);
    await page.locator(".ant-modal-close").click();
  });

  it("with two more judges assigns every work 3 judges, 0 conflicts, and shows each judge's load", async () => {
    await page.getByTestId("group-drawer").getByRole("tab", { name: /评委/ }).click();
    await page.getByTestId("add-judges-select").click();
    for (const u of ["judge4", "judge5"]) {
      await page.keyboard.type(u);
      await selectOption(page, `（${u}）`).click();
    }
    await page.getByTestId("add-judges").click();
    await expect.poll(() => page.getByTestId("group-judges").locator("tr.ant-table-row").count()).toBe(4);
    await page.getByTestId("group-auto-assign").click();
    await page.getByTestId("auto-assign-run").click();
    const result = page.getByTestId("auto-assign-result");
    await result.waitFor();
    await expect.poll(() => result.textContent()).toContain("已分配 6 条，每件作品均有足够评委");
    await expect.poll(() => page.getByTestId("auto-assign-conflicts").textContent()).toContain("0");
    const loads = await page.getByTestId("auto-assign-loads").textContent();
    for (const name of ["陈评审", "刘评审", "张评审", "何评审"]) expect(loads).toContain(name);
    // On the server: 3 judges per work, none of the work's school.
    const rows = await assignments();
    expect(rows).toHaveLength(6);
    for (const w of works) {
      const mine = rows.filter((r) => Number(r.work_id) === w.id);
      expect(mine).toHaveLength(3);
      expect(mine.filter((r) => r.school_id === w.school_id)).toEqual([]);
    }
    await page.locator(".ant-modal-close").click();
    await closeDrawer();
  });

  it("shows the check report; a declared conflict is listed with its reason, removed from the page and refilled", async () => {
    // A judge declares a conflict with a work already assigned to them.
    const victim = (await assignments())[0];
    const judgePage = await login(e, victim.username);
    const declared = await judgePage.request.post(`${e.base}/Backend/Judging/conflicts`, {
      data: { workId: Number(victim.work_id), note: "与作者是亲属" },
      headers: { origin: e.base },
    });
    expect(declared.status()).toBeLessThan(300);
    await judgePage.context().close();

    await page.goto(e.base + `/contest-admin/check-group-setting?contestId=${zj}`);
    await page.getByTestId("check-report").waitFor();
    await expect.poll(() => page.getByTestId("check-conflicts").textContent()).toContain("1");
    const conflict = page.getByTestId("check-conflict-list").locator("tr.ant-table-row");
    await expect.poll(() => conflict.count()).toBe(1);
    await expect.poll(() => conflict.textContent()).toContain("申报回避");
    await expect.poll(() => conflict.textContent()).toContain(String(victim.work_id));
    // Loads per judge and per group are listed.
    await expect.poll(() => page.getByTestId("check-judge-loads").textContent()).toContain("陈评审");
    await expect.poll(() => page.getByTestId("check-group-loads").textContent()).toContain("人工智能应用组");

    await conflict.getByTestId("conflict-remove").click();
    await page
      .locator(".ant-popconfirm")
      .getByRole("button", { name: /移\s*除/ })
      .click();
    await expect.poll(() => page.getByTestId("check-conflicts").textContent()).toContain("0");
    expect((await assignments()).some((r) => r.id === victim.id)).toBe(false);
    await expect.poll(() => page.getByTestId("check-short").textContent()).toContain(String(victim.work_id));

    // The group's assignment fills the gap with another judge.
    await page.goto(e.base + `/ContestAdmin/Group?contestId=${zj}`);
    await page.getByTestId("groups-table").waitFor();
    await openGroup();
    await page.getByTestId("group-auto-assign").click();
    await page.getByTestId("auto-assign-run").click();
    await page.getByTestId("auto-assign-result").waitFor();
    await expect.poll(() => page.getByTestId("auto-assign-result").textContent()).toContain("已分配 1 条");
    const now = (await assignments()).filter((r) => Number(r.work_id) === Number(victim.work_id));
    expect(now).toHaveLength(3);
    expect(now.map((r) => r.judge_id)).not.toContain(victim.judge_id);
  });
});
