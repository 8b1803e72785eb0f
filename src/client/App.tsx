/** Wires antd (zh_CN), react-query and the router; the providers live in the root layout. */
import { App as AntdApp, ConfigProvider } from "antd";
import zhCN from "antd/es/locale/zh_CN";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { FeedbackBridge } from "./layout/FeedbackBridge";
import { queryClient } from "./providers/session";
import { ROUTES } from "./routes";
import { createAppRouter } from "./routing/router";

const router = createAppRouter(ROUTES);

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: "#1677ff" } }}>
      <AntdApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
