/**
 * Where uploaded files live: a content-addressed blob store. A blob is named by the
 * sha256 of its bytes, so the same content is stored once and a name never changes its
 * content. The database keeps who uploaded what (work_file); the store keeps bytes only.
 */
import type { Readable } from "node:stream";

export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface BlobStore {
  /**
   * Checks at start that the store can be used (the directory can be created; the bucket
   * exists and the credentials are accepted) and throws a clear message if not.
   */
  check(): Promise<void>;
  /**
   * Stores the stream's bytes; resolves once they are durable. If the stream fails (e.g. a
   * size check aborts it) nothing is kept and the stream's error is thrown.
   */
  put(stream: Readable): Promise<StoredBlob>;
  /** The bytes of a stored blob. */
  get(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  /** Every stored blob with the time it was stored; unfinished uploads are not blobs. */
  list(): AsyncIterable<{ sha256: string; storedAt: Date }>;
  /** Removes a blob (only the clean-up of unreferenced blobs calls this). */
  delete(sha256: string): Promise<void>;
  /** Removes unfinished uploads older than `before` (a crash mid-upload leaves one). */
  clearUnfinished(before: Date): Promise<number>;
}

export const isSha256 = (s: string) => /^[0-9a-f]{64}$/.test(s);

const pendingPuts = new Set<Promise<unknown>>();

/**
 * Counts a put until it has settled: a put whose upload was cut (the client went away, or
 * shutdown ended the connection) removes its temporary file or object on its way out.
 */
export function countPut<T>(put: Promise<T>): Promise<T> {
  pendingPuts.add(put);
  put.then(
    () => pendingPuts.delete(put),
    () => pendingPuts.delete(put),
  );
  return put;
}

/**
 * Waits, at most `ms`, until no put of this process is in progress: the last step of a
 * shutdown (serve.ts), so a cut upload's clean-up is not lost to the process exiting.
 */
export async function putsSettled(ms: number): Promise<void> {
  if (!pendingPuts.size) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...pendingPuts]), new Promise((ok) => (timer = setTimeout(ok, ms)))]);
  clearTimeout(timer);
}
