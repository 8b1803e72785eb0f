/**
 * Backup and restore (src/server/backup): a backup of a running app with demo data, uploaded
 * work files and score-log entries restores into a fresh empty database and blob dir with
 * every table's row count and checksum equal, the blobs' bytes intact and the score-log
 * chains verified; a backup taken while rows are being written restores to exactly its
 * manifest; a backup with one changed byte, or a non-empty target, is refused before
 * anything is written.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/server/backup/cli";
import { blobPath, DB_FILE, MANIFEST, type Manifest } from "../../src/server/backup/format";
import { restoreBackup, RestoreRefused } from "../../src/server/backup/restore";
import { createBackup } from "../../src/server/backup/backup";
import { listTables, summariseTables } from "../../src/server/backup/tables";
import { migrate, openDb, type Dialect } from "../../src/server/db";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { verifyScores } from "../../src/server/judging/verify-scores";
import { LocalBlobStore } from "../../src/server/storage/local";
import { loadConfig } from "../../src/server/config";
import { createBlobStore } from "../../src/server/storage";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { startS3 } from "../../support/s3";
import { account, catId, contestId, makeWork, SAMPLE, upload } from "./works-fixtures";

const bytes = async (s: Readable) => {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
};

describe.each(DIALECTS)("backup and restore on %s", (dialect: Dialect) => {
  let t: TestApp;
  let work: string;
  let backupDir: string;
  const cleanups: (() => Promise<void>)[] = [];

  /** A fresh empty database (never migrated) and blob dir. */
  const freshTarget = async () => {
    const dir = mkdtempSync(join(tmpdir(), "saiwu-restore-"));
    let url = `file:${join(dir, "restored.db")}`;
    let drop = async () => {};
    if (dialect === "postgres") ({ url, drop } = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_r"));
    cleanups.push(async () => {
      await drop();
      rmSync(dir, { recursive: true, force: true });
    });
    return { url, blobDir: join(dir, "blobs"), store: new LocalBlobStore(join(dir, "blobs")) };
  };
  const env = (url: string, blobDir: string) => ({ DATABASE_URL: url, BLOB_DIR: blobDir, DATA_DIR: work, LOG_LEVEL: "silent" });
  const isEmpty = async (url: string, blobDir: string) => {
    if (dialect === "sqlite" && !existsSync(url.replace(/^file:/, ""))) return !existsSync(blobDir);
    const { db } = openDb(url);
    try {
      return (await listTables(db, dialect)).length === 0 && !existsSync(blobDir);
    } finally {
      await db.destroy();
    }
  };

  beforeAll(async () => {
    t = await makeApp(dialect);
    work = mkdtempSync(join(tmpdir(), "saiwu-backup-"));
    expect(await seedScoringDemo(t.db)).toBe(true);
    // Work files uploaded through the API: the required ones, a replaced one and a shared one.
    const a = await account(t, "bk_a", "备份甲");
    const b = await account(t, "bk_b", "备份乙");
    const id = await makeWork(t, a, {
      contest: await contestId(t, "2026-ZJ-10337"),
      category: await catId(t, "软件应用与开发"),
      coAuthors: [b],
    });
    for (const text of ["第一版", "第二版，内容更长一些"]) {
      const r = await upload(a, id, "docs", "说明.pdf", Buffer.concat([SAMPLE.pdf, Buffer.from(text)]));
      expect(r.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    for (const c of cleanups) await c();
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("backs up a running app and restores it into an empty database with every table, blob and score-log chain intact", async () => {
    const source = await summariseTables(t.db, dialect);
    expect(source.score_log.rows).toBeGreaterThan(0);
    expect(source.work_file.rows).toBeGreaterThanOrEqual(3);

    backupDir = join(work, "backup");
    const lines: string[] = [];
    expect(
      await main(["backup", "--out", backupDir], env(t.config.databaseUrl, t.config.storage.blobDir), (l) => lines.push(l)),
    ).toBe(0);
    expect(lines.at(-1)).toContain("备份完成");
    const manifest: Manifest = JSON.parse(readFileSync(join(backupDir, MANIFEST), "utf8"));
    expect(manifest.dialect).toBe(dialect);
    expect(manifest.migrations).toContain("0001-foundation");
    expect(manifest.tables).toEqual(source);
    const shas = [...new Set((await t.db.selectFrom("work_file").select("sha256").execute()).map((r) => r.sha256))].sort();
    expect(manifest.blobs.map((b) => b.sha256)).toEqual(shas);
    expect(manifest.missingBlobs).toEqual([]);
    expect(existsSync(join(backupDir, DB_FILE[dialect]))).toBe(true);

    const target = await freshTarget();
    const out: string[] = [];
    expect(await main(["restore", "--from", backupDir], env(target.url, target.blobDir), (l) => out.push(l))).toBe(0);
    expect(out.at(-1)).toContain("恢复完成并已核对");

    const { db } = openDb(target.url);
    try {
      expect(await summariseTables(db, dialect)).toEqual(source);
      const printed: string[] = [];
      expect(await verifyScores(db, {}, (l) => printed.push(l))).toBe(0);
      expect(printed.join("\n")).toContain("评分日志完整");
      // The restored database is usable: new rows get fresh ids after the restored ones.
      const max =
        (
          await db
            .selectFrom("audit_log")
            .select((e) => e.fn.max("id").as("m"))
            .executeTakeFirstOrThrow()
        ).m ?? 0;
      const row = await db
        .insertInto("audit_log")
        .values({ at: new Date().toISOString(), user_id: null, entity: "test", entity_id: "1", action: "create", changes: "{}" })
        .returning("id")
        .executeTakeFirstOrThrow();
      expect(row.id).toBeGreaterThan(Number(max));
    } finally {
      await db.destroy();
    }
    const sourceStore = new LocalBlobStore(t.config.storage.blobDir);
    for (const sha of shas)
      expect((await bytes(await target.store.get(sha))).equals(await bytes(await sourceStore.get(sha)))).toBe(true);
  }, 120_000);

  it("restores a backup taken while rows are being written to exactly its manifest", async () => {
    let stop = false;
    let written = 0;
    const writer = (async () => {
      while (!stop) {
        await t.db
          .insertInto("audit_log")
          .values({
            at: new Date().toISOString(),
            user_id: null,
            entity: "backup-test",
            entity_id: String(written),
            action: "create",
            changes: "{}",
          })
          .execute();
        written++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const before = written;
    const dir = join(work, "busy");
    const { manifest } = await createBackup({
      databaseUrl: t.config.databaseUrl,
      store: new LocalBlobStore(t.config.storage.blobDir),
      out: dir,
    });
    stop = true;
    await writer;
    expect(written).toBeGreaterThan(before);
    const target = await freshTarget();
    const report = await restoreBackup({ from: dir, databaseUrl: target.url, store: target.store });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    const { db } = openDb(target.url);
    try {
      expect(await summariseTables(db, dialect)).toEqual(manifest.tables);
    } finally {
      await db.destroy();
    }
  }, 120_000);

  it("refuses a backup with one changed byte before writing anything", async () => {
    const manifest: Manifest = JSON.parse(readFileSync(join(backupDir, MANIFEST), "utf8"));
    for (const file of [DB_FILE[dialect], blobPath(manifest.blobs[0].sha256), MANIFEST]) {
      const copy = join(work, `tampered-${file.replace(/\W/g, "_")}`);
      cpSync(backupDir, copy, { recursive: true });
      const buf = readFileSync(join(copy, file));
      buf[Math.floor(buf.length / 2)] ^= 0x01;
      writeFileSync(join(copy, file), buf);
      const target = await freshTarget();
      const out: string[] = [];
      expect(await main(["restore", "--from", copy], env(target.url, target.blobDir), (l) => out.push(l))).toBe(1);
      expect(out.join("\n")).toContain(`备份文件 ${file} 的校验和不符`);
      expect(out.join("\n")).toContain("未写入任何数据");
      expect(await isEmpty(target.url, target.blobDir)).toBe(true);
    }
  }, 120_000);

  it("refuses a target that has data, and changes nothing there", async () => {
    const before = await summariseTables(t.db, dialect);
    await expect(
      restoreBackup({ from: backupDir, databaseUrl: t.config.databaseUrl, store: new LocalBlobStore(t.config.storage.blobDir) }),
    ).rejects.toThrow(RestoreRefused);
    await expect(
      restoreBackup({ from: backupDir, databaseUrl: t.config.databaseUrl, store: new LocalBlobStore(t.config.storage.blobDir) }),
    ).rejects.toThrow(/目标数据库已有数据（表 .*app_user.*），恢复只能写入空数据库/);
    expect(await summariseTables(t.db, dialect)).toEqual(before);
  });

  it.runIf(dialect === "postgres")("refuses to restore a PostgreSQL backup into SQLite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "saiwu-restore-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    await expect(
      restoreBackup({
        from: backupDir,
        databaseUrl: `file:${join(dir, "other.db")}`,
        store: new LocalBlobStore(join(dir, "blobs")),
      }),
    ).rejects.toThrow(/暂不支持从 PostgreSQL 备份恢复到 SQLite/);
    expect(existsSync(join(dir, "other.db")) || existsSync(join(dir, "blobs"))).toBe(false);
  });

  it.runIf(dialect === "sqlite" && DIALECTS.includes("postgres"))(
    "restores a SQLite backup into an empty PostgreSQL database with every table equal",
    async () => {
      const { url, drop } = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_x");
      const dir = mkdtempSync(join(tmpdir(), "saiwu-restore-"));
      cleanups.push(async () => {
        await drop();
        rmSync(dir, { recursive: true, force: true });
      });
      const report = await restoreBackup({ from: backupDir, databaseUrl: url, store: new LocalBlobStore(join(dir, "blobs")) });
      expect(report.problems).toEqual([]);
      const { db } = openDb(url);
      try {
        // The same canonical checksums on both dialects (the app has written since the backup: compare with its manifest).
        const manifest: Manifest = JSON.parse(readFileSync(join(backupDir, MANIFEST), "utf8"));
        expect(await summariseTables(db, "postgres")).toEqual(manifest.tables);
        expect(await verifyScores(db, {}, () => {})).toBe(0);
        // Sequences continue after the copied ids.
        const max = Number(
          (
            await db
              .selectFrom("audit_log")
              .select((e) => e.fn.max("id").as("m"))
              .executeTakeFirstOrThrow()
          ).m ?? 0,
        );
        expect(max).toBeGreaterThan(0);
        const row = await db
          .insertInto("audit_log")
          .values({
            at: new Date().toISOString(),
            user_id: null,
            entity: "test",
            entity_id: "1",
            action: "create",
            changes: "{}",
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        expect(row.id).toBeGreaterThan(max);
      } finally {
        await db.destroy();
      }
    },
    120_000,
  );

  it.runIf(dialect === "sqlite")(
    "restores into an S3 blob store and backs up from it with the same blobs",
    async () => {
      const s3 = await startS3();
      cleanups.push(() => s3.stop());
      const target = await freshTarget();
      const s3env = { ...env(target.url, target.blobDir), ...s3.env("backup-test") };
      expect(await main(["restore", "--from", backupDir], s3env, () => {})).toBe(0);
      expect(existsSync(target.blobDir)).toBe(false); // the blobs went to the bucket
      const again = join(work, "from-s3");
      expect(await main(["backup", "--out", again], s3env, () => {})).toBe(0);
      const first: Manifest = JSON.parse(readFileSync(join(backupDir, MANIFEST), "utf8"));
      const second: Manifest = JSON.parse(readFileSync(join(again, MANIFEST), "utf8"));
      expect(second.blobs).toEqual(first.blobs);
      expect(second.tables).toEqual(first.tables);
      const bucket = createBlobStore(loadConfig(s3env));
      for (const b of first.blobs)
        expect((await bytes(await bucket.get(b.sha256))).equals(readFileSync(join(backupDir, blobPath(b.sha256))))).toBe(true);
    },
    120_000,
  );

  it("restores into a migrated database that holds only a started server's bookkeeping rows", async () => {
    const target = await freshTarget();
    const { db } = openDb(target.url);
    await migrate(db);
    // What a server writes on its own at start: a scheduled run's log row.
    const now = new Date().toISOString();
    await db
      .insertInto("task_run")
      .values({ name: "cleanup", slot: "0", ran_by: "test", started_at: now, finished_at: now, error: null })
      .execute();
    await db.destroy();
    const report = await restoreBackup({ from: backupDir, databaseUrl: target.url, store: target.store });
    expect(report.problems).toEqual([]);
  }, 120_000);
});
