/** The limiter's address buckets, the in-memory store and the failure slowdown. */
import { describe, expect, it } from "vitest";
import { addressKey, MAX_SLOWDOWN_STEPS, MemoryLimitStore, slowdownMs } from "../../src/server/plugins/limits";

describe("rate-limit buckets", () => {
  it("counts IPv4 as is and IPv6 per /64, an IPv4-mapped address as IPv4", () => {
    expect(addressKey("192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("counts hits in a window and starts again after it", async () => {
    const store = new MemoryLimitStore();
    expect((await store.hit("k", 60_000)).count).toBe(1);
    expect((await store.hit("k", 60_000)).count).toBe(2);
    expect((await store.hit("other", 60_000)).count).toBe(1);
    expect((await store.hit("short", -1)).count).toBe(1);
    expect((await store.hit("short", -1)).count).toBe(1);
  });

  it("peeks at a bucket without counting, and sees nothing once its window is over", async () => {
    const store = new MemoryLimitStore();
    expect(await store.peek("k")).toBeNull();
    await store.hit("k", 60_000);
    const second = await store.hit("k", 60_000);
    expect(await store.peek("k")).toEqual({ count: 2, resetAt: second.resetAt });
    expect(await store.peek("k")).toEqual({ count: 2, resetAt: second.resetAt });
    await store.hit("gone", -1);
    expect(await store.peek("gone")).toBeNull();
  });

  it("slows nothing up to the allowance, then one step more per failure, up to a bound", () => {
    const rule = { allowance: 50, slowdownStepMs: 250 };
    expect(slowdownMs(rule, 0)).toBe(0);
    expect(slowdownMs(rule, 50)).toBe(0);
    expect(slowdownMs(rule, 51)).toBe(250);
    expect(slowdownMs(rule, 60)).toBe(2500);
    expect(slowdownMs(rule, 50 + MAX_SLOWDOWN_STEPS)).toBe(MAX_SLOWDOWN_STEPS * 250);
    expect(slowdownMs(rule, 10_000)).toBe(MAX_SLOWDOWN_STEPS * 250);
  });
});
