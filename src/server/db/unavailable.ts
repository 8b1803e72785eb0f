/**
 * Whether an error means "the database cannot be reached right now" (PostgreSQL gone,
 * restarting or refusing connections; SQLite busy beyond its busy timeout) rather than a
 * bug or a bad request. The one error handler (plugins/errors.ts) answers such errors with
 * 503 and Retry-After instead of 500: the same request succeeds once the database is back.
 *
 * Network errors (ECONNREFUSED, ECONNRESET, …) are ambiguous: an S3 or SMTP server may
 * refuse a connection too, and "数据库暂时不可用" would then be a wrong answer. So they count
 * only on errors the database layer marked as its own (`markDatabaseError`, called by the
 * tracked driver every statement goes through: db/changes.ts). Errors only PostgreSQL or
 * pg raise (SQLSTATE classes, pg's own messages) and SQLite's busy codes count wherever
 * they come from (pg-boss has a pool of its own).
 */

/** The answer to a request that failed because the database is unreachable. */
export const DB_UNAVAILABLE_INFO = "数据库暂时不可用，请稍后重试";
/** Seconds a client is told to wait before retrying (Retry-After). */
export const DB_RETRY_AFTER_SECONDS = 5;

const FROM_DATABASE = Symbol.for("saiwu.databaseError");

/** Marks an error thrown by the database driver (the marker survives rethrows). */
export function markDatabaseError(err: unknown): void {
  if (err && typeof err === "object" && !Object.isFrozen(err)) {
    try {
      Object.defineProperty(err, FROM_DATABASE, { value: true });
    } catch {
      // An exotic error object that refuses properties stays unmarked.
    }
  }
}

/** Socket-level failures: the server is down, restarting, unreachable or cut the connection. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's SQLSTATEs of an unavailable server: class 08 (connection exception),
 * 57P01 admin_shutdown (a fast shutdown or pg_terminate_backend), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up, or in recovery), 53300 too_many_connections.
 */
const PG_STATES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** SQLite's "database is locked" (SQLITE_BUSY, also its extended codes) after the busy timeout. */
const SQLITE_BUSY = /^SQLITE_BUSY(_|$)|^SQLITE_LOCKED(_|$)/;

/** pg and pg-pool's own errors for a lost, refused or timed-out connection (they carry no code). */
const PG_MESSAGES = [
  /^Connection terminated\b/i, // "… unexpectedly", "… due to connection timeout"
  /\bis not queryable\b/i, // "Client has encountered a connection error and is not queryable", "Client was closed and is not queryable"
  /^timeout exceeded when trying to connect$/i,
  /^Query read timeout$/i,
  /^Cannot use a pool after calling end on the pool$/i,
];

function isOwnCode(e: { code?: unknown; message?: unknown }): boolean {
  const code = typeof e.code === "string" ? e.code : "";
  if (PG_STATES.test(code) || SQLITE_BUSY.test(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return PG_MESSAGES.some((re) => re.test(message));
}

/**
 * True when `err` (or an error it wraps: `cause`, an AggregateError's `errors`) says the
 * database is unreachable for now; see the top of this file for what counts.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, marked: boolean, depth: number): boolean => {
    if (!e || typeof e !== "object" || seen.has(e) || depth > 5) return false;
    seen.add(e);
    const x = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; [FROM_DATABASE]?: boolean };
    const fromDb = marked || x[FROM_DATABASE] === true;
    if (isOwnCode(x)) return true;
    if (fromDb && typeof x.code === "string" && NETWORK_CODES.has(x.code)) return true;
    if (visit(x.cause, fromDb, depth + 1)) return true;
    return Array.isArray(x.errors) && x.errors.some((inner) => visit(inner, fromDb, depth + 1));
  };
  return visit(err, false, 0);
}
