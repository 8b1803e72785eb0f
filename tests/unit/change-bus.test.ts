/**
 * The change bus (src/server/db/change-bus.ts): what a payload says, and on PostgreSQL two
 * handles on one database hearing each other's committed writes — not uncommitted or
 * rolled-back ones, not their own — and a listener that loses its connection suspending
 * the caches until it listens again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import pg from "pg";
import { CHANNEL, ChangeBus, decodeChanges, encodeChanges } from "../../src/server/db/change-bus";
import { ChangeTracker, ReadCache, trackerOf, watchChanges } from "../../src/server/db/changes";
import { migrate, openDb, type Db } from "../../src/server/db";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { within } from "../../support/cluster";

describe("change payloads", () => {
  it("name the sender and the tables, and every table when they would not fit", () => {
    expect(decodeChanges(encodeChanges("p1", ["school", "work", "school"]))).toEqual({
      origin: "p1",
      tables: ["school", "work"],
    });
    expect(decodeChanges(encodeChanges("p1", ["work", "*"]))).toEqual({ origin: "p1", tables: ["*"] });
    const many = Array.from({ length: 2000 }, (_, i) => `table_${i}`);
    const payload = encodeChanges("p1", many);
    expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(decodeChanges(payload)).toEqual({ origin: "p1", tables: ["*"] });
  });

  it("count anything unreadable as a change of every table", () => {
    for (const p of [undefined, "", "not json", "{}", '{"o":"x","t":[1]}'])
      expect(decodeChanges(p)).toEqual({ origin: null, tables: ["*"] });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the change bus on PostgreSQL", () => {
  let url: string;
  let drop: () => Promise<void>;
  let writer: Db;
  let reader: Db;
  beforeAll(async () => {
    ({ url, drop } = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_bus"));
    writer = openDb(url).db;
    reader = openDb(url).db;
    await migrate(writer);
    await watchChanges(writer);
    await watchChanges(reader);
  }, 60_000);
  afterAll(async () => {
    await writer?.destroy();
    await reader?.destroy();
    await drop?.();
  });

  const stampOf = (db: Db, table: string) => trackerOf(db).stamp([table]);
  /** A write of `table` (of no row: the announcement is what counts). */
  const touch = (db: Db, table: "school" | "news" | "major" | "contest") =>
    db
      .updateTable(table)
      .set({ id: sql`id` } as never)
      .where("id", "=", -1)
      .execute();

  it("a handle that listens caches; one that does not serves nothing from its caches", async () => {
    expect(trackerOf(reader).suspended).toBe(false);
    const silent = openDb(url).db;
    try {
      expect(trackerOf(silent).suspended).toBe(true);
      const cache = new ReadCache(trackerOf(silent), { maxEntries: 10, maxAgeMs: 60_000 });
      let n = 0;
      await cache.get("k", ["school"], async () => ++n);
      expect(await cache.get("k", ["school"], async () => ++n)).toBe(2);
    } finally {
      await silent.destroy();
    }
  });

  it("hears another handle's autocommit write, for the tables written only", async () => {
    const school = stampOf(reader, "school");
    const news = stampOf(reader, "news");
    await touch(writer, "school");
    await within(1000, async () => stampOf(reader, "school") !== school);
    expect(stampOf(reader, "news")).toBe(news);
  });

  it("hears a transaction's writes at its commit and a rolled-back one's never", async () => {
    const news = stampOf(reader, "news");
    await writer.transaction().execute(async (trx) => {
      await touch(trx as unknown as Db, "news");
      // Not committed yet: a write announced later arrives, this one does not.
      const major = stampOf(reader, "major");
      await touch(writer, "major");
      await within(1000, async () => stampOf(reader, "major") !== major);
      expect(stampOf(reader, "news")).toBe(news);
    });
    await within(1000, async () => stampOf(reader, "news") !== news);

    // A table sessions are read from is announced inside the transaction: also heard at its commit only.
    const sessions = stampOf(reader, "user_session");
    await writer.transaction().execute(async (trx) => {
      await trx.deleteFrom("user_session").where("id", "=", "none").execute();
      const major = stampOf(reader, "major");
      await touch(writer, "major");
      await within(1000, async () => stampOf(reader, "major") !== major);
      expect(stampOf(reader, "user_session")).toBe(sessions);
    });
    await within(1000, async () => stampOf(reader, "user_session") !== sessions);

    const contest = stampOf(reader, "contest");
    await expect(
      writer.transaction().execute(async (trx) => {
        await touch(trx as unknown as Db, "contest");
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    const school = stampOf(reader, "school");
    await touch(writer, "school");
    // Announcements arrive in commit order: once the later one is heard, the rollback would have been.
    await within(1000, async () => stampOf(reader, "school") !== school);
    expect(stampOf(reader, "contest")).toBe(contest);
  });

  it("announces authorisation tables (and unknown ones) inside the transaction, the others after its commit", () => {
    const bus = new ChangeBus(url, new ChangeTracker());
    for (const t of ["user_session", "app_user", "contest_member", "contest", "*"])
      expect(bus.beforeCommit(new Set(["work", t]))).toBe(true);
    expect(bus.beforeCommit(new Set(["work", "score", "news"]))).toBe(false);
  });

  it("skips its own announcements", async () => {
    const tracker = new ChangeTracker();
    const bus = new ChangeBus(url, tracker);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await bus.listen();
      const school = tracker.stamp(["school"]);
      const news = tracker.stamp(["news"]);
      await client.query("select pg_notify($1, $2)", [CHANNEL, encodeChanges(bus.origin, ["school"])]);
      await client.query("select pg_notify($1, $2)", [CHANNEL, encodeChanges("another process", ["news"])]);
      await within(1000, async () => tracker.stamp(["news"]) !== news);
      expect(tracker.stamp(["school"])).toBe(school);
    } finally {
      await client.end();
      await bus.stop();
    }
  });

  it("suspends the caches while its connection is down and resumes them, from scratch, once listening again", async () => {
    const tracker = new ChangeTracker();
    const logs: string[] = [];
    const bus = new ChangeBus(url, tracker, { retryMs: 300, log: (m) => logs.push(m) });
    const cache = new ReadCache(tracker, { maxEntries: 10, maxAgeMs: 60_000 });
    let n = 0;
    const read = () => cache.get("k", ["school"], async () => ++n);
    try {
      expect(tracker.suspended).toBe(true);
      await bus.listen();
      expect(bus.listening).toBe(true);
      await read();
      expect(await read()).toBe(1);

      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        // Every listener of this test process on this database: the bus's and the two handles'.
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
          [`saiwu-listen:${process.pid}`],
        );
      } finally {
        await admin.end();
      }
      await within(2000, async () => tracker.suspended);
      expect(await read()).toBe(2);
      expect(await read()).toBe(3); // computed each time, stored never
      await within(5000, async () => !tracker.suspended);
      expect(await read()).toBe(4); // the entry from before is gone
      expect(await read()).toBe(4);
      expect(logs.some((m) => m.includes("数据库变更监听连接中断"))).toBe(true);
      // The handles listen again too, and hear each other.
      await within(5000, async () => !trackerOf(reader).suspended);
      const school = stampOf(reader, "school");
      await touch(writer, "school");
      await within(1000, async () => stampOf(reader, "school") !== school);
    } finally {
      await bus.stop();
    }
    expect(tracker.suspended).toBe(true);
  });
});
