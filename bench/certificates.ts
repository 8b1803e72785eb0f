/**
 * npm run bench:certificates — 1,000 certificates with Chinese names (every 40th with a rare
 * character, 䶮 or 𠮷) to one PDF through the real job of the compiled server (esbuild, as
 * `npm start` runs it) in a child process on a fresh embedded SQLite database: root logs in
 * over HTTP, POST /Backend/Certificate/print/pdf with the contest as filter, polls the job
 * until done, downloads the file and checks it (pdfinfo: page count; pdftotext: every
 * holder's name). The database is seeded by another child process first. The server runs
 * with the node options of package.json's "start" line (and NODE_OPTIONS, if set). peakRssMB
 * is the server process's peak resident memory (VmHWM of /proc/<pid>/status, read when the
 * job is done, before the download), so neither the TypeScript loader nor the bench counts in it.
 * Baseline (same run, in this process): the time to render one certificate alone into its
 * own PDF (median of 5, after one untimed render).
 * Ends with one JSON line: {"certificates","seconds","pages","fileMB","peakRssMB","oneCertificateMs"}.
 * CERTIFICATES=<n> changes the count.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer, ROOT } from "../scripts/build.mjs";
import { loadConfig } from "../src/server/config";
import { openDb, type Db } from "../src/server/db";
import { DEMO_PASSWORD } from "../src/server/seed/demo";
import { createBlobStore } from "../src/server/storage";
import { factsOf, renderToBuffer } from "../src/server/certificate/print";
import { defaultLayout, verifyUrl } from "../src/shared/certificate/layout";
import { seedCertificates } from "./certificates-data";
import { procStatusMB, startNodeOptions, startServerChild, type ServerChild } from "./server";
import { log, seconds } from "./works-data";
import { runBench } from "./entry";

const COUNT = Number(process.env.CERTIFICATES ?? 1000);
const PUBLIC_URL = "https://saiwu.example.edu.cn";

async function seedOnly(dir: string) {
  const { db } = await seedCertificates(`file:${join(dir, "bench.db")}`, COUNT);
  await db.destroy();
}

/** A /proc/<pid>/status figure in whole MB. */
const statusMB = (pid: number, key: "VmRSS" | "VmHWM") => Math.round(procStatusMB(pid, key));

/** The compiled server (`out`/main.js) on the seeded `dir`, once /readyz answers 200. */
const startServer = (out: string, dir: string): Promise<ServerChild> =>
  startServerChild([...startNodeOptions(), join(out, "main.js")], {
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "bench.db")}`,
    SEED_DEMO: "0",
    PUBLIC_URL,
    DIST_DIR: join(dir, "no-dist"),
  });

/** Logs in as the demo root (the seed's password); the headers of its requests (our Origin, the session cookie). */
async function rootHeaders(base: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = { origin: base };
  const r = await fetch(`${base}/Backend/Common/account/login`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ username: "root", password: DEMO_PASSWORD, page: "admin" }),
  });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${await r.text()}`);
  headers.cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return headers;
}

async function job(
  server: ServerChild,
  headers: Record<string, string>,
  body: unknown,
  onProgress?: (p: number, t: number) => void,
) {
  const { base, proc } = server;
  const res = await fetch(`${base}/Backend/Certificate/print/pdf`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`print failed to start: ${res.status} ${await res.text()}`);
  const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
  for (;;) {
    const r = await fetch(`${base}/Backend/Common/job/${jobId}`, { headers });
    if (r.status !== 200) throw new Error(`job status: ${r.status} ${await r.text()}`);
    const j = ((await r.json()) as { data: { status: string; message: string | null; processed: number; total: number } }).data;
    if (j.status !== "running") {
      if (j.status !== "done") throw new Error(`print failed: ${j.message}`);
      // The server's peak, before the download adds its buffers.
      const peakRssMB = statusMB(proc.pid!, "VmHWM");
      const file = await fetch(`${base}/Backend/Common/job/${jobId}/download`, { headers });
      if (file.status !== 200 || file.headers.get("content-type") !== "application/pdf")
        throw new Error(`download failed: ${file.status}`);
      return { job: j, pdf: Buffer.from(await file.arrayBuffer()), peakRssMB };
    }
    onProgress?.(j.processed, j.total);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-bench-cert-"));
  // Inside the project: the compiled code finds casbin/ and node_modules/ by walking up.
  const out = join(ROOT, ".tmp", `bench-server-${randomUUID().slice(0, 8)}`);
  let server: ServerChild | undefined;
  let db: Db | undefined;
  try {
    let t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", dir], { stdio: "inherit" });
    log(`签发 ${COUNT} 张证书：${seconds(t0)} s（子进程）`);
    t0 = performance.now();
    await buildServer(out);
    log(`编译服务器：${seconds(t0)} s（${out}）`);

    // This process reads the seeded rows (names to check, the baseline's certificate) itself.
    db = openDb(`file:${join(dir, "bench.db")}`).db;
    const contest = await db.selectFrom("certificate").select("contest_id").executeTakeFirstOrThrow();
    const rows = await db
      .selectFrom("certificate")
      .selectAll()
      .where("contest_id", "=", contest.contest_id)
      .orderBy("number")
      .execute();
    log(
      `证书 ${rows.length} 张，例如 ${rows[0].number} ${rows[0].holder_name}；含生僻字的姓名 ${rows.filter((r) => /[䶮𠮷]/u.test(r.holder_name)).length} 个`,
    );

    server = await startServer(out, dir);
    const headers = await rootHeaders(server.base);
    const pid = server.proc.pid!;
    log(
      `服务器进程 ${pid}（node ${[...startNodeOptions(), process.env.NODE_OPTIONS ?? ""].join(" ").trim() || "无额外选项"}）已就绪：RSS ${statusMB(pid, "VmRSS")} MB`,
    );

    // Warm-up: one certificate through the job (fonts read, pdfkit loaded).
    t0 = performance.now();
    await job(server, headers, { ids: [rows[0].id] });
    log(`预热：1 张证书经后台任务 ${seconds(t0)} s；服务器 RSS ${statusMB(pid, "VmRSS")} MB，峰值 ${statusMB(pid, "VmHWM")} MB`);

    // Baseline (in this process): one certificate rendered alone into its own PDF.
    const store = createBlobStore(loadConfig({ DATA_DIR: dir, DATABASE_URL: `file:${join(dir, "bench.db")}`, PUBLIC_URL }));
    const item = {
      facts: factsOf(rows[1]),
      layout: defaultLayout("work"),
      verifyUrl: verifyUrl(PUBLIC_URL, rows[1].number, rows[1].signature),
    };
    await renderToBuffer([item], store);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      await renderToBuffer([item], store);
      times.push(performance.now() - s);
    }
    const oneCertificateMs = Math.round(times.sort((a, b) => a - b)[2] * 10) / 10;
    log(`基准：单独生成 1 张证书的 PDF ${oneCertificateMs} ms（5 次的中位数）`);

    const rssBefore = statusMB(pid, "VmRSS");
    log(`开始批量生成；服务器进程此刻 RSS ${rssBefore} MB，峰值 ${statusMB(pid, "VmHWM")} MB`);
    const start = performance.now();
    let shown = 0;
    const {
      job: done,
      pdf,
      peakRssMB,
    } = await job(server, headers, { filters: { contestId: contest.contest_id } }, (p, total) => {
      if (p - shown >= 250) log(`生成中：${(shown = p)}/${total}，服务器 RSS ${statusMB(pid, "VmRSS")} MB`);
    });
    const secs = seconds(start);
    const fileMB = Math.round((pdf.length / 1048576) * 100) / 100;
    log(`完成：${done.message}，${secs} s，文件 ${fileMB} MB，服务器进程峰值 RSS ${peakRssMB} MB（开始前 ${rssBefore} MB）`);
    await server.stop();
    server = undefined;

    // Check the file: one page per certificate, every name in its text.
    const file = join(dir, "out.pdf");
    writeFileSync(file, pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file]).toString())![1]);
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
    const missing = rows.filter((r) => !text.includes(r.holder_name));
    log(
      `核对：${pages} 页，pdftotext 中找到 ${rows.length - missing.length}/${rows.length} 个姓名${
        missing.length
          ? `，缺少 ${missing
              .slice(0, 5)
              .map((r) => r.holder_name)
              .join("、")}`
          : ""
      }`,
    );
    if (pages !== rows.length || missing.length) throw new Error("the PDF does not hold every certificate");
    log(
      `字体：${execFileSync("pdffonts", [file])
        .toString()
        .trim()
        .split("\n")
        .slice(2)
        .map((l) => l.split(/\s+/)[0])
        .join("、")}`,
    );
    console.log(JSON.stringify({ certificates: rows.length, seconds: secs, pages, fileMB, peakRssMB, oneCertificateMs }));
  } finally {
    await server?.stop();
    await db?.destroy();
    rmSync(out, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main, seedOnly);
