/**
 * PostgreSQL goes away and comes back (tests/helpers/tcp-proxy.ts between the app and the
 * database: every connection reset, new ones refused, then accepted again). Meanwhile every
 * API call answers 503 with the Chinese message and Retry-After, never 500; /readyz turns
 * 503 and /healthz stays 200; nothing in the process dies (pool, change listener, job queue
 * pollers and sweeps, scheduled ticks). Once the database is back /readyz returns to 200 and
 * logging in works again. SQLite: a database locked by another writer beyond the busy
 * timeout is a 503 as well.
 */
import Database from "libsql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { TcpProxy } from "../helpers/tcp-proxy";

const UNAVAILABLE = { error: 503, info: "数据库暂时不可用，请稍后重试" };

/** Polls `check` every 100 ms until it returns true, or throws after `timeoutMs` with what it last saw. */
async function until(timeoutMs: number, what: string, check: () => Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!DIALECTS.includes("postgres"))("PostgreSQL outage", () => {
  let proxy: TcpProxy;
  let t: TestApp;
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  beforeAll(async () => {
    process.on("unhandledRejection", onCrash);
    process.on("uncaughtException", onCrash);
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    // Short job leases: the sweep and heartbeats run (and fail) during the outage too.
    t = await makeApp("postgres", {
      databaseUrl: (url) => proxy.rewrite(url),
      env: { JOB_LEASE_SECONDS: "2", JOB_CLEANUP_SECONDS: "1" },
    });
  }, 60_000);
  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    process.off("unhandledRejection", onCrash);
    process.off("uncaughtException", onCrash);
  });

  const get = (url: string) => t.app.inject({ method: "GET", url });

  it("answers 503 while the database is gone, keeps the process alive, and recovers when it returns", async () => {
    const root = new Client(t);
    await root.login("root", "admin");
    expect((await root.get("/Backend/Common/user/get-current")).body.data.username).toBe("root");
    expect((await get("/readyz")).statusCode).toBe(200);
    const before = proxy.accepted;

    await proxy.cut();

    // Readiness notices within a few seconds; liveness does not (nothing to restart).
    await until(5_000, "/readyz 503", async () => (await get("/readyz")).statusCode === 503);
    const ready = await get("/readyz");
    expect(ready.json()).toMatchObject({
      status: "unavailable",
      checks: { database: false, changeListener: false, accepting: true },
    });
    expect(ready.body).not.toMatch(/postgres:|127\.0\.0\.1|ECONN/);
    expect((await get("/healthz")).json()).toEqual({ status: "ok" });

    // Reads and writes, signed in or not: 503 in the envelope with Retry-After, never a 500.
    const calls = [
      () => root.get("/Backend/Common/user/get-current"),
      () => root.get("/Backend/Admin/user?page=1&pageSize=10"),
      () => new Client(t).post("/Backend/Common/account/login", { username: "student", password: "Demo@2026", page: "student" }),
      () => root.post("/Backend/Common/account/logout"),
    ];
    for (const call of calls) {
      const r = await call();
      expect(r.status, r.body.info).toBe(503);
      expect(r.body).toEqual(UNAVAILABLE);
      expect(r.res.headers["retry-after"]).toBe("5");
    }
    // Stay down long enough for the queue's pollers, the job sweep, scheduled ticks and the
    // change listener's reconnection attempts to fail a few times.
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await root.get("/Backend/Common/user/get-current")).status).toBe(503);
    expect((await get("/healthz")).statusCode).toBe(200);

    await proxy.restore();

    // The pool, the listener (with its backoff) and the queue reconnect by themselves.
    await until(30_000, "/readyz 200 again", async () => (await get("/readyz")).statusCode === 200);
    expect((await get("/readyz")).json()).toMatchObject({ status: "ok", checks: { database: true, changeListener: true } });
    expect(proxy.accepted).toBeGreaterThan(before);
    // The session outlived the outage (logout was refused with the rest); logging in works again.
    expect((await root.get("/Backend/Common/user/get-current")).body.data.username).toBe("root");
    const student = new Client(t);
    await student.login("student", "student");
    expect((await student.get("/Backend/Common/user/get-current")).body.data.username).toBe("student");
    expect(crashes).toEqual([]);
  }, 90_000);
});

describe("SQLite locked by another writer", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp("sqlite");
  });
  afterAll(async () => t?.close());

  it("answers 503 once the busy timeout has passed, and works again when the lock is gone", async () => {
    const root = new Client(t);
    await root.login("root", "admin");
    // Another program holds the write lock of the database file (an external backup, sqlite3 CLI).
    const other = new Database(t.config.databaseUrl.replace(/^file:/, ""));
    other.exec("begin immediate");
    try {
      const r = await root.post("/Backend/Common/account/logout");
      expect(r.status, r.body.info).toBe(503);
      expect(r.body).toEqual(UNAVAILABLE);
      expect(r.res.headers["retry-after"]).toBe("5");
    } finally {
      other.exec("rollback");
      other.close();
    }
    expect((await root.get("/Backend/Common/user/get-current")).body.data.username).toBe("root");
  }, 30_000);
});
