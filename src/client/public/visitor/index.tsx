/**
 * The visitor pages' bodies in the light public app (issue 29): /complaint, /verify-cert and
 * /query-work, the same page components the admin application shows at those routes, with the few
 * providers they need — antd's theme and App (messages), react-query, and the shared navigation
 * (routing/nav.tsx) over the public app's small history router. No refine, no policy engine, no
 * react-router, no admin frame: the public frame (../layout.tsx) fits a phone. antd's styles are
 * made at run time, as on the light login pages.
 */
import "@ant-design/v5-patch-for-react-19";
import { lazy, Suspense, useEffect, useMemo, type ComponentType } from "react";
import { App as AntdApp } from "antd";
import { QueryClientProvider } from "@tanstack/react-query";
import { queryClient } from "../../providers/session";
import { AntdConfig } from "../../providers/antd-config";
import { setFeedbackSink } from "../../request";
import { NavContext, historyLink, type Nav } from "../../routing/nav";
import { isPublicPath, type VisitorPath } from "../paths";
import { navigate, useLocation } from "../router";
import { Loading } from "../ui";

// A chunk per page: the QR code's /verify-cert does not download the complaint form's upload.
const PAGES: Record<VisitorPath, ComponentType<{ route: { label: string } }>> = {
  "/complaint": lazy(() => import("../../complaint/public-entry")),
  "/verify-cert": lazy(() => import("../../certificate/VerifyCertPage")),
  "/query-work": lazy(() => import("../../query/query-work")),
};

/** Pages of this app move in place; any other address (the platform) loads as a page. */
function go(to: string) {
  const url = new URL(to, location.origin);
  if (url.origin !== location.origin || !isPublicPath(url.pathname)) {
    location.assign(to);
    return;
  }
  // A change of the query only (a tab, a lookup) replaces the entry and keeps the scroll position.
  navigate(url.pathname + url.search, url.pathname === location.pathname);
}

function useNavLocation() {
  const loc = useLocation();
  const q = loc.search.toString();
  return useMemo(() => ({ pathname: loc.path, search: q ? `?${q}` : "" }), [loc.path, q]);
}

/** The request client's messages through antd's App (as layout/FeedbackBridge does in the platform). */
function Feedback() {
  const { message, notification } = AntdApp.useApp();
  useEffect(() => {
    setFeedbackSink({
      notifyError: (n) => notification.error({ message: n.message, description: n.description }),
      messageError: (text) => void message.error(text),
      messageSuccess: (text) => void message.success(text),
    });
    return () => setFeedbackSink(null);
  }, [message, notification]);
  return null;
}

const NAV: Nav = { Link: historyLink(go), useLocation: useNavLocation, useNavigate: () => go };

export default function VisitorPage({ path, label }: { path: VisitorPath; label: string }) {
  const Page = PAGES[path];
  return (
    <AntdConfig>
      <AntdApp>
        <Feedback />
        <QueryClientProvider client={queryClient}>
          <NavContext.Provider value={NAV}>
            <div className="mp-visitor">
              <Suspense fallback={<Loading />}>
                <Page route={{ label }} />
              </Suspense>
            </div>
          </NavContext.Provider>
        </QueryClientProvider>
      </AntdApp>
    </AntdConfig>
  );
}
