/**
 * The HTTP half of `npm run bench:blobs`: many attachments uploaded at once through the real
 * route (POST /Backend/Work/work/:id/files) of a real server in a child process of its own,
 * so its CPU time (/proc/<pid>/stat) is the server's alone and not the load generator's.
 *
 * UPLOADS files (default 96) with sizes drawn log-uniformly from MIN_MB–MAX_MB (1–20, median
 * ~4.5 MB), CONCURRENCY (default 16) at a time, each different bytes (a zip signature and a
 * counter, then a random block repeated), generated as they are sent, never held whole. The
 * server's figure is all the bytes over the wall time; the baseline (diskMBps) is a plain
 * sequential write of the same sizes to the same directory, each file flushed (fsync) as the
 * blob store flushes a blob. PROFILE=<dir> starts the server with --cpu-prof into <dir>.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { open, mkdir, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createInterface } from "node:readline";

const MB = 1024 * 1024;
export const UPLOADS = Number(process.env.UPLOADS ?? 96);
export const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const MIN_MB = Number(process.env.MIN_MB ?? 1);
const MAX_MB = Number(process.env.MAX_MB ?? 20);
const BLOCK = randomBytes(MB);

/** Sizes in bytes, drawn log-uniformly (fixed seed) between MIN_MB and MAX_MB. */
export function uploadSizes(n = UPLOADS): number[] {
  let s = 42;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => Math.round(MIN_MB * MB * (MAX_MB / MIN_MB) ** next()));
}

/** The file's bytes: a zip signature and the upload's number, then the random block repeated. */
function* fileBytes(i: number, size: number) {
  const head = Buffer.alloc(32, 0x20);
  head.write("PK\x03\x04", 0, "latin1");
  head.write(`upload-${i}-${Date.now()}`, 4, "latin1");
  yield head.subarray(0, Math.min(32, size));
  for (let at = 32; at < size; at += MB) yield BLOCK.subarray(0, Math.min(MB, size - at));
}

/** CPU seconds (user + system) the process has used so far, or its thread `tid` (the main thread: tid = pid). */
export function cpuSeconds(pid: number, tid?: number): number {
  const path = tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`;
  const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

/** A server for the load in a child process: its base URL, pid, the draft work to upload to and a stop(). */
export async function startUploadServer(benchFile: string, execArgv: string[], dataDir: string) {
  const profile = process.env.PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, ...execArgv, benchFile, "--server", dataDir], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once("line", ok);
    child.once("exit", (code) => fail(new Error(`upload server exited (${code})`)));
  });
  const info = JSON.parse(line) as { base: string; workId: number };
  const exited = new Promise((ok) => child.once("exit", ok));
  return {
    ...info,
    pid: child.pid!,
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}

/** In the server child: the demo data, the app listening; prints {base, workId}; closes when stdin ends. */
export async function serveUploads(dataDir: string) {
  const { openDb, migrate } = await import("../src/server/db");
  const { seedDemo } = await import("../src/server/seed/demo");
  const { startBenchServer } = await import("./server");
  const url = `file:${join(dataDir, "bench.db")}`;
  const opened = openDb(url);
  await migrate(opened.db);
  await seedDemo(opened.db, new Date().getFullYear(), { reviewWorks: false, defence: false });
  const work = await opened.db
    .selectFrom("work")
    .innerJoin("work_author", "work_author.work_id", "work.id")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .select("work.id")
    .where("app_user.username", "=", "student")
    .where("work.status", "=", "draft")
    .executeTakeFirstOrThrow();
  const server = await startBenchServer({ dataDir, url, opened, env: { LOGIN_RATE_MAX: "100000" } });
  console.log(JSON.stringify({ base: server.base, workId: Number(work.id) }));
  process.stdin.resume();
  process.stdin.once("end", () => {
    void server.close().then(() => process.exit(0));
  });
}

async function login(base: string): Promise<string> {
  const r = await fetch(`${base}/Backend/Common/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ username: "student", password: "Demo@2026", page: "student" }),
  });
  if (r.status !== 200) throw new Error(`login: ${r.status} ${await r.text()}`);
  return r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** One upload through the route; resolves with its status and milliseconds. */
function uploadOne(base: string, agent: Agent, cookie: string, workId: number, i: number, size: number) {
  const boundary = `----benchupload${i}`;
  const kind = i % 2 ? "source" : "defense";
  const pre = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="附件-${i}.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  const t0 = performance.now();
  return new Promise<{ status: number; ms: number }>((ok, fail) => {
    const req = request(
      `${base}/Backend/Work/work/${workId}/files`,
      {
        method: "POST",
        agent,
        headers: {
          origin: base,
          cookie,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(pre.length + size + post.length),
        },
      },
      (res) => {
        const body: Buffer[] = [];
        res.on("data", (c: Buffer) => body.push(c));
        res.on("end", () => {
          if (res.statusCode !== 201) process.stderr.write(`上传 ${i}：${res.statusCode} ${Buffer.concat(body)}\n`);
          ok({ status: res.statusCode!, ms: performance.now() - t0 });
        });
      },
    );
    req.on("error", fail);
    pipeline(
      Readable.from(
        (function* () {
          yield pre;
          yield* fileBytes(i, size);
          yield post;
        })(),
      ),
      req,
    ).catch(fail);
  });
}

/** The uploads, CONCURRENCY at a time, against a running server (pid for its CPU time). */
export async function uploadLoad(server: { base: string; pid: number; workId: number }) {
  const sizes = uploadSizes();
  const cookie = await login(server.base);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const cpu0 = cpuSeconds(server.pid);
  const loop0 = cpuSeconds(server.pid, server.pid);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < sizes.length) {
        const i = next++;
        const r = await uploadOne(server.base, agent, cookie, server.workId, i, sizes[i]);
        if (r.status === 201) times.push(r.ms);
        else errors++;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(server.pid) - cpu0;
  const loop = cpuSeconds(server.pid, server.pid) - loop0;
  const own = process.cpuUsage(own0);
  agent.destroy();
  const total = sizes.reduce((a, b) => a + b, 0);
  return {
    totalMB: Math.round(total / MB),
    s,
    serverMBps: Math.round(total / MB / s),
    serverCpuPct: Math.round((cpu / s) * 100),
    loopCpuPct: Math.round((loop / s) * 100),
    cpuMsPerMB: Math.round(((cpu * 1000) / (total / MB)) * 100) / 100,
    loopCpuMsPerMB: Math.round(((loop * 1000) / (total / MB)) * 100) / 100,
    clientCpuPct: Math.round(((own.user + own.system) / 1e6 / s) * 100),
    uploadP50Ms: Math.round(p(times, 0.5)),
    uploadP99Ms: Math.round(p(times, 0.99)),
    errors,
  };
}

/** The baseline: the same sizes written one after another to `dir`, 1 MB writes, each file flushed. */
export async function diskBaseline(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  const sizes = uploadSizes();
  const t0 = performance.now();
  for (const [i, size] of sizes.entries()) {
    const fh = await open(join(dir, `f${i}`), "w");
    for (const chunk of fileBytes(i, size)) await fh.write(chunk);
    await fh.sync();
    await fh.close();
  }
  const s = (performance.now() - t0) / 1000;
  await rm(dir, { recursive: true, force: true });
  return Math.round(sizes.reduce((a, b) => a + b, 0) / MB / s);
}
