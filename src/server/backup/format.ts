/**
 * The layout of a backup directory:
 *   manifest.json           what was backed up (Manifest below)
 *   database.sqlite         SQLite: the snapshot file (VACUUM INTO), or
 *   database.pgdump         PostgreSQL: pg_dump custom format (-Fc)
 *   blobs/ab/cd/<sha256>    every blob the database names (the local store's layout)
 *   SHA256SUMS              sha256 of every other file, `sha256sum -c SHA256SUMS` format
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { Dialect } from "../db";
import type { TableSummary } from "./tables";
import type { KeyNote } from "./keys";

export const FORMAT = "saiwu-backup/1";
export const MANIFEST = "manifest.json";
export const SUMS = "SHA256SUMS";
export const DB_FILE: Record<Dialect, string> = { sqlite: "database.sqlite", postgres: "database.pgdump" };

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  dialect: Dialect;
  appVersion: string;
  /** Applied schema migrations, in the order they ran. */
  migrations: string[];
  database: {
    file: string;
    /** "VACUUM INTO" or "pg_dump -Fc" */
    method: string;
    /** pg_dump's and the server's versions (PostgreSQL only) */
    tool?: string;
    server?: string;
  };
  /** Per table: row count and checksum (tables.ts), from the same snapshot as the database file. */
  tables: Record<string, TableSummary>;
  /** Every blob the snapshot names and the backup holds. */
  blobs: { sha256: string; size: number }[];
  /** Blobs the snapshot names that the store did not have (or whose bytes did not match their name). */
  missingBlobs: { sha256: string; reason: "missing" | "corrupt" }[];
  /**
   * The certificate signing key: the active key's id and where its private key must come
   * from on restore (never in the backup). Absent in backups of older versions.
   */
  signingKey?: KeyNote;
}

export const blobPath = (sha256: string) => join("blobs", sha256.slice(0, 2), sha256.slice(2, 4), sha256);

export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const h = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    h.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: h.digest("hex"), size };
}

/** Every file under `dir`, as paths relative to it with "/" separators, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(relative(dir, p).split(sep).join("/"));
    }
  };
  await walk(dir);
  return out.sort();
}

export const formatSums = (sums: Map<string, string>) =>
  [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, sha]) => `${sha}  ${path}\n`)
    .join("");

/** Parses SHA256SUMS; null when a line is not `<sha256>  <path>`. */
export function parseSums(text: string): Map<string, string> | null {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const m = /^([0-9a-f]{64}) {2}([^\s].*)$/.exec(line);
    if (!m || m[2].includes("..") || m[2].startsWith("/") || sums.has(m[2])) return null;
    sums.set(m[2], m[1]);
  }
  return sums;
}

export const dialectOf = (url: string): Dialect => (/^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite");
export const sqlitePath = (url: string) => url.replace(/^file:/, "");
