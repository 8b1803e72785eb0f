/**
 * The content-addressed blob stores, local and S3 (against a local s3rver), held to the same
 * behaviours: one object per content under ab/cd/, streamed uploads that keep nothing when
 * the stream fails, listing with the stored time, deletion, clean-up of unfinished uploads.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pipeline, Readable } from "node:stream";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config";
import { createBlobStore } from "../../src/server/storage";
import type { BlobStore } from "../../src/server/storage/blob-store";
import { LocalBlobStore } from "../../src/server/storage/local";
import { S3BlobStore } from "../../src/server/storage/s3";
import { uploadGuard } from "../../src/server/work/files/check";
import { startS3, type LocalS3 } from "../../support/s3";

/** A store plus a raw view of what it keeps, outside its own interface. */
interface Harness {
  store: BlobStore;
  /** every stored entry's name relative to the store's root: "blobs/ab/cd/<sha>" or "tmp/<id>" */
  entries(): Promise<string[]>;
  /** the raw bytes under a content name */
  raw(sha256: string): Promise<string>;
  /** leaves a temporary upload behind, as a process dying mid-upload would */
  leaveUnfinished(): Promise<void>;
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

function localHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), "blobs-"));
  dirs.push(dir);
  const store = new LocalBlobStore(dir);
  return {
    store,
    entries: async () =>
      walk(dir)
        .map((f) => relative(dir, f))
        .map((f) => (f.startsWith("tmp/") ? f : `blobs/${f}`))
        .sort(),
    raw: async (sha) => readFileSync(join(dir, sha.slice(0, 2), sha.slice(2, 4), sha), "utf8"),
    leaveUnfinished: async () => {
      await store.check();
      writeFileSync(join(dir, "tmp", "crashed"), "half");
    },
  };
}

let s3: LocalS3;
let s3Stores = 0;
function s3Harness(): Harness {
  // Each store under its own key prefix of the one bucket (which also exercises S3_PREFIX).
  const prefix = `run-${++s3Stores}`;
  const config = loadConfig({ ...s3.env(prefix), DATA_DIR: tmpdir() });
  if (config.storage.driver !== "s3") throw new Error("expected the s3 driver");
  const store = new S3BlobStore(config.storage.s3, 2);
  const keys = async () => {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await store.client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
      );
      out.push(...(page.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1)));
      token = page.NextContinuationToken;
    } while (token);
    return out.sort();
  };
  return {
    store,
    entries: keys,
    raw: async (sha) =>
      (
        await store.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${key(sha)}` }))
      ).Body!.transformToString(),
    leaveUnfinished: async () => {
      await store.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/tmp/crashed`, Body: "half" }));
    },
  };
}

const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
const read = async (r: Readable) => Buffer.concat(await r.toArray()).toString();
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const key = (h: string) => `blobs/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`;
/** `n` bytes of a repeating pattern, in 64 KiB chunks (more than one 5 MiB S3 part when n is large). */
function* pattern(n: number, fail?: Error) {
  for (let i = 0; i < n; i += 65536) yield Buffer.alloc(Math.min(65536, n - i), i % 251);
  if (fail) throw fail;
}

describe.each([
  ["local", localHarness],
  ["s3", s3Harness],
] as const)("blob store (%s)", (driver, harness) => {
  beforeAll(async () => {
    if (driver === "s3") s3 = await startS3();
  });
  afterAll(async () => {
    if (driver === "s3") await s3?.stop();
  });

  it("names a blob by the sha256 of its bytes under blobs/ab/cd/, and stores the same bytes once", async () => {
    const h = harness();
    await h.store.check();
    const a = await h.store.put(chunks("作品", "说明书"));
    const digest = sha("作品说明书");
    expect(a).toEqual({ sha256: digest, size: Buffer.byteLength("作品说明书") });
    expect(await h.raw(digest)).toBe("作品说明书");
    expect(await h.store.put(chunks("作品说明书"))).toEqual(a);
    expect(await h.entries()).toEqual([key(digest)]);
    expect(await h.store.has(digest)).toBe(true);
    expect(await read(await h.store.get(digest))).toBe("作品说明书");
    // An empty file is a blob too.
    expect(await h.store.put(Readable.from([]))).toEqual({ sha256: sha(""), size: 0 });
    expect(await read(await h.store.get(sha("")))).toBe("");
  });

  it("keeps nothing when the stream fails, and refuses names that are not a sha256", async () => {
    const h = harness();
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from("前半部分"));
    setTimeout(() => failing.destroy(new Error("断开")), 5);
    await expect(h.store.put(failing)).rejects.toThrow("断开");
    // A size guard stops the stream at the first byte over the limit.
    const guarded = pipeline(
      chunks("%PDF-", "x".repeat(100)),
      uploadGuard({ name: "文档", ext: "pdf", maxBytes: 50, maxSizeMB: 1, filename: "a.pdf" }),
      () => {},
    );
    await expect(h.store.put(guarded)).rejects.toMatchObject({ status: 413 });
    // A stream failing after several MiB (on S3: after parts of a multipart upload were sent).
    await expect(h.store.put(Readable.from(pattern(12 * 1024 * 1024, new Error("连接中断"))))).rejects.toThrow("连接中断");
    expect(await h.entries()).toEqual([]);
    expect(await h.store.has("0".repeat(64))).toBe(false);
    await expect(h.store.get("0".repeat(64))).rejects.toThrow();
    await expect(h.store.get("../../etc/passwd")).rejects.toThrow("not a sha256");
  });

  it("streams a file larger than one upload part in and out unchanged", async () => {
    const h = harness();
    const n = 12 * 1024 * 1024 + 123;
    const expected = createHash("sha256");
    for (const c of pattern(n)) expected.update(c);
    const digest = expected.digest("hex");
    expect(await h.store.put(Readable.from(pattern(n)))).toEqual({ sha256: digest, size: n });
    const back = createHash("sha256");
    let size = 0;
    for await (const c of await h.store.get(digest)) {
      back.update(c as Buffer);
      size += (c as Buffer).length;
    }
    expect([back.digest("hex"), size]).toEqual([digest, n]);
    expect(await h.entries()).toEqual([key(digest)]);
  });

  it("keeps serving while many downloads are held open by slow readers", async () => {
    const h = harness();
    // Larger than what the sockets' buffers take, so the server is still sending each one.
    const n = 4 * 1024 * 1024;
    const { sha256 } = await h.store.put(Readable.from(pattern(n)));
    const held = await Promise.all(Array.from({ length: 60 }, () => h.store.get(sha256)));
    try {
      expect(await h.store.put(chunks("同时上传"))).toMatchObject({ size: Buffer.byteLength("同时上传") });
      expect((await (await h.store.get(sha256)).toArray()).reduce((a, c) => a + c.length, 0)).toBe(n);
    } finally {
      for (const r of held) r.destroy();
    }
  });

  it("lists every blob with its stored time, and deletes one", async () => {
    const h = harness();
    const before = Date.now() - 2000;
    const put = await Promise.all(["甲", "乙", "丙", "丁", "戊"].map((t) => h.store.put(chunks(t))));
    await h.leaveUnfinished();
    const listed: { sha256: string; storedAt: Date }[] = [];
    for await (const b of h.store.list()) listed.push(b);
    expect(listed.map((b) => b.sha256).sort()).toEqual(put.map((p) => p.sha256).sort());
    for (const b of listed) expect(b.storedAt.getTime()).toBeGreaterThan(before);
    await h.store.delete(put[0].sha256);
    expect(await h.store.has(put[0].sha256)).toBe(false);
    const after: string[] = [];
    for await (const b of h.store.list()) after.push(b.sha256);
    expect(after.sort()).toEqual(
      put
        .slice(1)
        .map((p) => p.sha256)
        .sort(),
    );
  });

  it("clears unfinished uploads older than the given time only", async () => {
    const h = harness();
    const kept = await h.store.put(chunks("保留"));
    await h.leaveUnfinished();
    expect(await h.store.clearUnfinished(new Date(Date.now() - 3600_000))).toBe(0);
    expect(await h.entries()).toEqual([key(kept.sha256), "tmp/crashed"]);
    expect(await h.store.clearUnfinished(new Date(Date.now() + 60_000))).toBe(1);
    expect(await h.entries()).toEqual([key(kept.sha256)]);
  });

  it("reports at start what is wrong with its settings", async () => {
    if (driver === "local") {
      const file = join(mkdtempSync(join(tmpdir(), "blobs-")), "a-file");
      dirs.push(join(file, ".."));
      writeFileSync(file, "");
      await expect(new LocalBlobStore(join(file, "blobs")).check()).rejects.toThrow(
        `附件存储目录 ${join(file, "blobs")} 无法创建或写入`,
      );
      return;
    }
    const store = (env: Record<string, string>) => createBlobStore(loadConfig({ ...s3.env(), DATA_DIR: tmpdir(), ...env }));
    await expect(store({ S3_BUCKET: "no-such-bucket" }).check()).rejects.toThrow(
      `对象存储检查失败：端点 ${s3.endpoint}（S3_ENDPOINT）上的桶 "no-such-bucket"（S3_BUCKET）不存在，请先创建该桶`,
    );
    await expect(store({ S3_ACCESS_KEY: "WRONG" }).check()).rejects.toThrow(
      `对象存储检查失败：端点 ${s3.endpoint}（S3_ENDPOINT）上的桶 "${s3.bucket}"（S3_BUCKET）拒绝访问，请检查 S3_ACCESS_KEY / S3_SECRET_KEY 及其对该桶的权限`,
    );
    await expect(store({ S3_ENDPOINT: "http://127.0.0.1:1" }).check()).rejects.toThrow("对象存储检查失败：无法访问");
  });
});

describe("storage settings", () => {
  it("keeps the local store the default and checks the S3 settings", () => {
    expect(loadConfig({ DATA_DIR: "/srv/saiwu" }).storage).toEqual({ driver: "local", blobDir: "/srv/saiwu/blobs" });
    expect(loadConfig({ DATA_DIR: "/srv/saiwu", STORAGE_DRIVER: "s3", S3_BUCKET: "saiwu", S3_PREFIX: "/2026/" }).storage).toEqual(
      {
        driver: "s3",
        blobDir: "/srv/saiwu/blobs",
        s3: {
          endpoint: undefined,
          bucket: "saiwu",
          region: "us-east-1",
          accessKeyId: undefined,
          secretAccessKey: undefined,
          forcePathStyle: false,
          prefix: "2026/",
        },
      },
    );
    expect(() => loadConfig({ STORAGE_DRIVER: "s3" })).toThrow("STORAGE_DRIVER=s3 needs S3_BUCKET");
    expect(() => loadConfig({ STORAGE_DRIVER: "s3", S3_BUCKET: "b", S3_ACCESS_KEY: "k" })).toThrow(
      "S3_ACCESS_KEY and S3_SECRET_KEY are set together",
    );
    expect(() => loadConfig({ STORAGE_DRIVER: "s3", S3_BUCKET: "b", S3_FORCE_PATH_STYLE: "yes" })).toThrow(
      "S3_FORCE_PATH_STYLE=yes must be 0 or 1",
    );
    expect(() => loadConfig({ STORAGE_DRIVER: "ftp" })).toThrow("STORAGE_DRIVER=ftp is not supported (available: local, s3)");
  });
});
