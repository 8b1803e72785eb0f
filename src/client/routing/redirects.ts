/** Where visitors go when a rule refuses them, and where they go after logging in. */
import type { RouteEntry } from "./model";

export const HOME_LOGGED_IN = "/index";

/** A safe in-site target from ?to=…, else the user centre. */
export function afterLoginTarget(search: string): string {
  const to = new URLSearchParams(search).get("to");
  return to && to.startsWith("/") && !to.startsWith("//") ? to : HOME_LOGGED_IN;
}

/** The login page for an anonymous visitor of a guarded route, remembering where they wanted to go. */
export function loginFor(entry: Pick<RouteEntry, "authority" | "deniedRedirect">, wanted: string): string {
  if (entry.deniedRedirect) return entry.deniedRedirect;
  const obj = entry.authority?.[0];
  const page = obj === "page.author" ? "/account/StudentLogin" : obj === "page.teacher" ? "/account/TeacherLogin" : "/account/Login";
  return `${page}?to=${encodeURIComponent(wanted)}`;
}
