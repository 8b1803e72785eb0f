/**
 * Both blob stores hash uploads on the hash threads (src/server/storage/hash-worker.ts), not on
 * the request thread: every byte of a put goes through one sha256Job, whose digest names the
 * stored object; a put cut off half-way drops its job and leaves nothing in the store.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/server/config";
import type { BlobStore } from "../../src/server/storage/blob-store";
import { LocalBlobStore } from "../../src/server/storage/local";
import { S3BlobStore } from "../../src/server/storage/s3";
import { startS3, type LocalS3 } from "../../support/s3";

/** What each hash job was given and how it ended. */
const jobs = vi.hoisted(() => [] as { bytes: number; digest?: string; aborted: boolean }[]);

vi.mock("../../src/server/storage/hash-worker", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/server/storage/hash-worker")>();
  return {
    ...real,
    sha256Job: () => {
      const job = real.sha256Job();
      const seen: (typeof jobs)[number] = { bytes: 0, aborted: false };
      jobs.push(seen);
      return {
        update: (buf: Buffer, length: number) => {
          seen.bytes += length;
          return job.update(buf, length);
        },
        digest: async () => (seen.digest = await job.digest()),
        abort: () => {
          seen.aborted = true;
          job.abort();
        },
      };
    },
  };
});

/** `n` bytes of a repeating pattern in 64 KiB chunks, then `fail` if given. */
function* pattern(n: number, fail?: Error) {
  for (let i = 0; i < n; i += 65536) yield Buffer.alloc(Math.min(65536, n - i), (i / 65536) % 251);
  if (fail) throw fail;
}
const sha = (n: number) => {
  const h = createHash("sha256");
  for (const c of pattern(n)) h.update(c);
  return h.digest("hex");
};
const hashOf = async (r: Readable) => {
  const h = createHash("sha256");
  for await (const c of r) h.update(c as Buffer);
  return h.digest("hex");
};

let s3: LocalS3;
let dir: string;
beforeAll(async () => {
  s3 = await startS3();
  dir = mkdtempSync(join(tmpdir(), "blobs-"));
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  jobs.length = 0;
});

let stores = 0;
/** A store under a key prefix of its own, and every key under it. */
function s3Store(): { store: BlobStore; keys: () => Promise<string[]> } {
  const prefix = `hash-${++stores}/`;
  const config = loadConfig({ ...s3.env(prefix), DATA_DIR: tmpdir() });
  if (config.storage.driver !== "s3") throw new Error("expected the s3 driver");
  const store = new S3BlobStore(config.storage.s3);
  const keys = async () =>
    ((await store.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? []).map(
      (o) => o.Key!,
    );
  return { store, keys };
}

describe.each(["s3", "local"] as const)("uploads hashed on the hash threads (%s)", (driver) => {
  const make = () => (driver === "s3" ? s3Store() : { store: new LocalBlobStore(dir), keys: async () => [] });

  it("every byte goes through one hash job, whose sha256 names the stored object and matches its bytes", async () => {
    const { store } = make();
    // Over one 5 MiB S3 part and not a whole number of 1 MiB batches.
    const n = 7 * 1024 * 1024 + 12345;
    const put = await store.put(Readable.from(pattern(n)));
    expect(put).toEqual({ sha256: sha(n), size: n });
    expect(jobs).toEqual([{ bytes: n, digest: sha(n), aborted: false }]);
    expect(await hashOf(await store.get(put.sha256))).toBe(sha(n));
  });

  it("a put cut off half-way drops its hash job and leaves nothing stored", async () => {
    const { store, keys } = make();
    const n = 6 * 1024 * 1024;
    await expect(store.put(Readable.from(pattern(n, new Error("连接中断"))))).rejects.toThrow("连接中断");
    expect(jobs).toHaveLength(1);
    expect(jobs[0].aborted).toBe(true);
    expect(jobs[0].digest).toBeUndefined();
    expect(await store.has(sha(n))).toBe(false);
    // Neither a blob nor a temporary object (nor, locally, a temporary file) is left.
    expect(await keys()).toEqual([]);
    if (driver === "local") expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });
});
