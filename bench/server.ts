/**
 * What the benchmarks that measure the platform through its server share: the app of
 * src/server/app on a database file or URL, quiet, on loopback (or only made ready, for
 * app.inject), and headless Debian chromium with the same switches everywhere.
 */
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
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

/** Headless Debian chromium (CHROMIUM_PATH or /usr/bin/chromium) without background traffic. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
