/**
 * The two home-made checks of `npm run lint` catch what they are for: scripts/check-size.mjs
 * (a file over 600 lines, a function over 150) and scripts/check-cycles.mjs (a circle between
 * modules, a knot between domains), each run on a small fixture tree, and both pass on the
 * fixture once it is fixed.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";

const scripts = join(__dirname, "..", "..", "scripts");
let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), "saiwu-lint-"));
  for (const [path, text] of Object.entries({ "tsconfig.json": "{}", ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
const run = (script: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [join(scripts, script), "--root", dir, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout + r.stderr };
};
const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");

describe("scripts/check-size.mjs", () => {
  test("refuses a function over 150 lines and a file over 600, names them, and passes short ones", () => {
    tree({
      "src/server/a/long.ts": `export function tooLong() {\n${body(150)}\n}\n`,
      "src/server/a/short.ts": `export function fine() {\n${body(148)}\n}\n`,
      "src/client/big.ts": Array.from({ length: 601 }, (_, i) => `export const c${i} = ${i};`).join("\n") + "\n",
    });
    const r = run("check-size.mjs");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/TOO LONG {2}function tooLong \(src\/server\/a\/long\.ts:1\): 152 lines/);
    expect(r.out).toMatch(/TOO LONG {2}file src\/client\/big\.ts: 601 lines/);
    expect(r.out).not.toMatch(/fine/);
    expect(r.out).toMatch(/size check: 2 over the limits/);
  });

  test("passes a tree within the limits", () => {
    tree({ "src/server/a/short.ts": `export function fine() {\n${body(148)}\n}\n` });
    const r = run("check-size.mjs");
    expect(r.out).toMatch(/size check: 0 over the limits/);
    expect(r.code).toBe(0);
  });
});

describe("scripts/check-cycles.mjs", () => {
  test("finds a circle between modules and a knot between domains", () => {
    tree({
      "src/server/a/x.ts": `import { y } from "./y";\nexport const x = () => y;\n`,
      "src/server/a/y.ts": `import { x } from "./x";\nexport const y = () => x;\n`,
      "src/server/b/p.ts": `import { q } from "../c/q";\nexport const p = 1 + q;\n`,
      "src/server/c/q.ts": `import { r } from "../b/r";\nexport const q = r;\n`,
      "src/server/b/r.ts": `export const r = 1;\n`,
    });
    const r = run("check-cycles.mjs", "--json");
    expect(JSON.parse(r.out.trim().split("\n").pop()!)).toEqual({ moduleCircles: 1, domainKnots: 1 });
    expect(r.code).toBe(1);
  });

  test("passes a tree whose imports go one way", () => {
    tree({
      "src/server/a/x.ts": `import { y } from "./y";\nexport const x = () => y;\n`,
      "src/server/a/y.ts": `export const y = 1;\n`,
      "src/server/b/p.ts": `import { x } from "../a/x";\nexport const p = x;\n`,
    });
    const r = run("check-cycles.mjs");
    expect(r.out).toMatch(/import circles: 0 between modules, 0 between domains/);
    expect(r.code).toBe(0);
  });
});
