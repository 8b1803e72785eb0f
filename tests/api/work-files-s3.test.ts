/**
 * Attachments with STORAGE_DRIVER=s3 (against s3rver): an upload lands in the bucket under
 * its content key and nowhere on local disk, downloads give back the same bytes, and a
 * missing bucket stops the app from starting with a clear message.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { loadConfig } from "../../src/server/config";
import { openDb } from "../../src/server/db";
import { createBlobStore } from "../../src/server/storage";
import type { S3BlobStore } from "../../src/server/storage/s3";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { startS3, type LocalS3 } from "../../support/s3";
import { account, catId, contestId, login, makeWork, SAMPLE, upload, W } from "./works-fixtures";

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => s3?.stop());

describe.each(DIALECTS)("work attachments in S3 on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect, { env: s3.env(`api-${dialect}`) });
  });
  afterAll(async () => t?.close());

  it("stores an uploaded file in the bucket and serves it back", async () => {
    expect(t.config.storage.driver).toBe("s3");
    const a = await account(t, "s3_a", "对象存储甲");
    const id = await makeWork(t, a, {
      contest: await contestId(t, "2026-ZJ-10337"),
      category: await catId(t, "软件应用与开发"),
      files: false,
    });
    // Larger than one 5 MiB upload part, so the multipart path is taken.
    const content = Buffer.concat([SAMPLE.pdf, Buffer.alloc(6 * 1024 * 1024, "对象存储")]);
    const sha = createHash("sha256").update(content).digest("hex");
    const up = await upload(a, id, "docs", "设计文档.pdf", content);
    expect(up.status).toBe(201);
    expect(up.body.data).toMatchObject({ size: content.length, sha256: sha });

    const store = createBlobStore(t.config) as S3BlobStore;
    const listed = await store.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `api-${dialect}/` }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([`api-${dialect}/blobs/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`]);
    expect(existsSync(t.config.storage.blobDir) ? readdirSync(t.config.storage.blobDir) : []).toEqual([]);

    for (const who of [a, await login(t, "contest_admin")]) {
      const d = await who.get(`${W}/${id}/files/${up.body.data.id}/download`);
      expect(d.status).toBe(200);
      expect(d.res.rawPayload.equals(content)).toBe(true);
      expect(d.res.headers["content-type"]).toBe("application/pdf");
    }
  });
});

describe("start-up with a missing bucket", () => {
  it("stops with a message naming the bucket and the setting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "saiwu-s3-"));
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", ...s3.env(), S3_BUCKET: "no-such-bucket" });
    const { db } = openDb(config.databaseUrl);
    try {
      await expect(buildApp({ db, dialect: "sqlite", config, logger: false })).rejects.toThrow(
        `对象存储检查失败：端点 ${s3.endpoint}（S3_ENDPOINT）上的桶 "no-such-bucket"（S3_BUCKET）不存在，请先创建该桶`,
      );
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
