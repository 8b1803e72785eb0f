/**
 * The policy rule of a refine resource name or a route path, from the route METADATA (routes.tsx,
 * no pages) and the refine resources. App.tsx provides it to useCanNow (providers/use-can-now.ts)
 * and to refine's access control (layout/RootLayout.tsx) through RuleOfContext.
 */
import type { AccessRule } from "../shared/access";
import { ROUTES } from "./routes";
import { matchEntry, routableEntries } from "./routing/model";
import { apiRuleOf } from "./providers/resources";

/** undefined: the route is open; null: no such route or resource. */
export function ruleOfResource(resource: string, action = "list"): AccessRule | undefined | null {
  const api = apiRuleOf(resource, action);
  if (api) return api as AccessRule;
  const byName = routableEntries(ROUTES).find((e) => e.name === resource);
  const entry = byName ?? (resource.startsWith("/") ? matchEntry(ROUTES, resource) : undefined);
  if (!entry) return null;
  return entry.authority;
}
