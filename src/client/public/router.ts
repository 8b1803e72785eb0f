/** A small history router for the public pages: the path and query, navigation without reloads. */
import { useEffect, useState, type MouseEvent } from "react";

export interface Loc {
  path: string;
  search: URLSearchParams;
}
const read = (): Loc => ({ path: location.pathname, search: new URLSearchParams(location.search) });
const listeners = new Set<() => void>();

export function navigate(to: string, replace = false) {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  for (const l of listeners) l();
  if (!replace) window.scrollTo(0, 0);
}

export function useLocation(): Loc {
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const on = () => setLoc(read());
    listeners.add(on);
    window.addEventListener("popstate", on);
    return () => {
      listeners.delete(on);
      window.removeEventListener("popstate", on);
    };
  }, []);
  return loc;
}

/** An in-app link: plain clicks navigate here; modified clicks and other pages behave as links. */
export function onLink(e: MouseEvent<HTMLAnchorElement>) {
  const a = e.currentTarget;
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || a.target) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || !url.pathname.startsWith("/mainpage")) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}

export const withQuery = (path: string, params: Record<string, string | number | undefined | null>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== "" && !(k === "page" && v === 1)) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
};
