/**
 * The shape of a route entry (seed section 3) and the pure computations on the route
 * table: authorized and hasParam, the menus per user, the flat list the router needs, the
 * pages attached to the metadata (attachPages).
 */
import type { ComponentType, ReactNode } from "react";
import type { LoaderFunction } from "react-router";
import type { AccessRule } from "../../shared/access";
import type { LoginPage } from "../../shared/roles";

export interface PageProps {
  route: RouteEntry;
}

/** A lazily loaded page; `preload` (routing/lazy-page.ts) starts its download early. */
export type PageComponent = ComponentType<PageProps> & { preload?: () => Promise<unknown> };

export interface RouteEntry {
  /** Chinese label: the page title and the menu text. */
  label: string;
  /** Absolute path; ":name" marks a parameter. */
  path: string;
  icon?: ReactNode;
  /** Not in menus, but opens when authorised. */
  hide?: boolean;
  /** Rendered without the layout (no menu, no header). */
  pure?: boolean;
  /** A rule [object, action] of casbin/policy.csv; none = open to everyone. */
  authority?: AccessRule;
  /** Menu children (a group); each child has its own absolute path. */
  children?: RouteEntry[];
  /** The key of its page in the page map (src/client/pages.ts); attachPages sets `element` from it. */
  page?: string;
  /** The lazily loaded page; without one the entry shows the "later release" page. */
  element?: PageComponent;
  /** The function that arrives in a later release (for pages not built yet). */
  feature?: string;
  loader?: LoaderFunction;
  /** Menu only: no route of its own (groups, entries served by a parameter route). */
  disableRoute?: boolean;
  /** Shown only in this menu area (complaint-view mode); the area shows nothing else. */
  menuArea?: "complaint-view";
  /**
   * A page without a rule that still needs a signed-in user (the server decides per record:
   * print pages, a work's detail): an anonymous visitor goes to this login page with the
   * return address, and comes back after logging in.
   */
  signIn?: LoginPage;
  /** Where an anonymous visitor is sent when the rule refuses (default: a login page). */
  deniedRedirect?: string;
  /** The refine resource name served by this route, if any. */
  name?: string;
}

export interface ResolvedRoute extends Omit<RouteEntry, "children"> {
  authorized: boolean;
  hasParam: boolean;
  children?: ResolvedRoute[];
}

export type Allows = (rule: AccessRule) => boolean;

export const hasParam = (path: string) => /(^|\/)[:*]/.test(path);

/** An entry is authorized if it has no rule or the user's permissions include it. */
export const isAuthorized = (entry: Pick<RouteEntry, "authority">, allows: Allows) => !entry.authority || allows(entry.authority);

export function resolveRoutes(entries: readonly RouteEntry[], allows: Allows): ResolvedRoute[] {
  return entries.map((e) => ({
    ...e,
    authorized: isAuthorized(e, allows),
    hasParam: hasParam(e.path),
    children: e.children ? resolveRoutes(e.children, allows) : undefined,
  }));
}

export interface MenuNode {
  label: string;
  path: string;
  icon?: ReactNode;
  children?: MenuNode[];
}

/**
 * The menu for one user: hidden, unauthorised and parameter routes stay out; a group
 * shows when at least one child does. In complaint-view mode only that area shows.
 */
export function buildMenu(routes: readonly ResolvedRoute[], opts: { complaintView: boolean }): MenuNode[] {
  const out: MenuNode[] = [];
  for (const r of routes) {
    if (r.hide || !r.authorized) continue;
    const inArea = r.menuArea === "complaint-view";
    if (opts.complaintView !== inArea) continue;
    if (r.children?.length) {
      const children = buildMenu(r.children, opts);
      if (children.length) out.push({ label: r.label, path: r.path, icon: r.icon, children });
      continue;
    }
    if (r.hasParam) continue;
    out.push({ label: r.label, path: r.path, icon: r.icon });
  }
  return out;
}

/** The menu as plain label/path pairs, depth first (for tests and browser checks). */
export function menuItems(menu: readonly MenuNode[]): { label: string; path: string }[] {
  return menu.flatMap((m) => (m.children ? menuItems(m.children) : [{ label: m.label, path: m.path }]));
}

/**
 * The table with each entry's page component (`element`) taken from the page map by its `page`
 * key. An unknown key is a mistake in the table: it throws when the application starts.
 */
export function attachPages(entries: readonly RouteEntry[], pages: Readonly<Record<string, PageComponent>>): RouteEntry[] {
  return entries.map((e) => {
    if (e.page !== undefined && !Object.hasOwn(pages, e.page)) throw new Error(`页面表中没有 ${e.page}（${e.path}）`);
    return {
      ...e,
      ...(e.page !== undefined ? { element: pages[e.page] } : {}),
      ...(e.children ? { children: attachPages(e.children, pages) } : {}),
    };
  });
}

/** Every entry that is a route (groups and menu-only entries left out), depth first. */
export function routableEntries(entries: readonly RouteEntry[]): RouteEntry[] {
  return entries.flatMap((e) => [...(e.disableRoute ? [] : [e]), ...(e.children ? routableEntries(e.children) : [])]);
}

/** The :parameters of a path pattern in a concrete path (decoded; none when it does not match), as react-router's useParams. */
export function routeParams(pattern: string, pathname: string): Record<string, string> {
  const pat = pattern.replace(/\/+$/, "").split("/");
  const segs = pathname.replace(/\/+$/, "").split("/");
  if (pat.length !== segs.length) return {};
  const out: Record<string, string> = {};
  for (let i = 0; i < pat.length; i++) {
    if (!pat[i].startsWith(":")) {
      if (pat[i].toLowerCase() !== segs[i].toLowerCase()) return {};
      continue;
    }
    try {
      out[pat[i].slice(1)] = decodeURIComponent(segs[i]);
    } catch {
      return {};
    }
  }
  return out;
}

/** The entry whose path pattern matches a concrete path (static segments win over parameters). */
export function matchEntry(entries: readonly RouteEntry[], pathname: string): RouteEntry | undefined {
  const segs = pathname.replace(/\/+$/, "").split("/");
  let best: { e: RouteEntry; score: number } | undefined;
  for (const e of routableEntries(entries)) {
    const pat = e.path.replace(/\/+$/, "").split("/");
    if (pat.length !== segs.length) continue;
    let score = 0;
    let ok = true;
    for (let i = 0; i < pat.length; i++) {
      if (pat[i].startsWith(":")) continue;
      if (pat[i].toLowerCase() !== segs[i].toLowerCase()) {
        ok = false;
        break;
      }
      score++;
    }
    if (ok && (!best || score > best.score)) best = { e, score };
  }
  return best?.e;
}
