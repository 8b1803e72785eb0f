/**
 * The SQLite task queue (src/server/jobs/table-queue.ts): tasks run once, a failing task is
 * retried then kept as failed with its error, a task whose holder died is taken again, and
 * a scheduled task runs once per slot across two instances on one database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config";
import { migrate, openDb, type Db } from "../../src/server/db";
import { TableQueue } from "../../src/server/jobs/table-queue";
import { queuedMailer } from "../../src/server/mail/queued";
import type { Mail } from "../../src/server/mail/mailer";

const until = async (check: () => Promise<boolean> | boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("the SQLite task queue", () => {
  let dir: string;
  let db: Db;
  const queues: TableQueue[] = [];
  const config = () => loadConfig({ DATA_DIR: dir, JOB_LEASE_SECONDS: "1" });
  const start = async () => {
    const q = await TableQueue.start(db, config(), () => {});
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "saiwu-queue-"));
    ({ db } = openDb(`file:${join(dir, "q.db")}`));
    await migrate(db);
  });
  afterAll(async () => {
    for (const q of queues) await q.stop();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs each task once, in the instance that claims it", async () => {
    const [a, b] = [await start(), await start()];
    const seen: number[] = [];
    for (const q of [a, b]) await q.work("t_once", async (d) => void seen.push(Number(d.n)), { concurrency: 2 });
    for (let n = 0; n < 20; n++) await a.send("t_once", { n });
    await until(() => seen.length >= 20);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(await db.selectFrom("queue_task").select("id").where("name", "=", "t_once").execute()).toEqual([]);
  });

  it("retries a failing task and keeps it as failed with its error after the last attempt", async () => {
    const q = await start();
    let calls = 0;
    await q.work("t_fail", async () => {
      calls++;
      throw new Error("邮件服务器无响应");
    });
    await q.send("t_fail", {});
    await until(
      async () =>
        (await db.selectFrom("queue_task").select("state").where("name", "=", "t_fail").executeTakeFirst())?.state === "failed",
    );
    expect(calls).toBe(3);
    expect(
      await db.selectFrom("queue_task").select(["attempts", "last_error"]).where("name", "=", "t_fail").executeTakeFirst(),
    ).toEqual({ attempts: 3, last_error: "邮件服务器无响应" });
  });

  it("takes again a task whose holder stopped answering (its lease ran out)", async () => {
    const past = new Date(Date.now() - 5000).toISOString();
    await db
      .insertInto("queue_task")
      .values({
        name: "t_orphan",
        data: JSON.stringify({ n: 7 }),
        state: "active",
        attempts: 1,
        max_attempts: 3,
        run_after: past,
        locked_by: "1@gone/dead",
        locked_until: past,
        created_at: past,
      })
      .execute();
    const q = await start();
    const seen: unknown[] = [];
    await q.work("t_orphan", async (d) => void seen.push(d));
    await until(() => seen.length === 1);
    expect(seen).toEqual([{ n: 7 }]);
  });

  it("runs a scheduled task once per slot across two instances", async () => {
    const [a, b] = [await start(), await start()];
    let runs = 0;
    await Promise.all([a, b].map((q) => q.every("t_every", 1, async () => void runs++)));
    await until(
      async () => (await db.selectFrom("task_run").select("slot").distinct().where("name", "=", "t_every").execute()).length >= 3,
    );
    const log = await db.selectFrom("task_run").select(["slot", "ran_by", "finished_at"]).where("name", "=", "t_every").execute();
    const perSlot = new Map<string, number>();
    for (const r of log) perSlot.set(r.slot, (perSlot.get(r.slot) ?? 0) + 1);
    expect(
      [...perSlot.values()].every((n) => n === 1),
      JSON.stringify(log),
    ).toBe(true);
    expect(runs).toBe(log.length);
  });

  it("sends mail at once, and queues a retry only when sending fails", async () => {
    const q = await start();
    const sent: Mail[] = [];
    let failures = 1;
    const mailer = await queuedMailer(
      {
        describe: () => "test",
        send: async (m) => {
          if (m.to === "flaky@example.com" && failures-- > 0) throw new Error("SMTP 421");
          sent.push(m);
        },
      },
      q,
      () => {},
    );
    await mailer.send({ to: "ok@example.com", subject: "立即", text: "一" });
    expect(sent.map((m) => m.to)).toEqual(["ok@example.com"]);
    // The failure does not reach the caller; the queue sends it on the next attempt.
    await mailer.send({ to: "flaky@example.com", subject: "重试", text: "二" });
    expect(sent).toHaveLength(1);
    await until(() => sent.length === 2);
    expect(sent[1]).toEqual({ to: "flaky@example.com", subject: "重试", text: "二" });
  });
});
