/**
 * The light login entry (src/client/login, issue 14) decides its guest menu from the permission
 * set the build works out (virtual:guest-permissions) instead of running casbin in the browser:
 * that set must be exactly the anonymous visitor's set of the browser's policy, and the entry
 * must serve exactly the three login pages of the route table, registration, the forgotten password,
 * the mailed address check, the resent verification mail and the team invitation's registration — pages a visitor may open (tests/e2e/account.test.ts and
 * menus.test.ts check in a browser that they download no admin bundle).
 */
import { describe, expect, test } from "vitest";
import { fileURLToPath } from "node:url";
import guestRules from "virtual:guest-permissions";
import { ruleKey } from "../../src/shared/rule-key";
import { guestPermissions } from "../../src/server/static/guest-permissions";
import { permissionSet, policyReady } from "../../src/client/providers/access-control";
import { ANONYMOUS } from "../../src/client/providers/session";
import { APP_ROUTES as ROUTES } from "../../src/client/pages";
import { matchEntry, routeParams } from "../../src/client/routing/model";
import { LOGIN_PAGE_PATHS } from "../../src/client/routing/redirects";
import { isLightAccountPath, isLoginPath } from "../../src/client/login/paths";

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
    for (const path of [
      "/account/Register",
      "/account/claim-account",
      "/account/choose",
      "/account/Login/x",
      "/x/account/Login",
      "/",
      "/index",
    ]) {
      expect(isLoginPath(path)).toBe(false);
    }
  });

  test("it serves the registration, password and invitation pages of the route table too, open to visitors, and nothing else", () => {
    const guest = (rule: readonly [string, string]) => guestRules.includes(ruleKey(rule));
    for (const path of [
      ...Object.values(LOGIN_PAGE_PATHS),
      "/account/Register",
      "/account/claim-account",
      "/verify-email",
      "/verify-email-claim",
      "/workInvite/abc",
    ]) {
      expect(isLightAccountPath(path)).toBe(true);
      expect(isLightAccountPath(path.toLowerCase() + "/")).toBe(true);
      const entry = matchEntry(ROUTES, path);
      expect(entry?.element, path).toBeTruthy();
      expect(!entry!.authority || guest(entry!.authority), path).toBe(true);
    }
    expect(matchEntry(ROUTES, "/account/Register")?.label).toBe("注册");
    expect(matchEntry(ROUTES, "/account/claim-account")?.label).toBe("找回密码");
    expect(matchEntry(ROUTES, "/workInvite/abc")?.label).toBe("作品团队邀请");
    // The invitation page reads its code from its own route's pattern, in either application.
    const invite = matchEntry(ROUTES, "/workInvite/abc")!.path;
    expect(routeParams(invite, "/workinvite/a%2Bb/")).toEqual({ code: "a+b" });
    expect(routeParams(invite, "/workInvite/%E0%A4%A")).toEqual({});
    expect(routeParams(invite, "/workInvite/abc/x")).toEqual({});
    for (const path of [
      "/account/choose",
      "/account/security",
      "/account/logout",
      "/verify-email/x",
      "/verify-emails",
      "/workInvite",
      "/workInvite/abc/x",
      "/inviteJudge/abc",
      "/account/Register/x",
      "/x/account/Register",
      "/",
      "/index",
    ]) {
      expect(isLightAccountPath(path), path).toBe(false);
    }
  });
});
