/**
 * `npm run backup`: a consistent snapshot of the database while the server may be running,
 * plus every blob it names, with a manifest and checksums (layout: format.ts).
 *
 * - SQLite: `VACUUM INTO` from a second connection (libsql's `backup()` is not implemented):
 *   one read transaction, so one point in time; writers are not blocked under WAL. The
 *   manifest's table summaries are read back from the snapshot file itself.
 * - PostgreSQL: pg_dump -Fc (full fidelity: sequences, indexes, constraints, other schemas
 *   such as a job queue's) run on a snapshot exported by a REPEATABLE READ, READ ONLY
 *   transaction that also computes the manifest: dump and manifest see the same data.
 *
 * Blobs are read through the BlobStore interface (any driver) after the snapshot: blobs
 * are immutable and rows naming them are never deleted, so every named blob is still there.
 * The backup is written to `<out>.partial` and renamed to `<out>` when complete.
 *
 * It never holds a certificate signing private key (keys.ts): the SQLite snapshot's column is
 * emptied, a PostgreSQL database still holding one is refused; the manifest names the active
 * key id and where its private key must come from on restore.
 */
import { readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sql, type Kysely } from "kysely";
import { openDb, type Dialect } from "../db";
import { ROOT_DIR } from "../root";
import type { BlobStore } from "../storage/blob-store";
import { LocalBlobStore } from "../storage/local";
import { referencedBlobs } from "../storage/references";
import {
  blobPath,
  DB_FILE,
  dialectOf,
  FORMAT,
  formatSums,
  hashFile,
  listFiles,
  MANIFEST,
  sqlitePath,
  SUMS,
  type Manifest,
} from "./format";
import { checkToolVersion, pgTool, runTool } from "./pg-tools";
import { appliedMigrations, summariseTables } from "./tables";
import { keyNote, refusePrivateKeys, scrubSqliteSnapshot } from "./keys";

export interface BackupOptions {
  databaseUrl: string;
  store: BlobStore;
  out: string;
  log?: (line: string) => void;
  /** blobs copied at once */
  parallel?: number;
}

const appVersion = (): string => {
  try {
    return JSON.parse(readFileSync(join(ROOT_DIR, "package.json"), "utf8")).version ?? "unknown";
  } catch {
    return "unknown";
  }
};

/** What the snapshot holds, read from the snapshot (never from the live database). */
async function describe(db: Kysely<any>, dialect: Dialect) {
  return {
    tables: await summariseTables(db, dialect),
    migrations: await appliedMigrations(db, dialect),
    blobs: await referencedBlobs(db),
    signingKey: await keyNote(db, dialect),
  };
}
type Snapshot = Awaited<ReturnType<typeof describe>> & { database: Manifest["database"] };

async function snapshotSqlite(url: string, dir: string): Promise<Snapshot> {
  const source = sqlitePath(url);
  if (!(await stat(source).catch(() => null))?.isFile()) throw new Error(`数据库文件不存在：${source}`);
  const tmp = join(dir, `${DB_FILE.sqlite}.tmp`);
  const live = openDb(url).db;
  try {
    await sql`VACUUM INTO ${tmp}`.execute(live);
  } finally {
    await live.destroy();
  }
  const snap = openDb(`file:${tmp}`).db;
  let d;
  try {
    await scrubSqliteSnapshot(snap);
    d = await describe(snap, "sqlite");
    // Opening switched the file to WAL; back to a rollback journal so it is one self-contained file.
    const mode = (await sql<{ journal_mode: string }>`PRAGMA journal_mode = DELETE`.execute(snap)).rows[0]?.journal_mode;
    if (mode !== "delete") throw new Error(`无法把快照文件切换为单文件模式（journal_mode = ${mode}）`);
  } finally {
    await snap.destroy();
  }
  for (const f of [`${tmp}-wal`, `${tmp}-shm`]) await rm(f, { force: true });
  await rename(tmp, join(dir, DB_FILE.sqlite));
  return { ...d, database: { file: DB_FILE.sqlite, method: "VACUUM INTO" } };
}

async function snapshotPostgres(url: string, dir: string): Promise<Snapshot> {
  const { db } = openDb(url);
  try {
    const server = (
      await sql<{ v: string; n: string }>`select version() as v, current_setting('server_version_num') as n`.execute(db)
    ).rows[0];
    const tool = await checkToolVersion(pgTool("pg_dump"), Number(server.n));
    const file = join(dir, DB_FILE.postgres);
    const d = await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .setAccessMode("read only")
      .execute(async (trx) => {
        const id = (await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx)).rows[0].id;
        await refusePrivateKeys(trx);
        // pg_dump imports the snapshot when it starts; the transaction stays open until it ends.
        const dump = runTool(pgTool("pg_dump"), ["--format=custom", `--snapshot=${id}`, `--file=${file}`, `--dbname=${url}`]);
        dump.catch(() => {}); // awaited below; avoids an unhandled rejection while describing
        const desc = await describe(trx, "postgres");
        await dump;
        return desc;
      });
    return { ...d, database: { file: DB_FILE.postgres, method: "pg_dump -Fc", tool, server: server.v } };
  } finally {
    await db.destroy();
  }
}

async function copyBlobs(store: BlobStore, target: LocalBlobStore, wanted: string[], parallel: number, log: (l: string) => void) {
  const blobs: Manifest["blobs"] = [];
  const missing: Manifest["missingBlobs"] = [];
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const sha = wanted[next++];
      if (!(await store.has(sha))) {
        missing.push({ sha256: sha, reason: "missing" });
        continue;
      }
      const stored = await target.put(await store.get(sha));
      if (stored.sha256 !== sha) {
        await target.delete(stored.sha256);
        missing.push({ sha256: sha, reason: "corrupt" });
        continue;
      }
      blobs.push({ sha256: sha, size: stored.size });
      if (blobs.length % 1000 === 0) log(`已复制 ${blobs.length} / ${wanted.length} 个附件文件`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
  const byName = (a: { sha256: string }, b: { sha256: string }) => (a.sha256 < b.sha256 ? -1 : 1);
  return { blobs: blobs.sort(byName), missing: missing.sort(byName) };
}

export async function createBackup(opts: BackupOptions): Promise<{ dir: string; manifest: Manifest }> {
  const log = opts.log ?? (() => {});
  const out = opts.out;
  const existing = await readdir(out).catch(() => null);
  if (existing && existing.length) throw new Error(`备份目录已存在且不为空：${out}`);
  const partial = `${out}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const dialect = dialectOf(opts.databaseUrl);
    const createdAt = new Date().toISOString();
    log(`正在生成数据库快照（${dialect === "sqlite" ? "SQLite VACUUM INTO" : "pg_dump"}）…`);
    const snap =
      dialect === "sqlite" ? await snapshotSqlite(opts.databaseUrl, partial) : await snapshotPostgres(opts.databaseUrl, partial);
    log(`数据库快照完成：${Object.keys(snap.tables).length} 个表；正在复制 ${snap.blobs.length} 个附件文件…`);
    const { blobs, missing } = await copyBlobs(
      opts.store,
      new LocalBlobStore(join(partial, "blobs")),
      snap.blobs,
      opts.parallel ?? 4,
      log,
    );
    await rm(join(partial, "blobs", "tmp"), { recursive: true, force: true });
    const manifest: Manifest = {
      format: FORMAT,
      createdAt,
      dialect,
      appVersion: appVersion(),
      migrations: snap.migrations,
      database: snap.database,
      tables: snap.tables,
      blobs,
      missingBlobs: missing,
      signingKey: snap.signingKey,
    };
    await writeFile(join(partial, MANIFEST), JSON.stringify(manifest, null, 2) + "\n");

    // Blob files were hashed while they were written (their name is their hash); the rest are hashed now.
    const sums = new Map<string, string>(blobs.map((b) => [blobPath(b.sha256).split("\\").join("/"), b.sha256]));
    for (const f of await listFiles(partial)) if (!sums.has(f)) sums.set(f, (await hashFile(join(partial, f))).sha256);
    await writeFile(join(partial, SUMS), formatSums(sums));
    if (existing) await rm(out, { recursive: true, force: true });
    await rename(partial, out);
    return { dir: out, manifest };
  } catch (e) {
    await rm(partial, { recursive: true, force: true });
    throw e;
  }
}
