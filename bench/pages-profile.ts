/**
 * tsx bench/pages-profile.ts --dist <built front end> [--data <bench:pages cache>] [--runs N] [--pages a,b] [--trace-dir DIR]
 * Where a heavy page's time goes before its first table row (issue 15): bench:pages' pages and
 * data set (its cache, made by `npm run bench:pages` first), one warm-up load, then N loads each
 * with a Chromium performance trace (devtools timeline + V8 sampling profiler) and React's
 * commits counted through a stand-in DevTools hook. Prints per page the median of: ms to the
 * first row, renderer main-thread busy time until then (trace events), JS self time by bundle
 * file and the heaviest functions, layout/style/paint, and the React commits before the first row.
 * Options: --shots DIR (a screenshot of each page once settled, and of /account/Login as a
 * visitor, for before/after comparisons); --profile (each page in a browser with an ordinary profile,
 * as bench:pages measures, rather than a private context of one browser); FNS=<regex> prints the inclusive time of the matching
 * functions (useful with a `vite build --minify false` build); CONSOLE=1 prints the page's console.
 * A diagnostic, not a figure of the README: bench:pages stays the measure.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { BrowserContext } from "playwright-core";
import { DEMO_PASSWORD } from "../src/server/seed/demo";
import { launchChromium, launchChromiumProfile, startBenchServer } from "./server";

const { values: args } = parseArgs({
  options: {
    dist: { type: "string" },
    data: { type: "string", default: join(tmpdir(), "saiwu-bench-pages-700-50000-5000-100000") },
    runs: { type: "string", default: "3" },
    pages: { type: "string", default: "/admin/UserManagement,/school/AuthorManagement,/ContestAdmin/UserManagement" },
    "trace-dir": { type: "string" },
    top: { type: "string", default: "25" },
    /** a folder: after the runs, a screenshot of each page (settled) and of /account/Login as a visitor */
    shots: { type: "string" },
    /** each page in a browser with an ordinary profile of its own (bench:pages' way), not a private context */
    profile: { type: "boolean", default: false },
  },
});

const PAGES: Record<string, { user: string; loginPage: string; first: string }> = {
  "/admin/UserManagement": { user: "root", loginPage: "admin", first: "[data-testid=user-table] .ant-table-row" },
  "/admin/SchoolManagement": { user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  "/WorkManagement": { user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  "/author/WorkLog": { user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  "/judgePool": { user: "root", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  "/ContestAdmin/UserManagement": { user: "contest_admin", loginPage: "admin", first: "[data-testid=user-table] .ant-table-row" },
  "/ContestReviewer/Review/2": { user: "reviewer", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  "/school/WorkManagement": { user: "school_admin", loginPage: "admin", first: ".ant-table-tbody .ant-table-row" },
  "/school/AuthorManagement": { user: "school_admin", loginPage: "admin", first: "[data-testid=user-table] .ant-table-row" },
  "/author/work-management": { user: "student", loginPage: "student", first: "[data-testid=my-works] .ant-table-row" },
};

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: any;
  id?: string;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};

/** The renderer main thread of the page: the CrRendererMain thread that ran the navigation's document. */
function analyse(events: TraceEvent[], firstAtTs: number, navStartTs: number) {
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name);
  // The main thread with the most work in the window.
  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || e.name !== "RunTask") continue;
    const k = `${e.pid}:${e.tid}`;
    if (threadNames.get(k) !== "CrRendererMain") continue;
    if (e.ts < navStartTs || e.ts > firstAtTs) continue;
    busy.set(k, (busy.get(k) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const [pid, tid] = (main ?? "0:0").split(":").map(Number);
  const within = (e: TraceEvent) => e.pid === pid && e.tid === tid && e.ts >= navStartTs && e.ts <= firstAtTs;
  const byName = new Map<string, number>();
  let taskMs = 0;
  let cpuMs = 0;
  let longest = 0;
  for (const e of events) {
    if (e.ph !== "X" || !within(e)) continue;
    const d = (e.dur ?? 0) / 1000;
    if (e.name === "RunTask") {
      taskMs += d;
      cpuMs += (e.tdur ?? e.dur ?? 0) / 1000;
      longest = Math.max(longest, d);
    }
    if (
      [
        "UpdateLayoutTree",
        "Layout",
        "Paint",
        "PrePaint",
        "Layerize",
        "ParseHTML",
        "ParseAuthorStyleSheet",
        "v8.compile",
        "v8.compileModule",
        "V8.GC_MC_BACKGROUND_MARKING",
        "MajorGC",
        "MinorGC",
        "v8.parseOnBackground",
        "EvaluateScript",
        "v8.evaluateModule",
        "FunctionCall",
        "TimerFire",
        "FireAnimationFrame",
        "HitTest",
        "RecalculateStyles",
        "ScheduleStyleRecalculation",
        "InvalidateLayout",
        "v8.produceCache",
        "v8.produceModuleCache",
        "ResourceReceivedData",
      ].includes(e.name)
    )
      byName.set(e.name, (byName.get(e.name) ?? 0) + d);
  }
  // CPU profile samples of that thread (Profile/ProfileChunk events share an id).
  const nodes = new Map<number, { callFrame: any; parent?: number }>();
  const samples: { node: number; t: number }[] = [];
  let profileId: string | undefined;
  for (const e of events) if (e.name === "Profile" && e.pid === pid && e.tid === tid) profileId = e.id;
  let t = 0;
  for (const e of events) {
    if (e.name !== "ProfileChunk" || e.pid !== pid || e.id !== profileId) continue;
    const c = e.args?.data?.cpuProfile;
    for (const n of c?.nodes ?? []) nodes.set(n.id, { callFrame: n.callFrame, parent: n.parent });
    const deltas: number[] = e.args?.data?.timeDeltas ?? [];
    (c?.samples ?? []).forEach((s: number, i: number) => {
      t += deltas[i] ?? 0;
      samples.push({ node: s, t });
    });
  }
  // Profile timestamps start at the Profile event's startTime.
  const start = events.find((e) => e.name === "Profile" && e.id === profileId)?.args?.data?.startTime ?? 0;
  const selfByFn = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const inclByFn = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    const ts = start + s.t;
    if (ts < navStartTs || ts > firstAtTs) continue;
    const next = samples[i + 1];
    const dt = Math.min(next ? next.t - s.t : 0, 5000) / 1000;
    const n = nodes.get(s.node);
    if (!n) continue;
    const cf = n.callFrame;
    if (cf.functionName === "(idle)" || cf.functionName === "(program)") {
      const k = cf.functionName;
      selfByFn.set(k, (selfByFn.get(k) ?? 0) + dt);
      continue;
    }
    const file = (cf.url || "(native)").replace(/^.*\/assets\//, "");
    const key = `${cf.functionName || "(anon)"} ${file}:${cf.lineNumber}:${cf.columnNumber}`;
    selfByFn.set(key, (selfByFn.get(key) ?? 0) + dt);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + dt);
    const seen = new Set<string>();
    for (let p: number | undefined = s.node; p !== undefined; p = nodes.get(p)?.parent) {
      const q = nodes.get(p);
      if (!q) break;
      const f = q.callFrame;
      const k = `${f.functionName || "(anon)"} ${(f.url || "").replace(/^.*\/assets\//, "")}:${f.lineNumber}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclByFn.set(k, (inclByFn.get(k) ?? 0) + dt);
    }
  }
  return { taskMs, cpuMs, longest, byName, selfByFn, selfByFile, inclByFn };
}

async function main() {
  if (!args.dist) throw new Error("--dist <built front end> is needed");
  const cache = String(args.data);
  if (!existsSync(join(cache, "complete"))) throw new Error(`no bench:pages data set in ${cache}: run npm run bench:pages once`);
  const work = mkdtempSync(join(tmpdir(), "saiwu-pages-profile-"));
  const traceDir = args["trace-dir"] ? String(args["trace-dir"]) : undefined;
  if (traceDir) mkdirSync(traceDir, { recursive: true });
  try {
    copyFileSync(join(cache, "saiwu.db"), join(work, "saiwu.db"));
    const server = await startBenchServer({
      dataDir: join(work, "data"),
      url: `file:${join(work, "saiwu.db")}`,
      dist: String(args.dist),
      migrate: true,
      env: { LOGIN_RATE_MAX: "1000" },
    });
    const { base } = server;
    const browser = await launchChromium();
    const opts = { locale: "zh-CN", timezoneId: "Asia/Shanghai", viewport: { width: 1400, height: 900 } };
    const top = Number(args.top);
    for (const path of String(args.pages).split(",")) {
      const p = PAGES[path];
      const c0 = await browser.newContext(opts);
      const r = await c0.request.post(`${base}/Backend/Common/account/login`, {
        data: { username: p.user, password: DEMO_PASSWORD, page: p.loginPage },
        headers: { origin: base },
      });
      if (!r.ok()) throw new Error(`login ${p.user}: ${r.status()}`);
      const state = await c0.storageState();
      await c0.close();
      // --profile: an ordinary profile of its own, as bench:pages measures (V8's code cache kept).
      const ctx: BrowserContext = args.profile
        ? await launchChromiumProfile(join(work, `profile${path.replace(/\//g, "_")}`), opts)
        : await browser.newContext({ ...opts, storageState: state });
      if (args.profile) await ctx.addCookies(state.cookies);
      const tracer = ctx.browser() ?? browser;
      await ctx.addInitScript({
        content: `(() => {
          window.__commits = [];
          window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, renderers: new Map(), isDisabled: false,
            inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
            onCommitFiberRoot() { window.__commits.push(performance.now()); } };
          const sel = sessionStorage.getItem("bench-first");
          const check = () => {
            if (document.querySelector(sel)) window.__firstAt = performance.now();
            else requestAnimationFrame(check);
          };
          if (sel) requestAnimationFrame(check);
        })();`,
      });
      const rows: { ms: number; taskMs: number; cpuMs: number; commits: number; a: ReturnType<typeof analyse> }[] = [];
      for (let i = 0; i <= Number(args.runs); i++) {
        const page = await ctx.newPage();
        if (process.env.CONSOLE) page.on("console", (m) => console.log(`[console.${m.type()}] ${m.text().slice(0, 300)}`));
        await page.goto(`${base}/Backend/Common/user/get-current`);
        await page.evaluate((sel) => sessionStorage.setItem("bench-first", sel), p.first);
        const tracing = i > 0;
        if (tracing) {
          await tracer.startTracing(page, {
            categories: [
              "devtools.timeline",
              "disabled-by-default-devtools.timeline",
              "v8.execute",
              "v8",
              "disabled-by-default-v8.cpu_profiler",
              "blink.user_timing",
              "loading",
              "toplevel",
              "__metadata",
            ],
          });
        }
        await page.goto(base + path);
        await page.waitForFunction(() => (window as any).__firstAt, undefined, { timeout: 30_000 });
        const info = await page.evaluate(() => ({
          firstAt: (window as any).__firstAt as number,
          commits: (window as any).__commits as number[],
          origin: performance.timeOrigin,
          nav: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).toJSON(),
        }));
        if (!tracing) {
          await page.close();
          continue;
        }
        await page.waitForTimeout(300);
        const buf = await tracer.stopTracing();
        await page.close();
        const trace = JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] };
        if (traceDir) writeFileSync(join(traceDir, `${path.replace(/\//g, "_")}-${i}.json`), buf);
        // The navigation start in trace time: the page's performance.timeOrigin is the navigation
        // start; trace time is µs on the monotonic clock. Match by the "navigationStart" mark.
        const navs = trace.traceEvents.filter(
          (e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL?.startsWith(base + path),
        );
        const navTs = navs.at(-1)?.ts ?? 0;
        const firstTs = navTs + info.firstAt * 1000;
        const a = analyse(trace.traceEvents, firstTs, navTs);
        const commitsBefore = info.commits.filter((c) => c <= info.firstAt).length;
        rows.push({ ms: info.firstAt, taskMs: a.taskMs, cpuMs: a.cpuMs, commits: commitsBefore, a });
        console.log(
          `${path} run ${i}: first row ${Math.round(info.firstAt)} ms, main-thread tasks ${Math.round(a.taskMs)} ms, thread CPU ${Math.round(a.cpuMs)} ms (longest ${Math.round(a.longest)}), commits before first row ${commitsBefore} at ${info.commits
            .filter((c) => c <= info.firstAt)
            .map(Math.round)
            .join(",")}; responseEnd ${Math.round(info.nav.responseEnd)} domInteractive ${Math.round(info.nav.domInteractive)}`,
        );
      }
      if (args.shots) {
        mkdirSync(String(args.shots), { recursive: true });
        const page = await ctx.newPage();
        await page.goto(base + path);
        await page.locator(p.first).first().waitFor({ timeout: 30_000 });
        await page.waitForTimeout(2500);
        await page.screenshot({ path: join(String(args.shots), `${path.replace(/\//g, "_")}.png`) });
        await page.close();
      }
      await ctx.close();
      const mid = [...rows].sort((x, y) => x.taskMs - y.taskMs)[Math.floor((rows.length - 1) / 2)];
      console.log(
        `\n=== ${path} (${p.user}): median first row ${Math.round(median(rows.map((r) => r.ms)))} ms, median main-thread ${Math.round(median(rows.map((r) => r.taskMs)))} ms, median thread CPU ${Math.round(median(rows.map((r) => r.cpuMs)))} ms, commits ${median(rows.map((r) => r.commits))}`,
      );
      console.log(
        "trace events (ms, of the median run):",
        Object.fromEntries([...mid.a.byName.entries()].sort((x, y) => y[1] - x[1]).map(([k, v]) => [k, Math.round(v)])),
      );
      console.log(
        "JS self time by file:",
        Object.fromEntries(
          [...mid.a.selfByFile.entries()]
            .sort((x, y) => y[1] - x[1])
            .slice(0, 15)
            .map(([k, v]) => [k, Math.round(v)]),
        ),
      );
      console.log("top self:");
      for (const [k, v] of [...mid.a.selfByFn.entries()].sort((x, y) => y[1] - x[1]).slice(0, top))
        console.log(`  ${v.toFixed(1).padStart(7)} ${k}`);
      if (process.env.FNS) {
        const re = new RegExp(process.env.FNS);
        console.log("inclusive of", re.source);
        for (const [k, v] of [...mid.a.inclByFn.entries()].filter(([k]) => re.test(k.split(" ")[0])).sort((x, y) => y[1] - x[1]))
          console.log(`  ${v.toFixed(1).padStart(7)} ${k}`);
      }
      console.log("top inclusive:");
      for (const [k, v] of [...mid.a.inclByFn.entries()].sort((x, y) => y[1] - x[1]).slice(0, top * 2))
        console.log(`  ${v.toFixed(1).padStart(7)} ${k}`);
    }
    if (args.shots) {
      const c = await browser.newContext(opts);
      const page = await c.newPage();
      await page.goto(`${base}/account/Login`);
      await page.getByRole("button", { name: "登录" }).first().waitFor();
      await page.waitForTimeout(1000);
      await page.screenshot({ path: join(String(args.shots), "_account_Login.png") });
      await c.close();
    }
    await browser.close();
    await server.close();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
