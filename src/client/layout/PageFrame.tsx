/**
 * The frame of every page with the side menu: the same boxes and spacing as refine's ThemedLayout
 * — sider, then header and content with its padding — without refine. The admin application's
 * MainLayout and the light login pages both use it, so a login page looks the same whichever
 * application shows it.
 *
 * For everyone (issue 31): a skip link 「跳到主要内容」 first in the page (shown once focused), the
 * content as <main>, the page's title as its one <h1> (read by screen readers; the page shows its
 * own title as before). Below 768 px (a phone) the side menu is a drawer opened from the header's
 * menu button, and controls are at least 44 px high (tap targets).
 *
 * The content's padding follows antd's `sm` breakpoint (24 px from 576 px wide, else 12) as
 * ThemedLayout's did, but read from the media query while rendering: ThemedLayout's
 * Grid.useBreakpoint() learns the width only in an effect and then renders the whole layout (menu
 * included) a second time before the page's first data can show (issue 15).
 */
import { useMemo, useState, type CSSProperties, type ReactNode } from "react";
import { ConfigProvider, Drawer, Layout } from "antd";
import { FrameContext, MD, SM, useMedia, type Frame } from "./frame-context";
import { SkipLink, MAIN_ID } from "./SkipLink";
import { PHONE_CSS } from "./phone-css";

/** Whether the window is at least antd's `sm` wide (true when there is no window). */
export const useAtLeastSm = () => useMedia(SM);

/** Shown to screen readers only. */
export const visuallyHidden: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
};

/** On a phone: controls and menu entries at least 44 px high. */
const PHONE_THEME = {
  token: { controlHeight: 44, controlHeightSM: 44, controlHeightLG: 48 },
  components: { Menu: { itemHeight: 48 }, Pagination: { itemSize: 44 } },
};

export function PageFrame({
  sider,
  header,
  title,
  children,
}: {
  sider: ReactNode;
  header: ReactNode;
  /** the page's title, its <h1> */
  title?: string;
  children: ReactNode;
}) {
  const wide = useAtLeastSm();
  const drawer = !useMedia(MD);
  const [menuOpen, setMenuOpen] = useState(false);
  const frame = useMemo<Frame>(() => ({ drawer, menuOpen: drawer && menuOpen, setMenuOpen }), [drawer, menuOpen]);
  const page = (
    <Layout style={{ minHeight: "100vh" }} hasSider={!drawer}>
      {drawer ? (
        <Drawer
          placement="left"
          open={frame.menuOpen}
          onClose={() => setMenuOpen(false)}
          width={280}
          title="菜单"
          styles={{ body: { padding: 0 } }}
          data-testid="menu-drawer"
        >
          {sider}
        </Drawer>
      ) : (
        sider
      )}
      <Layout style={{ minWidth: 0 }}>
        {header}
        <Layout.Content style={{ minWidth: 0 }}>
          <main id={MAIN_ID} tabIndex={-1} style={{ minHeight: 360, padding: wide ? 24 : 12, outline: "none" }}>
            {title && <h1 style={visuallyHidden}>{title}</h1>}
            {children}
          </main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
  return (
    <FrameContext.Provider value={frame}>
      <SkipLink />
      {/* A phone's sizes; on a wide screen the app's theme as it is (the provider stays, so
          crossing the breakpoint does not remount the page). */}
      <ConfigProvider theme={drawer ? PHONE_THEME : undefined}>
        {drawer && <style>{PHONE_CSS}</style>}
        {page}
      </ConfigProvider>
    </FrameContext.Provider>
  );
}
