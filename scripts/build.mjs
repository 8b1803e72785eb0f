#!/usr/bin/env node
/**
 * `npm run build`: compiles the front end (vite → dist/client, or DIST_DIR) and the server
 * (esbuild → dist/server: one ES module per entry below plus shared chunks, with the packages
 * every start loads bundled in and the others left as imports of node_modules, see
 * KEEP_EXTERNAL), so production runs plain JavaScript on plain node with no TypeScript loader.
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
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
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
  "create-root": "src/server/account/create-root.ts",
  seed: "src/server/seed/cli.ts",
  backup: "src/server/backup/cli.ts",
  "verify-scores": "src/server/judging/verify-cli.ts",
  "draw-check": "src/server/judging/draw-check-cli.ts",
  "blobs-gc": "src/server/storage/gc-cli.ts",
};

/**
 * Packages the server build leaves as imports of node_modules. Native addons (libsql,
 * argon2), packages that read their own files at run time (pdfkit's font metrics, the Swagger
 * UI's static files, pdf.js, the fonts), and packages loaded on first use (import() or
 * lazyRequire) so that a start does not load them; pg's optional native driver is never used.
 */
const KEEP_EXTERNAL = [
  "libsql",
  "@libsql/*",
  "@node-rs/*",
  "pdfkit",
  "fontkit",
  "qrcode",
  "@expo-google-fonts/*",
  "exceljs",
  "mammoth",
  "unpdf",
  "nodemailer",
  "@aws-sdk/*",
  "pg-boss",
  "@fastify/swagger-ui",
  "pg-native",
];

/** Refuses to build a server that imports a package which `npm ci --omit=dev` would not install. */
const productionOnly = {
  name: "production-dependencies-only",
  setup(build) {
    const deps = new Set(Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies ?? {}));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || args.importer.includes("/node_modules/")) return undefined;
      const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
      if (isBuiltin(name) || deps.has(name) || args.path === "pg-native") return undefined;
      return { errors: [{ text: `服务器代码导入了不在 dependencies 中的包 ${name}（生产环境 npm ci --omit=dev 不会安装它）` }] };
    });
  },
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
    // The packages every start loads are bundled (node resolving and reading ~350 files of them
    // one by one was over half of a start); those below stay imports of node_modules: native
    // addons, packages that read files of their own at run time, and those loaded on first use.
    external: KEEP_EXTERNAL,
    plugins: [productionOnly],
    // Bundled CommonJS code calls require() and may read __dirname: give the ES modules both.
    banner: {
      js: 'import { createRequire as __saiwuRequire } from "node:module"; import { fileURLToPath as __saiwuPath } from "node:url"; const require = __saiwuRequire(import.meta.url); const __filename = __saiwuPath(import.meta.url); const __dirname = __saiwuPath(new URL(".", import.meta.url));',
    },
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    logLevel: "warning",
  });
  writeFileSync(
    join(out, STAMP),
    JSON.stringify({ builtAt: new Date().toISOString(), node: process.version, entries: Object.keys(SERVER_ENTRIES) }, null, 2) +
      "\n",
  );
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
        throw new Error(
          `缺少编译好的${p.label}（${p.out}），本环境又未安装开发依赖（${p.tool}），无法构建：请在装有开发依赖的环境中运行 npm run build，再连同 dist/ 一起部署`,
        );
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
