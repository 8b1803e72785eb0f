/**
 * What the benchmarks that measure the platform through its server share: the app of
 * src/server/app on a database file or URL, quiet, on loopback (or only made ready, for
 * app.inject), and headless Debian chromium with the same switches everywhere.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { buildApp } from "../src/server/app";
import { loadConfig, type Config } from "../src/server/config";
import { migrate, openDb, type OpenedDb } from "../src/server/db";

export interface BenchServerOptions {
  /** DATA_DIR (blobs, keys); the database file is bench.db in it unless `url` or `opened` says otherwise */
  dataDir: string;
  /** DATABASE_URL (SQLite file: or PostgreSQL) */
  url?: string;
  /** a database the bench opened (and maybe filled) already */
  opened?: OpenedDb;
  /** DIST_DIR: the built front end; none by default (API benches) */
  dist?: string;
  /** migrate the database first */
  migrate?: boolean;
  /** more configuration by variable name, e.g. a raised rate limit */
  env?: Record<string, string>;
  /** routes the bench adds before the server starts (e.g. a baseline) */
  routes?: (app: FastifyInstance) => void;
  /** false: only app.ready() (the bench uses app.inject); default: listen on a free loopback port */
  listen?: boolean;
}

export interface BenchServer extends OpenedDb {
  app: FastifyInstance;
  config: Config;
  /** http://127.0.0.1:<port> ("" when not listening) */
  base: string;
  /** closes the app, then the database */
  close(): Promise<void>;
}

export async function startBenchServer(o: BenchServerOptions): Promise<BenchServer> {
  const url = o.url ?? `file:${join(o.dataDir, "bench.db")}`;
  const config = loadConfig({
    DATA_DIR: o.dataDir,
    DATABASE_URL: url,
    PUBLIC_URL: "http://localhost:8080",
    LOG_LEVEL: "silent",
    DIST_DIR: o.dist ?? join(o.dataDir, "no-dist"),
    ...o.env,
  });
  const { db, dialect } = o.opened ?? openDb(url);
  if (o.migrate) await migrate(db);
  const app = await buildApp({ db, dialect, config, logger: false });
  o.routes?.(app);
  let base = "";
  if (o.listen === false) await app.ready();
  else {
    await app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  return {
    app,
    config,
    db,
    dialect,
    base,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** Headless Debian chromium (CHROMIUM_PATH or /usr/bin/chromium) without background traffic.
 * Its browser.newContext() contexts are private ("incognito") profiles: their HTTP cache is in
 * memory and Chromium keeps no V8 code cache for them. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch(CHROMIUM);
}

/** The same chromium with an ordinary profile in `dir`, as a person's browser: disk HTTP cache and
 * V8's code cache (scripts run on earlier visits start from compiled code). Closing the context
 * closes that browser. */
export async function launchChromiumProfile(dir: string, options: BrowserContextOptions): Promise<BrowserContext> {
  const { chromium } = await import("playwright-core");
  return chromium.launchPersistentContext(dir, { ...CHROMIUM, ...options });
}

/**
 * The node options of `npm start`, so a bench's server child runs as deployed: those on package.json's start line
 * ("node <options> scripts/run.mjs main") and the NODE_FLAGS that scripts/run.mjs re-executes itself with.
 */
export function startNodeOptions(): string[] {
  const root = join(import.meta.dirname, "..");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const line = /^node\s+(.*?)\s*scripts\/run\.mjs\b/.exec(pkg.scripts.start)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
  const run = /const NODE_FLAGS = \[([^\]]*)\]/.exec(readFileSync(join(root, "scripts", "run.mjs"), "utf8"))?.[1] ?? "";
  const flags = [...run.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  return [...line, ...flags.filter((f) => !line.includes(f))];
}

/** A server running in a child process (bench:startup, bench:certificates). */
export interface ServerChild {
  proc: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  /** from the spawn until /readyz answered 200 */
  ms: number;
  /** SIGTERM, then waits for the exit */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` (a server entry and its node options) on a free loopback port with
 * `env` added (DATA_DIR, DATABASE_URL …; PORT, HOST and PUBLIC_URL are set here) and waits for
 * /readyz to answer 200, failing with the server's standard error if it exits first.
 */
export async function startServerChild(args: string[], env: Record<string, string>): Promise<ServerChild> {
  const { freePort, within } = await import("../support/cluster");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, {
    cwd: join(import.meta.dirname, ".."),
    env: { ...process.env, LOG_LEVEL: "warn", SKIP_BUILD: "1", PUBLIC_URL: base, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  proc.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<void>((ok) => proc.once("exit", () => ok()));
  await within(180_000, async () => {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}): ${err}`);
    try {
      return (await fetch(`${base}/readyz`)).status === 200;
    } catch {
      return false;
    }
  });
  const ms = performance.now() - t0;
  return {
    proc,
    base,
    ms,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exited;
    },
  };
}

/** A /proc/<pid>/status figure in MB (VmRSS now, VmHWM the peak so far). */
export const procStatusMB = (pid: number, key: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
