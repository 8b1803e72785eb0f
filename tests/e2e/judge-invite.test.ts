/**
 * Judge invitations in a real browser, on the demo's Zhejiang provincial contest and the pool
 * demo. The contest admin finds a pool judge on /judgePool, selects her and invites her and a
 * new email for 大数据应用 (the contest chosen in the dialog), sees the conflict check's table
 * before sending, and sends; the new person opens the mailed link, creates a judge account
 * from it, declares a conflict with a work and accepts; the admin's 「评委邀请」 tab shows the
 * acceptance and the coverage; the new judge sees the accepted invitation on /judgePool
 * (「我的邀请」), and the used link says it was used.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { login, startE2E, zhejiangContestId, type E2E } from "./harness";
import { seedJudgePoolDemo } from "../../src/server/seed/judge-pool-demo";

const NEW_EMAIL = "sun.xinren@example.com";
/** 周晓梅 of the pool demo (entered by contest_admin, no account). */
const POOL_NAME = "周晓梅";
const POOL_EMAIL = "zhouxm@zjnu.example.edu.cn";

describe("judge invitations in a real browser", () => {
  let e: E2E;
  let zj: number;
  let big: number;
  let admin: Page;
  let link: string;
  let conflictWork: number;
  const coverage = async (page: Page) => (await page.getByTestId(`coverage-${big}`).textContent())!.trim();

  beforeAll(async () => {
    e = await startE2E();
    zj = await zhejiangContestId(e.db);
    big = (
      await e.db
        .selectFrom("work_category")
        .select("id")
        .where("name", "=", "大数据应用")
        .where("parent_id", "is", null)
        .executeTakeFirstOrThrow()
    ).id;
    expect(await seedJudgePoolDemo(e.db)).toBe(true);
    conflictWork = Number(
      (
        await e.db
          .selectFrom("work")
          .select("id")
          .where("category_id", "=", big)
          .where("status", "=", "format_passed")
          .orderBy("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
    admin = await login(e, "contest_admin");
  });
  afterAll(async () => e?.close());

  let judgesBefore: number;
  const invitationsTab = async () => {
    await admin.getByRole("tab", { name: "评委邀请" }).click();
    await admin.waitForURL(`**/judgePool?contestId=${zj}`);
    await admin.getByTestId("invite-dashboard").getByText("大数据应用").waitFor();
  };
  it("the admin selects a pool judge, checks conflicts and sends invitations to her and a new email", async () => {
    await admin.goto(e.base + "/judgePool");
    await invitationsTab();
    judgesBefore = Number((await coverage(admin)).split("/")[0]);

    await admin.getByRole("tab", { name: "评委库" }).click();
    await admin.getByTestId("pool-search").fill(POOL_NAME);
    await admin.getByTestId("pool-search").press("Enter");
    const row = admin.getByTestId("pool-table").locator("tr.ant-table-row", { hasText: POOL_NAME });
    await expect.poll(() => admin.getByTestId("pool-table").locator("tr.ant-table-row").count()).toBe(1);
    await row.locator(".ant-checkbox-input").check();
    await admin.getByTestId("invite-open").click();
    const dialog = admin.getByTestId("invite-dialog");
    await dialog.waitFor();
    await expect.poll(() => dialog.textContent()).toContain("评委库中选定的人员（1 人）");
    await expect.poll(() => dialog.getByTestId("invite-picked").textContent()).toContain(POOL_NAME);
    // The contest is chosen in the dialog: the admin's provincial contest by default.
    await expect.poll(() => dialog.getByTestId("invite-contest").textContent()).toContain("浙江省级赛");
    await dialog.getByTestId("invite-add-person").click();
    await dialog.getByTestId("invite-new-name").first().fill("孙新人");
    await dialog.getByTestId("invite-new-email").first().fill(NEW_EMAIL);
    await dialog.getByTestId("invite-categories").click();
    await admin.locator(".ant-select-tree-title", { hasText: /^大数据应用$/ }).click();
    // Close the tree's dropdown.
    await dialog.locator(".ant-modal-title").click();
    await dialog.getByTestId("invite-message-input").fill("诚邀您担任省赛网评评委，网评时间 7 月 1 日至 10 日。");
    // Sending needs the check first.
    await expect.poll(() => dialog.getByTestId("invite-send").isDisabled()).toBe(true);
    await dialog.getByTestId("invite-run-check").click();
    const table = dialog.getByTestId("invite-check-table");
    await table.waitFor();
    await expect.poll(() => table.textContent()).toContain("孙新人");
    await expect.poll(() => table.textContent()).toContain(POOL_NAME);
    await expect
      .poll(() => dialog.getByTestId("invite-check-after").textContent())
      .toMatch(/每件作品均可得到 3 位无回避评委|件作品不足 3 位/);
    await dialog.getByTestId("invite-send").click();
    await expect.poll(() => dialog.getByTestId("invite-sent").textContent()).toContain("已发出 2 份邀请");
    await admin.getByRole("button", { name: /完\s*成/ }).click();
    await invitationsTab();
    await expect.poll(() => admin.getByTestId("invite-list").textContent()).toContain(NEW_EMAIL);
    // The pool judge's invitation is linked to her pool record.
    const pool = await e.db
      .selectFrom("judge_invitation")
      .innerJoin("judge_person", "judge_person.id", "judge_invitation.person_id")
      .select("judge_person.name")
      .where("judge_invitation.email", "=", POOL_EMAIL)
      .executeTakeFirstOrThrow();
    expect(pool.name).toBe(POOL_NAME);
  });

  it("the new person opens the mailed link, creates the account, declares a conflict and accepts", async () => {
    const mail = e
      .mailedTexts()
      .filter((t) => t.includes("孙新人"))
      .pop()!;
    link = /https?:\/\/\S+\/inviteJudge\/[A-Za-z0-9_-]+/.exec(mail)![0];
    const p = await e.newPage();
    await p.goto(link);
    await p.getByTestId("invite-page").waitFor();
    await expect.poll(() => p.getByTestId("invite-message").textContent()).toContain("网评时间 7 月 1 日至 10 日");
    const reg = p.getByTestId("invite-register");
    await reg.getByLabel("用户名").fill("sunxinren");
    await reg.getByLabel("密码", { exact: true }).fill("Judge2026ok");
    await reg.getByLabel("确认密码").fill("Judge2026ok");
    await p.getByTestId("invite-register-submit").click();

    const form = p.getByTestId("accept-form");
    await form.waitFor();
    await form.getByText("其他单位（企业、研究机构等）").click();
    await p.getByTestId("accept-school-name").fill("宁波某研究院");
    await p.getByTestId("accept-title").fill("研究员");
    await p.getByTestId("accept-conflict-works").click();
    await p.keyboard.type(String(conflictWork));
    await p.keyboard.press("Enter");
    await p.getByTestId("accept-conflict-note").fill("作者为亲属");
    await p.getByTestId("accept-submit").click();
    const done = p.getByTestId("invite-done");
    await done.waitFor();
    await expect.poll(() => done.textContent()).toContain("您已成为「");
    await expect.poll(() => done.textContent()).toContain("已记录您申报的 1 项回避");

    const user = await e.db
      .selectFrom("app_user")
      .select(["id", "user_type", "email_verified"])
      .where("username", "=", "sunxinren")
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ user_type: 4, email_verified: 1 });
    expect(
      await e.db
        .selectFrom("contest_member")
        .select("id")
        .where("contest_id", "=", zj)
        .where("user_id", "=", user.id)
        .where("role", "=", "judge")
        .executeTakeFirst(),
    ).toBeTruthy();
    expect(
      (await e.db.selectFrom("declared_conflict").select("target").where("judge_id", "=", user.id).execute()).map(
        (r) => r.target,
      ),
    ).toEqual([`w:${conflictWork}`]);

    // The judge sees the accepted invitation on /judgePool.
    await done.getByTestId("invite-to-pool").click();
    const mine = p.getByTestId("my-invitations");
    await mine.waitFor();
    await expect.poll(() => mine.textContent()).toContain("已接受");
    // The link is used: it says so and offers nothing to answer.
    await p.goto(link);
    await p.getByTestId("invite-used").waitFor();
    expect(await p.getByTestId("accept-form").count()).toBe(0);
    await p.context().close();
  });

  it("the admin's dashboard shows the acceptance and the coverage", async () => {
    await admin.reload();
    await invitationsTab();
    await expect.poll(async () => Number((await coverage(admin)).split("/")[0])).toBe(judgesBefore + 1);
    const totals = await admin.getByTestId("invite-totals").textContent();
    expect(totals).toContain("已接受1");
    expect(totals).toContain("已发出2");
    const row = admin.getByTestId("invite-list").locator("tr", { hasText: NEW_EMAIL });
    await expect.poll(() => row.textContent()).toContain("已接受");
    await expect.poll(() => row.textContent()).toContain("sunxinren");
  });
});
