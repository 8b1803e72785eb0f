/**
 * npm run bench:frontend — what a browser downloads and how soon it paints. Builds the front end
 * (vite, with its precompressed assets) into a temporary folder, serves it with the real app on a
 * fresh demo SQLite database on loopback, and drives headless Chromium (playwright-core,
 * /usr/bin/chromium), each load in a new context (cold cache):
 *  - publicKB / loginKB / largestAdminKB: gzip size of the JS+CSS the page actually loads
 *    (recorded per response, sized from the build's .gz files) for /mainpage/home (visitor),
 *    /account/StudentLogin (visitor) and the heaviest of the admin pages in the route table (as root),
 *    the dashboards /statistics excepted (their charts are weighed apart and only logged);
 *  - registerKB / claimKB: the same for the registration page /account/Register and the
 *    forgotten-password page /account/claim-account (visitor);
 *  - verifyKB / complaintKB: the same for the visitor pages /verify-cert (as a certificate's QR code
 *    opens it, with a number and code) and /complaint, served by the light public entry (issue 29);
 *  - chunks: the lazy chunks of the build (vite manifest entries loaded by dynamic import);
 *  - fcpMs / newsVisibleMs: median of 5 cold loads of /mainpage/home: first contentful paint, and
 *    the moment an element marked [data-news-list] has an item. Null while the page has no news
 *    list (today /mainpage/home is a titled placeholder): never a made-up figure.
 * Ends with one JSON line
 * {"publicKB","loginKB","largestAdminKB","chunks","fcpMs","newsVisibleMs","registerKB","claimKB","verifyKB","complaintKB"}.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContextOptions } from "playwright-core";
import { ROOT_DIR } from "../src/server/app";
import { migrate, openDb } from "../src/server/db";
import { seedDemo } from "../src/server/seed/demo";
import { seedResultsDemo } from "../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../src/server/seed/complaints-demo";
import { launchChromium, startBenchServer } from "./server";

const RUNS = 5;
const work = mkdtempSync(join(tmpdir(), "saiwu-bench-fe-"));
const dist = join(work, "dist");
const kb = (b: number) => Math.round((b / 1024) * 10) / 10;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor((s.length - 1) / 2)]) : null;
};

console.log("构建前端（vite build）…");
execFileSync(
  process.execPath,
  [join(ROOT_DIR, "node_modules/vite/bin/vite.js"), "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"],
  { cwd: ROOT_DIR, stdio: "inherit" },
);

// Lazy chunks: manifest entries some chunk loads by dynamic import.
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<
  string,
  { file: string; isDynamicEntry?: boolean }
>;
const chunks = Object.values(manifest).filter((c) => c.isDynamicEntry).length;

const gzSize = new Map<string, number>();
function gzOf(pathname: string): number {
  if (!gzSize.has(pathname)) {
    const file = join(dist, pathname);
    gzSize.set(
      pathname,
      existsSync(file + ".gz")
        ? statSync(file + ".gz").size
        : existsSync(file)
          ? gzipSync(readFileSync(file), { level: 9 }).length
          : 0,
    );
  }
  return gzSize.get(pathname)!;
}

const dataDir = join(work, "data");
const url = `file:${join(work, "bench.db")}`;
const opened = openDb(url);
await migrate(opened.db);
await seedDemo(opened.db);
// The published Zhejiang results (certificates for /verify-cert) and the complaint windows, as `npm start` seeds them.
await seedResultsDemo(opened.db);
await seedComplaintsDemo(opened.db);
const server = await startBenchServer({ dataDir, url, opened, dist, env: { LOGIN_RATE_MAX: "1000" } });
const base = server.base;

const browser: Browser = await launchChromium();
const ctxOptions: BrowserContextOptions = {
  locale: "zh-CN",
  timezoneId: "Asia/Shanghai",
  viewport: { width: 1280, height: 800 },
};

/** A cold load of `path`: the JS/CSS it loads (gzip KB from the build, and bytes on the wire). */
async function weigh(path: string, storageState?: BrowserContextOptions["storageState"], ready?: string) {
  const ctx = await browser.newContext({ ...ctxOptions, storageState });
  const page = await ctx.newPage();
  const assets = new Set<string>();
  const sizes: Promise<number>[] = [];
  page.on("requestfinished", (req) => {
    const u = new URL(req.url());
    if (u.origin !== base || !/\.(js|css)$/.test(u.pathname)) return;
    assets.add(u.pathname);
    sizes.push(
      req.sizes().then(
        (s) => s.responseBodySize,
        () => 0,
      ),
    );
  });
  await page.goto(base + path, { waitUntil: "networkidle" });
  // A page whose body is a lazy chunk: on a loaded machine the network can idle before the chunk is
  // asked for, so wait until the page shows `ready`, then for the network again.
  if (ready) {
    await page.waitForSelector(ready, { timeout: 60000 });
    await page.waitForLoadState("networkidle");
  }
  const wire = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  const finalPath = new URL(page.url()).pathname;
  await ctx.close();
  const gz = [...assets].reduce((s, a) => s + gzOf(a), 0);
  return { path, finalPath, files: assets.size, gzKB: kb(gz), wireKB: kb(wire) };
}

// The admin pages of the route table (no parameters), visited as root. The dashboards (统计,
// /statistics, issue 32) are left out: they carry the charts (ECharts) in a chunk of their own and
// are weighed apart below (logged only; bench:stats reports chartPageKB), so largestAdminKB
// stays the figure of the other admin pages.
const STATS_PATH = "/statistics";
const routesText = readFileSync(join(ROOT_DIR, "src/client/routes.tsx"), "utf8");
const adminPaths = [...new Set([...routesText.matchAll(/path: "(\/[^"]*)"/g)].map((m) => m[1]))].filter(
  (p) =>
    p !== STATS_PATH &&
    !p.includes(":") &&
    /^\/(admin|ContestAdmin|WorkManagement|ComplaintManagement|Arbitrate|judgePool|dup-check|test)\b/.test(p),
);
const login = await browser.newContext(ctxOptions);
const r = await login.request.post(`${base}/Backend/Common/account/login`, {
  data: { username: "root", password: "Demo@2026", page: "admin" },
  headers: { origin: base },
});
if (!r.ok()) throw new Error(`root 登录失败：${r.status()}`);
const rootState = await login.storageState();
await login.close();

const pub = await weigh("/mainpage/home");
console.log(`访客 /mainpage/home：${pub.files} 个 JS/CSS，gzip ${pub.gzKB} KB（实际传输 br ${pub.wireKB} KB）`);
const loginPage = await weigh("/account/StudentLogin");
console.log(
  `登录页 /account/StudentLogin：${loginPage.files} 个 JS/CSS，gzip ${loginPage.gzKB} KB（实际传输 br ${loginPage.wireKB} KB）`,
);
const registerPage = await weigh("/account/Register");
console.log(
  `注册页 /account/Register：${registerPage.files} 个 JS/CSS，gzip ${registerPage.gzKB} KB（实际传输 br ${registerPage.wireKB} KB）`,
);
const claimPage = await weigh("/account/claim-account");
console.log(
  `找回密码页 /account/claim-account：${claimPage.files} 个 JS/CSS，gzip ${claimPage.gzKB} KB（实际传输 br ${claimPage.wireKB} KB）`,
);
// The visitor pages (issue 29): the QR code's address of a demo certificate, and the complaint entry.
const cert = await opened.db
  .selectFrom("certificate")
  .select(["number", "signature"])
  .where("status", "=", "valid")
  .orderBy("number")
  .executeTakeFirst();
const verifyPath = cert
  ? `/verify-cert?number=${encodeURIComponent(cert.number)}&code=${encodeURIComponent(cert.signature)}`
  : "/verify-cert";
const verifyPage = await weigh(verifyPath, undefined, cert ? "[data-testid=cert-status]" : "[data-testid=verify-submit]");
console.log(
  `证书查询 /verify-cert${cert ? "（二维码地址）" : ""}：${verifyPage.files} 个 JS/CSS，gzip ${verifyPage.gzKB} KB（实际传输 br ${verifyPage.wireKB} KB）`,
);
const complaintPage = await weigh("/complaint", undefined, "[data-testid=complaint-windows]");
console.log(
  `申诉入口 /complaint：${complaintPage.files} 个 JS/CSS，gzip ${complaintPage.gzKB} KB（实际传输 br ${complaintPage.wireKB} KB）`,
);
const admin = [];
for (const p of adminPaths) {
  const w = await weigh(p, rootState);
  admin.push(w);
  console.log(`  root ${p}${w.finalPath !== p ? ` → ${w.finalPath}` : ""}：${w.files} 个，gzip ${w.gzKB} KB`);
}
const largest = admin.reduce((m, w) => (w.gzKB > m.gzKB ? w : m), admin[0]);
console.log(
  `最大的管理页：${largest.path}，gzip ${largest.gzKB} KB（实际传输 br ${largest.wireKB} KB）；懒加载分块 ${chunks} 个`,
);
const statsPage = await weigh(STATS_PATH, rootState, "[data-chart-drawn]");
console.log(
  `统计页 ${STATS_PATH}（含图表，不计入最大的管理页）：${statsPage.files} 个 JS/CSS，gzip ${statsPage.gzKB} KB（实际传输 br ${statsPage.wireKB} KB）`,
);

// First contentful paint and the news list on /mainpage/home, 5 cold loads.
const fcps: number[] = [];
const news: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const ctx = await browser.newContext(ctxOptions);
  // As text: tsx compiles functions with esbuild's name helpers (__name), which do not exist in
  // the page, so a function passed here would throw there and never record anything.
  await ctx.addInitScript({
    content: `new MutationObserver(function () {
      if (window.__newsVisible === undefined && document.querySelector("[data-news-list] > *")) window.__newsVisible = performance.now();
    }).observe(document, { childList: true, subtree: true });`,
  });
  const page = await ctx.newPage();
  await page.goto(`${base}/mainpage/home`, { waitUntil: "networkidle" });
  const fcp = await page
    .waitForFunction(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime, undefined, { timeout: 10000 })
    .then((h) => h.jsonValue() as Promise<number>);
  fcps.push(fcp);
  const nv = await page.evaluate(() => (window as unknown as { __newsVisible?: number }).__newsVisible ?? null);
  if (nv !== null) news.push(nv);
  await ctx.close();
}
const fcpMs = median(fcps);
const newsVisibleMs = news.length === RUNS ? median(news) : null;
console.log(`/mainpage/home 首次内容绘制：${fcps.map(Math.round).join(", ")} ms，中位数 ${fcpMs} ms`);
console.log(
  newsVisibleMs === null
    ? "新闻列表：/mainpage/home 还没有新闻列表（[data-news-list]），newsVisibleMs 记为 null"
    : `新闻列表可见：中位数 ${newsVisibleMs} ms`,
);

await browser.close();
await server.close();
rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify({
    publicKB: pub.gzKB,
    loginKB: loginPage.gzKB,
    largestAdminKB: largest.gzKB,
    chunks,
    fcpMs,
    newsVisibleMs,
    registerKB: registerPage.gzKB,
    claimKB: claimPage.gzKB,
    verifyKB: verifyPage.gzKB,
    complaintKB: complaintPage.gzKB,
  }),
);
process.exit(0);
