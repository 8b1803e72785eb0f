/**
 * The browser's side of the one authorization policy: casbin/model.conf and
 * casbin/policy.csv, built ONCE through makePolicy (src/shared/access.ts), applied
 * to the current user as the server reports it. The policy only shapes the UI; the
 * server stays the authority.
 */
import type { AccessControlProvider } from "@refinedev/core";
import modelText from "../../../casbin/model.conf?raw";
import policyText from "../../../casbin/policy.csv?raw";
import { allowedRuleSet, makePolicy, subjectsOf, type AccessRule, type Policy, type Principal } from "../../shared/access";
import { getCurrentUser } from "./session";

let policy: Promise<Policy> | undefined;

/** The one policy of the browser, built on first use (after the Buffer polyfill has run) and reused. */
export function policyReady(): Promise<Policy> {
  policy ??= makePolicy(modelText, policyText);
  return policy;
}

import { ruleKey } from "../../shared/rule-key";

export { ruleKey };

/**
 * Every rule of the policy (pages "page.*" and API objects "api.*", with their action) that the
 * principal may use, as ruleKey strings (src/shared/access.ts: the build works out the anonymous
 * visitor's set with the same function for the light login entry).
 */
export const permissionSet = allowedRuleSet;

/** FNV-1a of the policy this bundle carries: a new policy (a new build) never reads an old set. */
function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

const CACHE_PREFIX = "saiwu-page-perms:";
// "all rules": sets of the earlier format (page rules only) are not read as complete.
const POLICY_KEY = textHash(`all rules\n${modelText}\n${policyText}`);

/**
 * The permission set of these subjects, kept in localStorage for the next page load: it
 * is a pure function of the policy (hashed into the key) and the subjects, and working it out
 * costs casbin 100–350 ms of main thread before the first page can render (issue 15). It only
 * shapes menus, routes and buttons; the server decides every request.
 */
export const pagePermissionCache = {
  key: (subjects: string[]) => `${CACHE_PREFIX}${POLICY_KEY}:${subjects.join(",")}`,
  read(subjects: string[]): Set<string> | undefined {
    try {
      const raw = globalThis.localStorage?.getItem(this.key(subjects));
      const list: unknown = raw ? JSON.parse(raw) : undefined;
      return Array.isArray(list) && list.every((x) => typeof x === "string") ? new Set(list) : undefined;
    } catch {
      return undefined;
    }
  },
  write(subjects: string[], set: Set<string>) {
    try {
      const store = globalThis.localStorage;
      if (!store) return;
      // Sets of an earlier policy are dropped.
      for (let i = store.length - 1; i >= 0; i--) {
        const k = store.key(i);
        if (k?.startsWith(CACHE_PREFIX) && !k.startsWith(`${CACHE_PREFIX}${POLICY_KEY}:`)) store.removeItem(k);
      }
      store.setItem(this.key(subjects), JSON.stringify([...set]));
    } catch {
      // storage full or disabled: worked out again next time
    }
  },
};

/** The permission set of a principal: the kept one, or worked out by casbin (and kept). */
async function permissionsOf(principal: Principal | null | undefined): Promise<Set<string>> {
  const subjects = subjectsOf(principal);
  const known = pagePermissionCache.read(subjects);
  if (known) return known;
  const set = await permissionSet(await policyReady(), principal);
  pagePermissionCache.write(subjects, set);
  return set;
}

/** react-query options for the current user's permission set (keyed by their subjects). */
export const permissionsQuery = (principal: Principal | null | undefined) => ({
  queryKey: ["permissions", ...subjectsOf(principal)],
  queryFn: () => permissionsOf(principal),
  staleTime: Infinity,
});

/** Maps a refine resource name or a route path to its policy rule; undefined = open. */
export type RuleOf = (resource: string, action?: string) => AccessRule | undefined | null;

/**
 * The rule refine's `can({ resource, action })` checks: a policy object itself ("page.x" / "api.x"
 * with the action), else the resource's or route's rule; undefined = open, null = unknown.
 */
export function ruleFor(
  ruleOf: RuleOf,
  resource: string,
  action: string | undefined,
): readonly [string, string] | undefined | null {
  return resource.startsWith("page.") || resource.startsWith("api.") ? [resource, action as string] : ruleOf(resource, action);
}

/**
 * refine's accessControlProvider: `can({ resource })` with a route path, a refine
 * resource name, or a policy object itself ("page.x" / "api.x" with the action).
 */
export function createAccessControlProvider(ruleOf: RuleOf): AccessControlProvider {
  // One set per subjects for the page's life: a table's row buttons each ask, and are answered
  // from the set without building casbin (issue 15: casbin's set-up cost 70–100 ms per page load).
  const sets = new Map<string, Promise<Set<string>>>();
  const setOf = (user: Principal) => {
    const key = subjectsOf(user).join(",");
    let set = sets.get(key);
    if (!set) {
      set = permissionsOf(user);
      sets.set(key, set);
      set.catch(() => sets.delete(key));
    }
    return set;
  };
  return {
    can: async ({ resource, action }) => {
      if (!resource) return { can: true };
      const rule = ruleFor(ruleOf, resource, action);
      if (rule === null) return { can: false, reason: "未知的页面" };
      if (!rule) return { can: true };
      const can = (await setOf(await getCurrentUser())).has(ruleKey(rule));
      return can ? { can } : { can, reason: "您没有权限访问此页面" };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
