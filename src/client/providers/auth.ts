/**
 * refine's authProvider over the account endpoints. The current user always comes
 * from the server (get-current, or the login reply), never from localStorage.
 */
import type { AuthProvider } from "@refinedev/core";
import { subjectsOf } from "../../shared/access";
import { LOGIN_PAGES, type LoginPage } from "../../shared/roles";
import { post } from "../request";
import { requestLogin, welcomeNotice, type LoginParams } from "./login-request";
import { permissionsQuery } from "./access-control";
import { ANONYMOUS, CURRENT_USER_KEY, getCurrentUser, isLoggedIn, queryClient, setCurrentUser } from "./session";
import type { CurrentUser } from "../../shared/account/schema";
import { LOGIN_PAGE_PATHS, afterLoginTarget, loginPath } from "../routing/redirects";

export type { LoginParams };

/**
 * refine's login error; its antd notification shows error.message as the title and
 * error.name as the text, so the title reads 登录失败 and the text is the server's reason.
 */
export class LoginError extends Error {
  constructor(readonly reason: string) {
    super("登录失败");
    this.name = reason;
  }
}
const loginError = (reason: string) => new LoginError(reason);

export const LOGIN_PATHS: Record<LoginPage, string> = LOGIN_PAGE_PATHS;

/** A session's end is being recorded (onError): further 401s of the same moment change nothing. */
let ending = false;

export const authProvider: AuthProvider = {
  // The login pages use requestLogin with their LoginHostContext (account/login.tsx); this is
  // refine's contract for anything that calls useLogin.
  login: async (params: LoginParams) => {
    const res = await requestLogin(params);
    if (!res.ok) return { success: false, error: loginError(res.reason) };
    // Permissions first, so the next page renders with the right menu at once.
    await queryClient.fetchQuery(permissionsQuery(res.user));
    await setCurrentUser(res.user);
    // refine's antd notification provider shows `description` as the title and `message` as the text.
    const welcome = welcomeNotice(res.user, res.info);
    return {
      success: true,
      redirectTo: afterLoginTarget(typeof window === "undefined" ? "" : window.location.search),
      successNotification: { message: welcome.description, description: welcome.message },
    };
  },

  logout: async () => {
    // 401 (session already gone) still counts as logged out.
    await post("/Backend/Common/account/logout", undefined, { notify: false });
    await queryClient.fetchQuery(permissionsQuery(ANONYMOUS));
    await setCurrentUser(ANONYMOUS);
    return { success: true, redirectTo: "/" };
  },

  check: async () => {
    const user = await getCurrentUser();
    return isLoggedIn(user) ? { authenticated: true } : { authenticated: false, redirectTo: LOGIN_PATHS.admin, logout: false };
  },

  getIdentity: async () => {
    const user = await getCurrentUser();
    return isLoggedIn(user) ? user : null;
  },

  getPermissions: async () => subjectsOf(await getCurrentUser()),

  onError: async (error: { statusCode?: number; status?: number }) => {
    const status = error?.statusCode ?? error?.status;
    if (status === 401) {
      // The session ended mid-use: back to the login page of the user's own role, and after
      // logging in again to the page they were on.
      // Read from the cache, not the server: the first 401 of a batch ends the session, the
      // others (and a visitor's refusals, which the route guards handle) change nothing more.
      const user = queryClient.getQueryData<CurrentUser>(CURRENT_USER_KEY);
      if (!isLoggedIn(user) || ending) return {};
      const page = loginPageOf(user.userType);
      // Where the user is now: once the user is a visitor the route guard moves on to the login page.
      const here = typeof window === "undefined" ? "" : window.location.pathname + window.location.search;
      ending = true;
      try {
        // A visitor's permissions first (as on logout), so the login page renders for a visitor at once.
        await queryClient.fetchQuery(permissionsQuery(ANONYMOUS));
        await setCurrentUser(ANONYMOUS);
      } finally {
        ending = false;
      }
      return { logout: true, redirectTo: loginPath(page, here), error: { name: "登录已失效", message: "请重新登录" } };
    }
    return {};
  },
};

/** The login page that admits a role (the admin page when the role is unknown). */
export function loginPageOf(userType: number | null | undefined): LoginPage {
  for (const page of Object.keys(LOGIN_PAGES) as LoginPage[])
    if ((LOGIN_PAGES[page] as readonly number[]).includes(userType ?? -1)) return page;
  return "admin";
}
