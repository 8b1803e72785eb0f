/**
 * Builds the real app on a fresh, migrated database for API tests: an embedded SQLite
 * file, or a new PostgreSQL database when the suite runs against TEST_DATABASE_URL.
 * Mail goes to a temporary outbox, read back by the tests.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, InjectOptions } from "fastify";
import { buildApp } from "../../src/server/app";
import { loadConfig, type Config } from "../../src/server/config";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { migrate, openDb, type Db, type Dialect } from "../../src/server/db";
import { seedDemo } from "../../src/server/seed/demo";

export const ORIGIN = "http://localhost:80";

/** The dialects the API suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  dialect: Dialect;
  config: Config;
  /** Mails written to the outbox so far, newest last. */
  mails(): { to: string; subject: string; text: string }[];
  close(): Promise<void>;
}

const createPgDatabase = () => createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_t");

export function decodeMail(raw: string) {
  const [head, ...rest] = raw.split("\n\n");
  const header = (name: string) => head.match(new RegExp(`^${name}: (.*)$`, "mi"))?.[1] ?? "";
  let body = rest.join("\n\n");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    body = Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  } else if (/Content-Transfer-Encoding: base64/i.test(head)) {
    body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  const subject = header("Subject").replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc, txt) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(txt, "base64").toString("utf8")
      : Buffer.from(
          txt.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m: string, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
  return { to: header("To"), subject, text: body };
}

/**
 * `databaseUrl` rewrites the new database's URL before the app opens it (e.g. to reach
 * PostgreSQL through a proxy the test can cut: tests/helpers/tcp-proxy.ts).
 */
export async function makeApp(
  dialect: Dialect,
  opts: { seed?: boolean; env?: Record<string, string>; databaseUrl?: (url: string) => string } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "saiwu-test-"));
  let url = `file:${join(dataDir, "test.db")}`;
  let drop = async () => {};
  if (dialect === "postgres") ({ url, drop } = await createPgDatabase());
  if (opts.databaseUrl) url = opts.databaseUrl(url);
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    PUBLIC_URL: "http://localhost:8080",
    LOGIN_RATE_MAX: "1000",
    MAIL_RATE_MAX: "1000",
    LOG_LEVEL: "silent",
    DIST_DIR: join(dataDir, "no-dist"),
    // A test's own synchronous work stalls the loop it shares with the server: no shedding for it
    // (tests/api/deadline-faults.test.ts turns it on).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0",
    ...opts.env,
  });
  const { db } = openDb(url);
  await migrate(db);
  // Without the demo's works in format review: the tests name the demo works one by one.
  if (opts.seed !== false) await seedDemo(db, 2026, { reviewWorks: false, defence: false });
  const app = await buildApp({ db, dialect, config, logger: false });
  await app.ready();
  const outbox = join(dataDir, "outbox");
  return {
    app,
    db,
    dialect,
    config,
    mails() {
      let files: string[];
      try {
        files = readdirSync(outbox).sort();
      } catch {
        return [];
      }
      return files.map((f) => decodeMail(readFileSync(join(outbox, f), "utf8")));
    },
    async close() {
      await app.close();
      await db.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A cookie-keeping client over app.inject, sending our Origin on unsafe methods like a browser. */
export class Client {
  cookie = "";
  constructor(readonly t: TestApp) {}

  async req(method: InjectOptions["method"], url: string, payload?: unknown, headers: Record<string, string> = {}) {
    const res = await this.t.app.inject({
      method,
      url,
      payload: payload as InjectOptions["payload"],
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method !== "GET" ? { origin: ORIGIN } : {}),
        host: "localhost:80",
        ...headers,
      },
    });
    const set = res.cookies.find((c) => c.name === "saiwu_sid");
    if (set) this.cookie = set.value && (!set.expires || set.expires.getTime() > Date.now()) ? `saiwu_sid=${set.value}` : "";
    let body: { error: number; info: string; data?: any };
    try {
      body = res.json();
    } catch {
      body = { error: -1, info: res.body };
    }
    return { status: res.statusCode, body, res };
  }
  get(url: string) {
    return this.req("GET", url);
  }
  post(url: string, payload?: unknown, headers?: Record<string, string>) {
    return this.req("POST", url, payload ?? {}, headers);
  }
  del(url: string) {
    return this.req("DELETE", url);
  }
  async login(username: string, page: "student" | "teacher" | "admin", password = "Demo@2026") {
    const r = await this.post("/Backend/Common/account/login", { username, password, page });
    if (r.status !== 200) throw new Error(`login ${username} failed: ${r.status} ${r.body.info}`);
    return r;
  }
}
