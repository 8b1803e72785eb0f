/**
 * What both blob stores hash an upload with (local.ts, s3.ts): the stream's chunks gathered
 * into shared 1 MiB buffers, each hashed on a hash thread (hash-worker.ts), not on the
 * request thread.
 */
import { BATCH, releaseBuffer, sha256Job, takeBuffer } from "./hash-worker";

/**
 * The sha256 of a stream's chunks, in batches: chunks are copied into one shared BATCH-byte
 * buffer; a full one is hashed on a hash thread while `onBatch` (if any) uses the same memory
 * — the local store writes it to its file — and reused once both are done.
 */
export class BatchedHash {
  size = 0;
  #job = sha256Job();
  #buf: Buffer | null = null;
  #filled = 0;
  constructor(private readonly onBatch?: (buf: Buffer, length: number) => Promise<void>) {}

  /** Takes a chunk (copied: the caller may keep or pass it on); resolves once it may take the next. */
  async add(chunk: Buffer) {
    this.size += chunk.length;
    for (let at = 0; at < chunk.length;) {
      this.#buf ??= takeBuffer();
      const n = chunk.copy(this.#buf, this.#filled, at);
      this.#filled += n;
      at += n;
      if (this.#filled === BATCH) await this.flush();
    }
  }

  /** Hashes (and hands to `onBatch`) what the buffer holds. */
  async flush() {
    const buf = this.#buf;
    if (!buf || !this.#filled) return;
    const n = this.#filled;
    await Promise.all([this.onBatch?.(buf, n), this.#job.update(buf, n)]);
    this.#filled = 0;
  }

  /** The hex digest of every chunk taken; the buffer is given back. */
  async digest(): Promise<string> {
    await this.flush();
    const sha256 = await this.#job.digest();
    this.#release();
    return sha256;
  }

  /** Drops the hash (the stream failed). */
  abort() {
    this.#job.abort();
    this.#release();
  }

  #release() {
    // A buffer whose batch may still be read (a flush under way) is not given back.
    if (this.#buf && !this.#filled) releaseBuffer(this.#buf);
    this.#buf = null;
  }
}
