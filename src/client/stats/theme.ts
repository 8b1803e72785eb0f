/**
 * The dashboards' colours and type. Colours are the AA theme's (providers/antd-theme.ts: each at
 * least 4.5:1 on white), so a bar or a line is as readable as text; the font list puts the CJK
 * fonts first, so canvas text (axis labels, tooltips) draws Chinese on Windows, macOS and Linux
 * (Noto Sans CJK, Debian's fonts-noto-cjk) instead of boxes.
 */
import { ANTD_THEME, PRIMARY } from "../providers/antd-theme";

const t = ANTD_THEME.token ?? {};

/** Series colours in order: this year's first (primary blue), then the AA status and tag shades. */
export const SERIES_COLORS = [
  PRIMARY,
  t.colorSuccess ?? "#237804",
  t.colorWarning ?? "#ad4e00",
  t.colorError ?? "#cf1322",
  t.cyan7 ?? "#006d75",
  "#531dab", // purple-7, 8.9:1
  t.gold7 ?? "#874d00",
  "#c41d7f", // magenta-6, 5.5:1
];

/** The previous edition's curve: a grey that still reaches 4.5:1 (#707070 on white is 4.95:1). */
export const LAST_YEAR_COLOR = "#707070";

export const CHART_FONT =
  '"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif';

/** Axis and label text: antd's text colours of the AA theme. */
export const TEXT_COLOR = "rgba(0, 0, 0, 0.88)";
export const SECONDARY_TEXT = t.colorTextSecondary ?? "rgba(0, 0, 0, 0.65)";
