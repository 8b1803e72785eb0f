/**
 * Limits of request values shared by every schema: ids fit a 4-byte integer column
 * (PostgreSQL serial/integer, and SQLite), page numbers keep OFFSET within range.
 */
import { Type } from "typebox";

/** The largest value of a PostgreSQL integer (int4) column: every serial id. */
export const MAX_ID = 2147483647;
/** The largest page number of a list (× the largest page size stays below MAX_ID). */
export const MAX_PAGE = 1000000;
/** A record version (optimistic locking), an integer column. */
export const MAX_VERSION = MAX_ID;

/** A positive id of an integer column. */
export const Id = (title?: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...(title ? { title } : {}) });
/** Id as JSON-schema options, for "id or null" type lists. */
export const ID_RANGE = { minimum: 1, maximum: MAX_ID } as const;
/** The page number of a list (?current=). */
export const PageNumber = (opts: { default?: number } = {}) =>
  Type.Integer({ minimum: 1, maximum: MAX_PAGE, title: "页码", ...opts });
