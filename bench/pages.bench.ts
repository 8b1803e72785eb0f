/**
 * npm run bench:pages [-- --works N] [--dist <built front end>] [--data <dir>]
 * The heavy pages on the large data set, in a real browser. The data set is the demo plus
 * `npm run seed -- --schools 700 --students 50000 --teachers 5000 --works N` (default
 * 100,000 works), made once by a child process and cached in --data (default
 * /tmp/saiwu-bench-pages-<N>; reused by the next run, which copies it and migrates the copy,
 * so the cache is never changed). Builds the front end (vite) unless --dist names a build,
 * serves it with the real app on loopback and drives headless Chromium (playwright-core,
 * /usr/bin/chromium or CHROMIUM_PATH). Each page is opened as its role in a browser of its own with
 * a new ordinary profile (as a person's browser: disk cache and V8's code cache): one warm-up load,
 * then 3 loads in new tabs of that browser (assets cached, as for a returning user); ms = from the
 * navigation's start until the page's first data is visible (its first table row rendered),
 * checked in the page at every animation frame; the median of the 3 is reported. The same pages are
 * then measured the bench's earlier way, in private contexts of one browser (playwright's
 * newContext: in-memory cache and no V8 code cache, so every load compiles every script again):
 * privateMaxMs, privateMedianMs, privateBaselineMs, for comparison with runs before the change.
 * The small upload: the student uploads a tiny PDF in the attachments tab of a draft work;
 * ms from choosing the file until the uploaded file's name is shown (median of 3 after one
 * warm-up), and the server's time for the POST alone.
 * The baseline, for comparing runs on machines of different speed: the light login page
 * (/account/Login, a small React and antd page of the same app) as a visitor, measured the same
 * way until its 登录 button shows.
 * The dashboards (/statistics) are measured as root and as a contest admin until their first chart is drawn.
 * Ends with one JSON line {"pages":[{"path","user","ms"}…],"maxMs","medianMs","uploadMs","uploadServerMs","baselineMs",
 * "privateMaxMs","privateMedianMs","privateBaselineMs"}.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { ROOT_DIR } from "../src/server/app";
import { migrate, openDb } from "../src/server/db";
import { DEMO_PASSWORD, seedDemo } from "../src/server/seed/demo";
import { runBench } from "./entry";
import { launchChromium, launchChromiumProfile, startBenchServer } from "./server";

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((a, i, all) => a !== "--seed-only" && all[i - 1] !== "--seed-only"),
  options: {
    works: { type: "string", default: "100000" },
    students: { type: "string", default: "50000" },
    teachers: { type: "string", default: "5000" },
    schools: { type: "string", default: "700" },
    dist: { type: "string" },
    data: { type: "string" },
  },
  strict: false,
});
const SEED_ARGS = [
  "--schools",
  String(args.schools),
  "--students",
  String(args.students),
  "--teachers",
  String(args.teachers),
  "--works",
  String(args.works),
];
const LOADS = 3;
type Mode = "profile" | "private";
const DB_FILE = "saiwu.db";
const DONE_MARK = "complete";

/** The pages: path, role, and what shows its first data. */
const PAGES: { path: string; user: string; loginPage: "admin" | "student" | "teacher"; first: string }[] = [
  { path: "/admin/UserManagement", user: "root", loginPage: "admin", first: "[data-testid=user-table] .ant-table-row" },
  { path: "/admin/SchoolManagement", user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  { path: "/WorkManagement", user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  { path: "/author/WorkLog", user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  { path: "/judgePool", user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  {
    path: "/ContestAdmin/UserManagement",
    user: "contest_admin",
    loginPage: "admin",
    first: "[data-testid=user-table] .ant-table-row",
  },
  { path: "/ContestReviewer/Review/2", user: "reviewer", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  { path: "/school/WorkManagement", user: "school_admin", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  {
    path: "/school/AuthorManagement",
    user: "school_admin",
    loginPage: "admin",
    first: "[data-testid=user-table] .ant-table-row",
  },
  { path: "/author/work-management", user: "student", loginPage: "student", first: "[data-testid=my-works] .ant-table-row" },
  // 统计 (issue 32): the dashboards' first tab, until its first chart is drawn (ECharts' "finished").
  { path: "/statistics", user: "root", loginPage: "admin", first: "[data-chart-drawn]" },
  { path: "/statistics", user: "contest_admin", loginPage: "admin", first: "[data-chart-drawn]" },
];

const log = (msg: string) => process.stderr.write(`${msg}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor((s.length - 1) / 2)]);
};

/** The child: the demo, then the large data set through the seed command on the same file. */
async function seedOnly(dir: string) {
  mkdirSync(dir, { recursive: true });
  const url = `file:${join(dir, DB_FILE)}`;
  const { db } = openDb(url);
  await migrate(db);
  await seedDemo(db);
  await db.destroy();
  execFileSync(process.execPath, [...process.execArgv, join(ROOT_DIR, "src/server/seed/cli.ts"), ...SEED_ARGS], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: url },
  });
  writeFileSync(join(dir, DONE_MARK), `${SEED_ARGS.join(" ")}\n`);
}

async function main() {
  const cache = String(
    args.data ?? join(tmpdir(), `saiwu-bench-pages-${args.schools}-${args.students}-${args.teachers}-${args.works}`),
  );
  if (!existsSync(join(cache, DONE_MARK))) {
    rmSync(cache, { recursive: true, force: true });
    log(`生成大数据集（${SEED_ARGS.join(" ")}）到 ${cache} …`);
    const t0 = performance.now();
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--seed-only", cache, ...process.argv.slice(2)], {
      stdio: "inherit",
    });
    log(`大数据集生成完毕：${Math.round((performance.now() - t0) / 1000)} s`);
  } else log(`使用已缓存的大数据集：${cache}`);

  const work = mkdtempSync(join(tmpdir(), "saiwu-bench-pages-run-"));
  try {
    const dist = args.dist ? String(args.dist) : join(work, "dist");
    if (!args.dist) {
      log("构建前端（vite build）…");
      execFileSync(
        process.execPath,
        [join(ROOT_DIR, "node_modules/vite/bin/vite.js"), "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"],
        { cwd: ROOT_DIR, stdio: ["ignore", "ignore", "inherit"] },
      );
    }
    // The server works on a copy: the cache stays as generated.
    copyFileSync(join(cache, DB_FILE), join(work, DB_FILE));
    const url = `file:${join(work, DB_FILE)}`;
    const server = await startBenchServer({
      dataDir: join(work, "data"),
      url,
      dist,
      migrate: true,
      env: { LOGIN_RATE_MAX: "1000" },
    });
    const { base } = server;

    const browser: Browser = await launchChromium();
    const ctxOptions: BrowserContextOptions = {
      locale: "zh-CN",
      timezoneId: "Asia/Shanghai",
      viewport: { width: 1400, height: 900 },
    };
    const sessions = new Map<string, BrowserContextOptions["storageState"]>();
    let profiles = 0;
    /** A browser signed in as `user` (undefined: a visitor). "profile": a new ordinary profile of its
     * own (disk cache and V8's code cache, as a person's browser); "private": a private context of the
     * shared browser (no code cache; the bench's only way before). */
    async function contextAs(user: string | undefined, loginPage: string, mode: Mode): Promise<BrowserContext> {
      if (mode === "profile") {
        const ctx = await launchChromiumProfile(join(work, `profile-${++profiles}`), ctxOptions);
        if (user) await logIn(ctx, user, loginPage);
        return watchFirst(ctx);
      }
      if (user && !sessions.has(user)) {
        const c = await browser.newContext(ctxOptions);
        await logIn(c, user, loginPage);
        sessions.set(user, await c.storageState());
        await c.close();
      }
      return watchFirst(await browser.newContext({ ...ctxOptions, storageState: user ? sessions.get(user) : undefined }));
    }
    async function logIn(ctx: BrowserContext, user: string, loginPage: string) {
      const r = await ctx.request.post(`${base}/Backend/Common/account/login`, {
        data: { username: user, password: DEMO_PASSWORD, page: loginPage },
        headers: { origin: base },
      });
      if (!r.ok()) throw new Error(`${user} 登录失败：${r.status()} ${await r.text()}`);
    }
    async function watchFirst(ctx: BrowserContext): Promise<BrowserContext> {
      // The moment the page's first data shows, checked at every frame (so: when it is painted).
      // (A string: tsx would wrap a function's inner names in a helper the page does not have.)
      await ctx.addInitScript({
        content: `(() => {
          const sel = sessionStorage.getItem("bench-first");
          const check = () => {
            if (document.querySelector(sel)) window.__firstAt = performance.now();
            else requestAnimationFrame(check);
          };
          if (sel) requestAnimationFrame(check);
        })();`,
      });
      return ctx;
    }

    async function load(ctx: BrowserContext, path: string, first: string): Promise<number> {
      const page = await ctx.newPage();
      try {
        // The selector travels in sessionStorage of the origin (set on a blank page first).
        await page.goto(`${base}/Backend/Common/user/get-current`);
        await page.evaluate((sel) => sessionStorage.setItem("bench-first", sel), first);
        await page.goto(base + path);
        const h = await page.waitForFunction(() => (window as unknown as { __firstAt?: number }).__firstAt, undefined, {
          timeout: 30_000,
        });
        return (await h.jsonValue()) as number;
      } catch (e) {
        throw new Error(`${path}：页面的数据 30 秒内未显示（${first}）：${(e as Error).message}`, { cause: e });
      } finally {
        await page.close();
      }
    }

    /** One warm-up, then the median of LOADS loads. */
    async function measure(ctx: BrowserContext, path: string, first: string): Promise<{ ms: number; times: number[] }> {
      await load(ctx, path, first); // warm-up
      const times: number[] = [];
      for (let i = 0; i < LOADS; i++) times.push(await load(ctx, path, first));
      await ctx.close();
      return { ms: median(times), times };
    }

    /** The pages and the baseline, each in a new context of the mode. */
    async function pagesIn(mode: Mode) {
      log(
        mode === "profile"
          ? "—— 普通浏览器配置（磁盘缓存与 V8 代码缓存，如回访用户）——"
          : "—— 隐私窗口（无 V8 代码缓存，本基准原先的做法）——",
      );
      const results: { path: string; user: string; ms: number }[] = [];
      for (const p of PAGES) {
        const { ms, times } = await measure(await contextAs(p.user, p.loginPage, mode), p.path, p.first);
        results.push({ path: p.path, user: p.user, ms });
        log(`${p.user.padEnd(13)} ${p.path}：${times.map(Math.round).join(", ")} ms，中位数 ${ms} ms`);
      }
      // This machine's speed in the same run: the light login page as a visitor (a small React
      // and antd page of the same app), measured the same way until its 登录 button shows.
      const baseline = await measure(await contextAs(undefined, "", mode), "/account/Login", "form button[type=submit]");
      log(`visitor       /account/Login（基准）：${baseline.times.map(Math.round).join(", ")} ms，中位数 ${baseline.ms} ms`);
      const all = results.map((r) => r.ms);
      const figures = { pages: results, maxMs: Math.max(...all), medianMs: median(all), baselineMs: baseline.ms };
      log(
        `最慢 ${figures.maxMs} ms，中位数 ${figures.medianMs} ms；中位数页面 / 基准 = ${(figures.medianMs / figures.baselineMs).toFixed(2)}`,
      );
      return figures;
    }
    const profile = await pagesIn("profile");
    const privately = await pagesIn("private");

    // The small upload, as the student in the attachments tab of a draft work.
    const ctx = await contextAs("student", "student", "profile");
    const mine = await (await ctx.request.get(`${base}/Backend/Work/work/mine?pageSize=100`)).json();
    const draft = (mine.data.list as { id: number; status: string }[]).find((w) => w.status === "draft");
    if (!draft) throw new Error("演示学生没有草稿作品，无法测上传");
    const reqs = (await (await ctx.request.get(`${base}/Backend/Work/work/${draft.id}/files`)).json()).data.requirements as {
      key: string;
      types: string[];
    }[];
    const kind = reqs.find((r) => r.types.includes("pdf"))?.key;
    if (!kind) throw new Error("草稿作品的大类没有接受 PDF 的附件");
    const page = await ctx.newPage();
    await page.goto(`${base}/author/work-management?work=${draft.id}&tab=files`);
    const drawer = page.getByTestId("work-drawer");
    await drawer.getByRole("tab", { name: "作品附件" }).click();
    const input = drawer.getByTestId(`file-input-${kind}`);
    await input.waitFor({ state: "attached" });
    const uploads: number[] = [];
    const serverTimes: number[] = [];
    for (let i = 0; i <= LOADS; i++) {
      const name = `bench-${Date.now()}-${i}.pdf`;
      const posted = page.waitForResponse((r) => r.url().endsWith(`/files`) && r.request().method() === "POST");
      const t0 = performance.now();
      await input.setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(`%PDF-1.4\n% ${name}\n%%EOF\n`) });
      await drawer.getByTestId(`file-${kind}`).getByText(name).waitFor({ timeout: 30_000 });
      const ms = performance.now() - t0;
      const res = await posted;
      if (res.status() !== 201) throw new Error(`上传失败：${res.status()} ${await res.text()}`);
      const t = res.request().timing();
      if (i > 0) {
        uploads.push(ms);
        serverTimes.push(t.responseEnd - t.requestStart);
      }
    }
    await ctx.close();
    const uploadMs = median(uploads);
    const uploadServerMs = median(serverTimes);
    log(
      `student 上传小附件（${kind}）：${uploads.map(Math.round).join(", ")} ms，中位数 ${uploadMs} ms（其中请求 ${uploadServerMs} ms）`,
    );

    await browser.close();
    await server.close();
    const { pages, maxMs, medianMs, baselineMs } = profile;
    console.log(
      JSON.stringify({
        pages,
        maxMs,
        medianMs,
        uploadMs,
        uploadServerMs,
        baselineMs,
        privateMaxMs: privately.maxMs,
        privateMedianMs: privately.medianMs,
        privateBaselineMs: privately.baselineMs,
      }),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}

runBench(main, seedOnly);
