/** Which unknown paths get the application's index.html and which are 404s. */
import { describe, expect, it } from "vitest";
import { classifyUnknownPath } from "../../src/server/static/app-pages";

describe("classifyUnknownPath", () => {
  it("takes the application's pages, with parameters and query strings, for pages", () => {
    for (const url of [
      "/",
      "/index",
      "/admin/Contest",
      "/account/StudentLogin?to=%2Findex",
      "/mainpage/news/12",
      "/workInvite/Yx3_k-9QzA0bC1d2E3f4G5h6I7j8K9l0",
      "/dup-check/compare/3/4",
      "/verify-cert?code=AB.CD",
      "/test",
      "/admin/contest/school#top",
    ]) {
      expect(classifyUnknownPath(url), url).toBe("page");
    }
  });

  it("sends the API and the hashed assets to their own 404s", () => {
    expect(classifyUnknownPath("/Backend/nope")).toBe("api");
    expect(classifyUnknownPath("/Backend")).toBe("api");
    expect(classifyUnknownPath("/assets/index-gone0000.js")).toBe("asset");
  });

  it("refuses files, dot-files and dot segments, however they are spelt", () => {
    for (const url of [
      "/wp-login.php",
      "/.env",
      "/x.js",
      "/favicon.ico",
      "/.git/config",
      "/admin/.htaccess",
      "/robots.txt",
      "/%2eenv",
      "/a/%2E%2E/b",
      "/index.html.bak",
      "/static/app.js?v=1",
    ]) {
      expect(classifyUnknownPath(url), url).toBe("other");
    }
  });

  it("refuses well-known probe prefixes that are not routes, in any case", () => {
    for (const url of [
      "/metrics",
      "/Metrics",
      "/healthz",
      "/readyz/",
      "/livez",
      "/health",
      "/status",
      "/server-status",
      "/api/v1/users",
      "/wp-admin/setup-config",
      "/cgi-bin/luci",
      "/actuator/env",
      "/phpmyadmin/",
      "/vendor/phpunit/x",
    ]) {
      expect(classifyUnknownPath(url), url).toBe("other");
    }
  });

  it("refuses paths that are not plain paths", () => {
    for (const url of ["//evil.example/x", "/%E0%A4%A", "/a%00b", "/a\\b"]) {
      expect(classifyUnknownPath(url), url).toBe("other");
    }
  });
});
