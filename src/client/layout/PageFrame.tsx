/**
 * The frame of every page with the side menu: the same boxes and spacing as refine's ThemedLayout
 * — sider, then header and content with its padding — without refine. The admin application's
 * MainLayout and the light login pages both use it, so a login page looks the same whichever
 * application shows it.
 *
 * The content's padding follows antd's `sm` breakpoint (24 px from 576 px wide, else 12) as
 * ThemedLayout's did, but read from the media query while rendering: ThemedLayout's
 * Grid.useBreakpoint() learns the width only in an effect and then renders the whole layout (menu
 * included) a second time before the page's first data can show (issue 15).
 */
import { useSyncExternalStore, type ReactNode } from "react";
import { Layout } from "antd";

const SM = "(min-width: 576px)";

function subscribe(onChange: () => void) {
  const query = matchMedia(SM);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Whether the window is at least antd's `sm` wide (true when there is no window). */
export const useAtLeastSm = () =>
  useSyncExternalStore(
    subscribe,
    () => matchMedia(SM).matches,
    () => true,
  );

export function PageFrame({ sider, header, children }: { sider: ReactNode; header: ReactNode; children: ReactNode }) {
  const wide = useAtLeastSm();
  return (
    <Layout style={{ minHeight: "100vh" }} hasSider>
      {sider}
      <Layout>
        {header}
        <Layout.Content>
          <div style={{ minHeight: 360, padding: wide ? 24 : 12 }}>{children}</div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
