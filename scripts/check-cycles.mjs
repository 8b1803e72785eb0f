#!/usr/bin/env node
/**
 * Import circles in src (part of `npm run lint`), from dependency-cruiser's graph
 * (.dependency-cruiser.cjs): every circle between modules, and every knot between
 * domains — the top-level folders of src/server, src/client and src/shared (and the
 * top-level files there, such as src/client/routes.tsx) that reach each other. Type-only
 * imports count: a type that travels both ways ties the two modules together all the same.
 * Prints each circle and knot with one import that closes it; exits 1 if there is any.
 * `--json` prints the counts only; `--root DIR` checks DIR/src (the tests use a fixture).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const tools = new URL("..", import.meta.url).pathname;
const at = process.argv.indexOf("--root");
const root = at > 0 ? process.argv[at + 1] : tools;
const r = spawnSync(
  process.execPath,
  [
    join(tools, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs"),
    "src",
    "--config",
    join(tools, ".dependency-cruiser.cjs"),
    "--output-type",
    "json",
  ],
  {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  },
);
/** dependency-cruiser's own failure, with what it said (seen once, not reproduced: keep the evidence). */
const broken = (why) => {
  console.error(
    `dependency-cruiser 失败（${why}；退出码 ${r.status}，信号 ${r.signal ?? "无"}）：\n${r.stderr || r.error?.message || ""}`,
  );
  process.exit(2);
};
if (r.status !== 0 && !r.stdout) broken("无输出");
let graph;
try {
  graph = JSON.parse(r.stdout);
} catch (e) {
  broken(`输出不是完整的 JSON：${e.message}`);
}

/** "server/work" for src/server/work/**, "client/routes" for src/client/routes.tsx. */
const domainOf = (path) =>
  path
    .match(/^src\/(server|client|shared)\/([^/.]+)/)
    ?.slice(1, 3)
    .join("/") ?? null;

const modules = new Map();
const domains = new Map();
const example = new Map();
for (const m of graph.modules) {
  if (!m.source.startsWith("src/")) continue;
  const local = m.dependencies.filter((d) => d.resolved.startsWith("src/"));
  modules.set(
    m.source,
    local.map((d) => d.resolved),
  );
  const a = domainOf(m.source);
  if (!a) continue;
  if (!domains.has(a)) domains.set(a, new Set());
  for (const d of local) {
    const b = domainOf(d.resolved);
    if (!b || b === a) continue;
    domains.get(a).add(b);
    if (!example.has(`${a}>${b}`)) example.set(`${a}>${b}`, `${m.source} → ${d.resolved}`);
  }
}

/** Strongly connected components with more than one member (Tarjan). */
function knots(g) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

const moduleKnots = knots(new Map([...modules].map(([k, v]) => [k, new Set(v)])));
const domainKnots = knots(domains);
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ moduleCircles: moduleKnots.length, domainKnots: domainKnots.length }));
} else {
  for (const k of moduleKnots) console.log(`circle of ${k.length} modules: ${k.join(", ")}`);
  for (const k of domainKnots) {
    console.log(`knot of ${k.length} domains: ${k.join(", ")}`);
    for (const a of k)
      for (const b of k) if (example.has(`${a}>${b}`)) console.log(`    ${a} → ${b}  e.g. ${example.get(`${a}>${b}`)}`);
  }
  console.log(`import circles: ${moduleKnots.length} between modules, ${domainKnots.length} between domains`);
}
process.exit(moduleKnots.length || domainKnots.length ? 1 : 0);
