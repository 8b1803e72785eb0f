/**
 * The browser's side of the one authorization policy: casbin/model.conf and
 * casbin/policy.csv, built ONCE through makePolicy (src/shared/access.ts), applied
 * to the current user as the server reports it. The policy only shapes the UI; the
 * server stays the authority.
 */
import type { AccessControlProvider } from "@refinedev/core";
import modelText from "../../../casbin/model.conf?raw";
import policyText from "../../../casbin/policy.csv?raw";
import { makePolicy, subjectsOf, type AccessRule, type Policy, type Principal } from "../../shared/access";
import { getCurrentUser } from "./session";

let policy: Promise<Policy> | undefined;

/** The one policy of the browser, built on first use (after the Buffer polyfill has run) and reused. */
export function policyReady(): Promise<Policy> {
  policy ??= makePolicy(modelText, policyText);
  return policy;
}

export const ruleKey = (rule: readonly [string, string]) => `${rule[0]} ${rule[1]}`;

/**
 * Every page rule (object "page.*", with its action) of the policy that the principal
 * may use, as ruleKey strings, so routes and menus are decided synchronously while
 * rendering. API rules are left to the server.
 */
export async function permissionSet(policy: Policy, principal: Principal | null | undefined): Promise<Set<string>> {
  const pairs = new Map<string, [string, string]>();
  for (const [, obj, act] of await policy.enforcer.getPolicy()) {
    if (obj.startsWith("page.")) pairs.set(ruleKey([obj, act]), [obj, act]);
  }
  const allowed = new Set<string>();
  for (const [key, [obj, act]] of pairs) {
    if (await policy.can(principal, obj, act)) allowed.add(key);
  }
  return allowed;
}

/** react-query options for the current user's permission set (keyed by their subjects). */
export const permissionsQuery = (principal: Principal | null | undefined) => ({
  queryKey: ["permissions", ...subjectsOf(principal)],
  queryFn: async () => permissionSet(await policyReady(), principal),
  staleTime: Infinity,
});

/** Maps a refine resource name or a route path to its policy rule; undefined = open. */
export type RuleOf = (resource: string, action?: string) => AccessRule | undefined | null;

/**
 * refine's accessControlProvider: `can({ resource })` with a route path, a refine
 * resource name, or a policy object itself ("page.x" / "api.x" with the action).
 */
export function createAccessControlProvider(ruleOf: RuleOf): AccessControlProvider {
  return {
    can: async ({ resource, action }) => {
      if (!resource) return { can: true };
      const rule: readonly [string, string] | undefined | null =
        resource.startsWith("page.") || resource.startsWith("api.") ? [resource, action] : ruleOf(resource, action);
      if (rule === null) return { can: false, reason: "未知的页面" };
      if (!rule) return { can: true };
      const [policy, user] = await Promise.all([policyReady(), getCurrentUser()]);
      const can = await policy.can(user, rule[0], rule[1]);
      return can ? { can } : { can, reason: "您没有权限访问此页面" };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
