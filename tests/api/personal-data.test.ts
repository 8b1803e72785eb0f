/**
 * Personal data (issue 28, 个人信息保护法): "download my data" for every signed-in person
 * (their own facts, no other person's contact data, audited, rate limited), and root's
 * retention period with the purge of closed contests' contact data, which keeps results,
 * certificates, the score log and the works byte for byte.
 */
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { idOf, login } from "./works-fixtures";
import { insertUser } from "./judging-fixtures";
import { publishedContest, type Fixture } from "./complaints-fixtures";
import { createBlobStore, type BlobStore } from "../../src/server/storage";
import { runRetention } from "../../src/server/retention/service";
import { MY_DATA_MAX, MY_DATA_PATH } from "../../src/server/my-data/routes";

const RETENTION = "/Backend/Admin/retention";
const DAY = 86400_000;
const iso = (daysFromNow: number) => new Date(Date.now() + daysFromNow * DAY).toISOString();

async function insertComplaint(
  t: TestApp,
  o: {
    contest: number;
    work: number;
    userId?: number | null;
    name: string;
    email: string | null;
    phone: string | null;
    text: string;
    open?: boolean;
  },
) {
  const at = iso(-1);
  const row = await t.db
    .insertInto("complaint")
    .values({
      contest_id: o.contest,
      work_id: o.work,
      type: "complaint",
      category: "plagiarism",
      state: o.open ? "submitted" : "closed",
      text: o.text,
      filer_user_id: o.userId ?? null,
      filer_name: o.name,
      filer_email: o.email,
      filer_phone: o.phone,
      open_key: o.open ? `test:${o.work}:${o.email}` : null,
      created_at: at,
      updated_at: at,
      state_at: at,
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The downloaded document, its text, and the reply. */
async function myData(c: Client) {
  const r = await c.get(MY_DATA_PATH);
  return { r, text: r.res.body, data: r.status === 200 ? JSON.parse(r.res.body) : null };
}

/** Every e-mail and phone of other people the database holds (users, pool persons, complaint filers). */
async function othersContacts(t: TestApp, me: number, own: (string | null)[]) {
  const users = await t.db.selectFrom("app_user").select(["email", "phone"]).where("id", "!=", me).execute();
  const persons = await t.db
    .selectFrom("judge_person")
    .select(["email", "phone"])
    .where((eb) => eb.or([eb("user_id", "is", null), eb("user_id", "!=", me)]))
    .execute();
  const filers = await t.db
    .selectFrom("complaint")
    .select(["filer_email as email", "filer_phone as phone"])
    .where((eb) => eb.or([eb("filer_user_id", "is", null), eb("filer_user_id", "!=", me)]))
    .execute();
  const mine = new Set(own.filter(Boolean).map((s) => s!.toLowerCase()));
  return [...users, ...persons, ...filers]
    .flatMap((r) => [r.email, r.phone])
    .filter((v): v is string => !!v && !mine.has(v.toLowerCase()));
}

describe.each(DIALECTS)("download my data (%s)", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    t = await makeApp(dialect);
    f = await publishedContest(t);
    // Recognisable contact data on everybody, so a leak would show.
    const users = await t.db.selectFrom("app_user").select("id").execute();
    for (const u of users)
      await t.db
        .updateTable("app_user")
        .set({ phone: `139${String(u.id).padStart(8, "0")}` })
        .where("id", "=", u.id)
        .execute();
  }, 120_000);
  afterAll(async () => t?.close());

  it("refuses anonymous visitors", async () => {
    const r = await new Client(t).get(MY_DATA_PATH);
    expect(r.status).toBe(401);
    expect(r.body.info).toMatch(/[\u4e00-\u9fa5]/);
  });

  it("gives a student their profile, works with team names and published awards, as an attachment; nobody else's contacts", async () => {
    const author = await t.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select(["app_user.id", "app_user.username", "app_user.email", "app_user.phone"])
      .where("work_author.work_id", "=", f.w[0])
      .where("work_author.rank", "=", 1)
      .executeTakeFirstOrThrow();
    const c = await login(t, author.username);
    const { r, text, data } = await myData(c);
    expect(r.status).toBe(200);
    expect(r.res.headers["content-type"]).toMatch(/application\/json/);
    expect(String(r.res.headers["content-disposition"])).toMatch(
      new RegExp(`attachment; filename="my-data-${author.username}-\\d{4}-\\d{2}-\\d{2}\\.json"`),
    );
    expect(data.profile).toMatchObject({ username: author.username, email: author.email, phone: author.phone });
    expect(data.profile.password_hash).toBeUndefined();
    expect(text).not.toMatch(/password|token_hash|\$argon|\$scrypt/i);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.sessions[0]).toHaveProperty("ip");
    const work = data.works.find((w: { id: number }) => w.id === f.w[0]);
    expect(work.myRole).toBe("第 1 作者");
    expect(work.authors).toHaveLength(2);
    expect(work.teachers).toHaveLength(1);
    expect(work.publishedResults.join()).toContain("一等奖");
    expect(data.certificates.some((x: { award: string }) => x.award.includes("一等奖"))).toBe(true);
    for (const v of await othersContacts(t, author.id, [author.email, author.phone])) expect(text).not.toContain(v);
    // The download is in the audit log.
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("entity", "=", "user")
      .where("entity_id", "=", String(author.id))
      .where("action", "=", "export")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].user_id).toBe(author.id);
  });

  it("gives a judge the scores they gave and their pool record, nothing of others", async () => {
    const judge = await t.db.selectFrom("app_user").selectAll().where("id", "=", f.J.jia).executeTakeFirstOrThrow();
    await t.db
      .updateTable("judge_score")
      .set({ comment: "甲评委的评语：结构清晰", items: '{"1": 30}' })
      .where("judge_id", "=", f.J.jia)
      .execute();
    const at = iso(0);
    await t.db
      .insertInto("judge_person")
      .values([
        { name: "甲评委", email: "jia.pool@pool.test", phone: "13700000001", user_id: f.J.jia, created_at: at, updated_at: at },
        { name: "别人", email: "other.pool@pool.test", phone: "13700000002", user_id: null, created_at: at, updated_at: at },
      ] as never)
      .execute();
    const c = await login(t, judge.username);
    const { r, text, data } = await myData(c);
    expect(r.status).toBe(200);
    expect(data.scoresGiven.online.map((s: { workId: number }) => s.workId).sort()).toEqual([f.w[0], f.w[1], f.w[3]].sort());
    expect(data.scoresGiven.online[0]).toMatchObject({ comment: "甲评委的评语：结构清晰", itemScores: { 1: 30 } });
    expect(data.contestRoles.map((m: { role: string }) => m.role)).toContain("judge");
    expect(data.judgePool.persons).toHaveLength(1);
    expect(data.judgePool.persons[0]).toMatchObject({ email: "jia.pool@pool.test", phone: "13700000001" });
    expect(text).not.toContain("other.pool@pool.test");
    for (const v of await othersContacts(t, judge.id, [judge.email, judge.phone, "jia.pool@pool.test", "13700000001"]))
      expect(text).not.toContain(v);
  });

  it("gives a visitor-complaint filer's account the complaints filed with its verified e-mail, and only those", async () => {
    const id = await insertUser(t, { username: "visitor_acc", name: "访客甲", role: 100, school: "浙江工业大学" });
    const email = "visitor_acc@test.local";
    await insertComplaint(t, {
      contest: f.js,
      work: f.w[2],
      name: "访客甲",
      email,
      phone: "13600000001",
      text: "<p>访客甲的投诉</p>",
    });
    await insertComplaint(t, {
      contest: f.js,
      work: f.w[3],
      name: "访客乙",
      email: "someone.else@visitor.test",
      phone: "13600000002",
      text: "<p>访客乙的投诉</p>",
    });
    const c = await login(t, "visitor_acc");
    const { text, data } = await myData(c);
    expect(data.complaints).toHaveLength(1);
    expect(data.complaints[0]).toMatchObject({ filedAs: "访客（邮箱）", workId: f.w[2], filer: { email, phone: "13600000001" } });
    expect(text).not.toContain("访客乙");
    expect(text).not.toContain("someone.else@visitor.test");
    // An unverified address claims nothing.
    await t.db.updateTable("app_user").set({ email_verified: 0 }).where("id", "=", id).execute();
    expect((await myData(c)).data.complaints).toHaveLength(0);
  });

  it("is rate limited per user", async () => {
    await insertUser(t, { username: "limit_me", name: "限流", role: 100, school: "浙江工业大学" });
    const c = await login(t, "limit_me");
    for (let i = 0; i < MY_DATA_MAX; i++) expect((await c.get(MY_DATA_PATH)).status).toBe(200);
    const refused = await c.get(MY_DATA_PATH);
    expect(refused.status).toBe(429);
    expect(refused.body.info).toMatch(/频繁/);
    // Another user is not affected.
    expect((await (await login(t, "student")).get(MY_DATA_PATH)).status).toBe(200);
  });
});

describe.each(DIALECTS)("retention purge (%s)", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  let store: BlobStore;
  beforeAll(async () => {
    t = await makeApp(dialect);
    f = await publishedContest(t);
    store = createBlobStore(t.config);
  }, 120_000);
  afterAll(async () => t?.close());

  it("only root sets the period; it is checked and audited", async () => {
    const cadmin = await login(t, "contest_admin");
    expect((await cadmin.get(RETENTION)).status).toBe(403);
    expect((await cadmin.req("PUT", RETENTION, { days: 30 })).status).toBe(403);
    const before = await f.root.get(RETENTION);
    expect(before.body.data).toEqual({ days: null, updatedAt: null, lastRunAt: null, lastReport: null });
    // Off: a run purges nothing and records nothing.
    expect(await runRetention({ db: t.db, store })).toBeNull();
    const bad = await f.root.req("PUT", RETENTION, { days: 0 });
    expect(bad.status).toBe(422);
    const set = await f.root.req("PUT", RETENTION, { days: 365 });
    expect(set.status).toBe(200);
    expect(set.body.data.days).toBe(365);
    expect((await f.root.get(RETENTION)).body.data.days).toBe(365);
    const audit = await t.db.selectFrom("audit_log").selectAll().where("entity", "=", "retention").execute();
    expect(audit.map((a) => a.action)).toEqual(["update"]);
  });

  it("purges the contact data of a contest closed before the period, keeps results, certificates, score log and works", async () => {
    const db = t.db;
    const js = f.js;
    // The Jiangsu contest closed 400 days ago; every other contest is still running.
    await db.deleteFrom("contest_stage").where("contest_id", "=", js).execute();
    await db
      .insertInto("contest_stage")
      .values({ contest_id: js, stage: "complaint", starts_at: iso(-420), ends_at: iso(-400) })
      .execute();
    await db
      .updateTable("contest_stage")
      .set({ ends_at: iso(30) })
      .where("contest_id", "!=", js)
      .execute();
    // A running contest: that of some other work.
    const other = await db
      .selectFrom("work")
      .select(["id", "contest_id"])
      .where("contest_id", "!=", js)
      .executeTakeFirstOrThrow();
    const zj = other.contest_id;
    const zjWork = other.id;

    // People of the old contest: the first author of w[0] (quiet), the second (logged in lately),
    // a judge who also judges the running Zhejiang contest.
    const authorOfFirst = async (rank: number) =>
      (
        await db
          .selectFrom("work_author")
          .select("user_id")
          .where("work_id", "=", f.w[0])
          .where("rank", "=", rank)
          .executeTakeFirstOrThrow()
      ).user_id;
    const [quiet, active] = [await authorOfFirst(1), await authorOfFirst(2)];
    await db
      .insertInto("user_activity")
      .values({ user_id: active, last_login_at: iso(-3) })
      .execute();
    await db
      .insertInto("contest_member")
      .values({ contest_id: zj, user_id: f.J.yi, role: "judge", created_at: iso(0) })
      .execute();
    const student = await idOf(t, "student");
    for (const id of [quiet, active, f.J.yi, student])
      await db
        .updateTable("app_user")
        .set({ phone: `135${String(id).padStart(8, "0")}` })
        .where("id", "=", id)
        .execute();
    // Old logins must not count: they are older than the period.
    await db
      .updateTable("user_activity")
      .set({ last_login_at: iso(-500) })
      .where("user_id", "in", [quiet, f.J.yi])
      .execute();

    // Complaints: closed ones in both contests with evidence, an open one in the old contest.
    const put = async (s: string) => (await store.put(Readable.from([Buffer.from(s)]))).sha256;
    const oldSha = await put("old evidence");
    const newSha = await put("recent evidence");
    const oldC = await insertComplaint(t, {
      contest: js,
      work: f.w[2],
      name: "访客",
      email: "old.visitor@v.test",
      phone: "13600000009",
      text: "旧投诉",
    });
    const openC = await insertComplaint(t, {
      contest: js,
      work: f.w[3],
      name: "访客丙",
      email: "open.visitor@v.test",
      phone: "13600000010",
      text: "未结投诉",
      open: true,
    });
    const newC = await insertComplaint(t, {
      contest: zj,
      work: zjWork,
      name: "访客丁",
      email: "new.visitor@v.test",
      phone: "13600000011",
      text: "新投诉",
    });
    const evidence = (complaint: number, sha: string) => ({
      complaint_id: complaint,
      owner_user_id: null,
      owner_email: "x@v.test",
      filename: "证据.pdf",
      size: 10,
      mime: "application/pdf",
      sha256: sha,
      uploaded_at: iso(-410),
    });
    await db
      .insertInto("complaint_evidence")
      .values([evidence(oldC, oldSha), evidence(newC, newSha)])
      .execute();
    await db
      .insertInto("complaint_visitor_code")
      .values([
        { email: "old.visitor@v.test", code_hash: "a".repeat(64), expires_at: iso(-400), created_at: iso(-400) },
        { email: "new.visitor@v.test", code_hash: "b".repeat(64), expires_at: iso(1), created_at: iso(0) },
      ] as never)
      .execute();

    // Judge pool: one invited only to the old contest, one also to Zhejiang.
    const person = async (name: string, email: string) =>
      (
        await db
          .insertInto("judge_person")
          .values({ name, email, phone: "13700000000", created_at: iso(0), updated_at: iso(0) } as never)
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const oldP = await person("旧评委", "old.judge@pool.test");
    const bothP = await person("新评委", "both.judge@pool.test");
    const rootId = await idOf(t, "root");
    const invite = (contest: number, personId: number, email: string) => ({
      contest_id: contest,
      person_id: personId,
      email,
      name: "评委",
      categories: "[]",
      answer_by: iso(-401),
      code_hash: `${contest}-${personId}`.padEnd(64, "0"),
      status: "declined" as const,
      sent_at: iso(-410),
      invited_by: rootId,
      created_at: iso(-410),
    });
    await db
      .insertInto("judge_invitation")
      .values([
        invite(js, oldP, "old.judge@pool.test"),
        invite(js, bothP, "both.judge@pool.test"),
        invite(zj, bothP, "both.judge@pool.test"),
      ] as never)
      .execute();

    const kept = async () => ({
      results: await db.selectFrom("contest_result").selectAll().orderBy("id").execute(),
      certificates: await db.selectFrom("certificate").selectAll().orderBy("id").execute(),
      scoreLog: await db.selectFrom("score_log").selectAll().orderBy("id").execute(),
      works: await db.selectFrom("work").selectAll().orderBy("id").execute(),
      authors: await db.selectFrom("work_author").selectAll().orderBy("id").execute(),
      scores: await db.selectFrom("judge_score").selectAll().orderBy("id").execute(),
    });
    const before = await kept();
    expect(before.results.length).toBeGreaterThan(0);
    expect(before.certificates.length).toBeGreaterThan(0);
    expect(before.scoreLog.length).toBeGreaterThan(0);
    const usersBefore = await db.selectFrom("app_user").select(["id", "email", "phone"]).orderBy("id").execute();

    const report = (await runRetention({ db, store }))!;

    const user = (id: number) =>
      db.selectFrom("app_user").select(["email", "phone", "email_verified"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(await user(quiet)).toMatchObject({ email: null, phone: null, email_verified: 0 });
    const a = await user(active);
    expect(a.phone).toBeNull();
    expect(a.email).not.toBeNull();
    const yi = await user(f.J.yi);
    expect(yi.phone).not.toBeNull();
    expect(yi.email).not.toBeNull();
    expect((await user(student)).phone).not.toBeNull();
    // Only people of the old contest changed, and the counts say how many.
    const usersAfter = await db.selectFrom("app_user").select(["id", "email", "phone"]).orderBy("id").execute();
    const changed = usersAfter.filter((u, i) => JSON.stringify(u) !== JSON.stringify(usersBefore[i]));
    expect(report.userPhones).toBe(usersAfter.filter((u, i) => u.phone === null && usersBefore[i].phone !== null).length);
    expect(report.userEmails).toBe(usersAfter.filter((u, i) => u.email === null && usersBefore[i].email !== null).length);
    const oldPeople = new Set(
      (
        await db
          .selectFrom("work_author")
          .select("user_id")
          .where("work_id", "in", f.w)
          .union(db.selectFrom("work_teacher").select("user_id").where("work_id", "in", f.w))
          .union(db.selectFrom("contest_member").select("user_id").where("contest_id", "=", js))
          .execute()
      ).map((r) => r.user_id),
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const u of changed) expect(oldPeople.has(u.id)).toBe(true);

    // Complaints and evidence.
    const complaint = (id: number) =>
      db
        .selectFrom("complaint")
        .select(["filer_email", "filer_phone", "filer_name", "text"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    expect(await complaint(oldC)).toEqual({ filer_email: null, filer_phone: null, filer_name: "访客", text: "旧投诉" });
    expect(await complaint(openC)).toMatchObject({ filer_email: "open.visitor@v.test", filer_phone: "13600000010" });
    expect(await complaint(newC)).toMatchObject({ filer_email: "new.visitor@v.test", filer_phone: "13600000011" });
    const ev = await db.selectFrom("complaint_evidence").select("complaint_id").execute();
    expect(ev.map((e) => e.complaint_id)).toEqual([newC]);
    expect(await store.has(oldSha)).toBe(false);
    expect(await store.has(newSha)).toBe(true);
    expect((await db.selectFrom("complaint_visitor_code").select("email").execute()).map((r) => r.email)).toEqual([
      "new.visitor@v.test",
    ]);
    // Judge pool.
    const p = (id: number) =>
      db.selectFrom("judge_person").select(["email", "phone", "name"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(await p(oldP)).toEqual({ email: null, phone: null, name: "旧评委" });
    expect(await p(bothP)).toEqual({ email: "both.judge@pool.test", phone: "13700000000", name: "新评委" });

    expect(report).toMatchObject({ contests: 1, complaintContacts: 1, evidence: 1, blobs: 1, visitorCodes: 1, judgePersons: 1 });
    // Results, certificates, the score log, works, authors and scores: unchanged, byte for byte.
    expect(JSON.stringify(await kept())).toBe(JSON.stringify(before));

    // Root sees the run; the audit log holds its counts.
    const view = (await f.root.get(RETENTION)).body.data;
    expect(view.lastRunAt).not.toBeNull();
    expect(view.lastReport).toEqual(report);
    const purge = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("entity", "=", "retention")
      .where("action", "=", "purge")
      .execute();
    expect(purge).toHaveLength(1);
    expect(JSON.parse(purge[0].changes).userPhones).toEqual([null, report.userPhones]);

    // A second run finds nothing more.
    const again = (await runRetention({ db, store }))!;
    expect(again).toMatchObject({
      contests: 1,
      userPhones: 0,
      userEmails: 0,
      complaintContacts: 0,
      evidence: 0,
      blobs: 0,
      visitorCodes: 0,
      judgePersons: 0,
    });
    expect(JSON.stringify(await kept())).toBe(JSON.stringify(before));
  });

  it("a log-in marks the account active (user_activity), beyond the session", async () => {
    const id = await insertUser(t, { username: "fresh_login", name: "新登录", role: 100, school: "浙江工业大学" });
    await login(t, "fresh_login");
    const row = await t.db
      .selectFrom("user_activity")
      .select("last_login_at")
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(row.last_login_at)).toBeLessThan(DAY);
  });
});
