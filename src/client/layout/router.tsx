/**
 * Turns THE route table (with its pages, src/client/pages.ts) into the router: the root layout (which loads the current
 * user first) with the menu layout for normal pages, pure pages beside it, and a
 * catch-all that throws a 404 so the error screen shows.
 */
import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from "react-router";
import { ErrorScreen } from "../components/ErrorScreen";
import { FullScreenLoading } from "../components/LoadingLogo";
import { RootLayout } from "./RootLayout";
import { MainLayout } from "./MainLayout";
import { pagePermissionCache, permissionsQuery, ruleKey } from "../providers/access-control";
import { subjectsOf } from "../../shared/access";
import { getCurrentUser, queryClient } from "../providers/session";
import { isAuthorized, matchEntry, routableEntries, type Allows, type RouteEntry } from "../routing/model";
import { RoutePage } from "./RoutePage";
import { waitForPage } from "../routing/lazy-page";

/**
 * Starts downloading the page of this path when this user may open it: an open page (no rule)
 * always, a ruled one only when `allows` grants its rule. A page the guard will refuse (a
 * forbidden page, a login redirect) is never downloaded for nothing. Returns the download (the
 * same one for every call), or undefined when nothing is to be downloaded.
 */
export function preloadPageOf(
  table: readonly RouteEntry[],
  pathname: string,
  allows: Allows = () => false,
): Promise<unknown> | undefined {
  const entry = matchEntry(table, pathname);
  if (!entry || !isAuthorized(entry, allows)) return undefined;
  const download = entry.element?.preload?.();
  download?.catch(() => {});
  return download;
}

export async function rootLoader(args?: LoaderFunctionArgs, table: readonly RouteEntry[] = []) {
  const path = args ? new URL(args.request.url).pathname : undefined;
  // An open page's chunk downloads while the current user is asked for.
  if (path) void preloadPageOf(table, path);
  const user = await getCurrentUser();
  // A ruled page's chunk downloads while casbin works out the permissions, when the set kept
  // from an earlier visit already says this user may open it; otherwise right after them.
  const kept = pagePermissionCache.read(subjectsOf(user));
  if (path && kept) void preloadPageOf(table, path, (rule) => kept.has(ruleKey(rule)));
  const perms = await queryClient.fetchQuery(permissionsQuery(user));
  const page = path ? preloadPageOf(table, path, (rule) => perms.has(ruleKey(rule))) : undefined;
  // The first render waits for the page's script (usually in by now), so that the layout and the
  // page render as one (routing/lazy-page.ts); a slow download shows the layout with the loading
  // logo after PAGE_WAIT_MS, and a failed one the error screen, as before.
  await waitForPage(page);
  return null;
}

/** Never rendered: the catch-all's loader throws first. */
const NotFoundPlaceholder = () => null;

export function notFoundLoader(): never {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

function toRouteObject(e: RouteEntry): RouteObject {
  const element = <RoutePage entry={e} />;
  // The page's title: the layout's <h1> (MainLayout).
  const handle = { title: e.label };
  return e.path === "/"
    ? { index: true, element, loader: e.loader, handle }
    : { path: e.path, element, loader: e.loader, handle };
}

export function routeObjects(table: readonly RouteEntry[]): RouteObject[] {
  const entries = routableEntries(table);
  return [
    {
      id: "root",
      path: "/",
      element: <RootLayout />,
      errorElement: <ErrorScreen />,
      HydrateFallback: FullScreenLoading,
      loader: (args: LoaderFunctionArgs) => rootLoader(args, table),
      shouldRevalidate: () => false,
      children: [
        { element: <MainLayout />, children: entries.filter((e) => !e.pure).map(toRouteObject) },
        ...entries.filter((e) => e.pure).map(toRouteObject),
        { path: "*", loader: notFoundLoader, Component: NotFoundPlaceholder },
      ],
    },
  ];
}

export const createAppRouter = (table: readonly RouteEntry[]) => createBrowserRouter(routeObjects(table));
