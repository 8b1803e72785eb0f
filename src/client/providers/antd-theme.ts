/**
 * The antd theme of every entry. Its own module (no antd import) because the build reads it too:
 * src/server/static/antd-styles.ts renders antd's styles under this theme into a CSS file, and
 * the browser uses that file only while the theme there and here is the same object.
 *
 * Every colour that antd uses for text reaches WCAG 2.1 AA (4.5:1) on white and on its own light
 * background (issue 31; the ratios are in the comments): antd's defaults do not — the primary
 * #1677ff is 4.10:1, grey secondary text 3.36:1, the red of error messages 3.2:1, the status
 * greens and oranges of tags below 3.5:1.
 */
import type { ThemeConfig } from "antd";

/** The primary blue (blue-7): 6.16:1 on white, 5.50:1 on the selected menu item's #e6f4ff. */
export const PRIMARY = "#0958d9";

/** Secondary text (antd's default 0.45 is 3.36:1): #595959, 7.0:1 on white; also the plain-markup cells' (components/light.tsx). */
export const SECONDARY_TEXT = "rgba(0, 0, 0, 0.65)";

export const ANTD_THEME: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY,
    colorInfo: PRIMARY,
    colorLink: PRIMARY,
    // Text: Typography's type="secondary", descriptions, table and form hints (antd: 0.45, 3.36:1).
    colorTextSecondary: SECONDARY_TEXT,
    colorTextTertiary: "rgba(0, 0, 0, 0.62)", // #616161, 6.2:1
    colorTextDescription: "rgba(0, 0, 0, 0.62)",
    colorTextPlaceholder: "rgba(0, 0, 0, 0.56)", // #707070, 4.95:1
    // Status colours, also the text of status tags and form errors (on their light backgrounds).
    // Their light backgrounds and borders stay antd's own (from a dark seed antd would derive grey ones).
    colorError: "#cf1322", // 5.57:1 on white, 5.07:1 on #fff1f0
    colorErrorBg: "#fff1f0",
    colorErrorBorder: "#ffa39e",
    colorSuccess: "#237804", // 5.44:1 on #f6ffed
    colorSuccessBg: "#f6ffed",
    colorSuccessBorder: "#b7eb8f",
    colorWarning: "#ad4e00", // 5.09:1 on #fff7e6
    colorWarningBg: "#fff7e6",
    colorWarningBorder: "#ffd591",
    // The text colour (the 7th shade) of preset colour tags whose antd shade is below 4.5:1 on their 1st.
    green7: "#237804",
    orange7: "#ad4e00",
    gold7: "#874d00",
    cyan7: "#006d75",
    lime7: "#3f6600",
    yellow7: "#614700",
    volcano7: "#ad2102",
  },
  components: {
    // A list's "no data" is text to read, drawn by antd in the disabled grey (#bfbfbf, 1.8:1); the
    // stylesheet's rule loses to antd's two-class selector, a component token does not.
    List: { colorTextDisabled: "rgba(0, 0, 0, 0.65)" },
    // An unchecked switch's track is antd's quaternary text grey (0.25): its white 关/不清除 text
    // was 1.6:1. 0.55 (#737373) gives the text 4.7:1, the hover's 0.65 (#595959) 7.0:1.
    Switch: { colorTextQuaternary: "rgba(0, 0, 0, 0.55)", colorTextTertiary: "rgba(0, 0, 0, 0.65)" },
  },
};
