/**
 * Graceful shutdown of a real server process (`npm start`'s entry, serverCommand("main")):
 * on SIGTERM new connections are refused (or /readyz answers 503 on one still open), an
 * upload in flight completes and is stored whole, and the process exits 0. An upload that
 * does not finish within SHUTDOWN_GRACE_SECONDS is cut: no answer of success, nothing of it
 * stored (no blob, no row, no temporary file), and the process still exits 0. On
 * PostgreSQL, an import being applied by a process that is stopped is rolled back and handed
 * back at once: the other process applies it, once.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { migrate, openDb, type Db } from "../../src/server/db";
import { seedDemo } from "../../src/server/seed/demo";
import { DIALECTS } from "../helpers/app";
import { sql } from "kysely";
import { freePort, HttpClient, ServerProcess, serverEnv, startCluster, within, type Cluster } from "../../support/cluster";
import { waitJob } from "../helpers/jobs";
import { multipart } from "../helpers/multipart";
import { sheetFile, XLSX_TYPE } from "../helpers/xlsx";

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
/** A zip's signature and random bytes: a "素材与源码" attachment nobody else has. */
const zipOf = (bytes: number) => Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), randomBytes(bytes)]);

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** The HTTP/1.1 responses in `data`, one after the other (each with a Content-Length). */
function parseResponses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const [statusLine, ...lines] = data.subarray(at, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    const length = Number(headers["content-length"] ?? 0);
    const body = data.subarray(end + 4, end + 4 + length).toString("utf8");
    out.push({ status: Number(statusLine.split(" ")[1]), headers, body: body ? JSON.parse(body) : null });
    at = end + 4 + length;
  }
  return out;
}

/**
 * An upload on a keep-alive connection of its own (as a browser sends it), whose first half
 * is sent now; `finish(then)` sends the rest, followed by `then` (a pipelined request).
 */
function slowUpload(
  port: number,
  cookie: string,
  workId: number,
  content: Buffer,
  file = { kind: "source", filename: "源码.zip", type: "application/zip" },
) {
  const m = multipart([
    { name: "kind", value: file.kind },
    { name: "file", filename: file.filename, content, type: file.type },
  ]);
  const head =
    `POST /Backend/Work/work/${workId}/files HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${m.headers["content-type"]}\r\n` +
    `Content-Length: ${m.body.length}\r\nCookie: ${cookie}\r\nOrigin: http://127.0.0.1:${port}\r\n\r\n`;
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (c) => chunks.push(c));
  const closed = new Promise<{ responses: RawResponse[]; error?: Error }>((ok) => {
    let error: Error | undefined;
    socket.on("error", (e) => (error = e));
    socket.on("close", () => ok({ responses: parseResponses(Buffer.concat(chunks)), error }));
  });
  const half = Math.floor(m.body.length / 2);
  socket.write(head);
  socket.write(m.body.subarray(0, half));
  return {
    finish: (then = "") => socket.write(Buffer.concat([m.body.subarray(half), Buffer.from(then)])),
    /** What came back by the time the server closed the connection. */
    closed,
  };
}

/** GET /readyz on a new connection: its status, or "refused" when nothing listens any more. */
function readyOnNewConnection(port: number): Promise<number | "refused"> {
  return new Promise((ok) => {
    const req = request({ host: "127.0.0.1", port, path: "/readyz", agent: false }, (res) => {
      res.resume();
      ok(res.statusCode!);
    });
    req.on("error", () => ok("refused"));
    req.end();
  });
}

async function until(timeoutMs: number, what: string, check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every stored blob file (blobs/ab/cd/<sha256>), unfinished uploads (blobs/tmp) aside. */
function storedBlobs(blobDir: string): string[] {
  if (!existsSync(blobDir)) return [];
  return readdirSync(blobDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /^[0-9a-f]{64}$/.test(e.name))
    .map((e) => e.name)
    .sort();
}
const unfinished = (blobDir: string) => (existsSync(join(blobDir, "tmp")) ? readdirSync(join(blobDir, "tmp")) : []);

describe.each(DIALECTS)("graceful shutdown on %s", (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), "saiwu-shutdown-"));
  const blobDir = join(dataDir, "blobs");
  let url = `file:${join(dataDir, "saiwu.db")}`;
  let drop = async () => {};
  let workId: number;
  let server: ServerProcess | undefined;

  /** A handle on the database for assertions (SQLite: opened only while no server runs). */
  const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const { db } = openDb(url);
    try {
      return await fn(db);
    } finally {
      await db.destroy();
    }
  };

  beforeAll(async () => {
    if (dialect === "postgres") ({ url, drop } = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_sd"));
    workId = await withDb(async (db) => {
      await migrate(db);
      await seedDemo(db, 2026, { reviewWorks: false, defence: false });
      // The demo student's draft work: its author may upload attachments.
      const row = await db
        .selectFrom("work")
        .innerJoin("work_author", "work_author.work_id", "work.id")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("work.id")
        .where("app_user.username", "=", "student")
        .where("work.status", "=", "draft")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    });
  }, 120_000);
  afterAll(async () => {
    if (server?.alive) await server.kill("SIGKILL");
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (graceSeconds: number) => {
    server = new ServerProcess(await freePort(), serverEnv(url, dataDir, { SHUTDOWN_GRACE_SECONDS: String(graceSeconds) }));
    await server.start();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
      server!.proc!.once("exit", (code, signal) => ok({ code, signal })),
    );
    const student = new HttpClient(server.url);
    await student.login("student", "student");
    return { server, exited, student };
  };

  it("SIGTERM during an upload: new connections are turned away, the upload completes and is stored whole, exit 0", async () => {
    const { server, exited, student } = await start(20);
    expect(await readyOnNewConnection(server.port)).toBe(200);
    const content = zipOf(2 * 1024 * 1024);
    const upload = slowUpload(server.port, student.cookie, workId, content);
    // A second one on another connection, which will stay open (keep-alive) after its answer.
    const doc = Buffer.concat([Buffer.from("%PDF-1.4\n", "latin1"), randomBytes(512 * 1024)]);
    const other = slowUpload(server.port, student.cookie, workId, doc, {
      kind: "docs",
      filename: "文档.pdf",
      type: "application/pdf",
    });
    // The server is writing both: their temporary files exist.
    await until(30_000, "uploads under way", () => unfinished(blobDir).length >= 2);

    server.proc!.kill("SIGTERM");
    await until(10_000, "new connections turned away", async () => (await readyOnNewConnection(server.port)) !== 200);
    expect(server.alive).toBe(true);

    // The rest of the upload, and on the same connection (still open) a readiness probe.
    upload.finish(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    const { responses, error } = await upload.closed;
    if (!responses.length) throw new Error(`the upload in flight was cut: ${error?.message}\n${server.output}`);
    const [uploaded, ready] = responses;
    expect(uploaded.status, uploaded.body?.info).toBe(201);
    expect(uploaded.body).toMatchObject({
      error: 0,
      data: { kind: "source", filename: "源码.zip", size: content.length, sha256: sha256(content) },
    });
    // Answered while draining: not ready, and the connection is not kept.
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: "unavailable", checks: { database: true, accepting: false } });
    expect(ready.headers.connection).toBe("close");
    // The other completes too, and its idle connection is closed by the server.
    other.finish();
    const second = await other.closed;
    expect(second.responses.map((r) => [r.status, r.body?.data?.sha256])).toEqual([[201, sha256(doc)]]);

    expect(await exited, server.output).toEqual({ code: 0, signal: null });
    // It exited because nothing was left, not because the grace period ran out.
    expect(server.output).not.toContain("已断开其连接");
    const hash = sha256(content);
    expect(readFileSync(join(blobDir, hash.slice(0, 2), hash.slice(2, 4), hash)).equals(content)).toBe(true);
    expect(unfinished(blobDir)).toEqual([]);
    const rows = await withDb((db) =>
      db.selectFrom("work_file").select(["work_id", "sha256", "size"]).where("sha256", "=", hash).execute(),
    );
    expect(rows).toEqual([{ work_id: workId, sha256: hash, size: content.length }]);
  }, 120_000);

  it("an upload still unfinished when the grace period ends is cut: nothing of it is stored, exit 0", async () => {
    const before = storedBlobs(blobDir);
    const { server, exited, student } = await start(2);
    const content = zipOf(2 * 1024 * 1024);
    const upload = slowUpload(server.port, student.cookie, workId, content);
    await until(30_000, "upload under way", () => unfinished(blobDir).length > 0);

    server.proc!.kill("SIGTERM");
    // The rest is never sent: the connection is cut after the grace period, unanswered.
    expect((await upload.closed).responses).toEqual([]);
    expect(await exited, server.output).toEqual({ code: 0, signal: null });
    expect(server.output).toContain("已断开其连接");

    expect(storedBlobs(blobDir)).toEqual(before);
    expect(unfinished(blobDir)).toEqual([]);
    const rows = await withDb((db) => db.selectFrom("work_file").select("id").where("sha256", "=", sha256(content)).execute());
    expect(rows).toEqual([]);
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("a background job on a process that is stopped, on PostgreSQL", () => {
  const U = "/Backend/Admin/user";
  const HEADERS = ["用户名", "姓名", "身份", "学校代码", "学号/工号", "专业代码", "邮箱", "手机号", "校赛评委"];
  const usersSheet = (prefix: string, n: number) =>
    sheetFile("用户", [
      HEADERS,
      ...Array.from({ length: n }, (_, i) => {
        const u = `${prefix}${String(i).padStart(5, "0")}`;
        return [u, `停机学生${i}`, "作者（学生）", "10285", u, "080901", `${u}@stu.example.edu.cn`, "", "否"];
      }),
    ]);
  let cluster: Cluster;
  beforeAll(async () => {
    // A lease far longer than the test: only a hand-back lets the other process take the job in time.
    cluster = await startCluster(2, { env: { JOB_LEASE_SECONDS: "600", SHUTDOWN_GRACE_SECONDS: "5" } });
  }, 120_000);
  afterAll(async () => cluster?.close());

  it("SIGTERM while it applies an import: rolled back, handed back at once, applied once by the other process", async () => {
    const [A] = cluster.procs;
    const root = new HttpClient(A.url);
    await root.login("root", "admin");
    const N = 20000;
    const m = multipart([{ name: "file", filename: "users.xlsx", content: await usersSheet("sdn", N), type: XLSX_TYPE }]);
    const res = await fetch(`${A.url}${U}/import`, {
      method: "POST",
      headers: { ...m.headers, cookie: root.cookie, origin: A.url },
      body: m.body,
    });
    const jobId = (await res.json()).data.jobId as string;
    expect((await waitJob(root, jobId, 120_000)).status).toBe("ready");
    expect((await root.post(`${U}/import/${jobId}/confirm`)).status).toBe(202);
    // The process applying it, once its transaction is open (it holds the job's advisory lock).
    let victim: ServerProcess | undefined;
    await within(60_000, async () => {
      const row = await cluster.db
        .selectFrom("job")
        .select(["owner", "status"])
        .where("id", "=", jobId)
        .executeTakeFirstOrThrow();
      if (row.status !== "applying")
        throw new Error(`the import ended before the process could be stopped: ${row.status}; make it bigger`);
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from pg_locks where locktype = 'advisory' and granted`.execute(cluster.db);
      if (!row.owner || !Number(rows[0].n)) return false;
      victim = cluster.procs.find((p) => row.owner!.startsWith(`${p.proc!.pid}@`));
      return !!victim;
    });
    const survivor = cluster.procs.find((p) => p !== victim)!;
    const exits = victim!.exits.length;
    await victim!.kill("SIGTERM");
    expect(victim!.exits.slice(exits)).toEqual([{ code: 0, signal: null }]);

    const count = async () =>
      Number(
        (
          await cluster.db
            .selectFrom("app_user")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("username", "like", "sdn%")
            .executeTakeFirstOrThrow()
        ).n,
      );
    const onSurvivor = root.on(survivor.url);
    const end = await waitJob(onSurvivor, jobId, 180_000);
    expect(end, end.message).toMatchObject({ status: "done", processed: N });
    expect(await count()).toBe(N);
    const row = await cluster.db
      .selectFrom("job")
      .select(["owner", "attempts"])
      .where("id", "=", jobId)
      .executeTakeFirstOrThrow();
    // Taken by the survivor; the stopped start did not count as a failed attempt.
    expect(row.owner?.startsWith(`${survivor.proc!.pid}@`)).toBe(true);
    expect(row.attempts).toBe(1);
    expect(victim!.output).not.toMatch(/unhandled|UnhandledPromiseRejection/i);
  }, 400_000);
});
