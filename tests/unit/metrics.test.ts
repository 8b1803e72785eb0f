/** The metrics' pure parts: who may scrape and the METRICS settings (the series themselves: tests/api/metrics.test.ts). */
import { describe, expect, it } from "vitest";
import { isLoopback, scrapeGate } from "../../src/server/metrics/access";
import { loadConfig } from "../../src/server/config";

describe("who may scrape /metrics", () => {
  it("takes 127.0.0.0/8, ::1 and IPv4-mapped loopback as loopback, nothing else", () => {
    for (const a of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "::FFFF:127.0.0.2"])
      expect(isLoopback(a), a).toBe(true);
    for (const a of [
      undefined,
      "",
      "10.0.0.1",
      "128.0.0.1",
      "::2",
      "::ffff:10.0.0.1",
      "1127.0.0.1",
      "127.0.0.1.example",
      "fe80::1",
    ])
      expect(isLoopback(a), String(a)).toBe(false);
  });

  it("without a token: a direct loopback caller only; a proxied request or another address is hidden", () => {
    const gate = scrapeGate(null);
    expect(gate({}, "127.0.0.1")).toBe("allow");
    expect(gate({ "x-forwarded-for": "127.0.0.1" }, "127.0.0.1")).toBe("hidden");
    expect(gate({ forwarded: "for=192.0.2.1" }, "::1")).toBe("hidden");
    expect(gate({ "x-real-ip": "192.0.2.1" }, "127.0.0.1")).toBe("hidden");
    expect(gate({ authorization: "Bearer anything-at-all-123" }, "192.0.2.1")).toBe("hidden");
  });

  it("with a token: the exact bearer token from anywhere, nothing else", () => {
    const gate = scrapeGate("s3cret-token-of-twenty");
    expect(gate({ authorization: "Bearer s3cret-token-of-twenty" }, "192.0.2.1")).toBe("allow");
    expect(gate({ authorization: "bearer  s3cret-token-of-twenty " }, "192.0.2.1")).toBe("allow");
    expect(gate({}, "127.0.0.1")).toBe("unauthorized");
    for (const authorization of [
      "Bearer s3cret-token-of-twentY",
      "Bearer s3cret-token-of-twenty-and-more",
      "Bearer s3cret",
      "s3cret-token-of-twenty",
      "Bearer",
      "Bearer a b",
    ]) {
      expect(gate({ authorization }, "127.0.0.1"), authorization).toBe("unauthorized");
    }
  });
});

describe("METRICS settings", () => {
  it("is on by default, loopback only; METRICS=0 turns it off; a token must be long enough", () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: true, token: null });
    expect(loadConfig({ METRICS: "0", METRICS_TOKEN: "0123456789abcdef" }).metrics).toEqual({
      enabled: false,
      token: "0123456789abcdef",
    });
    expect(loadConfig({ METRICS_TOKEN: " 0123456789abcdef " }).metrics.token).toBe("0123456789abcdef");
    expect(() => loadConfig({ METRICS: "off" })).toThrow(/METRICS=off/);
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: "0123456789 abcdef" })).toThrow(/METRICS_TOKEN/);
  });
});
