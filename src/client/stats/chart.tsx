/**
 * The one ECharts wrapper (no echarts-for-react): init on the element, setOption whenever the
 * option changes (not merged: a chart shows exactly what its option says), resize with its box
 * (ResizeObserver), dispose on unmount. The box is an image to assistive technology
 * (role="img" with `label`, a sentence that sums the chart up); its numbers are in the table
 * beside it (ChartCard). Once drawn, the box carries data-chart-drawn (tests and bench:pages
 * wait for it). `ref` gives the PNG of what is drawn (ChartHandle.png).
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from "react";
import { echarts, type ChartOption } from "./echarts";
import { CHART_FONT, SERIES_COLORS, TEXT_COLOR } from "./theme";

/** What a click on a bar, point or box names. */
export interface ChartClick {
  name: string;
  seriesName?: string;
  seriesIndex?: number;
  dataIndex: number;
  value: unknown;
}

export interface ChartHandle {
  /** The chart as a PNG data: URL (twice the screen's pixels, white background); undefined before it is drawn. */
  png(): string | undefined;
}

interface Props {
  option: ChartOption;
  /** The accessible summary of the chart (aria-label of its image). */
  label: string;
  height?: number;
  onClick?: (p: ChartClick) => void;
  ref?: Ref<ChartHandle>;
  "data-testid"?: string;
}

const BASE: ChartOption = {
  color: SERIES_COLORS,
  textStyle: { fontFamily: CHART_FONT, color: TEXT_COLOR },
  animationDuration: 300,
};

export function Chart({ option, label, height = 320, onClick, ref, ...rest }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const drawn = useRef("");

  useEffect(() => {
    const el = box.current!;
    const c = echarts.init(el, null, { renderer: "canvas" });
    chart.current = c;
    c.on("finished", () => el.setAttribute("data-chart-drawn", ""));
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => c.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      c.dispose();
      chart.current = null;
      drawn.current = "";
    };
  }, []);

  // A parent's new option object with the same content (rows rebuilt on a re-render) is not drawn
  // again: the chart would replay its entry animation.
  useEffect(() => {
    const text = JSON.stringify(option);
    if (!chart.current || text === drawn.current) return;
    drawn.current = text;
    chart.current.setOption({ ...BASE, ...option }, { notMerge: true });
  }, [option]);

  useEffect(() => {
    const c = chart.current;
    if (!c || !onClick) return;
    const handler = (p: ChartClick) =>
      onClick({ name: p.name, seriesName: p.seriesName, seriesIndex: p.seriesIndex, dataIndex: p.dataIndex, value: p.value });
    c.on("click", handler);
    return () => void c.off("click", handler);
  }, [onClick]);

  useImperativeHandle(ref, () => ({
    png: () => chart.current?.getDataURL({ type: "png", pixelRatio: 2, backgroundColor: "#fff" }),
  }));

  return <div ref={box} role="img" aria-label={label} style={{ width: "100%", height }} {...rest} />;
}
