/**
 * Who may scrape GET /metrics. With METRICS_TOKEN set: whoever sends it as
 * `Authorization: Bearer <token>` (compared in constant time), nobody else (401). Without a
 * token: only a direct loopback caller — the socket's peer is 127.0.0.0/8 or ::1 and the
 * request carries no forwarding header, since a reverse proxy on the same host connects from
 * loopback on behalf of anybody — and everybody else is answered as if the path did not exist.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export type ScrapeVerdict = "allow" | "unauthorized" | "hidden";

/** Whether a socket peer address is the loopback interface (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, "");
  return a === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Headers a proxy adds when it passes a request on: their presence means the caller is not the peer. */
const FORWARDING = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** The gate for one configuration: `token` null means loopback only. */
export function scrapeGate(token: string | null): (headers: IncomingHttpHeaders, peer: string | undefined) => ScrapeVerdict {
  if (token === null) {
    return (headers, peer) => (isLoopback(peer) && !FORWARDING.some((h) => headers[h] !== undefined) ? "allow" : "hidden");
  }
  // Both sides hashed to the same length, so the comparison takes the same time whatever was sent.
  const expected = digest(token);
  return (headers) => {
    const m = /^bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "");
    return m && timingSafeEqual(digest(m[1]), expected) ? "allow" : "unauthorized";
  };
}
