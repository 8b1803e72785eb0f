/**
 * The read caches (src/server/db/changes.ts): a cached read is served only while the tables
 * it depends on are unchanged; every write through the database handle — alone, in a
 * committed or in a rolled-back transaction — ends it; sessions and works lists built on it
 * never show stale data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { DeleteQueryNode, InsertQueryNode } from "kysely";
import { ReadCache, readCache, trackerOf, writtenTables } from "../../src/server/db/changes";
import { gunzipSync } from "node:zlib";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";

describe("which tables a statement writes", () => {
  it("names the table of an insert, update or delete and nothing for a read", async () => {
    const t = await makeApp("sqlite", { seed: false });
    try {
      const c = (q: { compile(): { query: unknown; sql: string } }) => {
        const x = q.compile();
        return writtenTables(x.query as never, x.sql);
      };
      expect(c(t.db.insertInto("school").values({ name: "x" } as never))).toEqual(["school"]);
      expect(c(t.db.updateTable("work").set({ name: "x" }).where("id", "=", 1))).toEqual(["work"]);
      expect(c(t.db.deleteFrom("work_author").where("id", "=", 1))).toEqual(["work_author"]);
      expect(c(t.db.selectFrom("work").selectAll())).toEqual([]);
      // Writes in WITH (data-modifying CTEs) are writes of their tables too.
      expect(
        c(
          t.db
            .with("gone", (qc) => qc.deleteFrom("work_author").where("id", "=", 1))
            .insertInto("school")
            .values({ name: "x" } as never),
        ),
      ).toEqual(["school", "work_author"]);
      expect(
        c(
          t.db
            .with("w", (qc) => qc.selectFrom("work").select("id"))
            .selectFrom("w")
            .selectAll(),
        ),
      ).toEqual([]);
      expect(
        c(
          t.db
            .with("w", () => sql`delete from work_author`)
            .selectFrom("w")
            .selectAll(),
        ),
      ).toEqual(["*"]);
      expect(
        InsertQueryNode.is(
          t.db
            .insertInto("school")
            .values({ name: "x" } as never)
            .toOperationNode(),
        ),
      ).toBe(true);
      expect(DeleteQueryNode.is(t.db.deleteFrom("school").toOperationNode())).toBe(true);
      // Raw SQL: a read is a read; a write of unknown tables counts as a write of every table.
      expect(writtenTables(undefined, "with recursive m(id) as (select 1) select id from m")).toEqual([]);
      expect(writtenTables(undefined, "update work set name = 'x'")).toEqual(["*"]);
      expect(writtenTables(undefined, "with x as (select 1) delete from work where id in (select * from x)")).toEqual(["*"]);
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)("read caches on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
  });
  afterAll(async () => t?.close());

  const schoolCount = async () =>
    Number(
      (
        await t.db
          .selectFrom("school")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("serves a read until one of its tables is written, alone or in a transaction", async () => {
    const cache = new ReadCache(trackerOf(t.db), { maxEntries: 10, maxAgeMs: 60_000 });
    let computed = 0;
    const read = () => cache.get("schools", ["school"], async () => (computed++, schoolCount()));
    const n0 = await read();
    expect(await read()).toBe(n0);
    expect(computed).toBe(1);

    // A write to another table keeps the entry.
    await t.db.updateTable("news").set({ title: "x" }).where("id", "=", -1).execute();
    expect(await read()).toBe(n0);
    expect(computed).toBe(1);

    // A plain insert ends it.
    await t.db
      .insertInto("school")
      .values({
        name: "缓存测试学校一",
        former_names: "[]",
        province: "浙江省",
        code: "CACHE1",
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .execute();
    expect(await read()).toBe(n0 + 1);
    expect(computed).toBe(2);

    // A committed transaction ends it.
    await t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("school")
        .values({
          name: "缓存测试学校二",
          former_names: "[]",
          province: "浙江省",
          code: "CACHE2",
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        } as never)
        .execute();
    });
    expect(await read()).toBe(n0 + 2);
    expect(computed).toBe(3);

    // A rolled-back one too (conservatively), and the count is unchanged.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("school")
          .values({
            name: "缓存测试学校三",
            former_names: "[]",
            province: "浙江省",
            code: "CACHE3",
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          } as never)
          .execute();
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await read()).toBe(n0 + 2);
    expect(computed).toBe(4);

    // Raw SQL that writes ends every entry.
    await sql`update school set name = name where id = -1`.execute(t.db);
    await read();
    expect(computed).toBe(5);
  });

  it("does not keep a value computed while its table was written", async () => {
    const cache = new ReadCache(trackerOf(t.db), { maxEntries: 10, maxAgeMs: 60_000 });
    let computed = 0;
    await cache.get("k", ["school"], async () => {
      computed++;
      await t.db.updateTable("school").set({ updated_at: new Date().toISOString() }).where("id", "=", -1).execute();
      return 1;
    });
    await cache.get("k", ["school"], async () => (computed++, 2));
    expect(computed).toBe(2);
  });

  it("expires entries by age and evicts the least recently used beyond its size", async () => {
    const aged = new ReadCache(trackerOf(t.db), { maxEntries: 10, maxAgeMs: 0 });
    let n = 0;
    await aged.get("k", ["school"], async () => ++n);
    expect(await aged.get("k", ["school"], async () => ++n)).toBe(2);

    const small = new ReadCache(trackerOf(t.db), { maxEntries: 2, maxAgeMs: 60_000 });
    const calls: string[] = [];
    const get = (k: string) => small.get(k, ["school"], async () => (calls.push(k), k));
    await get("a");
    await get("b");
    await get("a"); // a is now the most recent
    await get("c"); // evicts b
    await get("a");
    await get("b");
    expect(calls).toEqual(["a", "b", "c", "b"]);
  });

  it("ends a session at once when the user logs out or is locked", async () => {
    const student = new Client(t);
    await student.login("student", "student");
    const again = new Client(t);
    await again.login("student", "student");
    const me = async (c: Client) =>
      (await c.get("/Backend/Common/user/get-current")).body.data as { needToLogin: boolean; name?: string };
    expect(await me(again)).toMatchObject({ needToLogin: false });
    expect(await me(student)).toMatchObject({ needToLogin: false });
    // The same cookie kept elsewhere (the browser clears its own copy on logout).
    const copy = new Client(t);
    copy.cookie = student.cookie;
    expect(await me(copy)).toMatchObject({ needToLogin: false });
    await student.post("/Backend/Common/account/logout");
    expect(await me(copy)).toMatchObject({ needToLogin: true });
    expect(await me(again)).toMatchObject({ needToLogin: false });

    const root = new Client(t);
    await root.login("root", "admin");
    const id = (await t.db.selectFrom("app_user").select("id").where("username", "=", "student").executeTakeFirstOrThrow()).id;
    expect((await root.post(`/Backend/Admin/user/${id}/lock`)).body.error).toBe(0);
    expect(await me(again)).toMatchObject({ needToLogin: true });
  });

  it("shows a work's new state in the works list right after it changes", async () => {
    const root = new Client(t);
    await root.login("root", "admin");
    const list = async () =>
      (await root.get("/Backend/Admin/work?pageSize=100")).body.data as { total: number; list: { id: number; name: string }[] };
    const before = await list();
    expect(before.total).toBeGreaterThan(0);
    const first = before.list[0];
    await t.db.updateTable("work").set({ name: "列表缓存改名后的作品" }).where("id", "=", first.id).execute();
    const after = await list();
    expect(after.list.find((w) => w.id === first.id)?.name).toBe("列表缓存改名后的作品");
    expect(
      readCache(t.db, "works", { maxEntries: 0, maxAgeMs: 0 }).hits +
        readCache(t.db, "works", { maxEntries: 0, maxAgeMs: 0 }).misses,
    ).toBeGreaterThan(0);
  });
  it("sends a works page gzipped to a browser that accepts it, the same JSON either way", async () => {
    const root = new Client(t);
    await root.login("root", "admin");
    const url = "/Backend/Admin/work?pageSize=50";
    const plain = await t.app.inject({ method: "GET", url, headers: { cookie: root.cookie } });
    const zipped = await t.app.inject({
      method: "GET",
      url,
      headers: { cookie: root.cookie, "accept-encoding": "gzip, deflate, br" },
    });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toContain("accept-encoding");
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const body = JSON.parse(gunzipSync(zipped.rawPayload).toString("utf8"));
    expect(body).toEqual(JSON.parse(plain.body));
    expect(body.data.total).toBeGreaterThan(0);
  });
});
