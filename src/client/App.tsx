/**
 * Wires antd (zh_CN), react-query, the router (the route table with its pages, pages.ts) and the
 * resolver of rules that useCanNow and refine's access control use (rule-of.ts, RuleOfContext);
 * the refine providers live in the root layout.
 */
import { App as AntdApp } from "antd";
import { QueryClientProvider } from "@tanstack/react-query";
import { Link, useLocation, useNavigate } from "react-router";
import { RouterProvider } from "react-router/dom";
import { NavContext, type Nav } from "./routing/nav";
import { FeedbackBridge } from "./layout/FeedbackBridge";
import { AntdConfig } from "./providers/antd-config";
import { CURRENT_USER_KEY, isLoggedIn, queryClient } from "./providers/session";
import { authProvider } from "./providers/auth";
import { setSessionLostHandler } from "./request";
import { APP_ROUTES } from "./pages";
import { createAppRouter } from "./layout/router";
import { RuleOfContext } from "./providers/use-can-now";
import { ruleOfResource } from "./rule-of";

// Made on first render, not on import: the light login entry downloads this module while its
// page still shows and changes the address just before it mounts the application.
let router: ReturnType<typeof createAppRouter> | undefined;
/** The shared components' links and address (routing/nav.tsx): react-router's. */
const NAV: Nav = { Link, useLocation, useNavigate };

/**
 * A request that finds the session gone while the page still shows a signed-in user (it expired,
 * or ended on another tab): refine's 401 handling (providers/auth.ts onError) sends the user to
 * the login page of their role, which brings them back here afterwards.
 */
let sessionLostAt = 0;
setSessionLostHandler(() => {
  // Requests already under way when the session ended answer 401 too: they belong to the same loss.
  if (!isLoggedIn(queryClient.getQueryData(CURRENT_USER_KEY))) return Date.now() - sessionLostAt < 5000;
  sessionLostAt = Date.now();
  void authProvider.onError!({ statusCode: 401 }).then((r) => {
    if (r.redirectTo) void router?.navigate(r.redirectTo, { replace: true });
  });
  return true;
});

export function App() {
  return (
    <AntdConfig>
      <AntdApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <NavContext.Provider value={NAV}>
            <RuleOfContext.Provider value={ruleOfResource}>
              <RouterProvider router={(router ??= createAppRouter(APP_ROUTES))} />
            </RuleOfContext.Provider>
          </NavContext.Provider>
        </QueryClientProvider>
      </AntdApp>
    </AntdConfig>
  );
}
