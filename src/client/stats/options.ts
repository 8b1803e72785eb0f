/**
 * The chart options the dashboards draw, built from plain figures (categories and series of
 * numbers), and the sentence that sums each one up for assistive technology.
 */
import type { ChartOption } from "./echarts";
import { LAST_YEAR_COLOR, SECONDARY_TEXT } from "./theme";

export interface Series {
  name: string;
  values: (number | null)[];
  /** drawn dashed in grey (the previous edition) */
  muted?: boolean;
  /** bars of series with the same stack are stacked */
  stack?: string;
  color?: string;
}

const AXIS_LABEL = { color: SECONDARY_TEXT, hideOverlap: true };
const TOOLTIP = { trigger: "axis" as const, confine: true };

/** Bars per category. `horizontal`: categories down the side (long names: provinces, schools). */
export function barOption(
  categories: string[],
  series: Series[],
  opts: { horizontal?: boolean; percent?: boolean } = {},
): ChartOption {
  // Long names (schools, return reasons) are cut on the axis; the table beside the chart has them whole.
  const cat = {
    type: "category" as const,
    data: categories,
    axisLabel: { ...AXIS_LABEL, interval: 0, width: opts.horizontal ? 180 : 110, overflow: "truncate" as const },
    inverse: opts.horizontal,
  };
  const val = opts.percent
    ? { type: "value" as const, axisLabel: { ...AXIS_LABEL, formatter: "{value}%" }, min: 0, max: 100 }
    : { type: "value" as const, axisLabel: AXIS_LABEL, minInterval: 1 };
  return {
    tooltip: { ...TOOLTIP, axisPointer: { type: "shadow" } },
    legend: series.length > 1 ? { top: 0 } : undefined,
    grid: { left: 8, right: 24, top: series.length > 1 ? 32 : 12, bottom: 8, containLabel: true },
    xAxis: opts.horizontal ? val : { ...cat, axisLabel: { ...cat.axisLabel, rotate: categories.length > 6 ? 30 : 0 } },
    yAxis: opts.horizontal ? cat : val,
    series: series.map((s) => ({
      type: "bar",
      name: s.name,
      data: s.values,
      stack: s.stack,
      itemStyle: s.color ? { color: s.color } : undefined,
      barMaxWidth: 40,
      cursor: "pointer",
    })),
  };
}

/**
 * Lines over a shared x axis (days before the deadline, dates). `mark` draws a vertical line at
 * that category with its label (the deadline).
 */
export function lineOption(
  x: string[],
  series: Series[],
  opts: { mark?: { at: string; label: string }; xName?: string } = {},
): ChartOption {
  return {
    tooltip: TOOLTIP,
    legend: { top: 0, type: "plain" },
    // Room on the right for the deadline's label at the top of its line.
    grid: { left: 8, right: opts.mark ? 90 : 32, top: 40, bottom: opts.xName ? 36 : 8, containLabel: true },
    xAxis: {
      type: "category",
      data: x,
      boundaryGap: false,
      axisLabel: AXIS_LABEL,
      name: opts.xName,
      nameLocation: "middle",
      nameGap: 28,
    },
    yAxis: { type: "value", axisLabel: AXIS_LABEL, minInterval: 1 },
    series: series.map((s, i) => ({
      type: "line",
      name: s.name,
      data: s.values,
      // Few days with data (a new edition): their points drawn, or a one-day line would not show.
      showSymbol: s.values.filter((v) => v !== null).length <= 40,
      symbolSize: 5,
      connectNulls: false,
      lineStyle: s.muted ? { type: "dashed", color: LAST_YEAR_COLOR } : s.color ? { color: s.color } : undefined,
      itemStyle: s.muted ? { color: LAST_YEAR_COLOR } : s.color ? { color: s.color } : undefined,
      markLine:
        i === 0 && opts.mark
          ? {
              symbol: "none",
              silent: true,
              lineStyle: { color: "#cf1322", type: "solid" },
              label: { formatter: opts.mark.label, color: "#cf1322", position: "end" },
              data: [{ xAxis: opts.mark.at }],
            }
          : undefined,
    })),
  };
}

/** A box plot per category; each box is [min, Q1, median, Q3, max]. */
export function boxOption(categories: string[], boxes: [number, number, number, number, number][], name = "分数"): ChartOption {
  return {
    tooltip: { trigger: "item", confine: true },
    grid: { left: 8, right: 24, top: 12, bottom: 8, containLabel: true },
    xAxis: {
      type: "category",
      data: categories,
      axisLabel: { ...AXIS_LABEL, interval: 0, rotate: categories.length > 6 ? 30 : 0 },
    },
    yAxis: { type: "value", axisLabel: AXIS_LABEL, scale: true },
    series: [{ type: "boxplot", name, data: boxes }],
  };
}

/** "标题：甲 12，乙 8，丙 3" — the largest `max` values of a series, for a chart's aria-label. */
export function summarize(title: string, categories: string[], values: (number | null)[], max = 5): string {
  const pairs = categories.map((c, i) => [c, values[i] ?? 0] as const).sort((a, b) => b[1] - a[1]);
  const shown = pairs.slice(0, max).map(([c, v]) => `${c} ${v}`);
  const more = pairs.length > max ? `等 ${pairs.length} 项` : "";
  return `${title}：${shown.join("，") || "无数据"}${more ? `，${more}` : ""}`;
}
