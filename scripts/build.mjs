#!/usr/bin/env node
/**
 * `npm run build`: compiles the front end (vite → dist/client, or DIST_DIR) and the server
 * (esbuild → dist/server: one ES module per entry below plus shared chunks, node_modules left
 * as imports), so production runs plain JavaScript on plain node with no TypeScript loader.
 *
 *   node scripts/build.mjs                 both parts
 *   node scripts/build.mjs --server        one part (also --client)
 *   node scripts/build.mjs --if-needed     only the parts that are missing or older than their sources
 *   node scripts/build.mjs --server --out DIR   the server into DIR (tests)
 *
 * The build tools (vite, esbuild) are development dependencies. After `npm ci --omit=dev` on a
 * built tree, `--if-needed` keeps a build whose sources look newer (a copy that changed the
 * files' times) with a warning, and stops with a clear message only when a build is missing.
 * This file is plain JavaScript because it runs before anything is compiled.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SERVER_OUT = join(ROOT, "dist", "server");
/** Where the front end is built and served from (the server's config reads the same DIST_DIR). */
export const clientOut = (env = process.env) => resolve(env.DIST_DIR ?? "dist/client");

/** The server's entries: dist/server/<name>.js, each run by `node scripts/run.mjs <name>` (package.json). */
export const SERVER_ENTRIES = {
  main: "src/server/main.ts",
  cluster: "src/server/cluster.ts",
  migrate: "src/server/db/migrate-cli.ts",
  "create-root": "src/server/db/create-root.ts",
  seed: "src/server/db/seed-cli.ts",
  backup: "src/server/backup/cli.ts",
  "verify-scores": "src/server/judging/verify-cli.ts",
  "draw-check": "src/server/judging/draw-check-cli.ts",
  "blobs-gc": "src/server/storage/gc-cli.ts",
};

const SERVER_SOURCES = ["src/server", "src/shared", "package.json", "scripts/build.mjs"];
const CLIENT_SOURCES = ["src/client", "src/shared", "casbin", "index.html", "vite.config.ts", "package.json"];
/** Written last by a server build: its time is the build's time, and its presence says the build finished. */
const STAMP = "build.json";

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, f) => Math.max(m, newestMtime(join(path, f))), st.mtimeMs);
}
const newestSource = (paths) => Math.max(...paths.map((p) => newestMtime(join(ROOT, p))));

/** "missing", "stale" or null (up to date) for a build whose finishing file is `done`. */
function state(done, sources) {
  if (!existsSync(done)) return "missing";
  return statSync(done).mtimeMs >= newestSource(sources) ? null : "stale";
}
export const serverState = (out = SERVER_OUT) => state(join(out, STAMP), SERVER_SOURCES);
export const clientState = (out = clientOut()) => state(join(out, "index.html"), CLIENT_SOURCES);

const installed = (pkg) => {
  try {
    createRequire(join(ROOT, "package.json")).resolve(`${pkg}/package.json`);
    return true;
  } catch {
    return false;
  }
};

export async function buildServer(out = SERVER_OUT) {
  const esbuild = await import(pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("esbuild")).href);
  rmSync(out, { recursive: true, force: true });
  const started = Date.now();
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, join(ROOT, file)])),
    outdir: out,
    bundle: true,
    // Code two entries share goes to chunks beside them (flat, so every file sits at the same depth).
    splitting: true,
    chunkNames: "chunk-[hash]",
    format: "esm",
    platform: "node",
    target: "node22",
    // Packages stay imports of node_modules: native addons, fonts and data files resolve as installed.
    packages: "external",
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    logLevel: "warning",
  });
  writeFileSync(join(out, STAMP), JSON.stringify({ builtAt: new Date().toISOString(), node: process.version, entries: Object.keys(SERVER_ENTRIES) }, null, 2) + "\n");
  return Date.now() - started;
}

export function buildClient(out = clientOut()) {
  const vite = join(ROOT, "node_modules/vite/bin/vite.js");
  execFileSync(process.execPath, [vite, "build", "--outDir", out, "--emptyOutDir"], { cwd: ROOT, stdio: "inherit" });
}

/** Builds the parts asked for that are missing or stale (see the module header for a tree without the build tools). */
export async function buildIfNeeded({ server = true, client = true } = {}) {
  const parts = [
    server && { label: "服务器", tool: "esbuild", state: serverState(), out: SERVER_OUT, build: () => buildServer() },
    client && { label: "前端", tool: "vite", state: clientState(), out: clientOut(), build: () => buildClient() },
  ].filter(Boolean);
  for (const p of parts) {
    if (!p.state) continue;
    if (!installed(p.tool)) {
      if (p.state === "missing")
        throw new Error(`缺少编译好的${p.label}（${p.out}），本环境又未安装开发依赖（${p.tool}），无法构建：请在装有开发依赖的环境中运行 npm run build，再连同 dist/ 一起部署`);
      console.warn(`${p.label}的源文件比编译结果新，但未安装开发依赖（${p.tool}），沿用现有的编译结果 ${p.out}`);
      continue;
    }
    console.log(`正在构建${p.label}（${p.state === "missing" ? "尚未构建" : "源文件已更新"}）…`);
    await p.build();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const pick = args.includes("--server") || args.includes("--client");
  const server = !pick || args.includes("--server");
  const client = !pick || args.includes("--client");
  const outAt = args.indexOf("--out");
  try {
    if (args.includes("--if-needed")) await buildIfNeeded({ server, client });
    else {
      if (client) buildClient();
      if (server) {
        const ms = await buildServer(outAt >= 0 ? resolve(args[outAt + 1]) : SERVER_OUT);
        console.log(`服务器已编译：${outAt >= 0 ? resolve(args[outAt + 1]) : SERVER_OUT}（${ms} ms）`);
      }
    }
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
