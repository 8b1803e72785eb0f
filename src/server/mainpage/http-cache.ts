/**
 * HTTP caching of the public main page's replies: each reply is computed once per change of
 * the tables it reads (the read cache, src/server/db/changes.ts; never stale for this process's
 * writes, at most MAX_AGE_MS old for other writers and so that a news item scheduled for later
 * appears on time) and kept ready to send: the JSON bytes, their gzip (made on the first request
 * that accepts it), an ETag (hash of the text; the gzipped bytes have their own, suffixed "-gz")
 * and Last-Modified (when this text was first served). A request with a matching If-None-Match,
 * or without one and an If-Modified-Since not before Last-Modified, gets 304 and no body.
 * Nothing is serialised, hashed or compressed per request.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db";
import { readCache } from "../db/changes";

const MAX_AGE_MS = 15_000;
/** Smaller bodies go out as they are: gzip would save less than its own header costs. */
const GZIP_MIN_BYTES = 1024;

/** One ready reply. */
export class Ready {
  readonly body: Buffer;
  readonly etag: string;
  readonly gzEtag: string;
  #gzip: Buffer | null = null;
  /** Last-Modified as a number (ms) and as the header's text. */
  modifiedAt = 0;
  lastModified = "";

  constructor(json: string) {
    this.body = Buffer.from(json, "utf8");
    const hash = createHash("sha1").update(this.body).digest("base64url");
    this.etag = `"${hash}"`;
    this.gzEtag = `"${hash}-gz"`;
  }

  get gzip(): Buffer {
    return (this.#gzip ??= gzipSync(this.body, { level: 6 }));
  }
}

/** key → the ETag last served and since when (Last-Modified stays while the text is the same). */
const firstSeen = new Map<string, { etag: string; at: number }>();

function stampModified(key: string, ready: Ready) {
  let seen = firstSeen.get(key);
  if (!seen || seen.etag !== ready.etag) {
    if (firstSeen.size > 5000) firstSeen.clear();
    seen = { etag: ready.etag, at: Math.floor(Date.now() / 1000) * 1000 };
    firstSeen.set(key, seen);
  }
  ready.modifiedAt = seen.at;
  ready.lastModified = new Date(seen.at).toUTCString();
}

export function isFresh(req: FastifyRequest, etags: readonly string[], modifiedAt: number): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) {
    return inm.split(",").some((t) => {
      const tag = t.trim();
      return tag === "*" || etags.includes(tag.replace(/^W\//, ""));
    });
  }
  const ims = req.headers["if-modified-since"];
  if (ims) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && modifiedAt <= since;
  }
  return false;
}

const acceptsGzip = (req: FastifyRequest) => /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));

/** Sends `compute()`'s data in the success envelope, cached and revalidated as described above. */
export async function sendCached(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  tables: readonly string[],
  compute: () => Promise<unknown>,
) {
  const key = `${req.method} ${req.url}`;
  const cache = readCache(db, "mainpage", { maxEntries: 2000, maxAgeMs: MAX_AGE_MS });
  const ready = await cache.get<Ready>(key, tables, async () => {
    const r = new Ready(JSON.stringify({ error: 0, info: "成功", data: await compute() }));
    stampModified(key, r);
    return r;
  });
  const gz = ready.body.length >= GZIP_MIN_BYTES && acceptsGzip(req);
  reply
    .header("etag", gz ? ready.gzEtag : ready.etag)
    .header("last-modified", ready.lastModified)
    .header("cache-control", "public, no-cache")
    .header("vary", "accept-encoding");
  if (isFresh(req, [ready.etag, ready.gzEtag], ready.modifiedAt)) return reply.code(304).send();
  reply.header("content-type", "application/json; charset=utf-8");
  if (!gz) return reply.send(ready.body);
  return reply.header("content-encoding", "gzip").send(ready.gzip);
}
