/**
 * npm run bench:certificates — 1,000 certificates with Chinese names (every 40th with a rare
 * character, 䶮 or 𠮷) to one PDF through the real job on a fresh embedded SQLite database:
 * root logs in, POST /Backend/Certificate/print/pdf with the contest as filter, polls the job
 * until done, downloads the file and checks it (pdfinfo: page count; pdftotext: every holder's
 * name). The database is seeded by a child process, so the peak RSS reported is that of the
 * server process doing the job (read when the job is done, before the file is downloaded into
 * the bench's own memory). Baseline (same run, after a warm-up job of one certificate):
 * the time to render one certificate alone into its own PDF (median of 5).
 * Ends with one JSON line: {"certificates","seconds","pages","fileMB","peakRssMB","oneCertificateMs"}.
 * CERTIFICATES=<n> changes the count.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { createBlobStore } from "../src/server/storage";
import { factsOf } from "../src/server/certificate/print";
import { renderToBuffer } from "../src/server/certificate/print";
import { defaultLayout, verifyUrl } from "../src/shared/certificate/layout";
import { seedCertificates } from "./certificates-data";
import { log, rootHeaders, seconds } from "./works-data";
import { runBench } from "./entry";
import { startBenchServer } from "./server";

const COUNT = Number(process.env.CERTIFICATES ?? 1000);

async function seedOnly(dir: string) {
  const { db } = await seedCertificates(`file:${join(dir, "bench.db")}`, COUNT);
  await db.destroy();
}

async function job(app: FastifyInstance, headers: Record<string, string>, body: unknown, onProgress?: (p: number, t: number) => void) {
  const res = await app.inject({ method: "POST", url: "/Backend/Certificate/print/pdf", headers, payload: body as object });
  if (res.statusCode !== 202) throw new Error(`print failed to start: ${res.body}`);
  const jobId = res.json().data.jobId as string;
  for (;;) {
    const j = (await app.inject({ method: "GET", url: `/Backend/Common/job/${jobId}`, headers })).json().data;
    if (j.status !== "running") {
      if (j.status !== "done") throw new Error(`print failed: ${j.message}`);
      // The server's peak, before the download is read into this process's memory.
      const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
      const file = await app.inject({ method: "GET", url: `/Backend/Common/job/${jobId}/download`, headers });
      if (file.statusCode !== 200 || file.headers["content-type"] !== "application/pdf") throw new Error(`download failed: ${file.statusCode}`);
      return { job: j, pdf: file.rawPayload, peakRssMB };
    }
    onProgress?.(j.processed, j.total);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-cert-"));
  try {
    let t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", dir], { stdio: "inherit" });
    log(`签发 ${COUNT} 张证书：${seconds(t0)} s（子进程）`);

    const server = await startBenchServer({ dataDir: dir, env: { PUBLIC_URL: "https://saiwu.example.edu.cn" }, listen: false });
    const { app, db, config } = server;
    const headers = await rootHeaders(app);
    const contest = await db.selectFrom("certificate").select("contest_id").executeTakeFirstOrThrow();
    const rows = await db.selectFrom("certificate").selectAll().where("contest_id", "=", contest.contest_id).orderBy("number").execute();
    log(`证书 ${rows.length} 张，例如 ${rows[0].number} ${rows[0].holder_name}；含生僻字的姓名 ${rows.filter((r) => /[䶮𠮷]/u.test(r.holder_name)).length} 个`);

    // Warm-up: one certificate through the job (fonts read, code compiled).
    t0 = performance.now();
    await job(app, headers, { ids: [rows[0].id] });
    log(`预热：1 张证书经后台任务 ${seconds(t0)} s`);
    // Baseline: one certificate rendered alone into its own PDF.
    const store = createBlobStore(config);
    const item = { facts: factsOf(rows[1]), layout: defaultLayout("work"), verifyUrl: verifyUrl(config.publicUrl, rows[1].number, rows[1].signature) };
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      await renderToBuffer([item], store);
      times.push(performance.now() - s);
    }
    const oneCertificateMs = Math.round(times.sort((a, b) => a - b)[2] * 10) / 10;
    log(`基准：单独生成 1 张证书的 PDF ${oneCertificateMs} ms（5 次的中位数）`);

    const rssBefore = Math.round(process.memoryUsage().rss / 1048576);
    log(`开始批量生成；此前服务器进程的峰值 RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    const start = performance.now();
    let shown = 0;
    const { job: done, pdf, peakRssMB } = await job(app, headers, { filters: { contestId: contest.contest_id } }, (p, total) => {
      if (p - shown >= 250) log(`生成中：${(shown = p)}/${total}`);
    });
    const secs = seconds(start);
    const fileMB = Math.round((pdf.length / 1048576) * 100) / 100;
    log(`完成：${done.message}，${secs} s，文件 ${fileMB} MB，峰值 RSS ${peakRssMB} MB（开始前 ${rssBefore} MB，批量生成增加约 ${peakRssMB - rssBefore} MB）`);

    // Check the file: one page per certificate, every name in its text.
    const file = join(dir, "out.pdf");
    writeFileSync(file, pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file]).toString())![1]);
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
    const missing = rows.filter((r) => !text.includes(r.holder_name));
    log(`核对：${pages} 页，pdftotext 中找到 ${rows.length - missing.length}/${rows.length} 个姓名${missing.length ? `，缺少 ${missing.slice(0, 5).map((r) => r.holder_name).join("、")}` : ""}`);
    if (pages !== rows.length || missing.length) throw new Error("the PDF does not hold every certificate");
    log(`字体：${execFileSync("pdffonts", [file]).toString().trim().split("\n").slice(2).map((l) => l.split(/\s+/)[0]).join("、")}`);
    await server.close();
    console.log(JSON.stringify({ certificates: rows.length, seconds: secs, pages, fileMB, peakRssMB, oneCertificateMs }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main, seedOnly);
