/**
 * Finding people for a work's team (scope: the work's school, the right role, no contact
 * data, bounded) and the email invitation's lifecycle (mail, register from the link, land in
 * the team unconfirmed; used, withdrawn and expired links refused; pending invitations
 * counted in the team's limits and blocking submit).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { account, catId, contestId, idOf, W } from "./works-fixtures";

const PEOPLE = "/Backend/Work/people";
const PUB = "/Backend/Public/work-invite";
const codeOf = (text: string) => text.match(/\/workInvite\/([A-Za-z0-9_-]{32})/)![1];

describe.each(DIALECTS)("people search and team invitations on %s", (dialect) => {
  let t: TestApp;
  let zjut: number, soft: number;
  let a: Client;
  let work: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    zjut = await contestId(t, "2026-ZJ-10337");
    soft = await catId(t, "软件应用与开发");
    a = await account(t, "ppl_first", "甲第一");
    await account(t, "ppl_mate", "张同学");
    await account(t, "ppl_mate2", "张小明");
    await account(t, "ppl_t", "张老师", { role: 99 });
    await account(t, "ppl_other", "张外校", { school: "浙江大学" });
    await account(t, "ppl_other_t", "张外师", { role: 99, school: "浙江大学" });
    const created = await a.post(W, { contestId: zjut, categoryId: soft, name: "查找同学作品" });
    expect(created.status).toBe(201);
    work = created.body.data.id;
  });
  afterAll(async () => t?.close());

  const search = (c: Client, q: Record<string, string | number>) =>
    c.get(`${PEOPLE}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);

  it("finds students of the work's school by name, number or username — never another school's, never teachers, no contact data", async () => {
    const byName = await search(a, { role: "author", q: "张", workId: work });
    expect(byName.status).toBe(200);
    const names = byName.body.data.items.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["张同学", "张小明"]));
    expect(names).not.toContain("张外校");
    expect(names).not.toContain("张老师");
    expect(names).not.toContain("张外师");
    const hit = byName.body.data.items.find((p: { name: string }) => p.name === "张同学");
    expect(hit).toEqual({
      userId: await idOf(t, "ppl_mate"),
      username: "ppl_mate",
      name: "张同学",
      memberNo: "Mppl_mate",
      majorName: expect.any(String),
      onTeam: false,
    });
    expect(JSON.stringify(byName.body.data)).not.toMatch(/@test\.local|13800000000/);

    // 学号 (exact first), username prefix (any case).
    expect(
      (await search(a, { role: "author", q: "Mppl_mate2", workId: work })).body.data.items.map(
        (p: { username: string }) => p.username,
      ),
    ).toEqual(["ppl_mate2"]);
    expect(
      (await search(a, { role: "author", q: "PPL_MATE", workId: work })).body.data.items.map(
        (p: { username: string }) => p.username,
      ),
    ).toEqual(["ppl_mate", "ppl_mate2"]);
    // Another school's student by exact number: not found.
    expect((await search(a, { role: "author", q: "Mppl_other", workId: work })).body.data.items).toEqual([]);
    // Wildcards are text.
    expect((await search(a, { role: "author", q: "%", workId: work })).body.data.items).toEqual([]);
    expect((await search(a, { role: "author", q: "ppl_", workId: work })).body.data.items.length).toBeGreaterThan(0);

    const teachers = await search(a, { role: "teacher", q: "张", workId: work });
    expect(teachers.body.data.items.map((p: { name: string }) => p.name)).toEqual(["张老师"]);
    // Without a work: the caller's own school (a new work).
    expect((await search(a, { role: "teacher", q: "张" })).body.data.items.map((p: { name: string }) => p.name)).toEqual([
      "张老师",
    ]);
  });

  it("is the first author's: another student gets 404 for a work they are nothing to, a co-author 403; teachers and admins have no access; bounded input", async () => {
    const outsider = await account(t, "ppl_outsider", "外人");
    expect((await search(outsider, { role: "author", q: "张", workId: work })).status).toBe(404);
    const other = await account(t, "ppl_other_search", "浙大甲", { school: "浙江大学" });
    const own = (await search(other, { role: "author", q: "张" })).body.data.items.map((p: { name: string }) => p.name);
    expect(own).toEqual(["张外校"]);
    const teacher = new Client(t);
    await teacher.login("ppl_t", "teacher");
    expect((await search(teacher, { role: "author", q: "张" })).status).toBe(403);
    expect((await search(a, { role: "judge", q: "张" })).status).toBe(422);
    expect((await search(a, { role: "author", q: "x".repeat(65) })).status).toBe(422);
    expect((await search(a, { role: "author", q: "" })).status).toBe(422);
    expect((await new Client(t).get(`${PEOPLE}?role=author&q=张`)).status).toBe(401);

    // A found person added marks onTeam; a co-author may not search for the work.
    const v = (await a.get(`${W}/${work}`)).body.data.version;
    expect((await a.post(`${W}/${work}/authors`, { username: "ppl_mate", version: v })).body.error).toBe(0);
    expect(
      (await search(a, { role: "author", q: "Mppl_mate", workId: work })).body.data.items.find(
        (p: { username: string }) => p.username === "ppl_mate",
      ).onTeam,
    ).toBe(true);
    const mate = new Client(t);
    await mate.login("ppl_mate", "student");
    expect((await search(mate, { role: "author", q: "张", workId: work })).status).toBe(403);
  });

  it("invites by email: the invitee registers from the link and lands in the team unconfirmed; the link is single use", async () => {
    let v = (await a.get(`${W}/${work}`)).body.data.version;
    const existing = await a.post(`${W}/${work}/invitations`, {
      role: "author",
      email: "PPL_MATE2@test.local",
      name: "张小明",
      version: v,
    });
    expect(existing.body).toMatchObject({ error: 422, info: "该邮箱已注册平台账号，请按姓名、学号/工号或用户名查找并添加" });
    const sent = await a.post(`${W}/${work}/invitations`, {
      role: "author",
      email: "New.Mate@Example.com",
      name: "新同学",
      version: v,
    });
    expect(sent.body).toMatchObject({ error: 0, data: { role: "author", email: "new.mate@example.com", name: "新同学" } });
    const mail = t
      .mails()
      .filter((m) => m.to.includes("new.mate@example.com"))
      .pop()!;
    expect(mail.subject).toContain("【赛务平台】作品团队");
    expect(mail.text).toContain("作为合作作者加入参赛作品《查找同学作品》");
    const code = codeOf(mail.text);
    expect((await a.get(`${W}/${work}/invitations`)).body.data.map((i: { email: string }) => i.email)).toEqual([
      "new.mate@example.com",
    ]);

    // Pending: submit names it.
    const blocked = await a.post(`${W}/${work}/submit`, {});
    expect(blocked.body.error).toBe(400);

    const anon = new Client(t);
    const pub = await anon.get(`${PUB}/${code}`);
    expect(pub.body.data).toMatchObject({
      state: "open",
      role: "author",
      workName: "查找同学作品",
      schoolName: "浙江工业大学",
      invitedBy: "甲第一",
      email: "ne***@example.com",
    });
    const reg = await anon.post(`${PUB}/${code}/register`, {
      username: "new_mate",
      password: "Passw0rd!",
      name: "新同学",
      memberNo: "202600001",
    });
    expect(reg.status).toBe(201);
    expect(reg.body.data).toMatchObject({ username: "new_mate", userType: 100, needToLogin: false });
    const user = await t.db.selectFrom("app_user").selectAll().where("username", "=", "new_mate").executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: "new.mate@example.com", email_verified: 1, user_type: 100, member_no: "202600001" });
    const seen = await anon.get(`${W}/${work}`);
    expect(seen.body.data.authors.map((x: { username: string; confirmed: boolean }) => [x.username, x.confirmed])).toEqual([
      ["ppl_first", true],
      ["ppl_mate", false],
      ["new_mate", false],
    ]);
    expect((await anon.post(`${W}/${work}/confirm`, {})).body.info).toBe("已确认参赛");

    // Used: refused, nothing changed.
    const again = await new Client(t).post(`${PUB}/${code}/register`, {
      username: "new_mate_b",
      password: "Passw0rd!",
      name: "新同学",
      memberNo: "202600002",
    });
    expect(again.body).toMatchObject({ error: 410, info: "该邀请已使用，链接已失效（每个邀请链接只能使用一次）；请直接登录" });
    expect(
      await t.db.selectFrom("app_user").select("id").where("username", "=", "new_mate_b").executeTakeFirst(),
    ).toBeUndefined();
    expect((await new Client(t).get(`${PUB}/${code}`)).body.data.state).toBe("used");
    expect((await a.get(`${W}/${work}/invitations`)).body.data).toEqual([]);

    // Unknown code: invalid.
    expect((await new Client(t).get(`${PUB}/${"x".repeat(32)}`)).body.data.state).toBe("invalid");
    expect(
      (
        await new Client(t).post(`${PUB}/${"x".repeat(32)}/register`, {
          username: "nobody_x",
          password: "Passw0rd!",
          name: "某某",
          memberNo: "1",
        })
      ).status,
    ).toBe(404);
    v = (await a.get(`${W}/${work}`)).body.data.version;
    expect(v).toBeGreaterThan(1);
  });

  it("refuses expired and withdrawn links, and counts pending invitations in the team's limits", async () => {
    let v = (await a.get(`${W}/${work}`)).body.data.version;
    const t1 = await a.post(`${W}/${work}/invitations`, {
      role: "teacher",
      email: "late.teacher@example.com",
      name: "迟老师",
      version: v,
    });
    expect(t1.body.error).toBe(0);
    const lateCode = codeOf(
      t
        .mails()
        .filter((m) => m.to.includes("late.teacher@example.com"))
        .pop()!.text,
    );
    await t.db
      .updateTable("work_invitation")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", t1.body.data.id)
      .execute();
    expect((await new Client(t).get(`${PUB}/${lateCode}`)).body.data.state).toBe("expired");
    const late = await new Client(t).post(`${PUB}/${lateCode}/register`, {
      username: "late_t",
      password: "Passw0rd!",
      name: "迟老师",
      memberNo: "T001",
    });
    expect(late.body.error).toBe(410);
    expect(late.body.info).toMatch(/^该邀请已于 .* 过期，链接已失效/);
    expect(await t.db.selectFrom("app_user").select("id").where("username", "=", "late_t").executeTakeFirst()).toBeUndefined();

    // Teachers: at most max_teachers, pending invitations included.
    const max = (await t.db.selectFrom("work_category").select("max_teachers").where("id", "=", soft).executeTakeFirstOrThrow())
      .max_teachers;
    const codes: string[] = [];
    for (let i = 0; i < max; i++) {
      v = (await a.get(`${W}/${work}`)).body.data.version;
      const r = await a.post(`${W}/${work}/invitations`, {
        role: "teacher",
        email: `t${i}@example.com`,
        name: `老师${i}`,
        version: v,
      });
      expect(r.body.error).toBe(0);
      codes.push(
        codeOf(
          t
            .mails()
            .filter((m) => m.to.includes(`t${i}@example.com`))
            .pop()!.text,
        ),
      );
    }
    v = (await a.get(`${W}/${work}`)).body.data.version;
    const full = await a.post(`${W}/${work}/invitations`, {
      role: "teacher",
      email: "one.more@example.com",
      name: "多老师",
      version: v,
    });
    expect(full.body).toMatchObject({ error: 400, info: `「软件应用与开发」每件作品最多 ${max} 名指导教师（含等待注册的邀请）` });
    const byName = await a.post(`${W}/${work}/teachers`, { username: "ppl_t", version: v });
    expect(byName.body.error).toBe(400);
    expect(byName.body.info).toContain("等待注册的邀请");

    // Withdrawn: the link stops working and the place is free again.
    const pending = (await a.get(`${W}/${work}/invitations`)).body.data as { id: number; email: string }[];
    const first = pending.find((p) => p.email === "t0@example.com")!;
    expect((await a.del(`${W}/${work}/invitations/${first.id}`)).body).toMatchObject({ error: 0, info: "邀请已撤回" });
    expect((await new Client(t).get(`${PUB}/${codes[0]}`)).body.data.state).toBe("invalid");
    expect(
      (
        await new Client(t).post(`${PUB}/${codes[0]}/register`, {
          username: "wd_t",
          password: "Passw0rd!",
          name: "撤老师",
          memberNo: "T002",
        })
      ).status,
    ).toBe(404);
    v = (await a.get(`${W}/${work}`)).body.data.version;
    expect((await a.post(`${W}/${work}/teachers`, { username: "ppl_t", version: v })).body.error).toBe(0);

    // A teacher invitation lands as a teacher of the work's school.
    if (codes[1]) {
      const reg = await new Client(t).post(`${PUB}/${codes[1]}/register`, {
        username: "inv_teacher",
        password: "Passw0rd!",
        name: "老师一",
        memberNo: "T003",
      });
      expect(reg.status).toBe(201);
      const u = await t.db
        .selectFrom("app_user")
        .select(["user_type", "school_id"])
        .where("username", "=", "inv_teacher")
        .executeTakeFirstOrThrow();
      const ws = await t.db.selectFrom("work").select("school_id").where("id", "=", work).executeTakeFirstOrThrow();
      expect(u).toEqual({ user_type: 99, school_id: ws.school_id });
      expect((await a.get(`${W}/${work}`)).body.data.teachers.map((x: { username: string }) => x.username)).toContain(
        "inv_teacher",
      );
    }
    // Someone else cannot list or withdraw.
    const mate = new Client(t);
    await mate.login("ppl_mate", "student");
    expect((await mate.get(`${W}/${work}/invitations`)).status).toBe(403);
  });
});
