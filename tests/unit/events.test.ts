/**
 * The cross-domain event bus (src/server/events/bus.ts) on a real SQLite database: in-transaction
 * handlers run at once, with the emitter's transaction, and roll back with it; after-commit
 * handlers run only once the transaction committed — never after a rollback — and their errors
 * do not undo the change. And the application's wiring (src/server/effects.ts) is complete.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDb, type Db } from "../../src/server/db";
import { EventBus, type Handle } from "../../src/server/events/bus";
import { events } from "../../src/server/effects";

type Events = { "thing.done": { id: number } };

const audits = async (db: Db) =>
  (await db.selectFrom("audit_log").select("entity_id").where("entity", "=", "event-test").execute()).map((r) => r.entity_id);

const writeAudit = (db: Handle, id: number) =>
  db
    .insertInto("audit_log")
    .values({
      user_id: null,
      entity: "event-test",
      entity_id: String(id),
      action: "x",
      changes: "{}",
      at: new Date().toISOString(),
    })
    .execute();

describe("the event bus", () => {
  let dir: string;
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "saiwu-events-"));
    const opened = openDb(`file:${join(dir, "e.db")}`);
    db = opened.db;
    close = () => db.destroy();
    await migrate(db);
  });
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  const wiredBus = () => {
    const bus = new EventBus<Events>();
    bus.wired = true;
    return bus;
  };

  it("runs after-commit handlers only once the transaction committed", async () => {
    const bus = wiredBus();
    const seen: string[] = [];
    bus.afterCommit("thing.done", async (d, { id }) => {
      // The change is visible to a new connection's read: it is committed.
      seen.push(`after ${id} sees ${(await audits(d)).includes(String(id))}`);
    });
    await bus.transaction(db, async (trx) => {
      await writeAudit(trx, 1);
      await bus.emit(trx, "thing.done", { id: 1 });
      seen.push("still in the transaction");
    });
    expect(seen).toEqual(["still in the transaction", "after 1 sees true"]);
  });

  it("dispatches nothing after a rollback", async () => {
    const bus = wiredBus();
    const seen: number[] = [];
    bus.afterCommit("thing.done", async (_d, { id }) => void seen.push(id));
    await expect(
      bus.transaction(db, async (trx) => {
        await writeAudit(trx, 2);
        await bus.emit(trx, "thing.done", { id: 2 });
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(seen).toEqual([]);
    expect(await audits(db)).not.toContain("2");
  });

  it("runs in-transaction handlers at once, in order, and rolls back with them", async () => {
    const bus = wiredBus();
    const order: string[] = [];
    bus.inTransaction("thing.done", async (trx, { id }) => {
      order.push("first");
      await writeAudit(trx, id * 10);
    });
    bus.inTransaction("thing.done", async () => void order.push("second"));
    await bus.transaction(db, async (trx) => {
      await bus.emit(trx, "thing.done", { id: 3 });
      order.push("emitter");
    });
    expect(order).toEqual(["first", "second", "emitter"]);
    expect(await audits(db)).toContain("30");

    bus.inTransaction("thing.done", async () => {
      throw new Error("handler refused");
    });
    await expect(bus.transaction(db, (trx) => bus.emit(trx, "thing.done", { id: 4 }))).rejects.toThrow("handler refused");
    // The first handler's write went with the rollback.
    expect(await audits(db)).not.toContain("40");
  });

  it("keeps the change when an after-commit handler fails, and reports it", async () => {
    const bus = wiredBus();
    const reported: string[] = [];
    bus.reportError = (event, err) => reported.push(`${event}: ${(err as Error).message}`);
    bus.afterCommit("thing.done", async () => {
      throw new Error("queue down");
    });
    await bus.transaction(db, async (trx) => {
      await writeAudit(trx, 5);
      await bus.emit(trx, "thing.done", { id: 5 });
    });
    expect(reported).toEqual(["thing.done: queue down"]);
    expect(await audits(db)).toContain("5");
  });

  it("runs after-commit handlers at once outside a transaction; refuses one it could not queue", async () => {
    const bus = wiredBus();
    const seen: number[] = [];
    bus.afterCommit("thing.done", async (_d, { id }) => void seen.push(id));
    await bus.emit(db, "thing.done", { id: 6 });
    expect(seen).toEqual([6]);
    await expect(db.transaction().execute((trx) => bus.emit(trx, "thing.done", { id: 7 }))).rejects.toThrow(
      /not opened by transaction/,
    );
    expect(seen).toEqual([6]);
  });

  it("refuses to emit before the wiring registered its handlers", async () => {
    const bus = new EventBus<Events>();
    await expect(bus.emit(db, "thing.done", { id: 8 })).rejects.toThrow(/no handlers wired/);
  });

  it("the application's wiring follows every domain event", () => {
    expect(events.wired).toBe(true);
    const registered = events as unknown as { tx: Map<string, unknown[]>; committed: Map<string, unknown[]> };
    expect(registered.tx.get("results.changed")).toHaveLength(2);
    expect(registered.tx.get("work.transitioned")).toHaveLength(1);
    expect(registered.committed.get("work.textChanged")).toHaveLength(1);
  });
});
