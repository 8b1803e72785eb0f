/**
 * `npm run restore -- --from DIR`: puts a backup (backup.ts) into DATABASE_URL and the
 * configured blob store, then proves it.
 *
 * Order: every file's checksum is verified and the target is checked (same dialect, no
 * user data, migrations this build knows) before anything is written; then the blobs go in
 * (content-addressed, so harmless if the rest fails), then the database — SQLite: the
 * snapshot file copied in and renamed into place; PostgreSQL: pg_restore in one
 * transaction. Finally every table's row count and checksum is recomputed from the target
 * and compared with the manifest, every blob is looked up in the store, and the score-log
 * hash chains are verified. Last, the restored database's active certificate signing key is
 * compared with the private key this machine is configured with (keys.ts checkRestoredKey):
 * the data is restored either way; a missing key is a warning (signing will refuse until it
 * is supplied), another key is reported as a mismatch (the CLI exits 1).
 *
 * Supported: SQLite → SQLite, PostgreSQL → PostgreSQL, and SQLite → PostgreSQL by copying
 * rows (transfer.ts; the build must have exactly the backup's migrations). Not PostgreSQL → SQLite.
 * The server must not be running on the target while it is restored.
 */
import { copyFile, mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { openDb, type Dialect } from "../db";
import { verifyScores } from "../judging/verify-scores";
import { migrations as knownMigrations } from "../db/migrations/index";
import type { BlobStore } from "../storage/blob-store";
import { LocalBlobStore } from "../storage/local";
import { blobPath, dialectOf, FORMAT, hashFile, listFiles, MANIFEST, parseSums, sqlitePath, SUMS, type Manifest } from "./format";
import { pgTool, runTool } from "./pg-tools";
import { copySqliteIntoPostgres } from "./transfer";
import { summariseTables, tablesWithData } from "./tables";
import { checkRestoredKey, type KeyCheck } from "./keys";
import type { KeySource } from "../certificate/key-source";

/** Refused before anything was written: `message` says why, in Chinese. */
export class RestoreRefused extends Error {}

export interface RestoreOptions {
  from: string;
  databaseUrl: string;
  store: BlobStore;
  log?: (line: string) => void;
  /** the signing key this machine is configured with (config.certificates); unchecked without */
  signingKey?: KeySource;
}

export interface RestoreReport {
  ok: boolean;
  /** one line per problem found after restoring */
  problems: string[];
  tables: number;
  rows: number;
  blobs: number;
  /** the signing key check (when RestoreOptions.signingKey was given) */
  key?: KeyCheck;
}

const DIALECT_NAME: Record<Dialect, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

/** Checks every file against SHA256SUMS and the manifest against the files; returns the manifest. */
export async function verifyBackup(from: string): Promise<Manifest> {
  const text = await readFile(join(from, SUMS), "utf8").catch(() => null);
  if (text === null) throw new RestoreRefused(`${from} 不是备份目录：缺少校验文件 ${SUMS}`);
  const sums = parseSums(text);
  if (!sums) throw new RestoreRefused(`校验文件 ${SUMS} 格式错误（已损坏或被改动），未写入任何数据`);
  const files = (await listFiles(from)).filter((f) => f !== SUMS);
  const extra = files.filter((f) => !sums.has(f));
  if (extra.length) throw new RestoreRefused(`备份中有校验文件未登记的文件：${extra.slice(0, 3).join("、")}，未写入任何数据`);
  const sizes = new Map<string, number>();
  for (const [path, expected] of sums) {
    const actual = await hashFile(join(from, path)).catch(() => null);
    if (!actual) throw new RestoreRefused(`备份缺少文件 ${path}，未写入任何数据`);
    if (actual.sha256 !== expected)
      throw new RestoreRefused(`备份文件 ${path} 的校验和不符（文件已损坏或被改动），未写入任何数据`);
    sizes.set(path, actual.size);
  }
  let m: Manifest;
  try {
    m = JSON.parse(await readFile(join(from, MANIFEST), "utf8"));
  } catch {
    throw new RestoreRefused(`备份缺少可读的 ${MANIFEST}，未写入任何数据`);
  }
  if (m.format !== FORMAT) throw new RestoreRefused(`不认识的备份格式「${m.format}」（本版本读取 ${FORMAT}），未写入任何数据`);
  if (!sums.has(m.database?.file)) throw new RestoreRefused(`备份缺少数据库文件 ${m.database?.file}，未写入任何数据`);
  for (const b of m.blobs) {
    const p = blobPath(b.sha256);
    if (sums.get(p) !== b.sha256 || sizes.get(p) !== b.size) throw new RestoreRefused(`附件文件 ${p} 与清单不符，未写入任何数据`);
  }
  return m;
}

/** Refuses a target of another dialect, with user data, or a backup of a newer schema. */
async function checkTarget(m: Manifest, url: string): Promise<void> {
  const dialect = dialectOf(url);
  if (dialect !== m.dialect && !(m.dialect === "sqlite" && dialect === "postgres"))
    throw new RestoreRefused(
      `此备份来自 ${DIALECT_NAME[m.dialect]}，目标数据库是 ${DIALECT_NAME[dialect]}：暂不支持从 PostgreSQL 备份恢复到 SQLite，未写入任何数据`,
    );
  const unknown = m.migrations.filter((n) => !(n in knownMigrations));
  if (unknown.length)
    throw new RestoreRefused(
      `备份来自更新的版本（含本版本没有的迁移 ${unknown.join("、")}），请用不早于 ${m.appVersion} 的版本恢复，未写入任何数据`,
    );
  const missing = Object.keys(knownMigrations).filter((n) => !m.migrations.includes(n));
  if (dialect !== m.dialect && missing.length)
    throw new RestoreRefused(
      `把 SQLite 备份恢复到 PostgreSQL 需要与备份相同的数据库结构：备份缺少迁移 ${missing.join("、")}；请先用备份时的版本恢复到 SQLite、升级后重新备份，未写入任何数据`,
    );
  if (dialect === "sqlite" && !(await stat(sqlitePath(url)).catch(() => null))) return;
  const { db } = openDb(url);
  try {
    const full = await tablesWithData(db, dialect);
    if (full.length)
      throw new RestoreRefused(
        `目标数据库已有数据（表 ${full.slice(0, 5).join("、")}${full.length > 5 ? " 等" : ""}），恢复只能写入空数据库；请把 DATABASE_URL 指向新建的空数据库，未写入任何数据`,
      );
  } finally {
    await db.destroy();
  }
}

async function restoreBlobs(m: Manifest, from: string, store: BlobStore, log: (l: string) => void) {
  const source = new LocalBlobStore(join(from, "blobs"));
  let n = 0;
  for (const b of m.blobs) {
    if (!(await store.has(b.sha256))) {
      const stored = await store.put(await source.get(b.sha256));
      if (stored.sha256 !== b.sha256) throw new Error(`附件文件 ${b.sha256} 写入后的校验和不符`);
    }
    if (++n % 1000 === 0) log(`已恢复 ${n} / ${m.blobs.length} 个附件文件`);
  }
}

async function restoreDatabase(m: Manifest, from: string, url: string) {
  const file = join(from, m.database.file);
  if (m.dialect !== dialectOf(url)) return copySqliteIntoPostgres(file, url);
  if (m.dialect === "sqlite") {
    const target = sqlitePath(url);
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.restoring`;
    await copyFile(file, tmp);
    // An existing target file has no user data (checked): it and its WAL give way to the snapshot.
    for (const f of [target, `${target}-wal`, `${target}-shm`, `${target}-journal`]) await rm(f, { force: true });
    await rename(tmp, target);
    return;
  }
  // --clean --if-exists: a migrated but empty target's tables (or a job queue's schema a
  // server created there) give way to the dump's; all in one transaction.
  await runTool(pgTool("pg_restore"), [
    "--single-transaction",
    "--no-owner",
    "--no-privileges",
    "--clean",
    "--if-exists",
    `--dbname=${url}`,
    file,
  ]);
}

/** Recomputes the target's tables, looks up the blobs and verifies the score-log chains. */
async function check(m: Manifest, url: string, store: BlobStore, log: (l: string) => void): Promise<RestoreReport> {
  const problems: string[] = [];
  const { db, dialect } = openDb(url);
  let tables: Record<string, { rows: number; checksum: string }>;
  try {
    tables = await summariseTables(db, dialect);
    const names = new Set([...Object.keys(tables), ...Object.keys(m.tables)]);
    for (const t of [...names].sort()) {
      const want = m.tables[t];
      const got = tables[t];
      if (!want) problems.push(`表 ${t} 不在备份清单中`);
      else if (!got) problems.push(`表 ${t} 未恢复`);
      else if (got.rows !== want.rows) problems.push(`表 ${t} 行数不符：备份 ${want.rows}，恢复后 ${got.rows}`);
      else if (got.checksum !== want.checksum) problems.push(`表 ${t} 校验和不符（行数相同，内容不同）`);
    }
    const scoreLines: string[] = [];
    const code = await verifyScores(db, {}, (l) => scoreLines.push(l));
    for (const l of scoreLines) log(`评分日志：${l}`);
    if (code !== 0) problems.push("评分日志哈希链校验失败");
  } finally {
    await db.destroy();
  }
  let lost = 0;
  for (const b of m.blobs) if (!(await store.has(b.sha256))) lost++;
  if (lost) problems.push(`附件存储中缺少 ${lost} 个附件文件`);
  const rows = Object.values(tables).reduce((s, t) => s + t.rows, 0);
  return { ok: problems.length === 0, problems, tables: Object.keys(tables).length, rows, blobs: m.blobs.length - lost };
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreReport> {
  const log = opts.log ?? (() => {});
  log(`正在校验备份 ${opts.from} 的每个文件…`);
  const m = await verifyBackup(opts.from);
  await checkTarget(m, opts.databaseUrl);
  await opts.store.check(); // the first write: creates the blob directory, or checks the bucket
  log(
    `备份完整（${m.createdAt}，${DIALECT_NAME[m.dialect]}，${Object.keys(m.tables).length} 个表，${m.blobs.length} 个附件文件）；正在恢复附件文件…`,
  );
  await restoreBlobs(m, opts.from, opts.store, log);
  log("正在恢复数据库…");
  await restoreDatabase(m, opts.from, opts.databaseUrl);
  log("正在核对恢复结果…");
  const report = await check(m, opts.databaseUrl, opts.store, log);
  if (m.missingBlobs.length)
    report.problems.push(
      `备份时附件存储已缺少或损坏 ${m.missingBlobs.length} 个附件文件，无法恢复：${m.missingBlobs
        .slice(0, 3)
        .map((b) => b.sha256)
        .join("、")}`,
    );
  let key: KeyCheck | undefined;
  if (opts.signingKey) {
    const { db, dialect } = openDb(opts.databaseUrl);
    try {
      key = await checkRestoredKey(db, dialect, opts.signingKey);
    } finally {
      await db.destroy();
    }
  }
  return { ...report, ok: report.problems.length === 0, key };
}
