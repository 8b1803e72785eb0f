/**
 * The local-disk blob store: <dir>/ab/cd/<sha256>. A blob is written to <dir>/tmp while
 * it is hashed, flushed to disk (fsync), then renamed into place — a reader never sees
 * half a file, and content already stored is not written twice. An upload cut off (the
 * stream fails) removes its temporary file: nothing of it is kept.
 *
 * The event loop does as little per byte as it can (figures: docs/performance.md, 2026-12-02,
 * main-thread CPU per MB on this 2-core machine): the multipart parser hands over ~64 KB
 * chunks; they are copied into one 1 MiB buffer per upload (0.05–0.07 ms/MB), written with one
 * write per MiB (0.03 ms/MB, against 0.34–0.38 ms/MB for a write per 64 KB chunk as before),
 * and hashed on a worker thread reading the same shared memory (sha256 on the event loop
 * costs 0.70 ms/MB, hash-worker.ts). The buffer is reused (a fresh 1 MiB allocation costs
 * 0.23–2.8 ms/MB in page faults). One fsync per blob stays: it is what "durable" means.
 */
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { access, mkdir, open, readdir, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { countPut, isSha256, type BlobStore, type StoredBlob } from "./blob-store";
import { BatchedHash } from "./batched-hash";
import { BATCH } from "./hash-worker";

/** The upload's file: written a shared BATCH-byte buffer at a time, while a hash thread reads the same memory. */
class BatchedFile extends Writable {
  readonly hash: BatchedHash;
  constructor(fh: FileHandle) {
    super({ highWaterMark: BATCH });
    this.hash = new BatchedHash(async (buf, n) => {
      for (let off = 0; off < n;) off += (await fh.write(buf, off, n - off)).bytesWritten;
    });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void) {
    this.hash.add(chunk).then(() => done(), done);
  }

  override _final(done: (e?: Error | null) => void) {
    this.hash.flush().then(() => done(), done);
  }
}

export class LocalBlobStore implements BlobStore {
  constructor(readonly dir: string) {}

  pathOf(sha256: string): string {
    if (!isSha256(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async check(): Promise<void> {
    try {
      await mkdir(join(this.dir, "tmp"), { recursive: true });
    } catch (e) {
      throw new Error(`附件存储目录 ${this.dir} 无法创建或写入（BLOB_DIR）：${(e as Error).message}`, { cause: e });
    }
  }

  put(stream: Readable): Promise<StoredBlob> {
    return countPut(this.#put(stream));
  }

  async #put(stream: Readable): Promise<StoredBlob> {
    // A stream failing while the temporary file is being opened keeps its error (errored)
    // and the pipeline below throws it; until then this listener keeps it from going uncaught.
    stream.on("error", () => {});
    const tmpDir = join(this.dir, "tmp");
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    const fh = await open(tmp, "wx");
    const file = new BatchedFile(fh);
    let sha256: string;
    try {
      await pipeline(stream, file);
      [sha256] = await Promise.all([file.hash.digest(), fh.sync()]);
    } catch (e) {
      file.hash.abort();
      await fh.close().catch(() => {});
      await rm(tmp, { force: true });
      stream.destroy();
      throw e;
    }
    await fh.close();
    const target = this.pathOf(sha256);
    if (await this.has(sha256)) {
      await rm(tmp, { force: true });
    } else {
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      await syncDir(dirname(target));
    }
    return { sha256, size: file.hash.size };
  }

  async get(sha256: string): Promise<Readable> {
    const path = this.pathOf(sha256);
    await access(path);
    return createReadStream(path);
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await access(this.pathOf(sha256));
      return true;
    } catch {
      return false;
    }
  }

  async *list(): AsyncIterable<{ sha256: string; storedAt: Date }> {
    const names = async (dir: string) => {
      try {
        return (await readdir(dir)).sort();
      } catch {
        return [];
      }
    };
    for (const a of await names(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await names(join(this.dir, a))) {
        if (!/^[0-9a-f]{2}$/.test(b)) continue;
        for (const name of await names(join(this.dir, a, b))) {
          if (!isSha256(name) || !name.startsWith(a + b)) continue;
          const st = await stat(join(this.dir, a, b, name)).catch(() => null);
          if (st?.isFile()) yield { sha256: name, storedAt: st.mtime };
        }
      }
    }
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  async clearUnfinished(before: Date): Promise<number> {
    const tmpDir = join(this.dir, "tmp");
    let n = 0;
    for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
      const st = await stat(join(tmpDir, name)).catch(() => null);
      if (st && st.mtime < before) {
        await rm(join(tmpDir, name), { force: true });
        n++;
      }
    }
    return n;
  }
}

/** Makes a rename durable: flushes the directory entry (not possible on every platform). */
async function syncDir(dir: string) {
  try {
    const d = await open(dir, "r");
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    // Directories cannot be opened for fsync on some systems; the rename itself is atomic.
  }
}
