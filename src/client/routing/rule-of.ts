/** The policy rule of a refine resource name or a route path, from THE route table. */
import type { AccessRule } from "../../shared/access";
import { ROUTES } from "../routes";
import { matchEntry, routableEntries } from "./model";
import { apiRuleOf } from "../crud/resources";

/** undefined: the route is open; null: no such route or resource. */
export function ruleOfResource(resource: string, action = "list"): AccessRule | undefined | null {
  const api = apiRuleOf(resource, action);
  if (api) return api as AccessRule;
  const byName = routableEntries(ROUTES).find((e) => e.name === resource);
  const entry = byName ?? (resource.startsWith("/") ? matchEntry(ROUTES, resource) : undefined);
  if (!entry) return null;
  return entry.authority;
}
