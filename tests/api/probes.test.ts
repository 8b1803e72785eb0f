/**
 * GET /healthz and /readyz (src/server/health/probes.ts): anonymous, never refused by the
 * session, access, same-origin or rate-limit checks, no cookie set; /readyz names each check
 * and answers 503 while one fails — a migration not applied, the blob store unusable.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";

describe.each(DIALECTS)("probes on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect, { seed: false });
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
  const allPassing =
    dialect === "postgres"
      ? { database: true, storage: true, migrations: true, changeListener: true, accepting: true }
      : { database: true, storage: true, migrations: true, accepting: true };

  it("a migration this code has and the database has not: /readyz 503 naming it, /healthz still 200", async () => {
    // Before any /readyz: a passing migration check is kept for the life of the process.
    const last = await sql<{
      name: string;
      timestamp: string;
    }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(t.db);
    const { name, timestamp } = last.rows[0];
    await sql`delete from kysely_migration where name = ${name}`.execute(t.db);
    try {
      const r = await get("/readyz");
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: "unavailable", checks: { ...allPassing, migrations: false } });
      expect((await get("/healthz")).statusCode).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${timestamp})`.execute(t.db);
    }
    expect((await get("/readyz")).statusCode).toBe(200);
  });

  it("/healthz and /readyz answer 200 with small JSON, not cached, no cookie", async () => {
    const live = await get("/healthz");
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: "ok" });
    const ready = await get("/readyz");
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", checks: allPassing });
    for (const r of [live, ready]) {
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.headers["set-cookie"]).toBeUndefined();
      expect(r.headers["content-type"]).toMatch(/application\/json/);
    }
    expect((await t.app.inject({ method: "HEAD", url: "/healthz" })).statusCode).toBe(200);
  });

  it("are not refused by a stale session cookie, a foreign Origin, a bad API token or many calls", async () => {
    const odd = {
      cookie: "saiwu_sid=not-a-session",
      origin: "https://evil.example",
      referer: "https://evil.example/x",
      authorization: "Bearer swp_1_nope",
    };
    for (const url of ["/healthz", "/readyz"]) {
      const r = await get(url, odd);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers["set-cookie"], url).toBeUndefined();
      expect(r.headers["access-control-allow-origin"], url).toBeUndefined();
    }
    const many = await Promise.all(Array.from({ length: 60 }, (_, i) => get(i % 2 ? "/healthz" : "/readyz")));
    expect(many.map((r) => r.statusCode)).toEqual(Array(60).fill(200));
  });

  it("an unusable blob store: /readyz 503 with storage false, and 200 again once it is back", async () => {
    const blobDir = t.config.storage.blobDir;
    rmSync(blobDir, { recursive: true, force: true });
    // A file where the directory should be: nothing can be stored.
    writeFileSync(blobDir, "not a directory");
    try {
      const r = await get("/readyz");
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: "unavailable", checks: { ...allPassing, storage: false } });
      // The body names checks only: no path, URL or error text.
      expect(r.body).not.toContain(blobDir);
      expect(r.body).not.toMatch(/postgres|file:|ENOTDIR|EEXIST/i);
    } finally {
      rmSync(blobDir, { force: true });
      mkdirSync(blobDir, { recursive: true });
    }
    expect((await get("/readyz")).json()).toEqual({ status: "ok", checks: allPassing });
  });
});
