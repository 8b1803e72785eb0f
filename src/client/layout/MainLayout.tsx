/** The layout of every non-pure page: side menu, header, content. */
import { useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { ThemedLayout } from "@refinedev/antd";
import { AppHeader } from "./AppHeader";
import { MenuSider } from "./MenuSider";
import { isComplaintView, setComplaintView } from "./complaint-view";

// ThemedLayout calls its Sider as a plain function to see whether there is one,
// so the slot itself must not use hooks.
const SiderSlot = () => <MenuSider />;

export function MainLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname.toLowerCase().startsWith("/complaint-view/") && !isComplaintView()) setComplaintView(true);
  }, [pathname]);
  return (
    <ThemedLayout Sider={SiderSlot} Header={AppHeader}>
      <Outlet />
    </ThemedLayout>
  );
}
