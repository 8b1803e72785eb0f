/**
 * refine's useCan answered while rendering (issue 15): the same rule (ruleFor, as the
 * accessControlProvider maps it) looked up in the current user's permission set that the session
 * has already loaded (pages render only once it is there, RootLayout's SessionGate). refine's
 * useCan is a query per button that answers a moment later: each answer rendered the page again
 * before its first row could show.
 */
import { useCallback } from "react";
import type { AccessRule } from "../../shared/access";
import { ruleOfResource } from "../routing/rule-of";
import { ruleFor } from "./access-control";
import { useSession } from "./use-session";

/** `(resource, action) => boolean`, as refine's `useCan({ resource, action }).data?.can` once answered. */
export function useCanNow(): (resource: string | undefined, action: string) => boolean {
  const { allows } = useSession();
  return useCallback(
    (resource: string | undefined, action: string) => {
      if (!resource) return true;
      const rule = ruleFor(ruleOfResource, resource, action);
      if (rule === null) return false;
      return !rule || allows(rule as AccessRule);
    },
    [allows],
  );
}
