/**
 * Turns THE route table into the router: the root layout (which loads the current
 * user first) with the menu layout for normal pages, pure pages beside it, and a
 * catch-all that throws a 404 so the error screen shows.
 */
import { createBrowserRouter, type RouteObject } from "react-router";
import { ErrorScreen } from "../components/ErrorScreen";
import { FullScreenLoading } from "../components/LoadingLogo";
import { RootLayout } from "../layout/RootLayout";
import { MainLayout } from "../layout/MainLayout";
import { permissionsQuery } from "../providers/access-control";
import { getCurrentUser, queryClient } from "../providers/session";
import { routableEntries, type RouteEntry } from "./model";
import { RoutePage } from "./RoutePage";

export async function rootLoader() {
  const user = await getCurrentUser();
  await queryClient.fetchQuery(permissionsQuery(user));
  return null;
}

/** Never rendered: the catch-all's loader throws first. */
const NotFoundPlaceholder = () => null;

export function notFoundLoader(): never {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

function toRouteObject(e: RouteEntry): RouteObject {
  const element = <RoutePage entry={e} />;
  return e.path === "/" ? { index: true, element, loader: e.loader } : { path: e.path, element, loader: e.loader };
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
      loader: rootLoader,
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
