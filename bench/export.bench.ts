/**
 * npm run bench:export — exports 100,000 generated works through the real API on a fresh
 * embedded SQLite database: root logs in over HTTP, POST /Backend/Admin/work/export, polls the
 * job until done, downloads the .xlsx and reads it back, counting its rows. The database is
 * seeded by a child process; the export runs in the compiled server (esbuild, as `npm start`
 * runs it, with its node options) in another child process. peakRssMB is that server process's
 * peak resident memory (VmHWM of /proc/<pid>/status, read when the job is done, before the
 * download), so neither the seeding, the TypeScript loader nor the bench counts in it; the
 * server's resident memory before the export is logged beside it.
 * Ends with one JSON line: {"rows", "seconds", "peakRssMB", "fileMB"}. WORKS=<n> changes the count.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer, ROOT } from "../scripts/build.mjs";
import { readXlsx } from "../src/server/crud/excel";
import { DEMO_PASSWORD } from "../src/server/seed/demo";
import { log, seconds, seedWorksDb } from "./works-data";
import { runBench } from "./entry";
import { procStatusMB, startNodeOptions, startServerChild, type ServerChild } from "./server";

const WORKS = Number(process.env.WORKS ?? 100_000);

async function seedOnly(dir: string) {
  const { db } = await seedWorksDb(`file:${join(dir, "bench.db")}`, WORKS);
  await db.destroy();
}

const statusMB = (pid: number, key: "VmRSS" | "VmHWM") => Math.round(procStatusMB(pid, key));

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-export-"));
  // Inside the project: the compiled code finds casbin/ and node_modules/ by walking up.
  const out = join(ROOT, ".tmp", `bench-server-${randomUUID().slice(0, 8)}`);
  let server: ServerChild | undefined;
  try {
    let t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", dir], { stdio: "inherit" });
    log(`生成 ${WORKS} 件作品：${seconds(t0)} s（子进程）`);
    await buildServer(out);
    server = await startServerChild([...startNodeOptions(), join(out, "main.js")], {
      DATA_DIR: dir,
      DATABASE_URL: `file:${join(dir, "bench.db")}`,
      SEED_DEMO: "0",
      DIST_DIR: join(dir, "no-dist"),
    });
    const { base } = server;
    const pid = server.proc.pid!;
    const headers: Record<string, string> = { origin: base };
    const login = await fetch(`${base}/Backend/Common/account/login`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ username: "root", password: DEMO_PASSWORD, page: "admin" }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    headers.cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    log(
      `服务器进程 ${pid}（node ${startNodeOptions().join(" ") || "无额外选项"}）：导出前 RSS ${statusMB(pid, "VmRSS")} MB，峰值 ${statusMB(pid, "VmHWM")} MB`,
    );

    const start = performance.now();
    const res = await fetch(`${base}/Backend/Admin/work/export`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: "{}",
    });
    if (res.status !== 202) throw new Error(`export failed to start: ${res.status} ${await res.text()}`);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
    let job: { status: string; message: string | null; processed: number; total: number };
    let lastShown = -1;
    for (;;) {
      job = ((await (await fetch(`${base}/Backend/Common/job/${jobId}`, { headers })).json()) as { data: typeof job }).data;
      if (job.status !== "running") break;
      if (job.processed - lastShown >= 20_000)
        log(`导出中：${(lastShown = job.processed)}/${job.total}，服务器 RSS ${statusMB(pid, "VmRSS")} MB`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const exportSeconds = seconds(start);
    // The server's peak, before the download adds its buffers.
    const peakRssMB = statusMB(pid, "VmHWM");
    if (job.status !== "done") throw new Error(`export failed: ${job.message}`);
    // The file as the admin downloads it (the job's result lives in the blob store).
    const download = await fetch(`${base}/Backend/Common/job/${jobId}/download`, { headers });
    if (download.status !== 200) throw new Error(`download failed: ${download.status}`);
    const bytes = Buffer.from(await download.arrayBuffer());
    await server.stop();
    server = undefined;
    const file = join(dir, `${jobId}.xlsx`);
    writeFileSync(file, bytes);
    const fileMB = Math.round((bytes.length / 1048576) * 10) / 10;
    log(`导出完成：${job.message}，${exportSeconds} s，文件 ${fileMB} MB，服务器进程峰值 RSS ${peakRssMB} MB`);

    t0 = performance.now();
    let rows = 0;
    let headerRow: string[] = [];
    let sample: Record<string, string> | undefined;
    for await (const r of readXlsx(file)) {
      if ("headers" in r) headerRow = r.headers;
      else {
        rows++;
        sample ??= r.cells;
      }
    }
    log(
      `读回文件：${rows} 行，${headerRow.length} 列，${seconds(t0)} s；首行：${sample ? `${sample["作品编号"]} ${sample["作品名称"]} ${sample["学校"]} ${sample["作者"]}` : "无"}`,
    );
    if (rows !== WORKS) throw new Error(`expected ${WORKS} rows, read ${rows}`);
    console.log(JSON.stringify({ rows, seconds: exportSeconds, peakRssMB, fileMB }));
  } finally {
    await server?.stop();
    rmSync(out, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main, seedOnly);
