/**
 * The local-disk blob store: <dir>/ab/cd/<sha256>. A blob is written to <dir>/tmp while
 * it is hashed, flushed to disk (fsync), then renamed into place — a reader never sees
 * half a file, and content already stored is not written twice.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { access, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { countPut, isSha256, type BlobStore, type StoredBlob } from "./blob-store";

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
    // and the loop below throws it; until then this listener keeps it from going uncaught.
    stream.on("error", () => {});
    const tmpDir = join(this.dir, "tmp");
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    const hash = createHash("sha256");
    let size = 0;
    const fh = await open(tmp, "wx");
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        hash.update(buf);
        size += buf.length;
        await fh.write(buf);
      }
      await fh.sync();
    } catch (e) {
      await fh.close().catch(() => {});
      await rm(tmp, { force: true });
      stream.destroy();
      throw e;
    }
    await fh.close();
    const sha256 = hash.digest("hex");
    const target = this.pathOf(sha256);
    if (await this.has(sha256)) {
      await rm(tmp, { force: true });
    } else {
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      await syncDir(dirname(target));
    }
    return { sha256, size };
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
