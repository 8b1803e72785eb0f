/** Wires antd (zh_CN), react-query and the router; the providers live in the root layout. */
import { App as AntdApp } from "antd";
import { QueryClientProvider } from "@tanstack/react-query";
import { Link, useLocation } from "react-router";
import { RouterProvider } from "react-router/dom";
import { NavContext, type Nav } from "./routing/nav";
import { FeedbackBridge } from "./layout/FeedbackBridge";
import { AntdConfig } from "./providers/antd-config";
import { queryClient } from "./providers/session";
import { ROUTES } from "./routes";
import { createAppRouter } from "./routing/router";

// Made on first render, not on import: the light login entry downloads this module while its
// page still shows and changes the address just before it mounts the application.
let router: ReturnType<typeof createAppRouter> | undefined;
/** The shared components' links and address (routing/nav.tsx): react-router's. */
const NAV: Nav = { Link, useLocation };

export function App() {
  return (
    <AntdConfig>
      <AntdApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <NavContext.Provider value={NAV}>
            <RouterProvider router={(router ??= createAppRouter(ROUTES))} />
          </NavContext.Provider>
        </QueryClientProvider>
      </AntdApp>
    </AntdConfig>
  );
}
