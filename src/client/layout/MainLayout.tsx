/**
 * The layout of every non-pure page: side menu, header, content — the boxes of refine's
 * ThemedLayout (PageFrame.tsx, shared with the light login pages), without its second
 * render of the whole layout once the window's width is known (issue 15). The current route's
 * label is the page's <h1> (router.tsx puts it in the route's handle).
 */
import { Outlet, useMatches } from "react-router";
import { PageFrame } from "./PageFrame";
import { AppHeader } from "./AppHeader";
import { MenuSider } from "./MenuSider";

const titleOf = (handle: unknown) => (handle as { title?: string } | undefined)?.title;

export function MainLayout() {
  const title = useMatches().findLast((m) => titleOf(m.handle))?.handle;
  return (
    <PageFrame sider={<MenuSider />} header={<AppHeader />} title={titleOf(title)}>
      <Outlet />
    </PageFrame>
  );
}
