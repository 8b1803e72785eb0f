/**
 * Which unknown GET paths are pages of the application (answered with index.html, the
 * client router then shows the page or its own "not found" screen) and which are not
 * (answered 404 in the envelope): scanners' probes (/wp-login.php, /.env, /.git/config),
 * a missing file (/x.js, /favicon.ico), a monitoring path that is not served (/metrics when
 * no metrics route is registered, /livez), the API.
 *
 * Why a rule and not the client's route table (src/client/routes.tsx): that table is a
 * React module (icons, lazily imported pages, react-router loaders), and its parameter
 * routes (/mainpage/:section/:id, /contest/reply/:code, sections read from
 * src/client/admin/sections.ts) would still leave the final word to the client. Loading it
 * here would tie the server's start to the front end's code, and the build's manifest lists
 * chunks, not routes. So the rule is the shape every route of that table has: no segment
 * with a dot (no route, and no parameter value the client builds — numeric ids, base64url
 * invitation codes — has one), not under /Backend/ or /assets/, and a first segment that is
 * not one of the well-known probe prefixes below (none of which is a route).
 */

/**
 * First path segments that monitoring tools and scanners ask for and the application never
 * routes (compared case-insensitively). A real route of the same name is found by the router
 * before this rule is consulted (/healthz, /readyz, /metrics when registered).
 */
const NOT_PAGES = new Set([
  "metrics",
  "healthz",
  "readyz",
  "livez",
  "health",
  "healthcheck",
  "status",
  "ping",
  "server-status",
  "server-info",
  "api",
  "graphql",
  "actuator",
  "cgi-bin",
  "console",
  "manager",
  "debug",
  "telescope",
  "_ignition",
  "vendor",
  "wp",
  "wordpress",
  "wp-admin",
  "wp-content",
  "wp-includes",
  "wp-json",
  "phpmyadmin",
  "pma",
  "mysql",
  "solr",
  "druid",
  "nacos",
  "swagger",
  "swagger-ui",
  "owa",
  "ecp",
  "autodiscover",
  "boaform",
  "hnap1",
]);

export type UnknownPath = "page" | "api" | "asset" | "other";

/** What an unknown path is (see the top of this file); `url` may carry a query string. */
export function classifyUnknownPath(url: string): UnknownPath {
  const raw = url.split(/[?#]/, 1)[0];
  if (raw === "/Backend" || raw.startsWith("/Backend/")) return "api";
  if (raw.startsWith("/assets/")) return "asset";
  let path: string;
  try {
    // %2e is a dot, %2f a slash: decided on what the path means, not how it was spelt.
    path = decodeURIComponent(raw);
  } catch {
    return "other";
  }
  if (!path.startsWith("/") || path.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(path)) return "other";
  const segments = path.split("/").slice(1);
  if (segments.some((s) => s.includes("."))) return "other";
  if (NOT_PAGES.has(segments[0].toLowerCase())) return "other";
  return "page";
}
