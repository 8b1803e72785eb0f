/**
 * The root layout at /: refine with our providers around every page. The router's
 * root loader has already loaded the current user (the loading logo shows meanwhile). refine's
 * access control maps resources and paths to rules with the resolver App.tsx provides (RuleOfContext).
 */
import { useMemo } from "react";
import { Outlet, useNavigate } from "react-router";
import { App } from "antd";
import { Refine } from "@refinedev/core";
import { useNotificationProvider } from "@refinedev/antd";
import routerProvider from "@refinedev/react-router";
import { Logo } from "../components/Logo";
import { LoadingLogo } from "../components/LoadingLogo";
import { authProvider } from "../providers/auth";
import { createAccessControlProvider, permissionsQuery } from "../providers/access-control";
import { dataProvider } from "../providers/data";
import { i18nProvider } from "../providers/i18n";
import { queryClient, setCurrentUser } from "../providers/session";
import { LoginHostContext, welcomeNotice, type LoginHost } from "../providers/login-request";
import { useSession } from "../providers/use-session";
import { useRuleOf } from "../providers/use-can-now";
import { RESOURCES } from "../providers/resources";

export function RootLayout() {
  // The resolver App.tsx provides is one module function: one provider for the layout's life.
  const ruleOf = useRuleOf();
  const accessControlProvider = useMemo(() => createAccessControlProvider(ruleOf), [ruleOf]);
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
      <AdminLoginHost>
        <SessionGate />
      </AdminLoginHost>
    </Refine>
  );
}

/** Waits for the current user's permissions (e.g. right after logging out) before rendering pages. */
function SessionGate() {
  const { ready } = useSession();
  return ready ? <Outlet /> : <LoadingLogo fullScreen />;
}

/** After logging in on a login page of this application: permissions first (the next page renders with the right menu at once), then the user, the target and the greeting. */
function AdminLoginHost({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const host = useMemo<LoginHost>(
    () => ({
      async afterLogin(user, info, target) {
        await queryClient.fetchQuery(permissionsQuery(user));
        await setCurrentUser(user);
        if (info !== null) notification.success(welcomeNotice(user, info));
        await navigate(target, { replace: true });
      },
    }),
    [navigate, notification],
  );
  return <LoginHostContext.Provider value={host}>{children}</LoginHostContext.Provider>;
}
