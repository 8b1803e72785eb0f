/**
 * npm run bench:export — exports 100,000 generated works through the real API on a fresh
 * embedded SQLite database: root logs in, POST /Backend/Admin/work/export, polls the job
 * until done, then reads the .xlsx back and counts its rows. The database is seeded by a
 * child process, so the peak RSS reported is that of the server process doing the export.
 * Ends with one JSON line: {"rows", "seconds", "peakRssMB", "fileMB"}. WORKS=<n> changes the count.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readXlsx } from "../src/server/crud/excel";
import { log, rootHeaders, seconds, seedWorksDb } from "./works-data";
import { runBench } from "./entry";
import { startBenchServer } from "./server";

const WORKS = Number(process.env.WORKS ?? 100_000);

async function seedOnly(dir: string) {
  const { db } = await seedWorksDb(`file:${join(dir, "bench.db")}`, WORKS);
  await db.destroy();
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-export-"));
  try {
    let t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", dir], { stdio: "inherit" });
    log(`生成 ${WORKS} 件作品：${seconds(t0)} s（子进程）`);

    const server = await startBenchServer({ dataDir: dir, listen: false });
    const { app } = server;
    const headers = await rootHeaders(app);

    const start = performance.now();
    const res = await app.inject({ method: "POST", url: "/Backend/Admin/work/export", headers, payload: {} });
    if (res.statusCode !== 202) throw new Error(`export failed to start: ${res.body}`);
    const jobId = res.json().data.jobId as string;
    let job;
    let lastShown = -1;
    for (;;) {
      job = (await app.inject({ method: "GET", url: `/Backend/Common/job/${jobId}`, headers })).json().data;
      if (job.status !== "running") break;
      if (job.processed - lastShown >= 20_000) log(`导出中：${(lastShown = job.processed)}/${job.total}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const exportSeconds = seconds(start);
    const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
    if (job.status !== "done") throw new Error(`export failed: ${job.message}`);
    // The file as the admin downloads it (the job's result lives in the blob store).
    const download = await app.inject({ method: "GET", url: `/Backend/Common/job/${jobId}/download`, headers });
    if (download.statusCode !== 200) throw new Error(`download failed: ${download.statusCode} ${download.body.slice(0, 200)}`);
    const file = join(dir, `${jobId}.xlsx`);
    writeFileSync(file, download.rawPayload);
    const fileMB = Math.round((statSync(file).size / 1048576) * 10) / 10;
    log(`导出完成：${job.message}，${exportSeconds} s，文件 ${fileMB} MB，峰值 RSS ${peakRssMB} MB`);

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
    await server.close();
    console.log(JSON.stringify({ rows, seconds: exportSeconds, peakRssMB, fileMB }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main, seedOnly);
