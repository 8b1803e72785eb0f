/**
 * /Backend/Health (the /test page, root only): the deployment's version, database and migration
 * level, mail, storage, queue and process hints — with no password, key or credentialed URL in the
 * reply even when the configuration holds them — and a rate-limited test mail to the caller.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { migrations } from "../../src/server/db/migrations/index";

const DB_SECRET = "Db-Pa55word-XYZ";
const SMTP_SECRET = "Smtp-Pa55word-QRS";
const TOKEN_SECRET = "libsqlAuthTokenABC123";

describe.each(DIALECTS)("health on %s", (dialect) => {
  describe("with secrets in the configuration", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeApp(dialect, {
        env: {
          // SQLite: only shown, never opened (the helper opens the test file).
          ...(dialect === "sqlite" ? { DATABASE_URL: `file:/srv/saiwu/data/saiwu.db?authToken=${TOKEN_SECRET}` } : {}),
          SMTP_URL: `smtps://mailer:${SMTP_SECRET}@smtp.example.org:465`,
          MAIL_FROM: "赛务平台 <noreply@example.org>",
        },
      });
      // PostgreSQL: the scratch database's URL is only known now; the server trusts local
      // connections, so the same URL with a password is what a deployment would configure.
      if (dialect === "postgres") {
        t.config.databaseUrl =
          t.config.databaseUrl.replace(/^postgres(ql)?:\/\/([^@/]+)@/, `postgres://$2:${DB_SECRET}@`) + "?sslmode=disable";
        expect(t.config.databaseUrl).toContain(`:${DB_SECRET}@`);
      }
    });
    afterAll(async () => t?.close());

    it("root sees version, database, migrations, mail, storage, queue and process hints", async () => {
      const c = new Client(t);
      await c.login("root", "admin");
      const r = await c.get("/Backend/Health");
      expect(r.status).toBe(200);
      const h = r.body.data;
      expect(h.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(h.database.kind).toBe(dialect);
      if (dialect === "postgres") expect(h.database.location).toMatch(/^127\.0\.0\.1:5432\/\w+$/);
      else expect(h.database.location).toBe("saiwu.db");
      const known = Object.keys(migrations).sort();
      expect(h.database.known).toBe(known.length);
      expect(h.database.applied).toBe(known.length);
      expect(h.database.pending).toEqual([]);
      expect(known).toContain(h.database.latestMigration);
      expect(h.mail).toMatchObject({
        mode: "smtp",
        host: "smtp.example.org",
        port: 465,
        auth: true,
        from: "赛务平台 <noreply@example.org>",
      });
      expect(h.storage).toEqual({ driver: "local", bucket: null, endpoint: null });
      expect(h.queue.driver).toMatch(dialect === "postgres" ? /pg-boss/ : /queue_task/);
      expect(h.process.pid).toBe(process.pid);
      expect(h.process.hint).toMatch(dialect === "postgres" ? /start:cluster/ : /SQLite/);
      const raw = r.res.body;
      for (const secret of [DB_SECRET, SMTP_SECRET, TOKEN_SECRET, "mailer:", "postgres:", "authToken", "sslmode"]) {
        expect(raw).not.toContain(secret);
      }
    });

    it("other roles get 403 and visitors 401", async () => {
      for (const [user, page] of [
        ["contest_admin", "admin"],
        ["school_admin", "admin"],
        ["student", "student"],
      ] as const) {
        const c = new Client(t);
        await c.login(user, page);
        expect((await c.get("/Backend/Health")).status).toBe(403);
        expect((await c.post("/Backend/Health/test-mail")).status).toBe(403);
      }
      const anon = new Client(t);
      expect((await anon.get("/Backend/Health")).status).toBe(401);
    });
  });

  describe("test mail (outbox)", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeApp(dialect);
    });
    afterAll(async () => t?.close());

    it("goes to root's own address, at most 3 an hour", async () => {
      const c = new Client(t);
      await c.login("root", "admin");
      const h = (await c.get("/Backend/Health")).body.data;
      expect(h.mail).toMatchObject({ mode: "outbox", host: null, auth: false });
      const me = (await c.get("/Backend/Common/user/get-current")).body.data;
      expect(me.email).toBeTruthy();
      for (let i = 0; i < 3; i++) {
        const r = await c.post("/Backend/Health/test-mail");
        expect(r.status).toBe(200);
        expect(r.body.data.to).toBe(me.email);
      }
      const limited = await c.post("/Backend/Health/test-mail");
      expect(limited.status).toBe(429);
      expect(limited.body.info).toBe("操作过于频繁，请稍后再试");
      let mails: ReturnType<TestApp["mails"]> = [];
      for (let i = 0; i < 200 && mails.length < 3; i++) {
        mails = t.mails().filter((m) => m.subject === "赛务平台测试邮件");
        if (mails.length < 3) await new Promise((r) => setTimeout(r, 50));
      }
      expect(mails.map((m) => m.to)).toEqual([me.email, me.email, me.email]);
      await new Promise((r) => setTimeout(r, 200));
      expect(t.mails().filter((m) => m.subject === "赛务平台测试邮件")).toHaveLength(3);
    });
  });
});
