/**
 * Issue 15 (heavy pages): the page permission set is kept in localStorage per policy and
 * subjects, and the root loader starts the opened page's chunk early (preloadPageOf).
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  createAccessControlProvider,
  pagePermissionCache,
  permissionSet,
  permissionsQuery,
  policyReady,
} from "../../src/client/providers/access-control";
import { CURRENT_USER_KEY, queryClient } from "../../src/client/providers/session";
import { lazyPage } from "../../src/client/routing/lazy-page";
import { preloadPageOf } from "../../src/client/layout/router";
import type { RouteEntry } from "../../src/client/routing/model";

class MemoryStorage {
  map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

describe("page permissions kept between page loads", () => {
  let store: MemoryStorage;
  beforeEach(() => {
    store = new MemoryStorage();
    vi.stubGlobal("localStorage", store);
  });
  afterEach(() => vi.unstubAllGlobals());

  const root = { needToLogin: false, userType: 0 };
  const student = { needToLogin: false, userType: 100 };

  test("the first load works the set out with casbin and stores it; the next one reads it", async () => {
    const fresh = await permissionsQuery(root).queryFn();
    expect(fresh).toEqual(await permissionSet(await policyReady(), root));
    expect(fresh.size).toBeGreaterThan(0);
    const key = pagePermissionCache.key(["role:0"]);
    expect(JSON.parse(store.getItem(key)!)).toEqual([...fresh]);
    // What is stored is what the next load uses (casbin is not asked again).
    store.setItem(key, JSON.stringify(["page.health view"]));
    expect([...(await permissionsQuery(root).queryFn())]).toEqual(["page.health view"]);
    // Another role has its own entry.
    const own = await permissionsQuery(student).queryFn();
    expect(own).toEqual(await permissionSet(await policyReady(), student));
    expect(own.has("page.health view")).toBe(false);
  });

  test("a set of another policy is dropped, and a damaged entry is worked out again", async () => {
    store.setItem("saiwu-page-perms:oldpolicy:role:0", JSON.stringify(["page.x view"]));
    store.setItem("unrelated", "kept");
    store.setItem(pagePermissionCache.key(["role:100"]), "{not json");
    const set = await permissionsQuery(student).queryFn();
    expect(set).toEqual(await permissionSet(await policyReady(), student));
    expect(store.getItem("saiwu-page-perms:oldpolicy:role:0")).toBeNull();
    expect(store.getItem("unrelated")).toBe("kept");
  });

  test("the set holds the API rules too, and buttons' checks are answered from the kept set", async () => {
    const set = await permissionsQuery(root).queryFn();
    expect(set.has("api.users update")).toBe(true);
    expect(set.has("page.health view")).toBe(true);
    expect((await permissionsQuery(student).queryFn()).has("api.users update")).toBe(false);
    // A kept set decides (casbin is not asked): here it lacks the delete the policy grants root.
    store.setItem(pagePermissionCache.key(["role:0"]), JSON.stringify(["api.users update"]));
    queryClient.setQueryData(CURRENT_USER_KEY, {
      needToLogin: false,
      userType: 0,
      hasComplaintRight: false,
      isSchoolContestJudge: false,
    });
    const provider = createAccessControlProvider(() => undefined);
    expect((await provider.can({ resource: "api.users", action: "update" })).can).toBe(true);
    expect((await provider.can({ resource: "api.users", action: "delete" })).can).toBe(false);
    queryClient.removeQueries({ queryKey: CURRENT_USER_KEY });
  });

  test("without localStorage the set is still worked out", async () => {
    vi.stubGlobal("localStorage", undefined);
    expect(await permissionsQuery(root).queryFn()).toEqual(await permissionSet(await policyReady(), root));
  });
});

describe("the opened page's chunk starts early", () => {
  const entry = (path: string, load: () => Promise<{ default: () => null }>): RouteEntry => ({
    label: path,
    path,
    element: lazyPage(load),
  });

  test("the entry matching the path (a fixed path before a parameter) is preloaded, once", async () => {
    const loads = {
      users: vi.fn(async () => ({ default: () => null })),
      section: vi.fn(async () => ({ default: () => null })),
      fixed: vi.fn(async () => ({ default: () => null })),
    };
    const table: RouteEntry[] = [
      {
        label: "管理",
        path: "/admin",
        disableRoute: true,
        children: [
          entry("/admin/UserManagement", loads.users),
          entry("/admin/contest/:section", loads.section),
          entry("/admin/contest/list", loads.fixed),
        ],
      },
    ];
    void preloadPageOf(table, "/admin/UserManagement");
    expect(loads.users).toHaveBeenCalledTimes(1);
    void preloadPageOf(table, "/admin/UserManagement");
    expect(loads.users).toHaveBeenCalledTimes(1);
    void preloadPageOf(table, "/admin/contest/list");
    expect(loads.fixed).toHaveBeenCalledTimes(1);
    expect(loads.section).not.toHaveBeenCalled();
    void preloadPageOf(table, "/admin/contest/province");
    expect(loads.section).toHaveBeenCalledTimes(1);
    void preloadPageOf(table, "/nowhere");
  });

  test("a ruled page downloads only for a user it allows (a forbidden page is not fetched for nothing)", () => {
    const load = vi.fn(async () => ({ default: () => null }));
    const table: RouteEntry[] = [
      { label: "新闻", path: "/ContestAdmin/news", authority: ["page.contestAdmin", "view"], element: lazyPage(load) },
    ];
    void preloadPageOf(table, "/ContestAdmin/news");
    void preloadPageOf(table, "/ContestAdmin/news", (rule) => rule[0] === "page.admin");
    expect(load).not.toHaveBeenCalled();
    void preloadPageOf(table, "/ContestAdmin/news", (rule) => rule[0] === "page.contestAdmin");
    expect(load).toHaveBeenCalledTimes(1);
  });

  test("a failed download is tried again on the next request", async () => {
    let n = 0;
    const load = vi.fn(async () => {
      if (++n === 1) throw new Error("network");
      return { default: () => null };
    });
    const C = lazyPage(load);
    await expect(C.preload()).rejects.toThrow("network");
    await expect(C.preload()).resolves.toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
