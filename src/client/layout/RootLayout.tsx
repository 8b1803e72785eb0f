/**
 * The root layout at /: refine with our providers around every page. The router's
 * root loader has already loaded the current user (the loading logo shows meanwhile).
 */
import { Outlet } from "react-router";
import { Refine } from "@refinedev/core";
import { useNotificationProvider } from "@refinedev/antd";
import routerProvider from "@refinedev/react-router";
import { Logo } from "../components/Logo";
import { LoadingLogo } from "../components/LoadingLogo";
import { authProvider } from "../providers/auth";
import { createAccessControlProvider } from "../providers/access-control";
import { dataProvider } from "../providers/data";
import { i18nProvider } from "../providers/i18n";
import { queryClient } from "../providers/session";
import { useSession } from "../providers/use-session";
import { ruleOfResource } from "../routing/rule-of";
import { RESOURCES } from "../crud/resources";

const accessControlProvider = createAccessControlProvider(ruleOfResource);

export function RootLayout() {
  return (
    <Refine
      routerProvider={routerProvider}
      dataProvider={dataProvider}
      resources={RESOURCES as never}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      i18nProvider={i18nProvider}
      notificationProvider={useNotificationProvider}
      options={{
        disableTelemetry: true,
        syncWithLocation: false,
        reactQuery: { clientConfig: queryClient },
        title: { text: "赛务平台", icon: <Logo /> },
      }}
    >
      <SessionGate />
    </Refine>
  );
}

/** Waits for the current user's permissions (e.g. right after logging out) before rendering pages. */
function SessionGate() {
  const { ready } = useSession();
  return ready ? <Outlet /> : <LoadingLogo fullScreen />;
}
