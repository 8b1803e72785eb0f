/**
 * HTTP caching of the public main page's replies: each reply is computed once per change of
 * the tables it reads (the read cache, src/server/db/changes.ts; at most MAX_AGE_MS old, so a
 * news item scheduled for later appears on time) and sent as ready JSON text with an ETag
 * (hash of the text) and Last-Modified (when this text was first served). A request with a
 * matching If-None-Match, or without one and an If-Modified-Since not before Last-Modified,
 * gets 304 and no body.
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db";
import { readCache } from "../db/changes";

const MAX_AGE_MS = 15_000;
interface Cached { json: string; etag: string }
/** key → the ETag last served and since when (Last-Modified stays while the text is the same). */
const firstSeen = new Map<string, { etag: string; at: number }>();

function lastModified(key: string, etag: string): number {
  const seen = firstSeen.get(key);
  if (seen && seen.etag === etag) return seen.at;
  if (firstSeen.size > 5000) firstSeen.clear();
  const at = Math.floor(Date.now() / 1000) * 1000;
  firstSeen.set(key, { etag, at });
  return at;
}

export function isFresh(req: FastifyRequest, etag: string, modifiedAt: number): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) return inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag || t.trim() === "*");
  const ims = req.headers["if-modified-since"];
  if (ims) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && modifiedAt <= since;
  }
  return false;
}

/** Sends `compute()`'s data in the success envelope, cached and revalidated as described above. */
export async function sendCached(db: Db, req: FastifyRequest, reply: FastifyReply, tables: readonly string[], compute: () => Promise<unknown>) {
  const key = `${req.method} ${req.url}`;
  const cache = readCache(db, "mainpage", { maxEntries: 2000, maxAgeMs: MAX_AGE_MS });
  const { json, etag } = await cache.get<Cached>(key, tables, async () => {
    const json = JSON.stringify({ error: 0, info: "成功", data: await compute() });
    return { json, etag: `"${createHash("sha1").update(json).digest("base64url")}"` };
  });
  const at = lastModified(key, etag);
  reply.header("etag", etag).header("last-modified", new Date(at).toUTCString()).header("cache-control", "public, no-cache");
  if (isFresh(req, etag, at)) return reply.code(304).send();
  return reply.type("application/json; charset=utf-8").send(json);
}
