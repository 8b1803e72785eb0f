/**
 * The blob store's clean-up (src/server/storage/gc.ts): blobs no attachment row names and
 * older than the grace period go; attachments' blobs (current, replaced or deleted) and
 * young orphans stay; a dry run removes nothing. On the local store and on the S3 one (s3rver).
 */
import { utimes } from "node:fs/promises";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlobStore, type BlobStore } from "../../src/server/storage";
import { collectOrphanBlobs } from "../../src/server/storage/gc";
import { LocalBlobStore } from "../../src/server/storage/local";
import { S3BlobStore } from "../../src/server/storage/s3";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { startS3, type LocalS3 } from "../../support/s3";
import { account, catId, contestId, makeWork, SAMPLE, upload } from "./works-fixtures";

const cases = DIALECTS.flatMap((dialect) => (["local", "s3"] as const).map((driver) => [dialect, driver] as const));

describe.each(cases)("blob clean-up on %s, %s store", (dialect, driver) => {
  let t: TestApp;
  let s3: LocalS3 | undefined;
  let store: BlobStore;
  beforeAll(async () => {
    if (driver === "s3") s3 = await startS3();
    t = await makeApp(dialect, { env: s3?.env("gc") });
    store = createBlobStore(t.config);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  const put = async (text: string) => (await store.put(Readable.from([Buffer.concat([SAMPLE.pdf, Buffer.from(text)])]))).sha256;
  const age = async (sha: string, hours: number) => {
    if (store instanceof S3BlobStore) return s3!.age(store.keyOf(sha), hours);
    const at = new Date(Date.now() - hours * 3600_000);
    await utimes((store as LocalBlobStore).pathOf(sha), at, at);
  };

  it("removes only unreferenced blobs older than the grace period", async () => {
    const a = await account(t, "gc_a", "清理甲");
    const b = await account(t, "gc_b", "清理乙");
    const id = await makeWork(t, a, {
      contest: await contestId(t, "2026-ZJ-10337"),
      category: await catId(t, "软件应用与开发"),
      coAuthors: [b],
      files: false,
    });
    const first = await upload(a, id, "docs", "文档一.pdf", Buffer.concat([SAMPLE.pdf, Buffer.from("first")]));
    const second = await upload(a, id, "docs", "文档二.pdf", Buffer.concat([SAMPLE.pdf, Buffer.from("second")]));
    expect(second.body.info).toContain("已替换");
    for (const f of [first, second]) await age(f.body.data.sha256, 100);

    const oldOrphan = await put("orphan, old");
    await age(oldOrphan, 48);
    const youngOrphan = await put("orphan, young");

    const dry = await collectOrphanBlobs(t.db, store, { graceMs: 24 * 3600_000, dryRun: true });
    expect(dry.removed).toEqual([oldOrphan]);
    expect(await store.has(oldOrphan)).toBe(true);

    const run = await collectOrphanBlobs(t.db, store, { graceMs: 24 * 3600_000 });
    expect(run.removed).toEqual([oldOrphan]);
    expect(run.young).toBeGreaterThanOrEqual(1);
    expect(await store.has(oldOrphan)).toBe(false);
    expect(await store.has(youngOrphan)).toBe(true);
    // Both the current and the replaced attachment keep their bytes.
    expect(await store.has(first.body.data.sha256)).toBe(true);
    expect(await store.has(second.body.data.sha256)).toBe(true);
  });
});
