/**
 * Jobs in the durable queue (src/server/jobs/user-jobs.ts) on one process: files in the blob
 * store, a confirm that wins once, cancel, a job abandoned by a dead process taken over,
 * and the clean-up of old rows and their blobs (with gc counting job blobs as referenced).
 */
import { planFromText } from "../../src/server/crud/plan";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup } from "../../src/server/jobs/cleanup";
import { collectOrphanBlobs } from "../../src/server/storage/gc";
import { createBlobStore } from "../../src/server/storage";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { importXlsx, sheetFile } from "../helpers/xlsx";

const P = "/Backend/Admin/school";
const HEADERS = ["学校代码", "学校名称", "省份", "曾用名（以、分隔）", "联系方式"];
const schools = (prefix: string, n: number) =>
  sheetFile("学校", [
    HEADERS,
    ...Array.from({ length: n }, (_, i) => [
      `${prefix}${String(i).padStart(3, "0")}`,
      `任务测试学院${prefix}${i}`,
      "江苏省",
      "",
      "",
    ]),
  ]);

describe.each(DIALECTS)("jobs on %s", (dialect) => {
  let t: TestApp;
  let root: Client, sadmin: Client;
  const count = async (prefix: string) =>
    Number(
      (
        await t.db
          .selectFrom("school")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("code", "like", `${prefix}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const row = (id: string) => t.db.selectFrom("job").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await makeApp(dialect, { env: { JOB_LEASE_SECONDS: "2" } });
    root = new Client(t);
    sadmin = new Client(t);
    await root.login("root", "admin");
    await sadmin.login("school_admin", "admin");
  });
  afterAll(async () => t?.close());

  it("keeps the upload, the plan and the export in the blob store, named by the job row", async () => {
    const { jobId, dry } = await importXlsx(root, P, await schools("771", 3));
    expect(dry, dry.message).toMatchObject({ status: "ready", result: { created: 3 } });
    const r = await row(jobId);
    const store = createBlobStore(t.config);
    for (const sha of [r.input_sha256, r.plan_sha256]) expect(await store.has(sha!)).toBe(true);
    expect((await planFromText((await streamText(await store.get(r.plan_sha256!))) as string)).creates).toHaveLength(3);

    const ex = await root.post(`${P}/export`, { province: "江苏省" });
    const done = await waitJob(root, ex.body.data.jobId);
    expect(done.status).toBe("done");
    const exported = await row(ex.body.data.jobId);
    expect(await store.has(exported.output_sha256!)).toBe(true);
    // The blob clean-up keeps blobs that job rows name, however old.
    const gc = await collectOrphanBlobs(t.db, store, { graceMs: 0, dryRun: true, now: new Date(Date.now() + 3600_000) });
    for (const sha of [r.input_sha256, r.plan_sha256, exported.output_sha256]) expect(gc.removed).not.toContain(sha);
  });

  it("applies a confirmed import once: of two confirms at the same time one is refused with 400", async () => {
    const { jobId } = await importXlsx(root, P, await schools("772", 5));
    const [a, b] = await Promise.all([root.post(`${P}/import/${jobId}/confirm`), root.post(`${P}/import/${jobId}/confirm`)]);
    expect([a.status, b.status].sort()).toEqual([202, 400]);
    expect([a, b].find((r) => r.status === 400)!.body.info).toMatch(/不能重复确认/);
    expect(await waitJob(root, jobId)).toMatchObject({
      status: "done",
      message: "导入完成：新增 5，修改 0",
      processed: 5,
      total: 5,
    });
    expect(await count("772")).toBe(5);
    const again = await root.post(`${P}/import/${jobId}/confirm`);
    expect(again).toMatchObject({ status: 400, body: { error: 400, info: "该导入已完成，不能重复确认" } });
    expect((await row(jobId)).attempts).toBe(1);
  });

  it("cancels an import that is not applied; a finished one cannot be cancelled; others' jobs are not found", async () => {
    const { jobId } = await importXlsx(root, P, await schools("773", 2));
    expect((await sadmin.post(`/Backend/Common/job/${jobId}/cancel`)).status).toBe(404);
    const c = await root.post(`/Backend/Common/job/${jobId}/cancel`);
    expect(c).toMatchObject({ status: 200, body: { info: "任务已取消", data: { status: "cancelled" } } });
    expect((await root.post(`${P}/import/${jobId}/confirm`)).body).toEqual({ error: 400, info: "该导入已取消" });
    expect(await count("773")).toBe(0);
    expect((await root.post(`/Backend/Common/job/${jobId}/cancel`)).body).toEqual({ error: 400, info: "该任务已取消" });

    const ok = await importXlsx(root, P, await schools("774", 1));
    await root.post(`${P}/import/${ok.jobId}/confirm`);
    expect(await waitJob(root, ok.jobId)).toMatchObject({ status: "done" });
    expect((await root.post(`/Backend/Common/job/${ok.jobId}/cancel`)).body).toEqual({
      error: 400,
      info: "该导入已完成，不能取消",
    });
    expect(await count("774")).toBe(1);
  });

  it("takes over an import left applying by a process that died, and applies it once", async () => {
    const { jobId } = await importXlsx(root, P, await schools("775", 4));
    // As a process that confirmed it and died before committing would leave it.
    await t.db
      .updateTable("job")
      .set({
        status: "applying",
        owner: "1@dead-host/00000000",
        heartbeat_at: new Date(Date.now() - 60_000).toISOString(),
        attempts: 1,
        processed: 2,
        total: 4,
      })
      .where("id", "=", jobId)
      .execute();
    expect((await root.get(`/Backend/Common/job/${jobId}`)).body.data.status).toBe("applying");
    const done = await waitJob(root, jobId, 30_000);
    expect(done).toMatchObject({ status: "done", message: "导入完成：新增 4，修改 0" });
    expect(await count("775")).toBe(4);
    expect((await row(jobId)).attempts).toBe(2);
  });

  it("ends a job failed with a reason after too many interrupted starts", async () => {
    const { jobId } = await importXlsx(root, P, await schools("776", 2));
    await t.db
      .updateTable("job")
      .set({
        status: "applying",
        owner: "1@dead-host/00000000",
        heartbeat_at: new Date(Date.now() - 60_000).toISOString(),
        attempts: t.config.jobs.maxAttempts,
      })
      .where("id", "=", jobId)
      .execute();
    const failed = await waitJob(root, jobId, 30_000);
    expect(failed.status).toBe("failed");
    expect(failed.message).toMatch(/^导入失败，没有导入任何数据：处理该任务的服务器进程多次中断/);
    expect(await count("776")).toBe(0);
  });

  it("cleans up expired sessions and old finished jobs with the blobs only they name", async () => {
    const { jobId } = await importXlsx(root, P, await schools("777", 1));
    const r = await row(jobId);
    const store = createBlobStore(t.config);
    // A blob a newer job also names stays.
    const shared = (await store.put(Readable.from([Buffer.from("shared export")]))).sha256;
    const old = new Date(Date.now() - (t.config.jobs.retentionDays + 1) * 86400_000).toISOString();
    await t.db.updateTable("job").set({ updated_at: old, output_sha256: shared }).where("id", "=", jobId).execute();
    const keeper = await t.db
      .selectFrom("job")
      .select("id")
      .where("id", "<>", jobId)
      .where("status", "=", "done")
      .limit(1)
      .executeTakeFirstOrThrow();
    await t.db.updateTable("job").set({ output_sha256: shared }).where("id", "=", keeper.id).execute();
    const user = await t.db.selectFrom("app_user").select("id").where("username", "=", "root").executeTakeFirstOrThrow();
    await t.db
      .insertInto("user_session")
      .values({
        id: "e".repeat(64),
        user_id: user.id,
        created_at: old,
        last_seen_at: old,
        expires_at: old,
        ip: null,
        user_agent: null,
      })
      .execute();

    const report = await cleanup({ db: t.db, store, config: t.config });
    expect(report.jobs).toBeGreaterThanOrEqual(1);
    expect(await t.db.selectFrom("job").select("id").where("id", "=", jobId).executeTakeFirst()).toBeUndefined();
    expect(await store.has(r.input_sha256!)).toBe(false);
    expect(await store.has(r.plan_sha256!)).toBe(false);
    expect(await store.has(shared)).toBe(true);
    expect(
      await t.db.selectFrom("user_session").select("id").where("id", "=", "e".repeat(64)).executeTakeFirst(),
    ).toBeUndefined();
    // Logged-in sessions stay.
    expect((await root.get("/Backend/Common/user/get-current")).body.data).toBeTruthy();
  });
});

async function streamText(s: Readable) {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
