#!/usr/bin/env node
/**
 * `npm run lint` (also the first step of `npm test`): every check of the code's shape, each run
 * even when an earlier one failed, so one run shows everything to fix.
 *   1. Prettier: the code is formatted (`npm run format` fixes it).
 *   2. ESLint (eslint.config.js): type-aware rules; warnings (mostly `any`) within a budget that
 *      may only go down — lower ESLINT_WARNING_BUDGET when the count drops, never raise it.
 *   3. Import circles (scripts/check-cycles.mjs): none between modules, none between domains.
 *   4. Sizes (scripts/check-size.mjs): files ≤ 600 lines, functions ≤ 150 lines.
 * Exits 1 if any check failed.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export const ESLINT_WARNING_BUDGET = 54;
export const FORMATTED = [
  "src/**/*.{ts,tsx}",
  "tests/**/*.{ts,tsx}",
  "bench/**/*.ts",
  "support/**/*.{ts,cjs}",
  "scripts/**/*.mjs",
  "*.ts",
  "*.js",
  "*.cjs",
];

const root = new URL("..", import.meta.url).pathname;
const bin = (pkg, file) => join(root, "node_modules", pkg, file);
const steps = [
  ["格式 Prettier", [bin("prettier", "bin/prettier.cjs"), "--check", "--log-level", "warn", ...FORMATTED]],
  [
    "ESLint",
    [
      bin("eslint", "bin/eslint.js"),
      "--max-warnings",
      String(ESLINT_WARNING_BUDGET),
      ...(process.env.CI ? [] : ["--cache", "--cache-location", join(root, ".tmp", "eslintcache")]),
      ".",
    ],
  ],
  ["循环依赖 import circles", [join(root, "scripts", "check-cycles.mjs")]],
  ["文件与函数长度 sizes", [join(root, "scripts", "check-size.mjs")]],
];

const failed = [];
for (const [label, args] of steps) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) failed.push(label);
}
console.log(failed.length ? `\nlint: failed — ${failed.join(", ")}` : "\nlint: all checks passed");
process.exit(failed.length ? 1 : 0);
