/**
 * The production build (scripts/build.mjs → dist/server): the compiled entries run on plain
 * node with no TypeScript loader and import only production dependencies, so `npm ci
 * --omit=dev` on a built tree is enough to run them. Builds into a folder of its own under
 * .tmp (inside the project, where the compiled code finds casbin/ and node_modules/).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer, ROOT, SERVER_ENTRIES } from "../../scripts/build.mjs";
import { freePort, within } from "../../support/cluster";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

/** The package a bare import names: "@scope/name" or "name". */
const packageOf = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

describe("compiled server", () => {
  let out: string;
  let data: string;
  beforeAll(async () => {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    out = mkdtempSync(join(ROOT, ".tmp", "compiled-"));
    data = mkdtempSync(join(tmpdir(), "saiwu-compiled-"));
    await buildServer(out);
  }, 120_000);
  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it("has one file per entry of package.json's commands", () => {
    const files = readdirSync(out);
    for (const name of Object.keys(SERVER_ENTRIES)) expect(files).toContain(`${name}.js`);
    const scripts = Object.entries(pkg.scripts).filter(([, c]) => /^node (--\S+ )*scripts\/run\.mjs /.test(c));
    expect(scripts.map(([s]) => s)).toEqual(
      expect.arrayContaining([
        "start",
        "start:cluster",
        "migrate",
        "create-root",
        "backup",
        "restore",
        "verify-scores",
        "blobs:gc",
        "seed",
      ]),
    );
    for (const [script, command] of scripts)
      expect(Object.keys(SERVER_ENTRIES), `npm run ${script}`).toContain(/scripts\/run\.mjs (\S+)/.exec(command)![1]);
  });

  it("imports only Node's own modules and production dependencies", () => {
    const builtins = new Set(builtinModules);
    const imported = new Set<string>();
    for (const file of readdirSync(out).filter((f) => f.endsWith(".js"))) {
      const code = readFileSync(join(out, file), "utf8");
      // esbuild writes static imports one per line at the top; dynamic ones as import("…");
      // packages loaded on first use go through lazyRequire("…") (src/server/lazy-require.ts).
      for (const m of code.matchAll(
        /^(?:import|export)\s[^;]*?from\s*"([^"]+)";|^import\s*"([^"]+)";|\b(?:import|lazyRequire)\("([^"]+)"\)/gm,
      )) {
        const spec = m[1] ?? m[2] ?? m[3];
        if (!spec.startsWith(".")) imported.add(spec);
      }
    }
    const packages = [...imported].filter((s) => !s.startsWith("node:") && !builtins.has(s)).map(packageOf);
    expect(packages).toContain("libsql");
    expect(packages).toEqual(expect.arrayContaining(["fontkit", "qrcode", "@aws-sdk/client-s3"]));
    const notProduction = [...new Set(packages)].filter((p) => !(p in pkg.dependencies));
    expect(notProduction).toEqual([]);
    // The development tools are not production dependencies.
    for (const tool of ["tsx", "vite", "@vitejs/plugin-react", "typescript", "esbuild", "vitest"])
      expect(pkg.dependencies).not.toHaveProperty(tool);
  });

  it("migrates, creates root, verifies scores and serves on plain node, and stops on SIGTERM", async () => {
    const env = {
      ...process.env,
      DATA_DIR: data,
      DATABASE_URL: `file:${join(data, "saiwu.db")}`,
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      NODE_OPTIONS: "",
    };
    const node = (entry: string, args: string[] = [], extra: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(out, `${entry}.js`), ...args], {
        cwd: ROOT,
        env: { ...env, ...extra },
        encoding: "utf8",
        timeout: 60_000,
      });

    const migrated = node("migrate");
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain("已执行迁移");
    expect(node("migrate").stdout).toContain("数据库已是最新");

    const root = node("create-root", ["--username", "ops", "--email", "ops@example.edu.cn"], { ROOT_PASSWORD: "Compiled2026" });
    expect(root.status, root.stderr).toBe(0);
    expect(root.stdout).toContain("已创建 root 账号 ops");

    const verify = node("verify-scores");
    expect(verify.status).toBe(0);
    expect(verify.stdout).toContain("没有任何评分日志");

    const draw = node("draw-check", []);
    expect(draw.status).not.toBe(0);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const proc = spawn(process.execPath, [join(out, "main.js")], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: base, DIST_DIR: join(data, "no-dist") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    proc.stdout!.on("data", (d) => (log += d));
    proc.stderr!.on("data", (d) => (log += d));
    const exited = new Promise<number | null>((ok) => proc.once("exit", (code) => ok(code)));
    try {
      await within(60_000, async () => {
        try {
          return (await fetch(`${base}/readyz`)).status === 200;
        } catch {
          return false;
        }
      }).catch((e) => {
        throw new Error(`${e.message}\n${log}`);
      });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const login = await fetch(`${base}/Backend/Common/account/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ username: "ops", password: "Compiled2026", page: "admin" }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const me = await (await fetch(`${base}/Backend/Common/user/get-current`, { headers: { cookie } })).json();
      expect(me.data).toMatchObject({ username: "ops", userType: 0 });
      // A route's validator is compiled on its first use: a bad query is still refused in Chinese.
      const bad = await fetch(`${base}/Backend/Admin/user?current=abc`, { headers: { cookie } });
      expect(bad.status).toBe(422);
      expect((await bad.json()).info).toMatch(/[\u4e00-\u9fa5]/);
    } finally {
      proc.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it("scripts/run.mjs names its entries when asked for an unknown one", () => {
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "run.mjs"), "nonsense"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, SKIP_BUILD: "1" },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("用法：node scripts/run.mjs <main|cluster|migrate");
  });

  it("scripts/run.mjs gives every server process Node's flags, set there only", () => {
    // A module preloaded into every node process (NODE_OPTIONS survives the re-exec) reports the flags it runs with.
    const report = "--import=data:text/javascript,console.error('FLAGS'+JSON.stringify(process.execArgv))";
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "run.mjs"), "nonsense"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, SKIP_BUILD: "1", NODE_OPTIONS: report },
    });
    const flags = r.stderr.split("\n").filter((l) => l.startsWith("FLAGS"));
    expect(flags.at(-1)).toBe('FLAGS["--max-semi-space-size=8"]');
    expect(r.status).toBe(2);
    // package.json and the systemd unit carry no copy of them.
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(JSON.stringify(pkg.scripts)).not.toContain("semi-space");
    expect(readFileSync(join(ROOT, "deploy", "saiwu@.service"), "utf8")).toMatch(
      /^ExecStart=\/usr\/bin\/node scripts\/run\.mjs main$/m,
    );
  });
});
