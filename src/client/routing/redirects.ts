/** Where visitors go when a rule refuses them, and where they go after logging in. */
import type { LoginPage } from "../../shared/roles";
import type { RouteEntry } from "./model";

export const HOME_LOGGED_IN = "/index";

/** The three login pages (also served by the light login entry, src/client/login). */
export const LOGIN_PAGE_PATHS: Record<LoginPage, string> = {
  student: "/account/StudentLogin",
  teacher: "/account/TeacherLogin",
  admin: "/account/Login",
};
const BASE = "http://return.invalid";

/**
 * A return address that stays on this site: a path ("/…", not "//…" nor "/\…"), no control
 * characters, resolving to the same origin, and not a login or registration page (no loop).
 * The path, query and hash as given; null for anything else.
 */
export function safeReturnPath(to: string | null | undefined): string | null {
  if (!to || to.length > 2000 || !to.startsWith("/") || to.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(to)) return null;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  if (/^\/account\/(StudentLogin|TeacherLogin|Login|Register|logout)$/i.test(url.pathname)) return null;
  return url.pathname + url.search + url.hash;
}

/** A safe in-site target from ?to=…, else the user centre. */
export function afterLoginTarget(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get("to")) ?? HOME_LOGGED_IN;
}

/** A login page with the return address (when it is a safe one). */
export function loginPath(page: LoginPage, wanted: string): string {
  const to = safeReturnPath(wanted);
  return to ? `${LOGIN_PAGE_PATHS[page]}?to=${encodeURIComponent(to)}` : LOGIN_PAGE_PATHS[page];
}

/** The login page for an anonymous visitor of a guarded route, remembering where they wanted to go. */
export function loginFor(entry: Pick<RouteEntry, "authority" | "deniedRedirect" | "signIn">, wanted: string): string {
  if (entry.deniedRedirect) return entry.deniedRedirect;
  const obj = entry.authority?.[0];
  const page: LoginPage = entry.signIn ?? (obj === "page.author" ? "student" : obj === "page.teacher" ? "teacher" : "admin");
  return loginPath(page, wanted);
}
