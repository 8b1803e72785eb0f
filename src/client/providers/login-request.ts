/**
 * Logging in, without refine or the policy engine: the light login entry (src/client/login) and
 * the admin application share it. What happens after a successful login is the host's
 * (LoginHostContext): the admin application works out the permissions and navigates, the light
 * entry hands over to the admin application.
 */
import { createContext } from "react";
import type { CurrentUser } from "../../shared/account/schema";
import type { LoginPage } from "../../shared/roles";
import { post } from "../request";

export interface LoginParams {
  username: string;
  password: string;
  page: LoginPage;
}

export type LoginOutcome = { ok: true; user: CurrentUser; info: string } | { ok: false; reason: string };

export async function requestLogin(params: LoginParams): Promise<LoginOutcome> {
  const reply = await post<CurrentUser>("/Backend/Common/account/login", params, { notify: false });
  if (reply.error !== 0 || !reply.data) return { ok: false, reason: reply.info || "登录失败，请稍后重试" };
  return { ok: true, user: reply.data, info: reply.info || "登录成功" };
}

/** The success notification after logging in: the server's text as the title, the greeting below. */
export const welcomeNotice = (user: CurrentUser, info: string) => ({
  message: info,
  description: `欢迎您，${user.name ?? user.username ?? ""}`,
});

export interface LoginHost {
  /**
   * After a successful login (or an account created and signed in, as from a team invitation):
   * store the user, go to `target` (a checked return address), greet with `info` (null: no greeting).
   */
  afterLogin(user: CurrentUser, info: string | null, target: string): Promise<void>;
}

export const LoginHostContext = createContext<LoginHost | null>(null);
