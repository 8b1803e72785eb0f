#!/usr/bin/env node
/**
 * Size limits for src (part of `npm run lint`): no file over 600 lines and no function over
 * 150 lines, counted after Prettier. A module or function past them is doing several jobs;
 * split it by job. ALLOW names the few places where one longer unit reads better, with why.
 * Prints every unit over its limit and exits 1 if any is not allowed. `--root DIR` checks DIR/src.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 150;
/** "path" for a file, "path#name" for a function. Keep it short, and say why. */
const ALLOW = new Map([
  // ["src/server/example.ts#bigFunction", "one table of cases, clearer in one place"],
]);

const at = process.argv.indexOf("--root");
const root = at > 0 ? process.argv[at + 1] : new URL("..", import.meta.url).pathname;

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts")) yield p;
  }
}

function nameOf(node, sf) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && p.name && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isCallExpression(p)) {
    // route handlers: app.get("/path", async (req) => …) → get /path
    const callee = p.expression.getText(sf);
    const first = p.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : "";
    return `${callee.length > 40 ? callee.slice(-40) : callee}(…)${label}`;
  }
  return "(anonymous)";
}

const over = [];
for (const file of sources(join(root, "src"))) {
  const rel = relative(root, file);
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_FILE_LINES) over.push({ key: rel, what: `file ${rel}`, lines, limit: MAX_FILE_LINES });
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.end).line;
      const n = end - start + 1;
      if (n > MAX_FUNCTION_LINES) {
        const name = nameOf(node, sf);
        over.push({ key: `${rel}#${name}`, what: `function ${name} (${rel}:${start + 1})`, lines: n, limit: MAX_FUNCTION_LINES });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

let bad = 0;
for (const o of over) {
  const why = ALLOW.get(o.key);
  if (!why) bad += 1;
  console.log(`${why ? "allowed" : "TOO LONG"}  ${o.what}: ${o.lines} lines (limit ${o.limit})${why ? ` — ${why}` : ""}`);
}
const unused = [...ALLOW.keys()].filter((k) => !over.some((o) => o.key === k));
for (const k of unused) console.log(`ALLOW entry no longer needed: ${k}`);
console.log(`size check: ${bad} over the limits${unused.length ? `, ${unused.length} stale allow entries` : ""}`);
process.exit(bad || unused.length ? 1 : 0);
