/**
 * A package loaded on first use rather than when the server starts: for libraries that only
 * some requests need (certificate fonts and QR codes, the S3 client of an S3 deployment),
 * whose loading otherwise costs every process start time and memory. Synchronous (Node's
 * require, which also loads ES modules), so callers keep their synchronous signatures.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A function returning the package `id`, loading it on its first call. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
