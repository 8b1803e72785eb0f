/**
 * The frame of the light login pages: the same boxes and spacing as refine's ThemedLayout around
 * the admin application's pages (layout/MainLayout.tsx) — sider, then header and content with its
 * padding — without refine, so a login page looks the same whichever application shows it.
 */
import type { ReactNode } from "react";
import { Grid, Layout } from "antd";

export function PageFrame({ sider, header, children }: { sider: ReactNode; header: ReactNode; children: ReactNode }) {
  const breakpoint = Grid.useBreakpoint();
  const isSmall = typeof breakpoint.sm === "undefined" ? true : breakpoint.sm;
  return (
    <Layout style={{ minHeight: "100vh" }} hasSider>
      {sider}
      <Layout>
        {header}
        <Layout.Content>
          <div style={{ minHeight: 360, padding: isSmall ? 24 : 12 }}>{children}</div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
