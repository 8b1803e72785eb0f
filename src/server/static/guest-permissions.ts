/**
 * A vite plugin: the module "virtual:guest-permissions" is the anonymous visitor's
 * permission set, worked out by casbin at build time from casbin/model.conf and policy.csv (the
 * one policy). The light login pages (src/client/login) build their guest menu from it, so a
 * visitor of a login page never downloads the policy engine; the admin application still works
 * out every user's set in the browser (src/client/providers/access-control.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { makePolicy, allowedRuleSet } from "../../shared/access";

const ID = "virtual:guest-permissions";
const RESOLVED = "\0" + ID;

/** The anonymous visitor's rules ("object action"), sorted. */
export async function guestPermissions(root: string): Promise<string[]> {
  const read = (name: string) => readFileSync(join(root, "casbin", name), "utf8");
  const policy = await makePolicy(read("model.conf"), read("policy.csv"));
  return [...(await allowedRuleSet(policy, null))].sort();
}

export function guestPermissionsPlugin(root: string): Plugin {
  return {
    name: "saiwu-guest-permissions",
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      this.addWatchFile(join(root, "casbin/model.conf"));
      this.addWatchFile(join(root, "casbin/policy.csv"));
      return `export default ${JSON.stringify(await guestPermissions(root))};`;
    },
  };
}
