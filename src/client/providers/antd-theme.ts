/**
 * The antd theme of every entry. Its own module (no antd import) because the build reads it too:
 * src/server/static/antd-styles.ts renders antd's styles under this theme into a CSS file, and
 * the browser uses that file only while the theme there and here is the same object.
 */
import type { ThemeConfig } from "antd";

export const ANTD_THEME: ThemeConfig = { token: { colorPrimary: "#1677ff" } };
