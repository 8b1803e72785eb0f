/**
 * Rate limits (src/server/plugins/limits.ts) on both dialects: a login name counts in its
 * canonical form (trailing space, upper case and the email share one bucket); the client
 * address is the peer's unless the peer is a trusted proxy, so a forged X-Forwarded-For
 * gains nothing; many addresses against one account meet a ceiling; mail is limited per
 * mailbox across register, resend and recovery; the public work query per address and per
 * work. Two server processes on one PostgreSQL: limits-cluster.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, ORIGIN, type TestApp } from "../helpers/app";
import { DbLimitStore } from "../../src/server/plugins/limits";

const LOGIN = "/Backend/Common/account/login";
const TOO_MANY = { error: 429, info: "操作过于频繁，请稍后再试" };
const PROXY = "10.0.0.1";

describe.each(DIALECTS)("rate limits on %s", (dialect) => {
  let t: TestApp;
  let email: string;

  /** A request from `remote` (the connection's peer), optionally with X-Forwarded-For. */
  const post = async (url: string, payload: object, remote: string, xff?: string, app = t.app) => {
    const res = await app.inject({
      method: "POST",
      url,
      payload,
      remoteAddress: remote,
      headers: { origin: ORIGIN, host: "localhost:80", ...(xff ? { "x-forwarded-for": xff } : {}) },
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const login = (username: string, remote: string, xff?: string, password = "wrong-pass1", app = t.app) =>
    post(LOGIN, { username, password, page: "student" }, remote, xff, app);

  beforeAll(async () => {
    t = await makeApp(dialect, { env: { LOGIN_RATE_MAX: "3", MAIL_RATE_MAX: "2", TRUSTED_PROXIES: PROXY } });
    email = (await t.db.selectFrom("app_user").select("email").where("username", "=", "student").executeTakeFirstOrThrow())
      .email!;
  });
  afterAll(async () => t?.close());

  it("counts a trailing space, upper case and the email form of one account in one bucket, whatever X-Forwarded-For an untrusted client sends", async () => {
    const peer = "192.0.2.10";
    expect((await login("student ", peer)).status).toBe(401);
    expect((await login("STUDENT", peer, "203.0.113.1")).status).toBe(401);
    expect((await login(` ${email.toUpperCase()}`, peer, "203.0.113.2")).status).toBe(401);
    const refused = await login("student", peer, "203.0.113.3", "Demo@2026");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await login(email, peer, `198.51.100.${Math.floor(Math.random() * 200)}`)).body).toEqual(TOO_MANY);
    // Another real address has its own bucket for the account.
    expect((await login("student", "192.0.2.11")).status).toBe(401);
  });

  it("takes the client address from X-Forwarded-For only from a trusted proxy", async () => {
    for (let i = 0; i < 3; i++) expect((await login("teacher", PROXY, "198.51.100.1")).status).toBe(401);
    expect((await login("Teacher", PROXY, "198.51.100.1")).body).toEqual(TOO_MANY);
    // Behind the proxy, another client is another address.
    expect((await login("teacher", PROXY, "198.51.100.2")).status).toBe(401);
    // The session records the address the limits counted.
    const viaProxy = await post(LOGIN, { username: "root", password: "Demo@2026", page: "admin" }, PROXY, "198.51.100.9");
    const direct = await post(LOGIN, { username: "root", password: "Demo@2026", page: "admin" }, "192.0.2.30", "198.51.100.10");
    expect([viaProxy.status, direct.status]).toEqual([200, 200]);
    const ips = (
      await t.db
        .selectFrom("user_session")
        .innerJoin("app_user", "app_user.id", "user_session.user_id")
        .select("user_session.ip")
        .where("app_user.username", "=", "root")
        .execute()
    ).map((r) => r.ip);
    expect(ips).toEqual(expect.arrayContaining(["198.51.100.9", "192.0.2.30"]));
    expect(ips).not.toContain("198.51.100.10");
  });

  it("stops many addresses against one account at five times the per-address limit", async () => {
    const codes: number[] = [];
    for (let a = 1; a <= 6; a++)
      for (let i = 0; i < 3; i++) codes.push((await login("judge2", PROXY, `198.51.100.${100 + a}`)).status);
    expect(codes.slice(0, 15)).toEqual(Array(15).fill(401));
    expect(codes.slice(15)).toEqual([429, 429, 429]);
  });

  it("does not let one address past its own limit use up an account's ceiling", async () => {
    for (let i = 0; i < 20; i++) await login("judge4", "192.0.2.20");
    for (let a = 1; a <= 4; a++)
      for (let i = 0; i < 3; i++) expect((await login("judge4", PROXY, `198.51.100.${200 + a}`)).status).toBe(401);
  });

  it("limits the mails to one mailbox across register, resend and recovery, from any address", async () => {
    const to = "limit.new@example.cn";
    const school = (await t.db.selectFrom("school").select("id").where("archived", "=", 0).executeTakeFirstOrThrow()).id;
    const reg = await post(
      "/Backend/Common/account/register",
      { role: 100, username: "limit_new", password: "Limit2026x", name: "限流新生", email: to, schoolId: school },
      "192.0.2.40",
    );
    expect(reg.status).toBe(201);
    expect((await post("/Backend/Common/account/resend-verification", { email: to.toUpperCase() }, "192.0.2.41")).status).toBe(
      200,
    );
    expect(
      (await post("/Backend/Common/account/resend-verification", { email: "Limit.New@Example.CN" }, "192.0.2.42")).body,
    ).toEqual(TOO_MANY);
    // Recovery by username reaches the same mailbox.
    expect((await post("/Backend/Common/account/recovery/request", { account: "limit_new" }, "192.0.2.43")).body).toEqual(
      TOO_MANY,
    );
    expect(t.mails().filter((m) => m.to.includes(to))).toHaveLength(2);
    // Another mailbox is not affected.
    expect((await post("/Backend/Common/account/recovery/request", { account: "teacher" }, "192.0.2.44")).status).toBe(200);
  });

  it("limits recovery requests per address whatever X-Forwarded-For says", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push(
        (await post("/Backend/Common/account/recovery/request", { account: `nobody${i}` }, "192.0.2.50", `203.0.113.${i}`))
          .status,
      );
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("limits the public work query per address and per work", async () => {
    const q = (remote: string, xff?: string, workId = 2026000001) =>
      post("/Backend/Public/query-work", { workId, authorName: "某某" }, remote, xff);
    const first: number[] = [];
    for (let i = 0; i < 21; i++) first.push((await q("192.0.2.60", `203.0.113.${i}`)).status);
    expect(first.slice(0, 20).every((s) => s !== 429)).toBe(true);
    expect(first[20]).toBe(429);
    // The same work from other addresses: 30 a minute in all (the refused 21st did not count).
    const more: number[] = [];
    for (let i = 0; i < 11; i++) more.push((await q(`192.0.2.${70 + i}`)).status);
    expect(more.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(more.slice(10)).toEqual([429]);
    expect((await q("192.0.2.90", undefined, 2026000002)).status).not.toBe(429);
  });

  it("counts concurrent hits in the table store exactly once each and starts an expired window again", async () => {
    const store = new DbLimitStore(t.db);
    const counts = await Promise.all(Array.from({ length: 40 }, () => store.hit("test:concurrent", 60_000)));
    expect(counts.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(counts.map((h) => h.resetAt)).size).toBe(1);
    await store.hit("test:expired", -1000);
    expect((await store.hit("test:expired", 60_000)).count).toBe(1);
    expect((await store.hit("test:expired", 60_000)).count).toBe(2);
    // peek reads without counting, and an expired window reads as empty.
    expect((await store.peek("test:expired"))?.count ?? 0).toBe(2);
    expect((await store.peek("test:expired"))?.count ?? 0).toBe(2);
    expect((await store.peek("test:never"))?.count ?? 0).toBe(0);
    await store.hit("test:over", -1000);
    expect((await store.peek("test:over"))?.count ?? 0).toBe(0);
  });
});
