/**
 * The light login entry (src/client/login, issue 14) decides its guest menu from the permission
 * set the build works out (virtual:guest-permissions) instead of running casbin in the browser:
 * that set must be exactly the anonymous visitor's set of the browser's policy, and the entry
 * must serve exactly the three login pages of the route table.
 */
import { describe, expect, test } from "vitest";
import { fileURLToPath } from "node:url";
import guestRules from "virtual:guest-permissions";
import { guestPermissions } from "../../src/server/static/guest-permissions";
import { permissionSet, policyReady } from "../../src/client/providers/access-control";
import { ANONYMOUS } from "../../src/client/providers/session";
import { ROUTES } from "../../src/client/routes";
import { matchEntry } from "../../src/client/routing/model";
import { LOGIN_PAGE_PATHS, isLoginPath } from "../../src/client/routing/redirects";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the light login entry", () => {
  test("the build's guest permission set is the anonymous visitor's set of the policy", async () => {
    const browser = [...(await permissionSet(await policyReady(), ANONYMOUS))].sort();
    expect(browser).toContain("page.guestAccount view");
    expect(await guestPermissions(ROOT)).toEqual(browser);
    expect([...guestRules].sort()).toEqual(browser);
  });

  test("it serves the three login pages of the route table and nothing else", () => {
    for (const path of Object.values(LOGIN_PAGE_PATHS)) {
      expect(isLoginPath(path)).toBe(true);
      expect(isLoginPath(path.toLowerCase() + "/")).toBe(true);
      expect(matchEntry(ROUTES, path)?.authority).toEqual(["page.guestAccount", "view"]);
    }
    for (const path of ["/account/Register", "/account/claim-account", "/account/choose", "/account/Login/x", "/x/account/Login", "/", "/index"]) {
      expect(isLoginPath(path)).toBe(false);
    }
  });
});
