/**
 * One route's element: checks the entry's rule against the current user, then renders
 * its lazily loaded page behind Suspense with the loading logo.
 */
import { Suspense, lazy, useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { LoadingLogo } from "../components/LoadingLogo";
import { Forbidden } from "../components/Forbidden";
import { useSession } from "../providers/use-session";
import { isAuthorized, type RouteEntry } from "../routing/model";
import { afterLoginTarget, loginFor } from "../routing/redirects";
import { markPageShown } from "../routing/page-shown";
import { useDocumentTitle } from "../routing/document-title";

const PlaceholderPage = lazy(() => import("../components/PlaceholderPage"));

/** Mounts with the page beside it in the same Suspense boundary, so once the page has loaded. */
function PageShown() {
  useEffect(markPageShown, []);
  return null;
}

export function RoutePage({ entry }: { entry: RouteEntry }) {
  const { loggedIn, allows } = useSession();
  const location = useLocation();
  useDocumentTitle(entry.label);

  if (entry.signIn && !loggedIn) return <Navigate to={loginFor(entry, location.pathname + location.search)} replace />;
  if (!isAuthorized(entry, allows)) {
    if (!loggedIn) return <Navigate to={loginFor(entry, location.pathname + location.search)} replace />;
    // Pages only for visitors (login, register…): a logged-in user goes on to where they were headed.
    if (entry.authority?.[0] === "page.guestAccount") return <Navigate to={afterLoginTarget(location.search)} replace />;
    return (
      <>
        <Forbidden />
        <PageShown />
      </>
    );
  }
  const Page = entry.element ?? PlaceholderPage;
  return (
    <Suspense fallback={<LoadingLogo />}>
      <Page route={entry} />
      <PageShown />
    </Suspense>
  );
}
