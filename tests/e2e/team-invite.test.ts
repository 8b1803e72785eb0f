/**
 * In a real browser: a student invites a co-author who has no account by email from the
 * work's team editor; the mail (caught in the outbox, as account.test.ts does) carries a
 * /workInvite/:code link; the invitee opens it, sees the work, the school and the role,
 * registers, lands on 我的作品 in the team still unconfirmed, and confirms. The invitation page is
 * part of the light login entry: the admin application downloads only once the account exists.
 * Screenshots of
 * the invitation page go to /tmp/saiwu-e2e-shots (TEAM_INVITE_SHOTS changes the folder).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOf, createDraft, login, startE2E, type E2E } from "./harness";

const STUDENT_LOGIN = "/account/StudentLogin";
const WORK_NAME = "E2E 邮件邀请合作者";
const SHOTS = process.env.TEAM_INVITE_SHOTS ?? "/tmp/saiwu-e2e-shots";
const INVITEE = {
  name: "程邀请",
  email: "cheng.invitee@example.com",
  username: "e2e_invitee",
  password: "Invite2026!x",
  memberNo: "202699000123",
};

describe("inviting a co-author by email in a real browser", () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => e?.close());

  it("the invitee registers from the mailed link, lands in the team unconfirmed and confirms", async () => {
    // The student: a draft in a 大类 where they have no work yet.
    const page = await login(e, "student", STUDENT_LOGIN);
    const workId = await createDraft(e, page, WORK_NAME);
    expect(workId).toBeGreaterThan(0);

    // Team editor → 邮件邀请: name and email.
    await page.goto(e.base + "/author/work-management");
    await page.getByTestId("my-works").getByText(WORK_NAME).first().click();
    const drawer = page.getByTestId("work-drawer");
    await drawer.getByRole("tab", { name: "团队成员" }).click();
    await drawer.getByTestId("team-author-invite").click();
    await page.getByTestId("team-author-invite-name").fill(INVITEE.name);
    await page.getByTestId("team-author-invite-email").fill(INVITEE.email);
    await answerOf(page, "POST", `/Backend/Work/work/${workId}/invitations`, () =>
      page.getByRole("button", { name: "发送邀请" }).click(),
    );
    // The invitation holds a place in the team until the invitee registers.
    await expect
      .poll(() => drawer.getByTestId("team-author-invites").textContent())
      .toContain(`${INVITEE.name}（${INVITEE.email}）`);
    await page.context().close();

    // The mail (the outbox's body text), with the link; the invitation is to the invitee's address.
    const mail = e.mailedTexts().find((t) => t.includes("/workInvite/"));
    expect(mail).toBeTruthy();
    expect(
      (await e.db.selectFrom("work_invitation").select("email").where("work_id", "=", workId).executeTakeFirstOrThrow()).email,
    ).toBe(INVITEE.email);
    expect(mail).toContain(WORK_NAME);
    const link = e
      .mailedLinks()
      .filter((l) => l.includes("/workInvite/"))
      .pop()!;
    expect(link).toBeTruthy();

    // The invitee, not logged in, opens the link: the work, the school, the role.
    const guest = await e.newPage();
    const loaded: string[] = [];
    guest.on("request", (r) => loaded.push(new URL(r.url()).pathname));
    const adminBundle = () => loaded.filter((p) => p.includes("admin-main") || p.includes("access-control"));
    await guest.goto(link.replace(/^https?:\/\/[^/]+/, e.base));
    const card = guest.getByTestId("team-invite");
    await card.waitFor();
    const shown = (await card.textContent()) ?? "";
    expect(shown).toContain(`《${WORK_NAME}》`);
    expect(shown).toContain("浙江工业大学");
    expect(shown).toContain("合作作者");
    expect(shown).toContain("北京时间");
    await guest.screenshot({ path: join(SHOTS, "team-invite-open.png"), fullPage: true });

    const form = guest.getByTestId("team-invite-register");
    expect(await form.getByLabel("姓名").inputValue()).toBe(INVITEE.name);
    await form.getByLabel("学号").fill(INVITEE.memberNo);
    await form.getByLabel("用户名").fill(INVITEE.username);
    await form.getByLabel("密码", { exact: true }).fill(INVITEE.password);
    await form.getByLabel("确认密码").fill(INVITEE.password);
    await guest.screenshot({ path: join(SHOTS, "team-invite-filled.png"), fullPage: true });
    expect(adminBundle()).toEqual([]);
    await guest.getByTestId("team-invite-submit").click();

    // Registered and signed in: on 我的作品, in the team, not yet confirmed.
    await guest.waitForURL((u) => u.pathname === "/author/work-management");
    expect(adminBundle().length).toBeGreaterThan(0);
    // 待我确认的作品: the work, with 确认参赛.
    const pending = guest.getByTestId("invitations");
    await pending.getByText(WORK_NAME).first().waitFor();
    const user = await e.db
      .selectFrom("app_user")
      .select(["id", "email", "school_id"])
      .where("username", "=", INVITEE.username)
      .executeTakeFirstOrThrow();
    expect(user.email).toBe(INVITEE.email);
    const membership = () =>
      e.db
        .selectFrom("work_author")
        .select(["confirmed", "rank"])
        .where("work_id", "=", workId)
        .where("user_id", "=", user.id)
        .executeTakeFirst();
    expect(Number((await membership())!.confirmed)).toBe(0);
    await guest.screenshot({ path: join(SHOTS, "team-invite-landed.png"), fullPage: true });

    // Confirms: the work moves to 我的作品, confirmed.
    await answerOf(guest, "POST", `/Backend/Work/work/${workId}/confirm`, () =>
      pending.getByTestId("invite-confirm").first().click(),
    );
    await guest.getByTestId("my-works").getByText(WORK_NAME).first().waitFor();
    expect(Number((await membership())!.confirmed)).toBe(1);

    // The link is used up.
    const again = await e.newPage();
    await again.goto(link.replace(/^https?:\/\/[^/]+/, e.base));
    await again.getByTestId("team-invite-used").waitFor();
    await again.screenshot({ path: join(SHOTS, "team-invite-used.png"), fullPage: true });
    await again.context().close();
    await guest.context().close();
  });
});
