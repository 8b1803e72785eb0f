/** The layout of every non-pure page: side menu, header, content. */
import { Outlet } from "react-router";
import { ThemedLayout } from "@refinedev/antd";
import { AppHeader } from "./AppHeader";
import { MenuSider } from "./MenuSider";

// ThemedLayout calls its Sider as a plain function to see whether there is one,
// so the slot itself must not use hooks.
const SiderSlot = () => <MenuSider />;

export function MainLayout() {
  return (
    <ThemedLayout Sider={SiderSlot} Header={AppHeader}>
      <Outlet />
    </ThemedLayout>
  );
}
