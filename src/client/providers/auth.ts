/**
 * refine's authProvider over the account endpoints. The current user always comes
 * from the server (get-current, or the login reply), never from localStorage.
 */
import type { AuthProvider } from "@refinedev/core";
import type { CurrentUser } from "../../shared/account/schema";
import { subjectsOf } from "../../shared/access";
import type { LoginPage } from "../../shared/roles";
import { post } from "../request";
import { permissionsQuery } from "./access-control";
import { ANONYMOUS, getCurrentUser, isLoggedIn, queryClient, setCurrentUser } from "./session";
import { afterLoginTarget } from "../routing/redirects";

export interface LoginParams {
  username: string;
  password: string;
  page: LoginPage;
}

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

export const LOGIN_PATHS: Record<LoginPage, string> = {
  student: "/account/StudentLogin",
  teacher: "/account/TeacherLogin",
  admin: "/account/Login",
};

export const authProvider: AuthProvider = {
  login: async ({ username, password, page }: LoginParams) => {
    const reply = await post<CurrentUser>("/Backend/Common/account/login", { username, password, page }, { notify: false });
    if (reply.error !== 0 || !reply.data) {
      return { success: false, error: loginError(reply.info || "登录失败，请稍后重试") };
    }
    // Permissions first, so the next page renders with the right menu at once.
    await queryClient.fetchQuery(permissionsQuery(reply.data));
    await setCurrentUser(reply.data);
    // refine's antd notification provider shows `description` as the title and `message` as the text.
    return {
      success: true,
      // Back to the page that sent the visitor here (?to=, checked to stay on this site), else the user centre.
      redirectTo: afterLoginTarget(typeof window === "undefined" ? "" : window.location.search),
      successNotification: { message: `欢迎您，${reply.data.name ?? reply.data.username ?? ""}`, description: reply.info || "登录成功" },
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
      await setCurrentUser(ANONYMOUS);
      return { logout: true, redirectTo: LOGIN_PATHS.admin, error: { name: "登录已失效", message: "请重新登录" } };
    }
    return {};
  },
};
