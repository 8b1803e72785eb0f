/**
 * Reads are not held up by a long write transaction (on SQLite: WAL with a read connection
 * beside the writer, src/server/db/libsql-dialect.ts): a public read is answered while a
 * transaction is open, does not see its uncommitted rows, and sees them right after commit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { readsOnly } from "../../src/server/db/libsql-dialect";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";

const titles = async (c: Client) => {
  const r = await c.req("GET", "/Backend/Public/news?pageSize=50");
  expect(r.status).toBe(200);
  return (r.body.data.list as { title: string }[]).map((n) => n.title);
};

describe("which statements may run on the read connection", () => {
  it("takes SELECT and WITH … SELECT, and sends writes and everything else to the writer", () => {
    expect(readsOnly('select "id" from "news" where "id" = ?')).toBe(true);
    expect(readsOnly("  WITH recursive m(id) as (select 1) select id from m")).toBe(true);
    expect(readsOnly("with x as (select 1) delete from news where id in (select * from x)")).toBe(false);
    expect(readsOnly("with x as (select 1) insert into news (title) select 'a' from x")).toBe(false);
    expect(readsOnly('insert into "news" ("title") values (?) returning "id"')).toBe(false);
    expect(readsOnly("savepoint work_author_guard")).toBe(false);
    expect(readsOnly("pragma foreign_keys")).toBe(false);
    expect(readsOnly("analyze")).toBe(false);
  });
});

describe.each(DIALECTS)("reads during a write transaction on %s", (dialect) => {
  let t: TestApp;
  let anon: Client;
  beforeAll(async () => {
    t = await makeApp(dialect, { seed: false });
    anon = new Client(t);
  });
  afterAll(() => t.close());

  const addNews = (db: TestApp["db"], title: string) =>
    db
      .insertInto("news")
      .values({
        title,
        body: "<p>正文</p>",
        status: "published",
        publish_at: new Date(Date.now() - 60_000).toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();

  it("answers a read while a transaction is held open, without its uncommitted rows, and with them after commit", async () => {
    await addNews(t.db, "已发布的旧闻");
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    const trx = t.db
      .transaction()
      .execute(async (trx) => {
        await addNews(trx as never, "事务中的新闻");
        written();
        await held; // the transaction stays open until the test lets it go
      })
      .then(() => order.push("commit"));
    await wrote;

    const read = titles(anon).then((list) => {
      order.push("read");
      return list;
    });
    // Lets the transaction go only once the read is answered; a read that waits for the
    // transaction (head-of-line blocking) would deadlock, so give up waiting after a while
    // and let the order below tell.
    await Promise.race([read, new Promise((r) => setTimeout(r, 3000))]);
    release();
    const during = await read;
    await trx;

    expect(order).toEqual(["read", "commit"]);
    expect(during).toContain("已发布的旧闻");
    expect(during).not.toContain("事务中的新闻");
    // A read right after the commit sees the write.
    expect(await titles(anon)).toContain("事务中的新闻");
  });

  it("answers a read while a transaction runs statement after statement without pausing", async () => {
    const order: string[] = [];
    let readDone = false;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const trx = t.db
      .transaction()
      .execute(async (trx) => {
        // A busy import: awaited statements only (on SQLite each resolves at once). It stops
        // early once the read is answered; a read that waits for it finds it has written all.
        for (let i = 0; i < 20_000 && !readDone; i++) {
          await trx
            .insertInto("audit_log")
            .values({
              at: new Date().toISOString(),
              user_id: null,
              entity: "test",
              entity_id: String(i),
              action: "import",
              changes: "{}",
            })
            .execute();
          if (i === 0) started();
        }
      })
      .then(() => order.push("commit"));
    await running;
    await titles(anon).then(() => {
      readDone = true;
      order.push("read");
    });
    await trx;
    expect(order).toEqual(["read", "commit"]);
  });

  it("sees a write made outside a transaction on the next read, and nothing of a rolled-back one", async () => {
    await addNews(t.db, "直接写入的新闻");
    expect(await titles(anon)).toContain("直接写入的新闻");
    await expect(
      t.db.transaction().execute(async (trx) => {
        await addNews(trx as never, "回滚的新闻");
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await titles(anon)).not.toContain("回滚的新闻");
    // A raw read outside a transaction sees the last commit too.
    const n = await sql<{ n: number }>`select count(*) as n from news where title = ${"直接写入的新闻"}`.execute(t.db);
    expect(Number(n.rows[0].n)).toBe(1);
  });

  it("keeps reads inside a transaction on the transaction (they see its own writes)", async () => {
    await t.db.transaction().execute(async (trx) => {
      await addNews(trx as never, "事务内可见");
      const row = await trx.selectFrom("news").select("id").where("title", "=", "事务内可见").executeTakeFirst();
      expect(row).toBeDefined();
    });
  });
});
