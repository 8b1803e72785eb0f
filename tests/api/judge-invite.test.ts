/**
 * Judge invitations through the API, on the Jiangsu provincial contest run by its own contest
 * admin: the conflict check's numbers (school, province, feasibility before and after), the
 * links (single use, expiry, bound to the email: another account is refused and nothing
 * changes, withdrawn and resent codes are dead), a new person's account from the link and the
 * acceptance in one transaction (membership, pool record, declared conflicts that the
 * assignment then respects), the scope (404 outside the admin's contests), the dashboard,
 * 「我的邀请」 and reminders sent once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { catId, contestId, login, schoolId } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";
import { sendInviteReminders } from "../../src/server/judge-invite/reminders";
import type { Mail } from "../../src/server/mail/mailer";

const JI = "/Backend/JudgeInvite";
const PUB = "/Backend/Public/judge-invite";
const A = "/Backend/ContestAdmin/judging";

/** A date `days` from today, Beijing time. */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
const ACCEPT = { schoolId: null, tags: [], categoryIds: [], conflicts: { schoolIds: [], workIds: [] } };

describe.each(DIALECTS)("judge invitations on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client;
  let js: number, zj: number, soft: number;
  let nju: number, seu: number;
  const W: Record<string, number[]> = {};
  let pool1: number;
  let j1: number;

  /** The code of the newest invitation mail to this address. */
  const codeFor = (email: string) => {
    const m = t
      .mails()
      .filter((x) => x.to.includes(email))
      .pop();
    const code = m?.text.match(/\/inviteJudge\/([A-Za-z0-9_-]+)/)?.[1];
    if (!code) throw new Error(`no invitation mail to ${email}`);
    return code;
  };
  const inv = (email: string) =>
    t.db.selectFrom("judge_invitation").selectAll().where("email", "=", email).orderBy("id", "desc").executeTakeFirstOrThrow();
  const isMember = async (userId: number, contest: number) =>
    !!(await t.db
      .selectFrom("contest_member")
      .select("id")
      .where("user_id", "=", userId)
      .where("contest_id", "=", contest)
      .where("role", "=", "judge")
      .executeTakeFirst());
  const setSettings = (avoidProvince: boolean, reviews = 3) =>
    t.db
      .insertInto("judging_setting")
      .values({
        contest_id: js,
        reviews_per_work: reviews,
        judge_capacity: null,
        avoid_province: avoidProvince ? 1 : 0,
        updated_at: new Date().toISOString(),
        updated_by: null,
      })
      .onConflict((oc) =>
        oc.column("contest_id").doUpdateSet({ reviews_per_work: reviews, avoid_province: avoidProvince ? 1 : 0 }),
      )
      .execute();

  beforeAll(async () => {
    t = await makeApp(dialect);
    js = await contestId(t, "2026-JS");
    zj = await contestId(t, "2026-ZJ");
    await joinContest(t, await insertUser(t, { username: "js_admin", name: "苏赛务", role: 1 }), js, "admin");
    [cadmin, root] = await Promise.all(["js_admin", "root"].map((u) => login(t, u)));
    soft = await catId(t, "软件应用与开发");
    nju = await schoolId(t, "南京大学");
    seu = await schoolId(t, "东南大学");
    // The contest's judges now: one of 东南大学, one from industry.
    j1 = await makeJudge(t, "i_seu", "东评委", "东南大学", js);
    await makeJudge(t, "i_ind", "企业评委", null, js);
    W.nju = [];
    W.seu = [];
    for (let i = 0; i < 3; i++)
      W.nju.push(await insertWork(t, { contest: js, school: "南京大学", category: "软件应用与开发", status: "format_passed" }));
    for (let i = 0; i < 2; i++)
      W.seu.push(await insertWork(t, { contest: js, school: "东南大学", category: "软件应用与开发", status: "format_passed" }));
    // A pool person of 南京大学 without an account yet.
    const now = new Date().toISOString();
    pool1 = (
      await t.db
        .insertInto("judge_person")
        .values({
          name: "南库评委",
          school_id: nju,
          school_name: null,
          province: "江苏省",
          title: "教授",
          email: "pool1@test.local",
          phone: null,
          user_id: null,
          note: "",
          merged_into: null,
          created_by: null,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await t.db.insertInto("judge_person_tag").values({ person_id: pool1, tag: "软件工程" }).execute();
    await setSettings(false);
  });
  afterAll(async () => t?.close());

  it("checks conflicts before sending: works excluded per person and category, and feasibility with the invitees", async () => {
    const body = { personIds: [pool1], people: [{ email: "New.Judge@test.local", name: "新评委" }], categoryIds: [soft] };
    const r = await cadmin.post(`${JI}/contests/${js}/check`, body);
    expect(r.body.error, r.body.info).toBe(0);
    const d = r.body.data;
    expect(d).toMatchObject({ reviewsPerWork: 3, avoidProvince: false, works: 5, currentJudges: 2, invitedJudges: 2 });
    const p1 = d.persons.find((p: { personId: number }) => p.personId === pool1);
    expect(p1).toMatchObject({ name: "南库评委", schoolName: "南京大学", province: "江苏省", hasAccount: false, skip: null });
    expect(p1.categories).toEqual([
      { categoryId: soft, name: "软件应用与开发", works: 5, excluded: 3, school: 3, province: 0, declared: 0, advisor: 0 },
    ]);
    const n1 = d.persons.find((p: { key: string }) => p.key === "e:new.judge@test.local");
    expect(n1.categories[0]).toMatchObject({ works: 5, excluded: 0 });
    // E-mails only where the pool shows them: the pool hides 南库评委's from this admin, so does the
    // check; an address the admin typed in is theirs to see; root sees both.
    const listed = await cadmin.get(`/Backend/JudgePool/persons?keyword=${encodeURIComponent("南库评委")}`);
    expect(listed.body.data.list[0]).toMatchObject({ id: pool1, email: null });
    expect(p1.email).toBeNull();
    expect(n1.email).toBe("new.judge@test.local");
    const asRoot = (await root.post(`${JI}/contests/${js}/check`, body)).body.data;
    expect(asRoot.persons.find((p: { personId: number }) => p.personId === pool1).email).toBe("pool1@test.local");
    // Two judges cannot give any work 3 reviews; with the two invitees every work gets 3.
    expect(d.before).toEqual({ complete: false, shortWorks: 5, missingReviews: 7 });
    expect(d.after).toEqual({ complete: true, shortWorks: 0, missingReviews: 0 });
    expect(d.byCategory).toEqual([{ categoryId: soft, name: "软件应用与开发", works: 5, shortBefore: 5, shortAfter: 0 }]);
    // Half or more of a category excluded is worth a line.
    expect(d.warnings).toEqual(["「南库评委」须回避「软件应用与开发」5 件作品中的 3 件（同校 3）"]);

    // Avoiding provinces: the 江苏 person may judge none of the 江苏 works — a warning with the numbers, not a refusal.
    await setSettings(true);
    const p = await cadmin.post(`${JI}/contests/${js}/check`, body);
    const p1b = p.body.data.persons.find((x: { personId: number }) => x.personId === pool1);
    expect(p1b.categories[0]).toMatchObject({ works: 5, excluded: 5, school: 3, province: 5 });
    expect(p.body.data.after.complete).toBe(false);
    expect(p.body.data.warnings).toContain("「南库评委」须回避「软件应用与开发」5 件作品中的 5 件（同校 3、同省 5）");
    expect(p.body.data.warnings.some((w: string) => /仍有 \d+ 件作品无法得到 3 位无回避关系的评委/.test(w))).toBe(true);
    await setSettings(false);
    // Nothing was written by the dry run.
    expect(await t.db.selectFrom("judge_invitation").selectAll().execute()).toEqual([]);
  });

  it("keeps a contest admin to the own contests: 404 with the same text as a missing contest", async () => {
    const body = { people: [{ email: "x@test.local", name: "某人" }], categoryIds: [soft], answerBy: day(10) };
    const out = await cadmin.post(`${JI}/contests/${zj}/invitations`, body);
    expect(out.body).toMatchObject({ error: 404, info: "赛事不存在或不在您的管理范围内" });
    const missing = await cadmin.post(`${JI}/contests/999999/invitations`, body);
    expect(missing.body).toEqual(out.body);
    expect((await cadmin.post(`${JI}/contests/${zj}/check`, body)).status).toBe(404);
    expect((await cadmin.get(`${JI}/contests/${zj}/dashboard`)).status).toBe(404);
    // An invitation root sent for Zhejiang is not the Jiangsu admin's to withdraw.
    const rz = await root.post(`${JI}/contests/${zj}/invitations`, body);
    expect(rz.status, rz.body.info).toBe(201);
    const id = rz.body.data.created[0].id;
    const w = await cadmin.post(`${JI}/invitations/${id}/withdraw`, {});
    expect(w.body).toMatchObject({ error: 404, info: "邀请不存在或不在您的管理范围内" });
    expect((await cadmin.post(`${JI}/invitations/99999999/withdraw`, {})).body).toEqual(w.body);
    expect((await inv("x@test.local")).status).toBe("sent");
    // A judge may not invite at all.
    expect((await (await login(t, "i_seu")).post(`${JI}/contests/${js}/invitations`, body)).status).toBe(403);
    // A category the contest does not open is refused, nothing written.
    const closed = await t.db
      .selectFrom("work_category")
      .select("id")
      .where("parent_id", "is", null)
      .where(
        "id",
        "not in",
        JSON.parse(
          (await t.db.selectFrom("contest").select("categories").where("id", "=", js).executeTakeFirstOrThrow()).categories,
        ),
      )
      .executeTakeFirst();
    if (closed)
      expect((await cadmin.post(`${JI}/contests/${js}/invitations`, { ...body, categoryIds: [closed.id] })).body.error).toBe(422);
    expect((await cadmin.post(`${JI}/contests/${js}/invitations`, { ...body, answerBy: day(-1) })).body).toMatchObject({
      error: 422,
      data: { field: "answerBy" },
    });
    expect(await t.db.selectFrom("judge_invitation").selectAll().where("contest_id", "=", js).execute()).toEqual([]);
  });

  it("sends one link per invitee by mail, skipping duplicates with the reason", async () => {
    const r = await cadmin.post(`${JI}/contests/${js}/invitations`, {
      personIds: [pool1],
      people: [
        { email: "New.Judge@test.local", name: "新评委" },
        { email: "i_seu@test.local", name: "东评委" },
      ],
      categoryIds: [soft],
      message: "诚邀您担任今年省赛的评委。",
      answerBy: day(14),
    });
    expect(r.status, r.body.info).toBe(201);
    expect(r.body.data.created.map((c: { email: string }) => c.email)).toEqual(["pool1@test.local", "new.judge@test.local"]);
    expect(r.body.data.skipped).toEqual([{ name: "东评委", email: "i_seu@test.local", reason: "已是本赛事的评委" }]);
    expect(r.body.data.created[0]).toMatchObject({
      personId: pool1,
      state: "sent",
      categories: [{ id: soft, name: "软件应用与开发" }],
      invitedBy: { name: "苏赛务" },
    });
    const mail = t
      .mails()
      .filter((m) => m.to.includes("new.judge@test.local"))
      .pop()!;
    expect(mail.subject).toContain("评委邀请");
    expect(mail.text).toContain("诚邀您担任今年省赛的评委。");
    const code = codeFor("new.judge@test.local");
    expect(code.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits of base64url
    // Only the hash is stored.
    const row = await inv("new.judge@test.local");
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    // Again: an open invitation is not sent twice.
    const again = await cadmin.post(`${JI}/contests/${js}/invitations`, {
      people: [{ email: "new.judge@test.local", name: "新评委" }],
      categoryIds: [soft],
      answerBy: day(14),
    });
    expect(again.body.data.created).toEqual([]);
    expect(again.body.data.skipped[0].reason).toMatch(/^已有待答复的邀请/);
  });

  it("shows the link to its holder and records the opening; an unknown code gets a clear state", async () => {
    const anon = new Client(t);
    const code = codeFor("new.judge@test.local");
    const r = await anon.get(`${PUB}/${code}`);
    expect(r.body.data).toMatchObject({
      state: "open",
      contest: { name: expect.any(String), year: 2026 },
      categories: ["软件应用与开发"],
      message: "诚邀您担任今年省赛的评委。",
      name: "新评委",
      email: "ne***@test.local",
      accountExists: false,
      viewer: null,
      invitedBy: "赛事管理员苏赛务",
    });
    expect((await inv("new.judge@test.local")).opened_at).not.toBeNull();
    const unknown = await anon.get(`${PUB}/${"A".repeat(32)}`);
    expect(unknown.body).toMatchObject({ error: 0, info: "邀请链接无效或已被撤回", data: { state: "invalid", contest: null } });
    expect((await anon.get(`${PUB}/short`)).status).toBe(422);
  });

  let newUser: number;
  let student: number;
  it("a new person creates a judge account from the link, declares conflicts and accepts in one transaction", async () => {
    const c = new Client(t);
    const code = codeFor("new.judge@test.local");
    // Accepting needs the account first.
    expect((await c.post(`${PUB}/${code}/accept`, ACCEPT)).status).toBe(403);
    // Password rules as the registration.
    expect((await c.post(`${PUB}/${code}/register`, { username: "newjudge", password: "short", name: "新评委" })).status).toBe(
      422,
    );
    const reg = await c.post(`${PUB}/${code}/register`, { username: "newjudge", password: "Judge2026x", name: "新评委" });
    expect(reg.status, reg.body.info).toBe(201);
    expect(reg.body.data).toMatchObject({
      userType: 4,
      username: "newjudge",
      email: "new.judge@test.local",
      emailVerified: true,
    });
    newUser = reg.body.data.id;
    const view = await c.get(`${PUB}/${code}`);
    expect(view.body.data).toMatchObject({
      state: "open",
      accountExists: true,
      viewer: { username: "newjudge", matches: true, isJudge: true },
      prefill: { tags: [], categoryIds: [soft] },
    });

    // A work that does not exist refuses the whole acceptance: nothing changed.
    const bad = await c.post(`${PUB}/${code}/accept`, { ...ACCEPT, conflicts: { schoolIds: [seu], workIds: [2026999999] } });
    expect(bad.body).toMatchObject({ error: 422, info: "回避作品 2026999999 不存在" });
    expect((await inv("new.judge@test.local")).status).toBe("sent");
    expect(await isMember(newUser, js)).toBe(false);
    expect(await t.db.selectFrom("declared_conflict").selectAll().where("judge_id", "=", newUser).execute()).toEqual([]);

    // A student conflict: the first author of another 南京大学 work (advised by the new judge elsewhere).
    student = (
      await t.db
        .selectFrom("work_author")
        .select("user_id")
        .where("work_id", "=", W.nju[1])
        .where("rank", "=", 1)
        .executeTakeFirstOrThrow()
    ).user_id;
    const ok = await c.post(`${PUB}/${code}/accept`, {
      schoolId: null,
      schoolName: "某科技公司",
      title: "高级工程师",
      tags: ["人工智能", "软件工程"],
      categoryIds: [soft],
      conflicts: { schoolIds: [seu], workIds: [W.nju[0]], studentIds: [student], note: "亲属在该校任教" },
    });
    expect(ok.body, ok.body.info).toMatchObject({ error: 0, data: { state: "accepted", conflicts: 3 } });
    expect(ok.body.info).toContain("并申报了 3 项回避");
    expect(await isMember(newUser, js)).toBe(true);
    const row = await inv("new.judge@test.local");
    expect(row).toMatchObject({ status: "accepted", accepted_user_id: newUser });
    const person = await t.db.selectFrom("judge_person").selectAll().where("user_id", "=", newUser).executeTakeFirstOrThrow();
    expect(person).toMatchObject({
      name: "新评委",
      email: "new.judge@test.local",
      school_id: null,
      school_name: "某科技公司",
      title: "高级工程师",
    });
    expect(row.person_id).toBe(person.id);
    expect(
      (await t.db.selectFrom("judge_person_tag").select("tag").where("person_id", "=", person.id).orderBy("tag").execute())
        .map((x) => x.tag)
        .sort(),
    ).toEqual(["人工智能", "软件工程"].sort());
    expect(
      (await t.db.selectFrom("judge_person_category").select("category_id").where("person_id", "=", person.id).execute()).map(
        (x) => x.category_id,
      ),
    ).toEqual([soft]);
    const declared = await t.db
      .selectFrom("declared_conflict")
      .select(["target", "note"])
      .where("judge_id", "=", newUser)
      .orderBy("target")
      .execute();
    expect(declared).toEqual([
      { target: `s:${seu}`, note: "亲属在该校任教" },
      { target: `u:${student}`, note: "亲属在该校任教" },
      { target: `w:${W.nju[0]}`, note: "亲属在该校任教" },
    ]);

    // Single use: the link now says so and a second answer changes nothing.
    expect((await c.get(`${PUB}/${code}`)).body.data.state).toBe("accepted");
    const twice = await c.post(`${PUB}/${code}/decline`, {});
    expect(twice.body).toMatchObject({ error: 410, info: "该邀请已接受，链接已失效（每个邀请链接只能使用一次）" });
    expect((await inv("new.judge@test.local")).status).toBe("accepted");
    // The account created from the link logs in on the admin login page.
    await new Client(t).login("newjudge", "admin", "Judge2026x");
  });

  it("binds a link to its email: another account is refused in Chinese and nothing changes; the invited account accepts", async () => {
    const code = codeFor("pool1@test.local");
    const other = await login(t, "i_seu");
    const before = await inv("pool1@test.local");
    const r = await other.post(`${PUB}/${code}/accept`, ACCEPT);
    expect(r.status).toBe(403);
    expect(r.body.info).toBe(
      "此邀请发给 po***@test.local，您当前登录的账号「i_seu」的邮箱与之不符，未做任何更改。请退出当前账号，用受邀邮箱对应的账号登录，或退出后在本页用受邀邮箱创建评委账号。",
    );
    expect((await other.post(`${PUB}/${code}/decline`, { reason: "不是我" })).status).toBe(403);
    expect(await inv("pool1@test.local")).toEqual(before);
    expect(await isMember(j1, js)).toBe(true);
    expect((await other.get(`${PUB}/${code}`)).body.data).toMatchObject({
      state: "open",
      viewer: { matches: false },
      prefill: null,
    });
    // Registering from the link while logged in is refused.
    expect(
      (await other.post(`${PUB}/${code}/register`, { username: "pool1x", password: "Judge2026x", name: "南库评委" })).status,
    ).toBe(400);

    // The pool person's own account (email of the invitation) accepts from 「我的邀请」; the pool record is linked.
    const uid = await insertUser(t, { username: "pool1", name: "南库评委", role: 4, school: null });
    const me = await login(t, "pool1");
    const mine = await me.get(`${JI}/mine`);
    expect(mine.body.data.invitations).toHaveLength(1);
    expect(mine.body.data.invitations[0]).toMatchObject({ state: "sent", categories: [{ id: soft }] });
    expect(mine.body.data.prefill).toMatchObject({ school: { id: nju, name: "南京大学" }, title: "教授", tags: ["软件工程"] });
    // Another judge cannot answer it by id: 404.
    expect((await other.post(`${JI}/mine/${mine.body.data.invitations[0].id}/accept`, ACCEPT)).status).toBe(404);
    const ok = await me.post(`${JI}/mine/${mine.body.data.invitations[0].id}/accept`, {
      ...ACCEPT,
      schoolId: nju,
      tags: ["软件工程"],
      categoryIds: [soft],
    });
    expect(ok.body.error, ok.body.info).toBe(0);
    expect(await isMember(uid, js)).toBe(true);
    expect(
      (await t.db.selectFrom("judge_person").select(["user_id"]).where("id", "=", pool1).executeTakeFirstOrThrow()).user_id,
    ).toBe(uid);
    expect(
      (await t.db.selectFrom("app_user").select("school_id").where("id", "=", uid).executeTakeFirstOrThrow()).school_id,
    ).toBe(nju);
  });

  it("the assignment respects what was declared on acceptance", async () => {
    const r = await cadmin.post(`${A}/${js}/assign`, { reviewsPerWork: 2 });
    expect(r.body.error, r.body.info).toBe(0);
    expect(r.body.data.complete).toBe(true);
    const mine = await t.db
      .selectFrom("judge_assignment")
      .innerJoin("work", "work.id", "judge_assignment.work_id")
      .select(["work.id", "work.school_id"])
      .where("judge_assignment.judge_id", "=", newUser)
      .where("judge_assignment.contest_id", "=", js)
      .execute();
    expect(mine.length).toBeGreaterThan(0);
    // Declared: the 东南大学 works, one 南京大学 work, and the student's work: only the last 南京大学 work is left.
    expect(mine.map((w) => Number(w.id))).toEqual([W.nju[2]]);

    // The check now counts what the judge declared (a judge already: not invited again).
    const chk = await cadmin.post(`${JI}/contests/${js}/check`, {
      people: [{ email: "new.judge@test.local", name: "新评委" }],
      categoryIds: [soft],
    });
    expect(chk.body.data.persons[0]).toMatchObject({ hasAccount: true, skip: "已是本赛事的评委" });
    expect(chk.body.data.persons[0].categories[0]).toMatchObject({ works: 5, excluded: 4, school: 0, declared: 4 });
  });

  it("expires at the answer-by date, changing nothing", async () => {
    const r = await cadmin.post(`${JI}/contests/${js}/invitations`, {
      people: [{ email: "late@test.local", name: "迟评委" }],
      categoryIds: [soft],
      answerBy: day(3),
    });
    expect(r.status).toBe(201);
    const code = codeFor("late@test.local");
    await t.db
      .updateTable("judge_invitation")
      .set({ answer_by: new Date(Date.now() - 60_000).toISOString() })
      .where("email", "=", "late@test.local")
      .execute();
    const c = new Client(t);
    expect((await c.get(`${PUB}/${code}`)).body.data).toMatchObject({ state: "expired", contest: { year: 2026 } });
    const reg = await c.post(`${PUB}/${code}/register`, { username: "latejudge", password: "Judge2026x", name: "迟评委" });
    expect(reg.status).toBe(410);
    expect(reg.body.info).toMatch(/^该邀请已于 .* 过期，链接已失效/);
    expect(await t.db.selectFrom("app_user").select("id").where("username", "=", "latejudge").executeTakeFirst()).toBeUndefined();
    expect((await c.post(`${PUB}/${code}/decline`, {})).status).toBe(410);
    expect((await inv("late@test.local")).status).toBe("sent");
    // Resending an expired invitation needs a new date; then a new link works and the old one is dead.
    const id = (await inv("late@test.local")).id;
    expect((await cadmin.post(`${JI}/invitations/${id}/resend`, {})).body).toMatchObject({
      error: 422,
      data: { field: "answerBy" },
    });
    const re = await cadmin.post(`${JI}/invitations/${id}/resend`, { answerBy: day(7) });
    expect(re.body).toMatchObject({ error: 0, data: { state: "sent" } });
    const fresh = codeFor("late@test.local");
    expect(fresh).not.toBe(code);
    expect((await c.get(`${PUB}/${code}`)).body.data.state).toBe("invalid");
    expect((await c.get(`${PUB}/${fresh}`)).body.data.state).toBe("open");
    expect(
      t
        .mails()
        .filter((m) => m.to.includes("late@test.local"))
        .pop()!.text,
    ).toContain("之前邮件中的链接已失效");
  });

  it("a withdrawn link answers like an unknown one; declining through the link needs no account", async () => {
    await cadmin.post(`${JI}/contests/${js}/invitations`, {
      people: [
        { email: "w1@test.local", name: "撤评委" },
        { email: "d1@test.local", name: "谢评委" },
      ],
      categoryIds: [soft],
      answerBy: day(5),
    });
    const w = await inv("w1@test.local");
    const code = codeFor("w1@test.local");
    const wd = await cadmin.post(`${JI}/invitations/${w.id}/withdraw`, { reason: "名额已满" });
    expect(wd.body).toMatchObject({ error: 0, data: { state: "withdrawn", statusReason: "名额已满" } });
    const c = new Client(t);
    const a = await c.get(`${PUB}/${code}`);
    const b = await c.get(`${PUB}/${"B".repeat(32)}`);
    expect(a.body).toEqual(b.body);
    expect((await c.post(`${PUB}/${code}/decline`, {})).body).toMatchObject({
      error: 404,
      info: "邀请链接无效或已被撤回，请向赛事管理员确认",
    });
    expect((await cadmin.post(`${JI}/invitations/${w.id}/resend`, {})).status).toBe(400);
    expect((await cadmin.post(`${JI}/invitations/${w.id}/withdraw`, {})).status).toBe(400);

    const d = await c.post(`${PUB}/${codeFor("d1@test.local")}/decline`, { reason: "时间冲突" });
    expect(d.body).toMatchObject({ error: 0, data: { state: "declined" } });
    expect(await inv("d1@test.local")).toMatchObject({ status: "declined", status_reason: "时间冲突" });
  });

  it("counts invitations by category and shows the coverage on the dashboard", async () => {
    await setSettings(false, 3);
    const r = await cadmin.get(`${JI}/contests/${js}/dashboard`);
    expect(r.body.error, r.body.info).toBe(0);
    const d = r.body.data;
    // pool1 (accepted), new.judge (accepted), late (resent, pending), w1 (withdrawn before it was opened), d1 (declined: an answer counts as opened).
    expect(d.totals).toEqual({ sent: 5, opened: 4, pending: 1, accepted: 2, declined: 1, expired: 0, withdrawn: 1 });
    const s = d.categories.find((c: { categoryId: number }) => c.categoryId === soft);
    expect(s.counts).toEqual(d.totals);
    // 5 works × 3 reviews; judges: the two who accepted (pool categories) — the others have no category.
    expect(s).toMatchObject({
      works: 5,
      reviewsNeeded: 15,
      judges: 2,
      judgesNeeded: 3,
      reviewCapacity: null,
      covered: false,
      coverage: 0.67,
    });
    expect(d.judgesWithoutCategory).toBe(2);
    // With a capacity of 2 works per judge: ⌈15 / 2⌉ = 8 judges needed.
    await t.db.updateTable("judging_setting").set({ judge_capacity: 2 }).where("contest_id", "=", js).execute();
    const capped = (await cadmin.get(`${JI}/contests/${js}/dashboard`)).body.data.categories.find(
      (c: { categoryId: number }) => c.categoryId === soft,
    );
    expect(capped).toMatchObject({
      judges: 2,
      reviewsNeeded: 15,
      reviewCapacity: 4,
      judgesNeeded: 8,
      coverage: 0.25,
      covered: false,
    });
    await t.db.updateTable("judging_setting").set({ judge_capacity: null }).where("contest_id", "=", js).execute();
    const list = await cadmin.get(`${JI}/contests/${js}/invitations?state=accepted`);
    expect(list.body.data.total).toBe(2);
    expect((await cadmin.get(`${JI}/contests/${js}/invitations?keyword=late`)).body.data.list[0]).toMatchObject({
      email: "late@test.local",
      state: "sent",
    });
  });

  it("reminds once before the answer-by date", async () => {
    await t.db
      .updateTable("judge_invitation")
      .set({ answer_by: new Date(Date.now() + 20 * 3600_000).toISOString() })
      .where("email", "=", "late@test.local")
      .execute();
    const sent: Mail[] = [];
    const mailer = { send: async (m: Mail) => void sent.push(m), describe: () => "test" };
    await sendInviteReminders(t.db, mailer, "http://localhost:8080");
    await sendInviteReminders(t.db, mailer, "http://localhost:8080");
    // Once in all (the app's own hourly run may have taken it, into the outbox).
    const reminders = [...sent, ...t.mails()].filter((m) => m.to.includes("late@test.local") && m.subject.includes("即将截止"));
    expect(reminders).toHaveLength(1);
    expect(reminders[0].text).toContain("/judgePool");
    expect((await inv("late@test.local")).reminded_at).not.toBeNull();
    // Not due yet, answered or withdrawn: no reminder.
    expect(sent.filter((m) => !m.to.includes("late@test.local"))).toEqual([]);
  });
});
