/**
 * refine's useCan answered while rendering (issue 15): the same rule (ruleFor, as the
 * accessControlProvider maps it) looked up in the current user's permission set that the session
 * has already loaded (pages render only once it is there, RootLayout's SessionGate). refine's
 * useCan is a query per button that answers a moment later: each answer rendered the page again
 * before its first row could show.
 *
 * The resolver from a resource or path to its rule comes from RuleOfContext, which App.tsx
 * provides (src/client/rule-of.ts): a button does not import the route table.
 */
import { createContext, useCallback, useContext } from "react";
import type { AccessRule } from "../../shared/access";
import { ruleFor, type RuleOf } from "./access-control";
import { useSession } from "./use-session";

/** The resource/path → rule resolver of the application (App.tsx provides it). */
export const RuleOfContext = createContext<RuleOf | null>(null);

/** The resolver App.tsx provides. */
export function useRuleOf(): RuleOf {
  const ruleOf = useContext(RuleOfContext);
  if (!ruleOf) throw new Error("RuleOfContext 未提供");
  return ruleOf;
}

/** `(resource, action) => boolean`, as refine's `useCan({ resource, action }).data?.can` once answered. */
export function useCanNow(): (resource: string | undefined, action: string) => boolean {
  const { allows } = useSession();
  const ruleOf = useRuleOf();
  return useCallback(
    (resource: string | undefined, action: string) => {
      if (!resource) return true;
      const rule = ruleFor(ruleOf, resource, action);
      if (rule === null) return false;
      return !rule || allows(rule as AccessRule);
    },
    [allows, ruleOf],
  );
}
