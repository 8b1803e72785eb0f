/**
 * The to-do items of many users at once (issue 15, the daily digest at 50k users): the digest
 * computes a page of users with one set of queries per kind, through the same function as
 * GET /Backend/UserCenter/todo. Here: the batch gives every user exactly what the endpoint
 * gives them (all demo users, mixed roles, schools and contests, in one page and in small
 * pages); the digest mails exactly the users with new items, naming those items as the
 * endpoint shows them, and nothing of another school or contest; a defence session leaves
 * the to-do centre 7 days after it ended.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";
import type { TodoItem } from "../../src/shared/todo/schema";
import { digestMail, newSince, sendDigests } from "../../src/server/todo/digest";
import { todoItems, todoItemsOf } from "../../src/server/todo/items";
import { loadPolicy } from "../../src/server/app";
import type { Policy } from "../../src/shared/access";
import type { User } from "../../src/server/db/schema";
import { account, catId, contestId, idOf, login, makeWork, setStage } from "./works-fixtures";
import { insertUser, insertWork, makeJudge } from "./judging-fixtures";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";

const TODO = "/Backend/UserCenter/todo";
const URL = "http://x";

type Sent = { to: string; subject: string; text: string };
const catcher = () => ({
  sent: [] as Sent[],
  async send(m: Sent) {
    this.sent.push(m);
  },
  describe: () => "test",
});

describe.each(DIALECTS)("to-do items in batches and the digest on %s", (dialect) => {
  let t: TestApp;
  let policy: Policy;
  let zjut: number, zj: number, js: number, soft: number;
  const allUsers = async () => (await t.db.selectFrom("app_user").selectAll().orderBy("id").execute()) as User[];
  beforeAll(async () => {
    t = await makeApp(dialect);
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
    policy = await loadPolicy();
    zjut = await contestId(t, "2026-ZJ-10337");
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    soft = await catId(t, "软件应用与开发");
  });
  afterAll(async () => t?.close());

  it("a page of users gets, user by user, exactly the endpoint's items", async () => {
    // Items of several kinds and users: an unconfirmed co-author, a judge with unscored works.
    const a = await account(t, "bat_a", "批量甲");
    const b = await account(t, "bat_b", "批量乙");
    await makeWork(t, a, { contest: zjut, category: soft, name: "批量作品", coAuthors: [b], confirm: false, files: false });
    const j = await makeJudge(t, "bat_judge", "批量评委", "浙江大学", zj);
    const w = await insertWork(t, {
      contest: zj,
      school: "浙江工业大学",
      category: "软件应用与开发",
      status: "format_passed",
      name: "批量待评",
    });
    await t.db
      .insertInto("judge_assignment")
      .values({ contest_id: zj, work_id: w, judge_id: j, group_id: null, created_at: new Date().toISOString(), created_by: null })
      .execute();
    await setStage(t, zj, "online_judging", -1, 3);
    // Works waiting for two schools, each with its school admin.
    await account(t, "bat_sa_zju", "浙大校管", { role: 2, school: "浙江大学" });
    await insertWork(t, {
      contest: zj,
      school: "浙江大学",
      category: "软件应用与开发",
      status: "submitted",
      name: "浙大批量待审",
    });
    await insertWork(t, {
      contest: zj,
      school: "浙江工业大学",
      category: "软件应用与开发",
      status: "submitted",
      name: "工大批量待审",
    });

    const users = await allUsers();
    const now = new Date();
    const single = new Map<number, TodoItem[]>();
    for (const u of users) single.set(u.id, await todoItems(t.db, policy, u, now));
    const kinds = new Set([...single.values()].flat().map((i) => i.kind));
    // The data holds items of most kinds, for many users: the comparison means something.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(["coauthor", "complaint", "judging", "schoolReview"]));
    expect([...single.values()].filter((l) => l.length).length).toBeGreaterThan(5);

    // A school admin's counts are their own school's works, nothing else.
    for (const u of users.filter((x) => x.username === "school_admin" || x.username === "bat_sa_zju")) {
      const counted = single
        .get(u.id)!
        .filter((i) => i.kind === "schoolReview")
        .reduce((n, i) => n + i.count, 0);
      const own = await t.db
        .selectFrom("work")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("school_id", "=", u.school_id!)
        .where("status", "in", ["submitted", "school_approved"])
        .executeTakeFirstOrThrow();
      expect(counted, u.username).toBe(Number(own.n));
      expect(counted, u.username).toBeGreaterThan(0);
    }

    const whole = await todoItemsOf(t.db, policy, users, now);
    for (const u of users) expect(whole.get(u.id), u.username).toEqual(single.get(u.id));
    // Small pages mixing users of different roles, schools and contests.
    for (let i = 0; i < users.length; i += 7) {
      const page = await todoItemsOf(t.db, policy, users.slice(i, i + 7), now);
      for (const u of users.slice(i, i + 7)) expect(page.get(u.id), u.username).toEqual(single.get(u.id));
    }

    // And the endpoint answers the same for a few of them over HTTP.
    for (const name of ["bat_b", "bat_judge", "school_admin", "complaint_reviewer"]) {
      const u = users.find((x) => x.username === name)!;
      const r = await (await login(t, name)).get(TODO);
      expect(r.body.error).toBe(0);
      expect(r.body.data.items, name).toEqual(single.get(u.id));
    }
  });

  it("the digest mails exactly the users with new items, with the endpoint's items, and nothing across schools or contests", async () => {
    const catchAll = catcher();
    await sendDigests(t.db, policy, catchAll, URL);
    // Up to date: a second run has nothing new.
    catchAll.sent.length = 0;
    expect(await sendDigests(t.db, policy, catchAll, URL)).toBe(0);

    // New things: in 浙江工业大学 (contest 2026-ZJ-10337), in 浙江大学 (the same provincial contest tree), and a judge's assignment in 2026-ZJ.
    const a = await account(t, "dg_a", "摘要甲");
    const b = await account(t, "dg_b", "摘要乙");
    await account(t, "dg_idle", "无事同学");
    const x = await account(t, "dg_x", "外校甲", { school: "浙江大学" });
    const y = await account(t, "dg_y", "外校乙", { school: "浙江大学" });
    const zjuContest = (
      await t.db
        .selectFrom("contest")
        .select("id")
        .where("parent_id", "=", zj)
        .where("level", "=", "school")
        .where(
          "school_id",
          "=",
          (await t.db.selectFrom("school").select("id").where("name", "=", "浙江大学").executeTakeFirstOrThrow()).id,
        )
        .executeTakeFirst()
    )?.id;
    await makeWork(t, a, { contest: zjut, category: soft, name: "工大新作品", coAuthors: [b], confirm: false, files: false });
    if (zjuContest)
      await makeWork(t, x, {
        contest: zjuContest,
        category: soft,
        name: "浙大新作品",
        coAuthors: [y],
        confirm: false,
        files: false,
      });
    const j = await makeJudge(t, "dg_judge", "摘要评委", "南京大学", zj);
    const jsJudge = await makeJudge(t, "dg_judge_js", "江苏摘要评委", "浙江大学", js);
    const w = await insertWork(t, {
      contest: zj,
      school: "浙江工业大学",
      category: "软件应用与开发",
      status: "format_passed",
      name: "省赛待评新作",
    });
    await t.db
      .insertInto("judge_assignment")
      .values({ contest_id: zj, work_id: w, judge_id: j, group_id: null, created_at: new Date().toISOString(), created_by: null })
      .execute();
    await setStage(t, zj, "online_judging", -1, 3);
    // A work of 浙江大学 submitted to its school: its school admin's item, not 浙江工业大学's.
    await account(t, "dg_sa_zju", "浙大管理员", { role: 2, school: "浙江大学" });
    await insertWork(t, {
      contest: zjuContest ?? zj,
      school: "浙江大学",
      category: "软件应用与开发",
      status: "submitted",
      name: "浙大待审",
    });

    // Expected: per user, the endpoint's items that the recorded state has not seen.
    const now = new Date();
    const seen = new Map(
      (await t.db.selectFrom("todo_digest_state").select(["user_id", "seen"]).execute()).map((r) => [
        r.user_id,
        JSON.parse(r.seen) as Record<string, number>,
      ]),
    );
    const expected = new Map<string, string>();
    for (const u of await allUsers()) {
      if (!u.todo_digest || u.locked || u.archived || !u.email) continue;
      const fresh = newSince(await todoItems(t.db, policy, u, now), seen.get(u.id) ?? {});
      if (fresh.length) expected.set(u.email, digestMail(URL, u.name, fresh).text);
    }
    const mailer = catcher();
    // Small pages: users of different schools and roles share a page.
    const n = await sendDigests(t.db, policy, mailer, URL, now, { batch: 3 });
    expect(n).toBe(mailer.sent.length);
    const got = new Map(mailer.sent.map((m) => [m.to, m.text]));
    expect(mailer.sent.length).toBe(got.size);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [to, text] of expected) expect(got.get(to), to).toBe(text);

    // What that means for the people involved.
    const emails = new Map((await allUsers()).map((u) => [u.username, u.email!]));
    const mailOf = (username: string) => {
      expect(emails.get(username), username).toBeTruthy();
      return got.get(emails.get(username)!);
    };
    expect(mailOf("dg_b")).toContain("工大新作品");
    expect(mailOf("dg_b")).not.toContain("浙大新作品");
    if (zjuContest) {
      expect(mailOf("dg_y")).toContain("浙大新作品");
      expect(mailOf("dg_y")).not.toContain("工大新作品");
    }
    expect(mailOf("dg_a")).toBeUndefined();
    expect(mailOf("dg_idle")).toBeUndefined();
    expect(mailOf("dg_judge")).toContain("1 件作品待评分");
    expect(mailOf("dg_judge_js")).toBeUndefined();
    expect(await idOf(t, "dg_judge_js")).toBe(jsJudge);
    // The school admin of 浙江工业大学 is not told about 浙江大学's submitted work; 浙江大学's is.
    expect(mailOf("dg_sa_zju")).toContain("件作品待学校审核");
    expect(mailOf("school_admin")).toBeUndefined();

    // Once sent, nothing more.
    mailer.sent.length = 0;
    expect(await sendDigests(t.db, policy, mailer, URL, now, { batch: 3 })).toBe(0);
  });

  it("a defence session leaves the to-do centre 7 days after it ended", async () => {
    const judgeId = await insertUser(t, { username: "dfn_judge", name: "答辩评委", role: 4, school: "南京大学" });
    await t.db
      .insertInto("contest_member")
      .values({ contest_id: zj, user_id: judgeId, role: "judge", created_at: new Date().toISOString() })
      .execute();
    const other = await insertUser(t, { username: "dfn_other", name: "旁组评委", role: 4, school: "南京大学" });
    await t.db
      .insertInto("contest_member")
      .values({ contest_id: zj, user_id: other, role: "judge", created_at: new Date().toISOString() })
      .execute();
    const at = new Date().toISOString();
    const cat = await catId(t, "软件应用与开发");
    const g = await t.db
      .insertInto("judge_group")
      .values({
        contest_id: zj,
        name: "待办答辩组",
        category_id: cat,
        subcategory_id: null,
        group_type: null,
        leader_id: judgeId,
        note: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const DAY = 86400_000;
    // Three works of 60 minutes: the session ends 3 hours after its start.
    const start = Date.now() - 7 * DAY - 2 * 3600_000;
    const s = await t.db
      .insertInto("defence_session")
      .values({
        contest_id: zj,
        group_id: g.id,
        starts_at: new Date(start).toISOString(),
        place: "答辩厅",
        meeting_link: null,
        prepare_note: null,
        minutes_per_work: 60,
        draw_seed: null,
        drawn_at: null,
        drawn_by: null,
        signed_off_at: null,
        signed_off_by: null,
        sign_off_note: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const name of ["答辩作品一", "答辩作品二", "答辩作品三"]) {
      const w = await insertWork(t, {
        contest: zj,
        school: "浙江工业大学",
        category: "软件应用与开发",
        status: "format_passed",
        name,
      });
      await t.db
        .insertInto("defence_slot")
        .values({ session_id: s.id, work_id: w, position: null, slot_time: null, code: `C${w}`, created_at: at })
        .execute();
    }
    const judge = await login(t, "dfn_judge");
    const defenceItems = async (c: Awaited<ReturnType<typeof login>>) =>
      ((await c.get(TODO)).body.data.items as TodoItem[]).filter((i) => i.key === `defence:${s.id}`);
    // Started 7 days and 2 hours ago, ended 7 days minus 1 hour ago: still shown.
    expect(await defenceItems(judge)).toMatchObject([
      { kind: "defence", count: 3, title: "待办答辩组现场答辩（专家组长，评分后签署）", link: `/judge/Offline/${zj}` },
    ]);
    expect(await defenceItems(await login(t, "dfn_other"))).toEqual([]);
    // Ended more than 7 days ago: gone.
    await t.db
      .updateTable("defence_session")
      .set({ starts_at: new Date(Date.now() - 7 * DAY - 4 * 3600_000).toISOString() })
      .where("id", "=", s.id)
      .execute();
    expect(await defenceItems(judge)).toEqual([]);
    // A session that ended yesterday, and one without a date, are shown.
    await t.db
      .updateTable("defence_session")
      .set({ starts_at: new Date(Date.now() - DAY).toISOString() })
      .where("id", "=", s.id)
      .execute();
    expect(await defenceItems(judge)).toHaveLength(1);
    await t.db.updateTable("defence_session").set({ starts_at: null }).where("id", "=", s.id).execute();
    expect(await defenceItems(judge)).toHaveLength(1);
    // Signed off: gone, whatever the date.
    await t.db
      .updateTable("defence_session")
      .set({ starts_at: new Date(Date.now() - DAY).toISOString(), signed_off_at: at, signed_off_by: judgeId })
      .where("id", "=", s.id)
      .execute();
    expect(await defenceItems(judge)).toEqual([]);
  });
});
