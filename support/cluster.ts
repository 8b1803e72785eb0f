/**
 * Several real server processes (`npm start`: serverCommand("main")) on one fresh
 * PostgreSQL database, as the organisers run them behind a load balancer. The test process
 * migrates and seeds the database itself and keeps a handle on it for direct assertions.
 * Each process can be killed (SIGKILL included) and started again on its port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createScratchPgDatabase } from "../src/server/db/scratch-pg";
import { migrate, openDb, type Db } from "../src/server/db";
import { seedDemo } from "../src/server/seed/demo";
import { serverCommand } from "./server-command";

const ROOT = resolve(import.meta.dirname, "..");

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

export class ServerProcess {
  proc: ChildProcess | null = null;
  /** Everything the process printed, for a failing test's message. */
  output = "";
  exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    const [cmd, args] = serverCommand("main");
    const proc = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.proc = proc;
    proc.stdout!.on("data", (d) => (this.output += d));
    proc.stderr!.on("data", (d) => (this.output += d));
    proc.on("exit", (code, signal) => this.exits.push({ code, signal }));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(`server on ${this.port} exited while starting:\n${this.output}`);
      try {
        const r = await fetch(`${this.url}/Backend/Common/user/get-current`);
        if (r.ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`server on ${this.port} did not start:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Whether the process is running (it did not crash or get killed). */
  get alive() {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = "SIGTERM") {
    const p = this.proc;
    if (!p || !this.alive) return;
    const gone = new Promise((r) => p.once("exit", r));
    p.kill(signal);
    await gone;
  }
}

export interface Cluster {
  url: string;
  db: Db;
  dataDir: string;
  procs: ServerProcess[];
  close(): Promise<void>;
}

/**
 * The environment of a server process started by a test or a bench: its database and data
 * directory, no demo seeding (the caller seeds), no front end, quiet logs; `extra` on top.
 */
export function serverEnv(databaseUrl: string, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SKIP_BUILD: "1",
    SEED_DEMO: "0",
    DIST_DIR: join(dataDir, "no-dist"),
    PUBLIC_URL: "http://localhost:8080",
    LOG_LEVEL: "warn",
    ...extra,
  };
}

/**
 * Starts `n` processes on one new PostgreSQL database (TEST_DATABASE_URL's server) seeded
 * with the demo data. They share DATA_DIR (blobs) and PUBLIC_URL like a real deployment.
 */
export async function startCluster(n: number, opts: { env?: Record<string, string>; seed?: boolean } = {}): Promise<Cluster> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("startCluster needs TEST_DATABASE_URL");
  const { url, drop } = await createScratchPgDatabase(base, "saiwu_c");
  const { db } = openDb(url);
  await migrate(db);
  if (opts.seed !== false) await seedDemo(db, 2026, { reviewWorks: false, defence: false });
  const dataDir = mkdtempSync(join(tmpdir(), "saiwu-cluster-"));
  const env = serverEnv(url, dataDir, { LOGIN_RATE_MAX: "1000", OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0", ...opts.env });
  const procs: ServerProcess[] = [];
  for (let i = 0; i < n; i++) procs.push(new ServerProcess(await freePort(), env));
  try {
    await Promise.all(procs.map((p) => p.start()));
  } catch (err) {
    await Promise.all(procs.map((p) => p.kill("SIGKILL")));
    await db.destroy();
    await drop();
    throw err;
  }
  return {
    url,
    db,
    dataDir,
    procs,
    async close() {
      await Promise.all(procs.map((p) => p.kill("SIGTERM")));
      await db.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A cookie-keeping HTTP client of one process that sends its own Origin on unsafe methods, like a browser on that address. */
export class HttpClient {
  cookie = "";
  constructor(public base: string) {}

  /** The same session (cookie) against another process, as a load balancer would route it. */
  on(base: string): HttpClient {
    const c = new HttpClient(base);
    c.cookie = this.cookie;
    return c;
  }

  async req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method !== "GET" && method !== "HEAD" ? { origin: this.base } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith("saiwu_sid="));
    if (set) {
      const value = set.split(";")[0].slice("saiwu_sid=".length);
      this.cookie = value && !/expires=Thu, 01 Jan 1970/i.test(set) ? `saiwu_sid=${value}` : "";
    }
    const text = await res.text();
    let json: { error: number; info: string; data?: any };
    try {
      json = JSON.parse(text);
    } catch {
      json = { error: -1, info: text };
    }
    return { status: res.status, body: json };
  }
  get(path: string) {
    return this.req("GET", path);
  }
  post(path: string, body: unknown = {}) {
    return this.req("POST", path, body);
  }
  patch(path: string, body: unknown = {}) {
    return this.req("PATCH", path, body);
  }
  async login(username: string, page: "student" | "teacher" | "admin" = "admin", password = "Demo@2026") {
    const r = await this.post("/Backend/Common/account/login", { username, password, page });
    if (r.status !== 200) throw new Error(`login ${username} failed: ${r.status} ${r.body.info}`);
    return r;
  }
}

/** Polls `check` every 20 ms until it returns true; resolves with the elapsed milliseconds, or throws after `timeoutMs`. */
export async function within(timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
