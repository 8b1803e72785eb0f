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
   * Stores the stream's bytes; resolves once they are durable. If the stream fails (e.g. a
   * size check aborts it) nothing is kept and the stream's error is thrown.
   */
  put(stream: Readable): Promise<StoredBlob>;
  /** The bytes of a stored blob. */
  get(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
}

export const isSha256 = (s: string) => /^[0-9a-f]{64}$/.test(s);
