/**
 * The S3-compatible blob store (AWS S3, MinIO, Ceph, Aliyun OSS, Tencent COS …):
 * <prefix>blobs/ab/cd/<sha256>, the same content addressing as the local store.
 *
 * An upload is hashed while it streams to a temporary object <prefix>tmp/<uuid> (lib-storage
 * Upload: multipart in 5 MiB parts, at most 2 in flight, so memory stays bounded whatever
 * the file's size and no local disk is needed — processes behind a load balancer may have
 * little of it). Once the stream has ended and the sha256 is known, the temporary object is
 * copied server-side to its content key unless that exists already, then deleted. If the
 * stream fails, the multipart upload is aborted and the temporary key deleted: nothing is kept.
 * A single CopyObject handles objects up to 5 GB (attachments are at most 500 MB).
 *
 * The sha256 is computed on a hash thread, as in the local store (batched-hash.ts):
 * the stream's chunks go on to the upload unchanged while a copy of them, gathered 1 MiB at a
 * time in shared memory, is hashed off the request thread.
 */
import { randomUUID } from "node:crypto";
import { Readable, Transform } from "node:stream";
import type { S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { lazyRequire } from "../lazy-require";
import type { S3Settings } from "../config";
import { countPut, isSha256, type BlobStore, type StoredBlob } from "./blob-store";
import { BatchedHash } from "./batched-hash";

export type { S3Settings };

/** The SDK is loaded by the first S3 store (a deployment on local storage never loads it). */
const sdk = lazyRequire<typeof import("@aws-sdk/client-s3")>("@aws-sdk/client-s3");
const storage = lazyRequire<typeof import("@aws-sdk/lib-storage")>("@aws-sdk/lib-storage");

const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;
/**
 * Connections to the store per process. A download holds one for as long as its client takes
 * to read it (a judge fetching a 500 MB video); the SDK's default of 50 would let 50 slow
 * downloads stall every other upload, download and check of the process.
 */
const MAX_SOCKETS = 512;

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;

  /** `listPageSize` below 1000 only lets tests walk several ListObjectsV2 pages cheaply. */
  constructor(
    readonly settings: S3Settings,
    private readonly listPageSize = 1000,
  ) {
    this.client = new (sdk().S3Client)({
      endpoint: settings.endpoint || undefined,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      requestHandler: {
        connectionTimeout: 10_000,
        httpAgent: { maxSockets: MAX_SOCKETS },
        httpsAgent: { maxSockets: MAX_SOCKETS },
      },
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Since SDK 3.729 every upload carries a CRC32 checksum by default (a streamed body as an
      // aws-chunked trailer); several S3-compatible services refuse those headers or keep the
      // chunk framing as content (s3rver does). The bytes' own sha256 names every blob.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  keyOf(sha256: string): string {
    if (!isSha256(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return `${this.settings.prefix}blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  get tmpPrefix() {
    return `${this.settings.prefix}tmp/`;
  }

  /** Fails with a clear message when the bucket is missing or the credentials are refused. */
  async check(): Promise<void> {
    const { bucket, endpoint, region } = this.settings;
    const where = `端点 ${endpoint || `AWS ${region}`}（S3_ENDPOINT）上的桶 "${bucket}"（S3_BUCKET）`;
    try {
      await this.client.send(new (sdk().HeadBucketCommand)({ Bucket: bucket }));
    } catch (e) {
      const status = (e as S3ServiceException).$metadata?.httpStatusCode;
      if (status === 404) throw new Error(`对象存储检查失败：${where}不存在，请先创建该桶`, { cause: e });
      if (status === 401 || status === 403)
        throw new Error(`对象存储检查失败：${where}拒绝访问，请检查 S3_ACCESS_KEY / S3_SECRET_KEY 及其对该桶的权限`, {
          cause: e,
        });
      if (status === 301 || status === 400)
        throw new Error(`对象存储检查失败：${where}答复 ${status}，请检查 S3_REGION 与 S3_FORCE_PATH_STYLE`, { cause: e });
      throw new Error(`对象存储检查失败：无法访问${where}：${(e as Error).message || (e as Error).name}`, { cause: e });
    }
  }

  put(stream: Readable): Promise<StoredBlob> {
    return countPut(this.#put(stream));
  }

  async #put(stream: Readable): Promise<StoredBlob> {
    const { bucket } = this.settings;
    const tmp = `${this.tmpPrefix}${randomUUID()}`;
    const hash = new BatchedHash();
    let streamError: unknown;
    stream.once("error", (e) => (streamError ??= e));
    // The chunks pass on as they come; the next is taken once this one is in a hash batch.
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.add(chunk).then(() => done(null, chunk), done);
      },
    });
    stream.on("error", (e) => hashing.destroy(e));
    let sha256: string;
    try {
      const upload = new (storage().Upload)({
        client: this.client,
        params: { Bucket: bucket, Key: tmp, Body: stream.pipe(hashing) },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      await upload.done();
      if (streamError) throw streamError;
      sha256 = await hash.digest();
    } catch (e) {
      hash.abort();
      stream.destroy();
      await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: bucket, Key: tmp })).catch(() => {});
      throw streamError ?? e;
    }
    try {
      if (!(await this.has(sha256))) {
        await this.client.send(
          new (sdk().CopyObjectCommand)({
            Bucket: bucket,
            Key: this.keyOf(sha256),
            CopySource: `${bucket}/${tmp.split("/").map(encodeURIComponent).join("/")}`,
          }),
        );
      }
    } finally {
      await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: bucket, Key: tmp })).catch(() => {});
    }
    return { sha256, size: hash.size };
  }

  async get(sha256: string): Promise<Readable> {
    const res = await this.client.send(new (sdk().GetObjectCommand)({ Bucket: this.settings.bucket, Key: this.keyOf(sha256) }));
    return res.Body as Readable;
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await this.client.send(new (sdk().HeadObjectCommand)({ Bucket: this.settings.bucket, Key: this.keyOf(sha256) }));
      return true;
    } catch (e) {
      if ((e as S3ServiceException).$metadata?.httpStatusCode === 404) return false;
      throw e;
    }
  }

  /** Every object under `prefix`, page by page (ListObjectsV2 answers at most 1000 keys). */
  private async *objects(prefix: string) {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new (sdk().ListObjectsV2Command)({
          Bucket: this.settings.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          MaxKeys: this.listPageSize,
        }),
      );
      for (const o of page.Contents ?? []) if (o.Key && o.LastModified) yield { key: o.Key, lastModified: o.LastModified };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async *list(): AsyncIterable<{ sha256: string; storedAt: Date }> {
    const base = `${this.settings.prefix}blobs/`;
    for await (const o of this.objects(base)) {
      const [a, b, name, ...rest] = o.key.slice(base.length).split("/");
      if (rest.length || !isSha256(name ?? "") || a + b !== name.slice(0, 4)) continue;
      yield { sha256: name, storedAt: o.lastModified };
    }
  }

  async delete(sha256: string): Promise<void> {
    await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: this.settings.bucket, Key: this.keyOf(sha256) }));
  }

  /**
   * Temporary objects older than `before` (a process that died between upload and copy), and
   * multipart uploads begun before it that never completed (one that died mid-stream; their
   * parts are invisible to a listing but stored). Servers without ListMultipartUploads
   * (answering NotImplemented) have no such leftovers to find; a bucket lifecycle rule
   * "abort incomplete multipart uploads after 1 day" does the same on the server's side.
   */
  async clearUnfinished(before: Date): Promise<number> {
    const { bucket } = this.settings;
    let n = 0;
    for await (const o of this.objects(this.tmpPrefix)) {
      if (o.lastModified >= before) continue;
      await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: bucket, Key: o.key }));
      n++;
    }
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new (sdk().ListMultipartUploadsCommand)({
            Bucket: bucket,
            Prefix: this.tmpPrefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
      } catch (e) {
        if ((e as S3ServiceException).name === "NotImplemented") break;
        throw e;
      }
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.UploadId || !u.Initiated || u.Initiated >= before) continue;
        await this.client.send(new (sdk().AbortMultipartUploadCommand)({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }));
        n++;
      }
      [keyMarker, uploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
    } while (keyMarker);
    return n;
  }
}
