/**
 * Rate limits hold across two real server processes on one PostgreSQL database, and across
 * header tricks: attempts spread over both processes, under every spelling of one account
 * and with forged X-Forwarded-For, count into one bucket; so do mails to one mailbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, startCluster, type Cluster } from "../../support/cluster";

const TOO_MANY = { error: 429, info: "操作过于频繁，请稍后再试" };

describe.runIf(!!process.env.TEST_DATABASE_URL)("rate limits across two processes on one PostgreSQL", () => {
  let cluster: Cluster;
  let a: HttpClient, b: HttpClient;

  beforeAll(async () => {
    cluster = await startCluster(2, { env: { LOGIN_RATE_MAX: "3", MAIL_RATE_MAX: "2" } });
    [a, b] = cluster.procs.map((p) => new HttpClient(p.url));
  }, 120_000);
  afterAll(async () => cluster?.close());

  it("counts login attempts on both processes, every spelling of the account and any forged X-Forwarded-For in one bucket", async () => {
    const email = (
      await cluster.db.selectFrom("app_user").select("email").where("username", "=", "student").executeTakeFirstOrThrow()
    ).email!;
    const attempt = (c: HttpClient, username: string, i: number) =>
      c.req(
        "POST",
        "/Backend/Common/account/login",
        { username, password: "wrong-pass1", page: "student" },
        { "x-forwarded-for": `203.0.113.${i}` },
      );
    const replies = [
      await attempt(a, "student ", 1),
      await attempt(b, "STUDENT", 2),
      await attempt(a, email.toUpperCase(), 3),
      await attempt(b, "student", 4),
    ];
    expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(replies[3].body).toEqual(TOO_MANY);
    // The right password does not get through either, on either process.
    const right = await a.req("POST", "/Backend/Common/account/login", {
      username: "student",
      password: "Demo@2026",
      page: "student",
    });
    expect(right.body).toEqual(TOO_MANY);
  });

  it("counts the mails to one mailbox on both processes", async () => {
    const email = (
      await cluster.db.selectFrom("app_user").select("email").where("username", "=", "teacher").executeTakeFirstOrThrow()
    ).email!;
    const codes = [
      (await a.post("/Backend/Common/account/recovery/request", { account: "teacher" })).status,
      (await b.post("/Backend/Common/account/resend-verification", { email })).status,
      (await a.post("/Backend/Common/account/recovery/request", { account: email.toUpperCase() })).status,
      (await b.post("/Backend/Common/account/recovery/request", { account: "teacher" })).status,
    ];
    expect(codes).toEqual([200, 200, 429, 429]);
  });
});
