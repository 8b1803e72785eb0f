/**
 * What the benchmarks that measure the platform through its server share: the app of
 * src/server/app on a database file or URL, quiet, on loopback (or only made ready, for
 * app.inject), and headless Debian chromium with the same switches everywhere.
 */
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
  const config = loadConfig({ DATA_DIR: o.dataDir, DATABASE_URL: url, PUBLIC_URL: "http://localhost:8080", LOG_LEVEL: "silent", DIST_DIR: o.dist ?? join(o.dataDir, "no-dist"), ...o.env });
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
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
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

/** The node options of `npm start` (package.json: "node <options> scripts/run.mjs main"), so a bench's server child runs as deployed. */
export function startNodeOptions(): string[] {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
  return /^node\s+(.*?)\s*scripts\/run\.mjs\b/.exec(pkg.scripts.start)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
}
