/**
 * Table changes across server processes on one PostgreSQL database (LISTEN/NOTIFY), so a
 * read cache (./changes.ts) of one process never keeps what another process changed.
 *
 * Sending: every committed write announces its tables on CHANNEL with `pg_notify` on the
 * connection that wrote, right after the COMMIT (or the autocommit statement), in a
 * statement of its own that does not wait for its WAL flush. A transaction that wrote a
 * table authorisation is read from (sessions, users, contest membership) announces inside
 * itself just before COMMIT instead: PostgreSQL then delivers it atomically with the
 * commit, so a process dying right after committing a lock or a role change cannot leave
 * it unannounced. Not all writes do so because PostgreSQL serialises the commits of notifying
 * transactions, WAL flush included: measured with 40 concurrent writers, in-transaction
 * announcements cut write transactions from ~2,400/s to ~600/s; after the commit they
 * cost one round trip. The payload names the sending handle, so its own listener skips it.
 *
 * Receiving: one dedicated connection (not from the pool) per database handle LISTENs and
 * bumps the announced tables in the handle's tracker. While that connection is not
 * listening (before the first LISTEN, after an error or the server ending it) the tracker
 * is suspended: every read cache computes each read and stores nothing. It reconnects with
 * backoff and, once listening again, bumps every table (announcements may have been
 * missed). A heartbeat detects a connection that died silently.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { CompiledQuery, type DatabaseConnection } from "kysely";
import pg from "pg";
import type { ChangeTracker } from "./changes";

export const CHANNEL = "saiwu_changes";
/** The listening connection's application_name (pg_stat_activity), followed by ":" and the OS process id. */
export const LISTEN_APP_NAME = "saiwu-listen";
/** PostgreSQL refuses payloads of 8000 bytes or more; beyond this, "every table" is announced. */
const MAX_PAYLOAD_BYTES = 7_900;
const ALL = "*";
/** The tables sessions and access scopes are read from (plugins/auth.ts, scope.ts): announced atomically with the commit. */
const AUTH_TABLES = new Set(["user_session", "app_user", "api_token", "contest_member", "contest"]);

/** This process in payloads; each handle adds a number (two handles of one process must hear each other). */
const PROCESS_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
let handles = 0;

export function encodeChanges(origin: string, tables: Iterable<string>): string {
  const list = [...new Set(tables)];
  const payload = JSON.stringify({ o: origin, t: list.includes(ALL) ? [ALL] : list });
  return Buffer.byteLength(payload) < MAX_PAYLOAD_BYTES ? payload : JSON.stringify({ o: origin, t: [ALL] });
}

/** The sender and tables of a payload; anything unreadable counts as a change of every table. */
export function decodeChanges(payload: string | undefined): { origin: string | null; tables: string[] } {
  try {
    const p = JSON.parse(payload ?? "");
    if (typeof p?.o === "string" && Array.isArray(p.t) && p.t.every((t: unknown) => typeof t === "string"))
      return { origin: p.o, tables: p.t };
  } catch {
    /* below */
  }
  return { origin: null, tables: [ALL] };
}

export interface ChangeBusOptions {
  /** First wait before reconnecting (ms); doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** How often the listening connection is checked, and how long the check may take (ms). */
  heartbeatMs?: number;
  log?: (message: string) => void;
}

export class ChangeBus {
  readonly origin = `${PROCESS_ID}:${++handles}`;
  #client: pg.Client | null = null;
  #started = false;
  #stopped = false;
  #timer: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #delay: number;
  #listening: Promise<void>;
  #onListening!: () => void;
  readonly #opts: Required<ChangeBusOptions>;
  /** statistics, for tests and benchmarks */
  received = 0;
  connects = 0;

  constructor(
    private readonly url: string,
    private readonly tracker: ChangeTracker,
    opts: ChangeBusOptions = {},
  ) {
    this.#opts = {
      retryMs: opts.retryMs ?? Number(process.env.LISTEN_RETRY_MS ?? 200),
      maxRetryMs: opts.maxRetryMs ?? 10_000,
      heartbeatMs: opts.heartbeatMs ?? 10_000,
      log: opts.log ?? ((m) => console.error(m)),
    };
    this.#delay = this.#opts.retryMs;
    this.#listening = new Promise((ok) => (this.#onListening = ok));
    // Until the listener is listening, another process's write could go unseen.
    tracker.suspend();
  }

  /** Whether a transaction that wrote `tables` announces them before its COMMIT (see the top of this file). */
  beforeCommit(tables: ReadonlySet<string>): boolean {
    for (const t of tables) if (t === ALL || AUTH_TABLES.has(t)) return true;
    return false;
  }

  /**
   * Announces `tables` on `conn`, the connection that wrote them: inside its open
   * transaction, or (`committed`) as a statement of its own that does not wait for the WAL
   * flush (a notification needs no durability). A failure after the commit is retried on
   * the listening connection; the write stands either way.
   */
  async announce(conn: DatabaseConnection, tables: Iterable<string>, committed: boolean): Promise<void> {
    const payload = encodeChanges(this.origin, tables);
    if (!committed) {
      await conn.executeQuery(CompiledQuery.raw("select pg_notify($1, $2)", [CHANNEL, payload]));
      return;
    }
    const text = "select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)";
    try {
      await conn.executeQuery(CompiledQuery.raw(text, [CHANNEL, payload]));
    } catch (err) {
      try {
        if (!this.#client) throw err;
        await this.#client.query(text, [CHANNEL, payload]);
      } catch {
        // Other processes see it when their entries expire (maxAgeMs).
        this.#opts.log(`数据变更通知发送失败：${(err as Error).message}`);
      }
    }
  }

  /** Starts listening; resolves once listening (or after `waitMs`, while it keeps trying). */
  async listen(waitMs = 5_000): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      void this.#connect();
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#listening, new Promise<void>((ok) => (timer = setTimeout(ok, waitMs)))]);
    clearTimeout(timer);
  }

  get listening() {
    return !!this.#client && !this.tracker.suspended;
  }

  async stop() {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    const c = this.#client;
    this.#client = null;
    this.tracker.suspend();
    await c?.end().catch(() => {});
  }

  async #connect() {
    if (this.#stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: `${LISTEN_APP_NAME}:${process.pid}`,
      keepAlive: true,
      connectionTimeoutMillis: this.#opts.heartbeatMs,
      query_timeout: this.#opts.heartbeatMs,
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.#heartbeat) clearInterval(this.#heartbeat);
      this.#heartbeat = null;
      if (this.#client === client) this.#client = null;
      this.tracker.suspend();
      client.end().catch(() => {});
      if (this.#stopped) return;
      this.#opts.log(`数据库变更监听连接中断（${err?.message ?? "连接已关闭"}），${this.#delay} ms 后重连；重连前不使用读缓存`);
      this.#timer = setTimeout(() => void this.#connect(), this.#delay);
      this.#timer.unref(); // a server is kept running by its HTTP listener, a script need not be
      this.#delay = Math.min(this.#delay * 2, this.#opts.maxRetryMs);
    };
    // The handlers stay attached: a late error on an ended client must not crash the process.
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (n) => {
      if (n.channel !== CHANNEL || lost) return;
      const { origin, tables } = decodeChanges(n.payload);
      if (origin === this.origin) return; // already counted by this handle's tracker
      this.received++;
      this.tracker.bump(tables);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (lost) return;
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#delay = this.#opts.retryMs;
    if (this.connects++ > 0) this.#opts.log("数据库变更监听已恢复");
    // Anything may have changed while nobody listened.
    this.tracker.resume();
    this.#heartbeat = setInterval(() => {
      client.query("select 1").catch((err: Error) => onLost(err));
    }, this.#opts.heartbeatMs);
    this.#heartbeat.unref();
    this.#onListening();
  }
}
