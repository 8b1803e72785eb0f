/**
 * The light login entry (issue 14): a visitor who opens /account/StudentLogin, /account/TeacherLogin,
 * /account/Login, the registration /account/Register, the forgotten password /account/claim-account
 * (also its ?token=… link from the mail), the mailed address check /verify-email, /verify-email-claim or a team invitation's registration
 * /workInvite/:code (paths.ts) gets the page of the
 * route table in the same frame and guest menu as the admin application (a pure page without
 * them), with antd's few components it uses — no refine, no policy engine (the guest menu comes
 * from the permission set the build worked out, virtual:guest-permissions), no react-router (links
 * between these pages move through the history here, routing/nav.tsx), no admin bundle. Everything
 * else hands over to the admin application in place: after a successful login (to the checked
 * return address), on a click to any other page, or at once for a visitor already logged in (the
 * admin application then sends them on, as its login pages do). "/" and the public main page are
 * chosen again by the entry (main.tsx), by loading the address.
 */
import "@ant-design/v5-patch-for-react-19";
import "@refinedev/antd/dist/reset.css";
import { StrictMode, Suspense, useEffect, useMemo, useSyncExternalStore } from "react";
import { createRoot, type Root } from "react-dom/client";
import { App as AntdApp } from "antd";
import { QueryClientProvider } from "@tanstack/react-query";
import guestRules from "virtual:guest-permissions";
import { ANONYMOUS, getCurrentUser, isLoggedIn, queryClient, setCurrentUser } from "../providers/session";
import { AntdConfig } from "../providers/antd-config";
import { APP_ROUTES as ROUTES } from "../pages";
import { buildMenu, isAuthorized, matchEntry, resolveRoutes, type Allows } from "../routing/model";
import { isLightAccountPath } from "./paths";
import { NavContext, historyLink, type Nav } from "../routing/nav";
import { ruleKey } from "../../shared/rule-key";
import { isPublicPath } from "../public/paths";
import { LoginHostContext, welcomeNotice, type LoginHost } from "../providers/login-request";
import { FeedbackBridge } from "../layout/FeedbackBridge";
import { HeaderBar } from "../layout/HeaderBar";
import { SiderMenu } from "../layout/SiderMenu";
import { queueNotice } from "../layout/pending-notice";
import { LoadingLogo } from "../components/LoadingLogo";
import { waitForPage } from "../routing/lazy-page";
import { PageFrame } from "../layout/PageFrame";

const GUEST = new Set(guestRules);
const guestAllows: Allows = (rule) => GUEST.has(ruleKey(rule));
/** The anonymous visitor's menu (complaint-view mode never applies on a login page). */
const GUEST_MENU = buildMenu(resolveRoutes(ROUTES, guestAllows), { complaintView: false });

let root: Root | undefined;
let handedOver = false;

// The address, for the shared components (routing/nav.tsx): the history API and popstate.
const listeners = new Set<() => void>();
function subscribe(onChange: () => void) {
  listeners.add(onChange);
  addEventListener("popstate", onChange);
  return () => {
    listeners.delete(onChange);
    removeEventListener("popstate", onChange);
  };
}
const currentAddress = () => location.pathname + location.search;
function go(to: string) {
  history.pushState(null, "", to);
  for (const f of listeners) f();
}

function useLightLocation() {
  const address = useSyncExternalStore(subscribe, currentAddress);
  return useMemo(() => {
    const u = new URL(address, location.origin);
    return { pathname: u.pathname, search: u.search };
  }, [address]);
}

const navigate = () => go;
const NAV: Nav = { Link: historyLink(go), useLocation: useLightLocation, useNavigate: navigate };

/**
 * Leaves the light entry for the application of the current address, or of `target` (after
 * logging in): the admin bundle downloads while this page still shows, then the address changes
 * and the admin application mounts in its place.
 */
async function handOver(target?: string) {
  if (handedOver) return;
  handedOver = true;
  const path = target ? new URL(target, location.origin).pathname : location.pathname;
  if (path === "/" || isPublicPath(path)) {
    // The entry chooses between the public main page and the platform.
    if (target) location.replace(target);
    else location.reload();
    return;
  }
  const admin = await import("../admin-main");
  if (target) history.replaceState(null, "", target);
  root?.unmount();
  admin.mountAdmin();
}

/** After logging in: the user is stored for the admin application, which opens the target and greets. */
const host: LoginHost = {
  async afterLogin(user, info, target) {
    await setCurrentUser(user);
    if (info !== null) queueNotice(welcomeNotice(user, info));
    await handOver(target);
  },
};

function LoginScreen() {
  const { pathname } = useLightLocation();
  const entry = useMemo(() => matchEntry(ROUTES, pathname), [pathname]);
  useEffect(() => {
    if (entry) document.title = `${entry.label} - 赛务平台`;
  }, [entry]);
  const Page = entry?.element;
  if (!isLightAccountPath(pathname) || !entry || !Page || !isAuthorized(entry, guestAllows)) return <HandOver />;
  const page = (
    <Suspense fallback={<LoadingLogo fullScreen={entry.pure} />}>
      <Page route={entry} />
    </Suspense>
  );
  // A pure page (/verify-email-claim, /workInvite/:code) fills the window, as in the admin application.
  if (entry.pure) return page;
  return (
    <PageFrame
      sider={<SiderMenu menu={GUEST_MENU} />}
      header={<HeaderBar user={ANONYMOUS} loggedIn={false} />}
      title={entry.label}
    >
      {page}
    </PageFrame>
  );
}

/** Any address but the light account pages: the admin application takes over. */
function HandOver() {
  useEffect(() => {
    void handOver();
  }, []);
  return <LoadingLogo fullScreen />;
}

function start() {
  root = createRoot(document.getElementById("root")!);
  root.render(
    <StrictMode>
      <AntdConfig>
        <AntdApp>
          <FeedbackBridge />
          <QueryClientProvider client={queryClient}>
            <LoginHostContext.Provider value={host}>
              <NavContext.Provider value={NAV}>
                <LoginScreen />
              </NavContext.Provider>
            </LoginHostContext.Provider>
          </QueryClientProvider>
        </AntdApp>
      </AntdConfig>
    </StrictMode>,
  );
}

// The page's chunk downloads while the server says who this is.
const entry = matchEntry(ROUTES, location.pathname);
const pageScript =
  isLightAccountPath(location.pathname) && entry && isAuthorized(entry, guestAllows) ? entry.element?.preload?.() : undefined;
pageScript?.catch(() => {});
void getCurrentUser().then(async (user) => {
  // A logged-in user on one of these pages: the admin application shows or sends them on (as before).
  if (isLoggedIn(user)) {
    handedOver = true;
    return import("../admin-main").then((m) => m.mountAdmin());
  }
  // The frame and the page render as one once the page's script is in (as in the admin application).
  await waitForPage(pageScript);
  start();
});
