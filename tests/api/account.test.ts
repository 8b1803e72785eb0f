import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify from "fastify";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { registerAccess } from "../../src/server/plugins/access";
import { loadPolicy } from "../../src/server/app";
import { DEMO_ACCOUNTS } from "../../src/server/seed/demo";

const LOGIN_PAGE: Record<number, "student" | "teacher" | "admin"> = { 100: "student", 99: "teacher" };
const pageOf = (role: number) => LOGIN_PAGE[role] ?? "admin";

describe.each(DIALECTS)("accounts on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
  });
  afterAll(async () => t?.close());

  const schoolId = async () => (await t.db.selectFrom("school").select("id").orderBy("id").executeTakeFirstOrThrow()).id;

  it("tells an anonymous visitor to log in", async () => {
    const r = await new Client(t).get("/Backend/Common/user/get-current");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ error: 0, data: { needToLogin: true, userType: null } });
  });

  it("logs every demo account in through its own page and reports its role and flags", async () => {
    for (const a of DEMO_ACCOUNTS) {
      const c = new Client(t);
      const r = await c.login(a.username, pageOf(a.role));
      expect(r.body.error).toBe(0);
      const me = await c.get("/Backend/Common/user/get-current");
      expect(me.body.data).toMatchObject({
        needToLogin: false,
        userType: a.role,
        username: a.username,
        name: a.name,
        hasComplaintRight: !!a.complaintRight,
        isSchoolContestJudge: !!a.schoolContestJudge,
      });
    }
  });

  it("sets an httpOnly SameSite session cookie", async () => {
    const c = new Client(t);
    const r = await c.login("student", "student");
    const set = String(r.res.headers["set-cookie"]);
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
  });

  it("refuses the wrong login page with a message naming the right one", async () => {
    const c = new Client(t);
    const r = await c.post("/Backend/Common/account/login", { username: "teacher", password: "Demo@2026", page: "admin" });
    expect(r.status).toBe(403);
    expect(r.body.info).toContain("教师登录");
    const s = await c.post("/Backend/Common/account/login", { username: "root", password: "Demo@2026", page: "student" });
    expect(s.status).toBe(403);
    expect(s.body.info).toContain("管理员登录");
    expect((await c.get("/Backend/Common/user/get-current")).body.data.needToLogin).toBe(true);
  });

  it("answers a wrong password and an unknown user with the same text", async () => {
    const c = new Client(t);
    const wrong = await c.post("/Backend/Common/account/login", { username: "root", password: "nope12345", page: "admin" });
    const unknown = await c.post("/Backend/Common/account/login", {
      username: "nobody_here",
      password: "nope12345",
      page: "admin",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.info).toBe(unknown.body.info);
    expect(wrong.body.info).toBe("用户名或密码错误");
  });

  it("logout ends the server-side session, so the old cookie no longer works", async () => {
    const c = new Client(t);
    await c.login("judge", "admin");
    const stolen = c.cookie;
    const out = await c.post("/Backend/Common/account/logout");
    expect(out.body).toMatchObject({ error: 0, info: "已退出登录" });
    const replay = new Client(t);
    replay.cookie = stolen;
    expect((await replay.get("/Backend/Common/user/get-current")).body.data.needToLogin).toBe(true);
  });

  it("refuses unsafe requests from another origin, and cookie-carrying ones with no origin", async () => {
    const c = new Client(t);
    await c.login("root", "admin");
    const evil = await c.post("/Backend/Common/account/logout", {}, { origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.body.info).toContain("请求来源");
    const bare = await t.app.inject({
      method: "POST",
      url: "/Backend/Common/account/logout",
      headers: { cookie: c.cookie, host: "localhost:80" },
    });
    expect(bare.statusCode).toBe(403);
    // Nothing changed: still logged in.
    expect((await c.get("/Backend/Common/user/get-current")).body.data.username).toBe("root");
  });

  it("guards routes by the policy: 401 when logged out, 403 for the wrong role", async () => {
    const anon = new Client(t);
    const sec = await anon.get("/Backend/Common/account/security");
    expect(sec.status).toBe(401);
    expect(sec.body.info).toBe("请先登录");
    const c = new Client(t);
    await c.login("student", "student");
    const reg = await c.post("/Backend/Common/account/register", {});
    expect(reg.status).toBe(403);
    expect(reg.body.info).toContain("退出登录");
  });

  it("validates registration and names the field", async () => {
    const c = new Client(t);
    const base = {
      role: 100,
      username: "newstudent",
      password: "abcd1234",
      name: "新同学",
      email: "new@example.com",
      schoolId: await schoolId(),
    };
    const short = await c.post("/Backend/Common/account/register", { ...base, password: "abc" });
    expect(short.status).toBe(422);
    expect(short.body.data.field).toBe("password");
    expect(short.body.info).toContain("密码");
    const bad = await c.post("/Backend/Common/account/register", { ...base, email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect(bad.body.data.field).toBe("email");
    const role = await c.post("/Backend/Common/account/register", { ...base, role: 0 });
    expect(role.status).toBe(422);
    const taken = await c.post("/Backend/Common/account/register", { ...base, username: "root" });
    expect(taken.status).toBe(422);
    expect(taken.body.info).toContain("用户名已被使用");
    const school = await c.post("/Backend/Common/account/register", { ...base, schoolId: 99999 });
    expect(school.status).toBe(422);
    expect(school.body.data.field).toBe("schoolId");
    const n = await t.db
      .selectFrom("app_user")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("username", "=", "newstudent")
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });

  it("registers a student who logs in only after verifying the mailed link, which works once", async () => {
    const c = new Client(t);
    const r = await c.post("/Backend/Common/account/register", {
      role: 100,
      username: "stu_reg",
      password: "Passw0rd!",
      name: "陈注册",
      email: "Stu.Reg@Example.com",
      schoolId: await schoolId(),
      memberNo: "2024001",
    });
    expect(r.status).toBe(201);
    expect(r.body.data.email).toBe("stu.reg@example.com");
    const early = await c.post("/Backend/Common/account/login", { username: "stu_reg", password: "Passw0rd!", page: "student" });
    expect(early.status).toBe(403);
    expect(early.body.info).toContain("邮箱尚未验证");
    const mail = t
      .mails()
      .filter((m) => m.to.includes("stu.reg@example.com"))
      .pop()!;
    expect(mail.subject).toContain("验证");
    const token = mail.text.match(/verify-email\?token=([\w-]+)/)![1];
    const v = await c.post("/Backend/Common/account/verify-email", { token });
    expect(v.body).toMatchObject({ error: 0, data: { email: "stu.reg@example.com" } });
    const again = await c.post("/Backend/Common/account/verify-email", { token });
    expect(again.status).toBe(410);
    await c.login("stu_reg", "student", "Passw0rd!");
    const me = await c.get("/Backend/Common/user/get-current");
    expect(me.body.data).toMatchObject({ userType: 100, emailVerified: true, name: "陈注册" });
    expect(me.body.data.school.id).toBe(await schoolId());
  });

  it("recovers a password with the mailed code, once, without telling whether an account exists", async () => {
    const c = new Client(t);
    const known = await c.post("/Backend/Common/account/recovery/request", { account: "teacher" });
    const unknown = await c.post("/Backend/Common/account/recovery/request", { account: "no_such_user" });
    expect(known.status).toBe(200);
    expect(unknown.body.info).toBe(known.body.info);
    const mail = t
      .mails()
      .filter((m) => m.to.includes("teacher@demo"))
      .pop()!;
    const code = mail.text.match(/验证码：(\d{6})/)![1];
    expect(mail.text).toContain("/account/claim-account?token=");
    const wrong = await c.post("/Backend/Common/account/recovery/confirm", {
      account: "teacher",
      code: code === "000000" ? "111111" : "000000",
      newPassword: "NewPass123",
    });
    expect(wrong.status).toBe(400);
    const ok = await c.post("/Backend/Common/account/recovery/confirm", { account: "teacher", code, newPassword: "NewPass123" });
    expect(ok.body).toMatchObject({ error: 0 });
    const reuse = await c.post("/Backend/Common/account/recovery/confirm", {
      account: "teacher",
      code,
      newPassword: "Other1234",
    });
    expect(reuse.status).toBe(400);
    const old = await c.post("/Backend/Common/account/login", { username: "teacher", password: "Demo@2026", page: "teacher" });
    expect(old.status).toBe(401);
    await c.login("teacher", "teacher", "NewPass123");
  });

  it("expires a recovery link, and locks it after too many wrong codes", async () => {
    const c = new Client(t);
    await c.post("/Backend/Common/account/recovery/request", { account: "arbitrator@demo.saiwu.local" });
    const mail = t
      .mails()
      .filter((m) => m.to.includes("arbitrator@demo"))
      .pop()!;
    const token = mail.text.match(/claim-account\?token=([\w-]+)/)![1];
    const code = mail.text.match(/验证码：(\d{6})/)![1];
    const wrongCode = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i++)
      await c.post("/Backend/Common/account/recovery/confirm", {
        account: "arbitrator",
        code: wrongCode,
        newPassword: "Xyz12345",
      });
    const locked = await c.post("/Backend/Common/account/recovery/confirm", {
      account: "arbitrator",
      code,
      newPassword: "Xyz12345",
    });
    expect(locked.status).toBe(400);
    await c.post("/Backend/Common/account/recovery/request", { account: "arbitrator" });
    const fresh = t
      .mails()
      .filter((m) => m.to.includes("arbitrator@demo"))
      .pop()!;
    const freshToken = fresh.text.match(/claim-account\?token=([\w-]+)/)![1];
    expect(freshToken).not.toBe(token);
    await t.db
      .updateTable("account_token")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("purpose", "=", "recovery")
      .execute();
    const expired = await c.post("/Backend/Common/account/recovery/confirm", { token: freshToken, newPassword: "Xyz12345" });
    expect(expired.status).toBe(400);
    expect(expired.body.info).toContain("过期");
    await c.login("arbitrator", "admin");
  });

  it("lists own sessions, ends the others, and changes the password only with the old one", async () => {
    const a = new Client(t);
    const b = new Client(t);
    await a.login("school_admin", "admin");
    await b.login("school_admin", "admin");
    const view = await a.get("/Backend/Common/account/security");
    expect(view.body.data.sessions.length).toBeGreaterThanOrEqual(2);
    expect(view.body.data.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const bad = await a.post("/Backend/Common/account/security/password", { oldPassword: "wrong", newPassword: "Another123" });
    expect(bad.status).toBe(422);
    expect(bad.body.data.field).toBe("oldPassword");
    const ended = await a.post("/Backend/Common/account/security/sessions/end-others");
    expect(ended.body.data.ended).toBeGreaterThanOrEqual(1);
    expect((await b.get("/Backend/Common/user/get-current")).body.data.needToLogin).toBe(true);
    expect((await a.get("/Backend/Common/user/get-current")).body.data.username).toBe("school_admin");
    const ok = await a.post("/Backend/Common/account/security/password", { oldPassword: "Demo@2026", newPassword: "Another123" });
    expect(ok.body.error).toBe(0);
    const c = new Client(t);
    await c.login("school_admin", "admin", "Another123");
    const other = await a.get("/Backend/Common/account/security");
    const cSession = other.body.data.sessions.find((s: { current: boolean }) => !s.current);
    const end = await a.del(`/Backend/Common/account/security/sessions/${cSession.id}`);
    expect(end.body.error).toBe(0);
    expect((await c.get("/Backend/Common/user/get-current")).body.data.needToLogin).toBe(true);
  });

  it("changes the email only once the new address is verified", async () => {
    const c = new Client(t);
    await c.login("reviewer", "admin");
    const r = await c.post("/Backend/Common/account/security/email", { password: "Demo@2026", email: "rev.new@example.com" });
    expect(r.body.error).toBe(0);
    const pending = await c.get("/Backend/Common/account/security");
    expect(pending.body.data).toMatchObject({ email: "reviewer@demo.saiwu.local", pendingEmail: "rev.new@example.com" });
    const mail = t
      .mails()
      .filter((m) => m.to.includes("rev.new@example.com"))
      .pop()!;
    const token = mail.text.match(/verify-email\?token=([\w-]+)/)![1];
    await c.post("/Backend/Common/account/verify-email", { token });
    const after = await c.get("/Backend/Common/user/get-current");
    expect(after.body.data.email).toBe("rev.new@example.com");
  });

  it("shows each role its own announcement", async () => {
    const c = new Client(t);
    await c.login("judge", "admin");
    const r = await c.get("/Backend/Common/notice/announcement");
    expect(r.body.data.title).toBe("致评委的公告");
    const s = new Client(t);
    await s.login("student", "student");
    expect((await s.get("/Backend/Common/notice/announcement")).body.data.title).toBe("致作者（学生）的公告");
  });

  it("finds schools by a former name for registration", async () => {
    const r = await new Client(t).get("/Backend/Common/school/options?keyword=" + encodeURIComponent("杭州电子工业学院"));
    expect(r.body.data.map((s: { name: string }) => s.name)).toEqual(["杭州电子科技大学"]);
  });

  it("answers unknown API paths and malformed JSON in the envelope", async () => {
    const c = new Client(t);
    const nf = await c.get("/Backend/No/such/route");
    expect(nf.status).toBe(404);
    expect(nf.body.error).toBe(404);
    const bad = await t.app.inject({
      method: "POST",
      url: "/Backend/Common/account/login",
      payload: "{oops",
      headers: { "content-type": "application/json", origin: "http://localhost:80", host: "localhost:80" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().info).toContain("JSON");
  });

  it("publishes an OpenAPI document with every route's schemas", async () => {
    const r = await t.app.inject({ method: "GET", url: "/Backend/openapi.json" });
    const doc = r.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/Backend/Common/user/get-current",
        "/Backend/Common/account/login",
        "/Backend/Common/account/register",
      ]),
    );
    expect(doc.paths["/Backend/Common/account/login"].post.requestBody.content["application/json"].schema.required).toEqual([
      "username",
      "password",
      "page",
    ]);
    const ui = await t.app.inject({ method: "GET", url: "/Backend/docs/" });
    expect(ui.statusCode).toBe(200);
  });
});

describe("login rate limit", () => {
  it("refuses the attempts past the limit with a Chinese message", async () => {
    const t = await makeApp("sqlite", { env: { LOGIN_RATE_MAX: "3" } });
    try {
      const c = new Client(t);
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push(
          (await c.post("/Backend/Common/account/login", { username: "root", password: "bad-pass1", page: "admin" })).status,
        );
      expect(codes).toEqual([401, 401, 401, 429, 429]);
      const last = await c.post("/Backend/Common/account/login", { username: "root", password: "Demo@2026", page: "admin" });
      expect(last.body.info).toBe("操作过于频繁，请稍后再试");
    } finally {
      await t.close();
    }
  });
});

describe("route registration", () => {
  it("refuses a /Backend route that declares no access rule", async () => {
    const app = Fastify();
    registerAccess(app, await loadPolicy());
    expect(() => app.get("/Backend/Unguarded", async () => ({}))).toThrow(/declares no access rule/);
    expect(() => app.get("/Backend/Guarded", { config: { access: ["api.security", "read"] } }, async () => ({}))).not.toThrow();
  });
});
