/**
 * The to-do centre (issue 15): GET /Backend/UserCenter/todo per role — an item appears when
 * something waits for the user, disappears once it is done, and never names another school's
 * or contest's work; the 指导老师自评 a work type requires at submit; the daily digest of new
 * items (sent once, only new items, not when switched off).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import type { TodoItem } from "../../src/shared/todo/schema";
import { DIGEST_TASK, sendDigests } from "../../src/server/todo/digest";
import { slotOf } from "../../src/server/jobs/queue";
import { loadPolicy } from "../../src/server/app";
import { account, catId, contestId, idOf, login, makeWork, setStage, W } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";

const TODO = "/Backend/UserCenter/todo";

async function todo(c: Client) {
  const r = await c.get(TODO);
  expect(r.status).toBe(200);
  return r.body.data as { items: TodoItem[]; badges: Record<string, number>; total: number };
}
const kinds = (items: TodoItem[], kind: TodoItem["kind"]) => items.filter((i) => i.kind === kind);

describe.each(DIALECTS)("to-do centre on %s", (dialect) => {
  let t: TestApp;
  let root: Client, sadmin: Client, teacher: Client;
  let zjut: number, zj: number, js: number, soft: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    [root, sadmin, teacher] = await Promise.all(["root", "school_admin", "teacher"].map((u) => login(t, u)));
    zjut = await contestId(t, "2026-ZJ-10337");
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    soft = await catId(t, "软件应用与开发");
  });
  afterAll(async () => t?.close());

  it("is for logged-in users only", async () => {
    expect((await new Client(t).get(TODO)).status).toBe(401);
  });

  it("co-author confirmation, teacher self-evaluation and school review: appear, go when done, stay in their school", async () => {
    const a = await account(t, "todo_a", "甲同学");
    const b = await account(t, "todo_b", "乙同学");
    const other = await account(t, "todo_x", "外校生", { school: "浙江大学" });
    const otherAdmin = await account(t, "todo_sa2", "外校管理员", { role: 2, school: "浙江大学" });
    // The work type asks for the teacher's self-evaluation (set on the work-type admin page).
    const flag = await root.req("PATCH", `/Backend/Admin/work-type/${soft}`, { teacherReviewRequired: true });
    expect(flag.body.data.teacherReviewRequired).toBe(true);
    const id = await makeWork(t, a, {
      contest: zjut,
      category: soft,
      name: "待办作品",
      coAuthors: [b],
      teachers: ["teacher"],
      confirm: false,
    });

    // The co-author has one item, linked to the work, answerable in place; nobody else does.
    const bItems = kinds((await todo(b)).items, "coauthor");
    expect(bItems).toMatchObject([{ key: `coauthor:${id}`, workId: id, link: `/author/work-management?work=${id}`, count: 1 }]);
    // Due when the work's contest's registration ends.
    const registrationEnd = (
      await t.db
        .selectFrom("contest_stage")
        .select("ends_at")
        .where("contest_id", "=", zjut)
        .where("stage", "=", "registration")
        .executeTakeFirstOrThrow()
    ).ends_at;
    expect(registrationEnd).toBeTruthy();
    expect(bItems[0].dueAt).toBe(registrationEnd);
    expect((await todo(b)).badges["/author/work-management"]).toBe(1);
    expect(kinds((await todo(a)).items, "coauthor")).toEqual([]);
    expect((await todo(other)).items).toEqual([]);
    expect((await b.post(`${W}/${id}/confirm`, {})).status).toBe(200);
    expect(kinds((await todo(b)).items, "coauthor")).toEqual([]);

    // The advising teacher is asked for the self-evaluation; submit names what is missing.
    expect(kinds((await todo(teacher)).items, "teacherReview").find((i) => i.key === `teacherReview:${id}`)).toMatchObject({
      link: `/teacher/WorkManagement?review=${id}`,
      menu: "/teacher/WorkManagement",
      dueAt: registrationEnd,
    });
    const refused = await a.post(`${W}/${id}/submit`, {});
    expect(refused.body).toMatchObject({ error: 400 });
    expect(refused.body.info).toContain("要求提交前填写指导老师自评");
    expect(refused.body.info).toContain("王老师");
    expect((await t.db.selectFrom("work").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("draft");
    const version = (await t.db.selectFrom("work").select("version").where("id", "=", id).executeTakeFirstOrThrow()).version;
    const wrote = await teacher.req("PATCH", `/Backend/Teacher/work/${id}/review`, {
      version,
      teacherReview: "团队分工明确，作品完成度高。",
    });
    expect(wrote.status).toBe(200);
    expect(kinds((await todo(teacher)).items, "teacherReview").find((i) => i.key === `teacherReview:${id}`)).toBeUndefined();
    // Without the flag the same work would not have asked.
    expect((await a.post(`${W}/${id}/submit`, {})).body).toMatchObject({ error: 0, data: { status: "submitted" } });

    // The school admin of the work's school: to review, then to recommend; another school's admin sees nothing.
    const s1 = kinds((await todo(sadmin)).items, "schoolReview");
    expect(s1.find((i) => i.key === `schoolReview:${zjut}:submitted`)).toMatchObject({
      link: "/school/WorkManagement?status=submitted",
    });
    const before = s1.find((i) => i.key === `schoolReview:${zjut}:submitted`)!.count;
    expect(kinds((await todo(otherAdmin)).items, "schoolReview")).toEqual([]);
    expect((await sadmin.post(`/Backend/School/work/${id}/approve`, {})).body.error).toBe(0);
    const s2 = kinds((await todo(sadmin)).items, "schoolReview");
    expect(s2.find((i) => i.key === `schoolReview:${zjut}:submitted`)?.count ?? 0).toBe(before - 1);
    expect(s2.find((i) => i.key === `schoolReview:${zjut}:school_approved`)!.count).toBeGreaterThanOrEqual(1);
    await root.req("PATCH", `/Backend/Admin/work-type/${soft}`, { teacherReviewRequired: false });
  });

  it("a work type without the flag does not ask for the self-evaluation", async () => {
    const a = await account(t, "todo_c", "丙同学");
    const b = await account(t, "todo_d", "丁同学");
    const id = await makeWork(t, a, { contest: zjut, category: soft, name: "无需自评", coAuthors: [b], teachers: ["teacher"] });
    expect(kinds((await todo(teacher)).items, "teacherReview").find((i) => i.key === `teacherReview:${id}`)).toBeUndefined();
    expect((await a.post(`${W}/${id}/submit`, {})).body.error).toBe(0);
  });

  it("format review is scoped by contest membership", async () => {
    const reviewer = await login(t, "reviewer");
    const jsReviewerId = await insertUser(t, { username: "todo_rev_js", name: "江苏审核", role: 3 });
    await joinContest(t, jsReviewerId, js, "reviewer");
    const jsReviewer = await login(t, "todo_rev_js");
    const before = kinds((await todo(reviewer)).items, "formatReview").find((i) => i.key === `formatReview:${zj}`)?.count ?? 0;
    const w = await insertWork(t, {
      contest: zj,
      school: "浙江工业大学",
      category: "软件应用与开发",
      status: "accepted",
      name: "待审作品",
    });
    await setStage(t, zj, "format_review", -1, 5);
    const item = kinds((await todo(reviewer)).items, "formatReview").find((i) => i.key === `formatReview:${zj}`)!;
    expect(item).toMatchObject({
      count: before + 1,
      link: `/ContestReviewer/Review/${zj}`,
      menu: "/ContestReviewer/SelectContest",
    });
    expect(item.dueAt).not.toBeNull();
    expect(kinds((await todo(jsReviewer)).items, "formatReview")).toEqual([]);
    expect((await reviewer.post(`/Backend/Review/work/${w}/format_pass`, {})).body.error).toBe(0);
    expect(kinds((await todo(reviewer)).items, "formatReview").find((i) => i.key === `formatReview:${zj}`)?.count ?? 0).toBe(
      before,
    );
  });

  it("a judge's unscored works carry the online judging's end; a judge of another contest sees none", async () => {
    const j = await makeJudge(t, "todo_judge", "待办评委", "浙江大学", zj);
    await makeJudge(t, "todo_judge_js", "江苏评委", "南京大学", js);
    const judge = await login(t, "todo_judge");
    const jsJudge = await login(t, "todo_judge_js");
    const w = await insertWork(t, {
      contest: zj,
      school: "浙江工业大学",
      category: "软件应用与开发",
      status: "format_passed",
      name: "待评作品",
    });
    await t.db
      .insertInto("judge_assignment")
      .values({ contest_id: zj, work_id: w, judge_id: j, group_id: null, created_at: new Date().toISOString(), created_by: null })
      .execute();
    await setStage(t, zj, "online_judging", -1, 3);
    const end = (
      await t.db
        .selectFrom("contest_stage")
        .select("ends_at")
        .where("contest_id", "=", zj)
        .where("stage", "=", "online_judging")
        .executeTakeFirstOrThrow()
    ).ends_at;
    const items = kinds((await todo(judge)).items, "judging");
    expect(items).toMatchObject([{ key: `judging:${zj}`, count: 1, dueAt: end, link: `/judge/Online/${zj}`, menu: "/judge" }]);
    expect((await todo(judge)).badges["/judge"]).toBe(1);
    expect(kinds((await todo(jsJudge)).items, "judging")).toEqual([]);
    const assignment = await t.db
      .selectFrom("judge_assignment")
      .select("id")
      .where("work_id", "=", w)
      .where("judge_id", "=", j)
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await t.db
      .insertInto("judge_score")
      .values({
        assignment_id: assignment.id,
        contest_id: zj,
        work_id: w,
        judge_id: j,
        total: 80,
        status: "submitted",
        submitted_at: now,
        reopened_at: null,
        reopened_by: null,
        reopen_reason: null,
        superseded_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect(kinds((await todo(judge)).items, "judging")).toEqual([]);
    // After the window's end nothing is asked any more.
    await t.db.deleteFrom("judge_score").where("assignment_id", "=", assignment.id).execute();
    expect(kinds((await todo(judge)).items, "judging")).toHaveLength(1);
    await setStage(t, zj, "online_judging", -5, -1);
    expect(kinds((await todo(judge)).items, "judging")).toEqual([]);
  });

  it("the first digest run records what is open and mails nobody", async () => {
    const fresh = await makeApp(dialect, { env: {} });
    try {
      // The app's start runs its own first digest in the background: let it end before starting afresh.
      await digestSlotDone(fresh);
      await fresh.db.deleteFrom("todo_digest_state").execute();
      const policy = await loadPolicy();
      const sent: unknown[] = [];
      expect(
        await sendDigests(
          fresh.db,
          policy,
          {
            async send(m) {
              sent.push(m);
            },
            describe: () => "test",
          },
          "http://x",
        ),
      ).toBe(0);
      expect(sent).toEqual([]);
      expect(
        Number(
          (
            await fresh.db
              .selectFrom("todo_digest_state")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });

  it("daily digest: only new items, once, not when switched off", async () => {
    const policy = await loadPolicy();
    const mailer = {
      sent: [] as { to: string; subject: string; text: string }[],
      async send(m: { to: string; subject: string; text: string }) {
        this.sent.push(m);
      },
      describe: () => "test",
    };
    // The app's own run of this slot must not interleave with the runs below.
    await digestSlotDone(t);
    // Bring every user's digest up to date (the app's start ran the first, recording-only run).
    await sendDigests(t.db, policy, mailer, "http://x");
    expect(await t.db.selectFrom("todo_digest_state").select("user_id").limit(1).executeTakeFirst()).toBeDefined();
    mailer.sent.length = 0;
    expect(await sendDigests(t.db, policy, mailer, "http://x")).toBe(0);

    const a = await account(t, "dig_a", "戊同学");
    const b = await account(t, "dig_b", "己同学");
    const c = await account(t, "dig_c", "庚同学");
    const w1 = await makeWork(t, a, {
      contest: zjut,
      category: soft,
      name: "摘要作品一",
      coAuthors: [b],
      confirm: false,
      files: false,
    });
    expect(await sendDigests(t.db, policy, mailer, "http://x")).toBe(1);
    expect(mailer.sent[0].to).toBe("dig_b@test.local");
    expect(mailer.sent[0].text).toContain("摘要作品一");
    expect(mailer.sent[0].text).toContain(`http://x/author/work-management?work=${w1}`);
    // Sent once: a second run has nothing new.
    expect(await sendDigests(t.db, policy, mailer, "http://x")).toBe(0);

    // A new item: the next digest names only it.
    const d = await account(t, "dig_d", "辛同学");
    await makeWork(t, d, {
      contest: zjut,
      category: await catId(t, "大数据应用"),
      name: "摘要作品二",
      coAuthors: [b],
      confirm: false,
      files: false,
    });
    mailer.sent.length = 0;
    expect(await sendDigests(t.db, policy, mailer, "http://x")).toBe(1);
    expect(mailer.sent[0].text).toContain("摘要作品二");
    expect(mailer.sent[0].text).not.toContain("摘要作品一");
    // The changed state was recorded: nothing the next time.
    expect(await sendDigests(t.db, policy, mailer, "http://x")).toBe(0);

    // Switched off on /account/security: nothing is sent.
    expect((await c.get("/Backend/UserCenter/digest")).body.data).toEqual({ todoDigest: true });
    expect((await c.req("PUT", "/Backend/UserCenter/digest", { todoDigest: false })).body).toMatchObject({
      error: 0,
      data: { todoDigest: false },
    });
    const e = await account(t, "dig_e", "壬同学");
    await makeWork(t, e, { contest: zjut, category: soft, name: "摘要作品三", coAuthors: [c], confirm: false, files: false });
    expect(kinds((await todo(c)).items, "coauthor")).toHaveLength(1);
    mailer.sent.length = 0;
    expect(await sendDigests(t.db, policy, mailer, "http://x")).toBe(0);
    expect(await idOf(t, "dig_c")).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)("to-do centre: complaints and judge invitations on %s", (dialect) => {
  let t: TestApp;
  let zj: number, js: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
  });
  afterAll(async () => t?.close());

  it("a complaint waits for whoever takes its next step, in the contests they handle", async () => {
    const reviewer = await login(t, "complaint_reviewer");
    const admin = await login(t, "complaint_admin");
    const other = await insertUser(t, { username: "todo_cr_js", name: "江苏申审", role: 5 });
    await t.db.updateTable("app_user").set({ has_complaint_right: 1 }).where("id", "=", other).execute();
    await t.db
      .insertInto("contest_member")
      .values({ contest_id: js, user_id: other, role: "complaint", created_at: new Date().toISOString() })
      .execute();
    const jsHandler = await login(t, "todo_cr_js");
    const c = await t.db
      .selectFrom("complaint")
      .select(["id", "version", "due_at"])
      .where("contest_id", "=", zj)
      .where("state", "=", "accepted")
      .executeTakeFirstOrThrow();

    const mine = kinds((await todo(reviewer)).items, "complaint");
    expect(mine.find((i) => i.key === `complaint:${c.id}:accepted`)).toMatchObject({
      dueAt: c.due_at,
      menu: "/ComplaintManagement",
    });
    // The opinion is the reviewer's step, not the admin's; another province's handler sees nothing.
    expect(kinds((await todo(admin)).items, "complaint").find((i) => i.key.startsWith(`complaint:${c.id}:`))).toBeUndefined();
    expect(kinds((await todo(jsHandler)).items, "complaint")).toEqual([]);

    // Done: the opinion moves it on, to the complaint admin.
    const r = await reviewer.post(`/Backend/ComplaintManagement/complaints/${c.id}/opinion`, {
      outcome: "rejected",
      action: "no_change",
      text: "<p>经核查，不成立。</p>",
      version: c.version,
    });
    expect(r.body.error, r.body.info).toBe(0);
    expect(kinds((await todo(reviewer)).items, "complaint").find((i) => i.key.startsWith(`complaint:${c.id}:`))).toBeUndefined();
    expect(kinds((await todo(admin)).items, "complaint").find((i) => i.key === `complaint:${c.id}:reviewed`)).toBeDefined();
  });

  it("an open judge invitation to the account's email, until it is answered or past its date", async () => {
    const judge = await login(t, "judge");
    const judge2 = await login(t, "judge2");
    const email = (await t.db.selectFrom("app_user").select("email").where("username", "=", "judge").executeTakeFirstOrThrow())
      .email!;
    const root = await idOf(t, "root");
    const now = new Date();
    const row = {
      contest_id: js,
      person_id: null,
      email,
      name: "李评审",
      categories: "[]",
      answer_by: new Date(now.getTime() + 3 * 86400_000).toISOString(),
      code_hash: "x".repeat(64),
      status: "sent" as const,
      status_reason: null,
      sent_at: now.toISOString(),
      opened_at: null,
      answered_at: null,
      reminded_at: null,
      accepted_user_id: null,
      invited_by: root,
      created_at: now.toISOString(),
    };
    await t.db.insertInto("judge_invitation").values(row).execute();
    const inv = await t.db.selectFrom("judge_invitation").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(kinds((await todo(judge)).items, "judgeInvite")).toMatchObject([
      { key: `judgeInvite:${inv.id}`, dueAt: row.answer_by, link: "/judgePool" },
    ]);
    expect(kinds((await todo(judge2)).items, "judgeInvite")).toEqual([]);
    await t.db
      .updateTable("judge_invitation")
      .set({ status: "declined", answered_at: now.toISOString() })
      .where("id", "=", inv.id)
      .execute();
    expect(kinds((await todo(judge)).items, "judgeInvite")).toEqual([]);
  });
});

/**
 * Waits until the app's scheduled digest has finished the current daily slot (it starts in the
 * background with the app), so that a test's own digest runs do not interleave with it.
 */
async function digestSlotDone(app: TestApp) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const slot = slotOf(Date.now(), 86400);
    const run = await app.db
      .selectFrom("task_run")
      .select("finished_at")
      .where("name", "=", DIGEST_TASK)
      .where("slot", "=", slot)
      .executeTakeFirst();
    if (run?.finished_at) return;
    if (Date.now() > deadline) throw new Error(`the app's digest for slot ${slot} did not finish within 20 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
