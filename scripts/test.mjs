#!/usr/bin/env node
/**
 * `npm test`: lint (scripts/lint.mjs), type check, the server compiled (its real processes in the API suites run
 * that build), Vitest unit + client + API tests (SQLite, and PostgreSQL when
 * TEST_DATABASE_URL is set), then the browser tests (playwright-core + Debian chromium)
 * against a fresh build. Outside CI a missing chromium or PostgreSQL skips that suite
 * with a clear line; with CI=true a skipped suite fails the run.
 * Ends with one line "N passed, N failed, N skipped".
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const CI = process.env.CI === "true" || process.env.CI === "1";
const root = new URL("..", import.meta.url).pathname;
const tmp = join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const node = process.execPath;
const bin = (pkg, file) => join(root, "node_modules", pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
const failures = [];

function run(label, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(node, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) problems.push(`${label} exited with ${r.status}`);
  return r.status === 0;
}

function vitest(label, args, env = {}) {
  const out = join(tmp, `${label.replace(/\W+/g, "-")}.json`);
  rmSync(out, { force: true });
  const passed = run(
    label,
    [bin("vitest", "vitest.mjs"), "run", ...args, "--reporter=default", "--reporter=json", `--outputFile=${out}`],
    env,
  );
  if (!existsSync(out)) {
    problems.push(`${label} wrote no results`);
    totals.failed += 1;
    return;
  }
  const j = JSON.parse(readFileSync(out, "utf8"));
  totals.passed += j.numPassedTests;
  totals.failed += j.numFailedTests;
  totals.skipped += j.numPendingTests + j.numTodoTests;
  if (j.numTotalTests === 0) problems.push(`${label} ran no test`);
  // Vitest also fails a run for an error outside any test (an unhandled rejection), with every test passed.
  if (!passed && j.numFailedTests === 0)
    failures.push(`${label}: no test failed, but the run did — see "Unhandled Errors" in its output above`);
  // Repeated at the very end of the output (CI logs are often read from their tail).
  for (const file of j.testResults ?? []) {
    const rel = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    if (!failed.length && file.status === "failed") failures.push(`${label}: ${rel}: ${firstLines(file.message)}`);
    for (const a of failed) failures.push(`${label}: ${rel} > ${a.fullName}\n      ${firstLines((a.failureMessages ?? [])[0])}`);
  }
}

function firstLines(text, n = 6) {
  return String(text ?? "")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .slice(0, n)
    .join("\n      ");
}

function findChromium() {
  for (const p of [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) if (p && existsSync(p)) return p;
  return null;
}

// 0. The code's shape: format, ESLint, import circles, sizes (scripts/lint.mjs)
if (!run("代码检查 lint (Prettier, ESLint, import circles, sizes)", [join(root, "scripts", "lint.mjs")])) totals.failed += 1;

// 1. Types
if (!run("类型检查 type check (tsc)", [bin("typescript", "bin/tsc"), "-p", "tsconfig.json", "--noEmit"])) totals.failed += 1;

// 2. The compiled server (scripts/build.mjs): the suites' real server processes run it on plain
// node, as `npm start` does (support/server-command.ts).
const serverBuild = join(tmp, "dist-server-test");
if (run("服务器编译 esbuild (dist/server)", [join(root, "scripts", "build.mjs"), "--server", "--out", serverBuild]))
  process.env.SAIWU_SERVER_BUILD = serverBuild;
else totals.failed += 1;

// 3. Unit, client and API tests
if (!process.env.TEST_DATABASE_URL) {
  const line =
    "SKIPPED: PostgreSQL API suite — TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test); the API suite runs on SQLite only.";
  console.log(`\n${line}`);
  if (CI) problems.push(line);
}
vitest("unit + api", []);

// 4. Browser tests
const chromium = findChromium();
if (!chromium) {
  const line = "SKIPPED: browser tests — chromium not found (apt-get install -y chromium).";
  console.log(`\n${line}`);
  if (CI) problems.push(line);
} else {
  const dist = join(tmp, "dist-e2e");
  if (
    run("前端构建 vite build (e2e)", [
      bin("vite", "bin/vite.js"),
      "build",
      "--outDir",
      dist,
      "--emptyOutDir",
      "--logLevel",
      "warn",
    ])
  ) {
    vitest("e2e", ["--config", "vitest.e2e.config.ts"], { E2E_DIST: dist, CHROMIUM_PATH: chromium });
  } else totals.failed += 1;
}

console.log("");
if (failures.length) console.log(`Failed tests:\n${failures.map((f) => `  ✗ ${f}`).join("\n")}\n`);
for (const p of problems) console.log(`✗ ${p}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(problems.length || totals.failed ? 1 : 0);
