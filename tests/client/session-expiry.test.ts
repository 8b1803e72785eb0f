/**
 * Issue 15 (deep links): a session that ends mid-use (a 401 on any request) sends the user to
 * the login page of their own role, remembering the page they were on.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { authProvider, loginPageOf } from "../../src/client/providers/auth";
import { CURRENT_USER_KEY, queryClient } from "../../src/client/providers/session";

describe("a session that ends mid-use", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  test.each([
    [100, "/author/info", "?tab=2", "/account/StudentLogin?to=%2Fauthor%2Finfo%3Ftab%3D2"],
    [99, "/teacher/works", "", "/account/TeacherLogin?to=%2Fteacher%2Fworks"],
    [1, "/admin/SchoolManagement", "", "/account/Login?to=%2Fadmin%2FSchoolManagement"],
  ])("role %i on %s%s goes to %s", async (userType, pathname, search, expected) => {
    vi.stubGlobal("window", { location: { pathname, search } });
    queryClient.setQueryData(CURRENT_USER_KEY, {
      needToLogin: false,
      userType,
      hasComplaintRight: false,
      isSchoolContestJudge: false,
    });
    const r = await authProvider.onError({ statusCode: 401 });
    expect(r).toMatchObject({ logout: true, redirectTo: expected, error: { name: "登录已失效" } });
    expect(queryClient.getQueryData(CURRENT_USER_KEY)).toMatchObject({ needToLogin: true });
  });

  test("other errors keep the user where they are; an unknown role gets the admin login", async () => {
    expect(await authProvider.onError({ statusCode: 403 })).toEqual({});
    // Once the session is gone (or for a visitor), a further 401 changes nothing.
    expect(await authProvider.onError({ statusCode: 401 })).toEqual({});
    expect(loginPageOf(null)).toBe("admin");
    expect(loginPageOf(7)).toBe("admin");
  });
});
