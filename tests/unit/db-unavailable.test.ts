/** Which errors mean "the database is unreachable for now" (answered 503) and which are bugs (500). */
import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/shared/errors";
import { isDatabaseUnavailable, markDatabaseError } from "../../src/server/db/unavailable";

/** An error as node:net raises it (a system error with a code). */
const sysError = (code: string, message = `connect ${code} 127.0.0.1:5432`) =>
  Object.assign(new Error(message), { code, errno: -111, syscall: "connect" });
/** An error as PostgreSQL sends it (pg's DatabaseError carries the SQLSTATE in `code`). */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" });
const marked = <T>(e: T): T => {
  markDatabaseError(e);
  return e;
};

describe("isDatabaseUnavailable", () => {
  it("takes a refused, reset or timed-out connection of the database for an outage", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]) {
      expect(isDatabaseUnavailable(marked(sysError(code))), code).toBe(true);
    }
  });

  it("does not blame the database for a network error of something else (S3, SMTP)", () => {
    expect(isDatabaseUnavailable(sysError("ECONNREFUSED"))).toBe(false);
    expect(isDatabaseUnavailable(sysError("ECONNRESET", "read ECONNRESET"))).toBe(false);
  });

  it("takes PostgreSQL's shutdown, start-up, connection and too-many-connections states wherever they come from", () => {
    expect(isDatabaseUnavailable(pgError("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("57P02", "terminating connection because of crash of another server process"))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(pgError("57P03", "the database system is starting up"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("08006", "connection failure"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("08P01", "protocol violation"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("53300", "sorry, too many clients already"))).toBe(true);
  });

  it("takes pg's own messages for a lost or timed-out connection", () => {
    for (const message of [
      "Connection terminated unexpectedly",
      "Connection terminated due to connection timeout",
      "Connection terminated",
      "Client has encountered a connection error and is not queryable",
      "Client was closed and is not queryable",
      "timeout exceeded when trying to connect",
      "Query read timeout",
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    }
  });

  it("takes SQLite's busy and locked codes", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY", rawCode: 5 }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("database table is locked"), { code: "SQLITE_LOCKED" }))).toBe(true);
  });

  it("looks into wrapped errors: a cause, an AggregateError's errors (several addresses of one host)", () => {
    const refused = new AggregateError([sysError("ECONNREFUSED", "connect ECONNREFUSED ::1:5432"), sysError("ECONNREFUSED")], "");
    expect(isDatabaseUnavailable(marked(refused))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error("query failed", { cause: pgError("57P01", "terminating connection due to administrator command") }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(marked(new Error("query failed", { cause: sysError("ECONNRESET") })))).toBe(true);
    // A cycle of causes ends.
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(marked(a))).toBe(false);
  });

  it("leaves bugs, constraint violations and domain errors alone", () => {
    expect(isDatabaseUnavailable(marked(pgError("23505", "duplicate key value violates unique constraint")))).toBe(false);
    expect(isDatabaseUnavailable(marked(pgError("42P01", 'relation "nope" does not exist')))).toBe(false);
    expect(isDatabaseUnavailable(marked(pgError("40001", "could not serialize access due to concurrent update")))).toBe(false);
    expect(
      isDatabaseUnavailable(
        marked(Object.assign(new Error("UNIQUE constraint failed: app_user.username"), { code: "SQLITE_CONSTRAINT_UNIQUE" })),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(new DomainError(404, "作品不存在"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });

  it("marks an error once and keeps frozen values as they are", () => {
    const e = sysError("ECONNREFUSED");
    markDatabaseError(e);
    markDatabaseError(e);
    expect(isDatabaseUnavailable(e)).toBe(true);
    expect(() => markDatabaseError(Object.freeze(sysError("ECONNREFUSED")))).not.toThrow();
    expect(() => markDatabaseError(null)).not.toThrow();
  });
});
