/**
 * The layout of every non-pure page: side menu, header, content — the boxes of refine's
 * ThemedLayout (PageFrame.tsx, shared with the light login pages), without its second
 * render of the whole layout once the window's width is known (issue 15).
 */
import { Outlet } from "react-router";
import { PageFrame } from "./PageFrame";
import { AppHeader } from "./AppHeader";
import { MenuSider } from "./MenuSider";

export function MainLayout() {
  return (
    <PageFrame sider={<MenuSider />} header={<AppHeader />}>
      <Outlet />
    </PageFrame>
  );
}
