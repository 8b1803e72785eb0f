/** Wires antd (zh_CN), react-query and the router; the providers live in the root layout. */
import { App as AntdApp } from "antd";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { FeedbackBridge } from "./layout/FeedbackBridge";
import { AntdConfig } from "./providers/antd-config";
import { queryClient } from "./providers/session";
import { ROUTES } from "./routes";
import { createAppRouter } from "./routing/router";

const router = createAppRouter(ROUTES);

export function App() {
  return (
    <AntdConfig>
      <AntdApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </AntdConfig>
  );
}
