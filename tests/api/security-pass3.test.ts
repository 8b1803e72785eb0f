/**
 * Security, third pass (issue 28): each finding of the black-box probe, refused at its source.
 * - Login (and the two invitation registrations that log in) refuse a request without our
 *   Origin, as every other write does: a foreign form cannot sign a victim into another account.
 * - The user resource's PATCH refuses `locked` / `archived` (they have their own actions) with
 *   422 and changes nothing, instead of answering 用户已保存 and locking nothing.
 * - The public complaint lookup answers only for works of a published result, and for the
 *   work's own team; any other work answers exactly as an unknown id.
 * - Password spraying: wrong passwords from one address against many accounts are slowed past
 *   LOGIN_ADDRESS_RATE_MAX and refused at ten times it; right passwords count nothing, and
 *   another address is not affected.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, ORIGIN, type TestApp } from "../helpers/app";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { publishedContestOf } from "../../src/server/complaint/filing";

const LOGIN = "/Backend/Common/account/login";
const body = { username: "student", password: "Demo@2026", page: "student" };

describe.each(DIALECTS)("security, third pass, on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
  });
  afterAll(async () => t?.close());

  const login = (headers: Record<string, string>) =>
    t.app.inject({ method: "POST", url: LOGIN, payload: body, headers: { host: "localhost:80", ...headers } });

  it("refuses a login without an Origin or from a foreign one, and sets no session", async () => {
    const tries: Record<string, string>[] = [
      {},
      { origin: "https://evil.example" },
      { referer: "https://evil.example/form.html" },
    ];
    for (const headers of tries) {
      const r = await login(headers);
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ error: 403, info: "请求来源不被允许，请从本站页面操作" });
      expect(r.cookies.find((c) => c.name === "saiwu_sid")).toBeUndefined();
    }
    const ours = await login({ origin: ORIGIN });
    expect(ours.statusCode).toBe(200);
    expect(ours.cookies.find((c) => c.name === "saiwu_sid")?.value).toBeTruthy();
    // A page of ours that sends only a Referer (some privacy settings drop Origin) still logs in.
    expect((await login({ referer: `${ORIGIN}/account/StudentLogin` })).statusCode).toBe(200);
  });

  it("refuses the invitation registrations that log in without an Origin before looking at the code", async () => {
    for (const url of ["/Backend/Public/judge-invite/x/register", "/Backend/Public/work-invite/x/register"]) {
      const r = await t.app.inject({ method: "POST", url, payload: {}, headers: { host: "localhost:80" } });
      expect(r.statusCode).toBe(403);
      expect(r.json().info).toBe("请求来源不被允许，请从本站页面操作");
    }
  });

  it("refuses locked and archived in a user PATCH with 422 and changes nothing", async () => {
    const root = new Client(t);
    await root.login("root", "admin");
    const student = await t.db
      .selectFrom("app_user")
      .select(["id", "name"])
      .where("username", "=", "student")
      .executeTakeFirstOrThrow();
    for (const field of ["locked", "archived"]) {
      const r = await root.req("PATCH", `/Backend/Admin/user/${student.id}`, { [field]: true, name: "改过的名字" });
      expect(r.status).toBe(422);
      expect(r.body.info).toBe("锁定、解锁或归档请使用用户列表中的对应操作，不能在编辑用户时修改");
    }
    const after = await t.db
      .selectFrom("app_user")
      .select(["name", "locked", "archived"])
      .where("id", "=", student.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ name: student.name, locked: 0, archived: 0 });
    // The student can still log in; the edit without those fields still saves.
    await new Client(t).login("student", "student");
    const ok = await root.req("PATCH", `/Backend/Admin/user/${student.id}`, { name: student.name });
    expect(ok.status).toBe(200);
  });

  it("answers the public complaint lookup only for published works and the work's own team", async () => {
    const works = await t.db.selectFrom("work").select(["id", "status"]).where("status", "!=", "draft").orderBy("id").execute();
    const published: number[] = [];
    const unpublished: number[] = [];
    for (const w of works) ((await publishedContestOf(t.db, Number(w.id))) === null ? unpublished : published).push(Number(w.id));
    expect(published.length).toBeGreaterThan(0);
    expect(unpublished.length).toBeGreaterThan(0);

    const visitor = new Client(t);
    const pub = await visitor.get(`/Backend/Public/complaint/work/${published[0]}`);
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({ workId: published[0], published: true });

    const unknownId = 2026999999;
    const unknown = await visitor.get(`/Backend/Public/complaint/work/${unknownId}`);
    for (const id of unpublished) {
      const r = await visitor.get(`/Backend/Public/complaint/work/${id}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ ...unknown.body, info: unknown.body.info.replace(String(unknownId), String(id)) });
    }

    // The team of an unpublished work still sees it (an author may appeal it).
    const author = await t.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.username")
      .where("work_author.work_id", "=", unpublished[0])
      .executeTakeFirstOrThrow();
    const member = new Client(t);
    await member.login(author.username, "student");
    const own = await member.get(`/Backend/Public/complaint/work/${unpublished[0]}`);
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ workId: unpublished[0], published: false });
  });
});

describe.each(DIALECTS)("password spraying from one address on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect, { env: { LOGIN_ADDRESS_RATE_MAX: "3", LOGIN_SLOWDOWN_MS: "1" } });
  });
  afterAll(async () => t?.close());

  const attempt = (username: string, password: string, remoteAddress = "203.0.113.7") =>
    t.app.inject({
      method: "POST",
      url: LOGIN,
      remoteAddress,
      payload: { username, password, page: "student" },
      headers: { host: "localhost:80", origin: ORIGIN },
    });

  it("slows, then refuses, one address trying one password over many accounts; logins that succeed still work", async () => {
    // Ceiling: 10 × 3 = 30 failures in ten minutes.
    for (let i = 0; i < 20; i++) expect((await attempt(`spray${i}`, "Summer2026!")).statusCode).toBe(401);
    // Past the allowance the address is slowed, not locked: a student with the right password gets in,
    // and a success adds nothing to the count.
    for (let i = 0; i < 3; i++) expect((await attempt("student", "Demo@2026")).statusCode).toBe(200);
    for (let i = 20; i < 30; i++) expect((await attempt(`spray${i}`, "Summer2026!")).statusCode).toBe(401);
    const refused = await attempt("spray30", "Summer2026!");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 429, info: "操作过于频繁，请稍后再试" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(600);
    if (dialect === "postgres") {
      // Retry-After is the time left in the address's window, not the whole window again.
      const soon = new Date(Date.now() + 90_000).toISOString();
      await t.db.updateTable("rate_limit").set({ expires_at: soon }).execute();
      const later = await attempt("spray31", "Summer2026!");
      expect(later.statusCode).toBe(429);
      expect(Number(later.headers["retry-after"])).toBeGreaterThan(80);
      expect(Number(later.headers["retry-after"])).toBeLessThanOrEqual(90);
    }
    expect((await attempt("student", "Demo@2026")).statusCode).toBe(429);
    // Another address is untouched.
    expect((await attempt("student", "Demo@2026", "198.51.100.20")).statusCode).toBe(200);
  });
});
