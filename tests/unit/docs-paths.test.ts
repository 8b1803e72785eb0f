/**
 * The documentation names real things: every relative link of README.md and docs/*.md points at
 * a file that exists, and every path in backticks under one of the project's folders (src/,
 * tests/, bench/, scripts/, deploy/, casbin/, docs/, .ci/) exists, so a renamed or removed file
 * is noticed in the test run rather than by a reader. README.md stays a user's page (≤ 25 KB).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const FOLDERS = /^(src|tests|bench|scripts|deploy|casbin|docs|\.ci)\//;

/** Paths named in a document: relative link targets, and backticked paths under the project's folders. */
function namedPaths(doc: string): { path: string; from: string }[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const out: { path: string; from: string }[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split("#")[0];
    if (!target || /^[a-z]+:/i.test(target)) continue; // anchors, http(s), mailto
    out.push({ path: join(dirname(doc), target), from: doc });
  }
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    // `src/server/app.ts`, `src/server/work/`, `src/server/foo.ts:12`; not globs or placeholders.
    const p = m[1].replace(/:\d+(-\d+)?$/, "").replace(/[),.;]+$/, "");
    if (!FOLDERS.test(p) || /[*<>{}$]|\.\.\./.test(p)) continue;
    out.push({ path: p, from: doc });
  }
  return out;
}

describe("documentation", () => {
  it("README.md is at most 25 KB", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(25 * 1024);
  });

  it.each(DOCS)("every path %s names exists", (doc) => {
    const named = namedPaths(doc);
    const missing = named.filter((n) => !existsSync(join(ROOT, n.path))).map((n) => n.path);
    expect(missing).toEqual([]);
  });

  it("finds the paths it checks (a document that names none would pass unchecked)", () => {
    const all = DOCS.flatMap(namedPaths);
    expect(all.length).toBeGreaterThan(100);
    expect(all.map((n) => n.path)).toContain("src/server/app.ts");
  });
});
