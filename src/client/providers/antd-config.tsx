/**
 * The one antd configuration of every entry (the app and any lighter public page): Chinese
 * locale, the theme (antd-theme.ts: the build renders antd's styles under it into a CSS file), and
 * no space inserted between the two characters of a button label (antd's default turns 查询 into 查 询),
 * the few global rules the theme cannot express (a11y.css: focus rings, underlined text links) and
 * the live regions that read antd's toasts and field errors aloud (live-announcer.tsx).
 */
import type { ReactNode } from "react";
import { ConfigProvider, type ConfigProviderProps } from "antd";
import zhCN from "antd/es/locale/zh_CN";
import { ANTD_THEME } from "./antd-theme";
import "./a11y.css";
import { LiveAnnouncer } from "./live-announcer";

export const ANTD_CONFIG: ConfigProviderProps = {
  locale: zhCN,
  theme: ANTD_THEME,
  button: { autoInsertSpace: false },
};

export function AntdConfig({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider {...ANTD_CONFIG}>
      <LiveAnnouncer />
      {children}
    </ConfigProvider>
  );
}
