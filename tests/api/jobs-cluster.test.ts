/**
 * Jobs across two real server processes on one PostgreSQL (tests/helpers/cluster.ts): an
 * import checked on A and confirmed on B is applied once and reported on both; progress
 * polled on B while the other runs it; kill -9 of the process applying a big import leaves
 * all rows or none and the job finishes or fails clearly on the survivor; the scheduled
 * clean-up runs once per slot across both.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "../helpers/multipart";
import { HttpClient, startCluster, within, type Cluster, type ServerProcess } from "../../support/cluster";
import { sheetFile, XLSX_TYPE } from "../helpers/xlsx";
import { waitJob } from "../helpers/jobs";

const U = "/Backend/Admin/user";
const HEADERS = ["用户名", "姓名", "身份", "学校代码", "学号/工号", "专业代码", "邮箱", "手机号", "校赛评委"];
const usersSheet = (prefix: string, n: number) =>
  sheetFile("用户", [
    HEADERS,
    ...Array.from({ length: n }, (_, i) => {
      const u = `${prefix}${String(i).padStart(5, "0")}`;
      return [u, `集群学生${i}`, "作者（学生）", "10285", u, "080901", `${u}@stu.example.edu.cn`, "", "否"];
    }),
  ]);

async function upload(c: HttpClient, buf: Buffer) {
  const m = multipart([{ name: "file", filename: "users.xlsx", content: buf, type: XLSX_TYPE }]);
  const res = await fetch(c.base + `${U}/import`, {
    method: "POST",
    headers: { ...m.headers, cookie: c.cookie, origin: c.base },
    body: m.body,
  });
  const body = await res.json();
  expect(res.status, body.info).toBe(202);
  return body.data.jobId as string;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("jobs across two processes on PostgreSQL", () => {
  let cluster: Cluster;
  let A: ServerProcess, B: ServerProcess;
  let a: HttpClient, b: HttpClient;
  /** Every reply a poll saw, to assert none was a 500. */
  const statuses: number[] = [];
  const count = async (prefix: string) =>
    Number(
      (
        await cluster.db
          .selectFrom("app_user")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("username", "like", `${prefix}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const poll = async (c: HttpClient, jobId: string) => {
    const r = await c.get(`/Backend/Common/job/${jobId}`);
    statuses.push(r.status);
    return r;
  };

  beforeAll(async () => {
    cluster = await startCluster(2, { env: { JOB_LEASE_SECONDS: "3", JOB_CLEANUP_SECONDS: "2" } });
    [A, B] = cluster.procs;
    a = new HttpClient(A.url);
    await a.login("root", "admin");
    b = a.on(B.url);
  }, 120_000);
  afterAll(async () => cluster?.close());

  it("checks on A, confirms on B: applied once, reported done on both; a second confirm is refused with 400", async () => {
    const jobId = await upload(a, await usersSheet("clu", 300));
    const dry = await waitJob(b, jobId, 30_000);
    expect(dry, dry.message).toMatchObject({ status: "ready", result: { created: 300, errors: [] } });
    const [first, second] = await Promise.all([b.post(`${U}/import/${jobId}/confirm`), a.post(`${U}/import/${jobId}/confirm`)]);
    expect([first.status, second.status].sort()).toEqual([202, 400]);
    const done = await waitJob(a, jobId, 60_000);
    expect(done, done.message).toMatchObject({ status: "done", message: "导入完成：新增 300，修改 0" });
    expect((await b.get(`/Backend/Common/job/${jobId}`)).body.data).toMatchObject({ status: "done", processed: 300, total: 300 });
    expect(await count("clu")).toBe(300);
    expect((await a.post(`${U}/import/${jobId}/confirm`)).body).toEqual({ error: 400, info: "该导入已完成，不能重复确认" });
    expect((await b.post(`${U}/import/${jobId}/confirm`)).status).toBe(400);
    expect(await count("clu")).toBe(300);
  });

  it("shows a running import's progress on both processes, never a failure", async () => {
    const N = 20000;
    const jobId = await upload(b, await usersSheet("prg", N));
    expect((await waitJob(a, jobId, 120_000)).status).toBe("ready");
    expect((await a.post(`${U}/import/${jobId}/confirm`)).status).toBe(202);
    const seen: { status: string; processed: number }[] = [];
    for (;;) {
      const [ra, rb] = await Promise.all([poll(a, jobId), poll(b, jobId)]);
      for (const r of [ra, rb]) seen.push({ status: r.body.data.status, processed: r.body.data.processed });
      if (ra.body.data.status !== "applying" && rb.body.data.status !== "applying") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.map((s) => s.status)).not.toContain("failed");
    // Progress between 0 and the total was visible while it ran.
    expect(
      seen.some((s) => s.status === "applying" && s.processed > 0 && s.processed < N),
      JSON.stringify(seen.slice(0, 20)),
    ).toBe(true);
    expect((await poll(b, jobId)).body.data).toMatchObject({ status: "done", processed: N });
    expect(await count("prg")).toBe(N);
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 240_000);

  it("kill -9 of the process applying an import: all rows or none, then done or failed with a reason on the other; never a 500", async () => {
    const N = 20000;
    const jobId = await upload(a, await usersSheet("kil", N));
    expect((await waitJob(b, jobId, 120_000)).status).toBe("ready");
    expect((await b.post(`${U}/import/${jobId}/confirm`)).status).toBe(202);
    // The process that took it (the job row's owner is `<pid>@<host>/…`), once its transaction
    // is open (it holds the job's advisory lock) — rows are being written.
    let victim: ServerProcess | undefined;
    await within(60_000, async () => {
      const row = await cluster.db
        .selectFrom("job")
        .select(["owner", "status"])
        .where("id", "=", jobId)
        .executeTakeFirstOrThrow();
      if (row.status !== "applying") throw new Error(`the import ended before it could be killed: ${row.status}; make it bigger`);
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from pg_locks where locktype = 'advisory' and granted`.execute(cluster.db);
      if (!row.owner || !Number(rows[0].n)) return false;
      victim = cluster.procs.find((p) => row.owner!.startsWith(`${p.proc!.pid}@`));
      return !!victim;
    });
    const survivor = victim === A ? B : A;
    const onSurvivor = a.on(survivor.url);
    await victim!.kill("SIGKILL");
    expect(victim!.alive).toBe(false);
    // Killed inside the transaction: nothing of it is in the database.
    const killedMidApply = (await count("kil")) === 0;

    const end = await (async () => {
      for (;;) {
        const r = await poll(onSurvivor, jobId);
        expect(r.status, r.body.info).toBe(200);
        if (r.body.data.status !== "applying") return r.body.data;
        // Never half-applied while it is being retried.
        expect([0, N]).toContain(await count("kil"));
        await new Promise((res) => setTimeout(res, 200));
      }
    })();
    expect(["done", "failed"]).toContain(end.status);
    const n = await count("kil");
    if (end.status === "done") expect(n).toBe(N);
    else {
      expect(n).toBe(0);
      expect(end.message).toMatch(/^导入失败，没有导入任何数据：.+/);
    }
    // The survivor took it over (a second start) — or, had the victim committed first, it was done already.
    const row = await cluster.db
      .selectFrom("job")
      .select(["attempts", "owner"])
      .where("id", "=", jobId)
      .executeTakeFirstOrThrow();
    if (killedMidApply) expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(survivor.alive).toBe(true);
    expect(survivor.output).not.toMatch(/unhandled|UnhandledPromiseRejection/i);
    // The killed process starts again and reports the same.
    await victim!.start();
    expect((await a.on(victim!.url).get(`/Backend/Common/job/${jobId}`)).body.data).toMatchObject({ status: end.status });
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 300_000);

  it("cancels on B an export running on A: it stops, no file is kept, both report it cancelled", async () => {
    // Every user (tens of thousands after the imports above).
    const ex = await a.post(`${U}/export`, {});
    expect(ex.status).toBe(202);
    const jobId = ex.body.data.jobId as string;
    let owner = "";
    await within(60_000, async () => {
      const row = await cluster.db
        .selectFrom("job")
        .select(["owner", "status", "processed"])
        .where("id", "=", jobId)
        .executeTakeFirstOrThrow();
      if (row.status !== "running") throw new Error(`the export ended before it could be cancelled: ${row.status}`);
      owner = row.owner ?? "";
      return !!row.owner && row.processed > 0;
    });
    const other = cluster.procs.find((p) => !owner.startsWith(`${p.proc!.pid}@`))!;
    const c = await a.on(other.url).post(`/Backend/Common/job/${jobId}/cancel`);
    expect(c).toMatchObject({ status: 200, body: { data: { status: "cancelled", downloadUrl: null } } });
    // The running process reads the cancel within its heartbeat and stops without storing the file.
    await new Promise((r) => setTimeout(r, 3000));
    for (const p of cluster.procs) {
      const r = await a.on(p.url).get(`/Backend/Common/job/${jobId}`);
      expect(r.body.data).toMatchObject({ status: "cancelled", message: "已取消", downloadUrl: null });
      expect((await a.on(p.url).get(`/Backend/Common/job/${jobId}/download`)).status).toBe(404);
    }
    expect(
      (await cluster.db.selectFrom("job").select("output_sha256").where("id", "=", jobId).executeTakeFirstOrThrow())
        .output_sha256,
    ).toBeNull();
    expect((await b.post(`/Backend/Common/job/${jobId}/cancel`)).body).toEqual({ error: 400, info: "该任务已取消" });
  }, 120_000);

  it("runs the scheduled clean-up once per slot across both processes", async () => {
    // Two-second slots (JOB_CLEANUP_SECONDS=2): wait for a few.
    await within(30_000, async () => {
      const slots = await cluster.db
        .selectFrom("task_run")
        .select("slot")
        .distinct()
        .where("name", "=", "saiwu_cleanup")
        .execute();
      return slots.length >= 3;
    });
    const runs = await cluster.db
      .selectFrom("task_run")
      .select(["slot", "ran_by", "error"])
      .where("name", "=", "saiwu_cleanup")
      .execute();
    const perSlot = new Map<string, number>();
    for (const r of runs) perSlot.set(r.slot, (perSlot.get(r.slot) ?? 0) + 1);
    expect(
      [...perSlot.values()].every((n) => n === 1),
      JSON.stringify(runs),
    ).toBe(true);
    expect(runs.every((r) => r.error === null)).toBe(true);
    for (const p of cluster.procs) expect(p.alive).toBe(true);
  }, 60_000);
});
