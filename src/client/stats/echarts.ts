/**
 * Apache ECharts through `echarts/core` with only the parts the dashboards draw (bar, line and
 * box-plot series; grid, tooltip, legend and mark lines; the canvas renderer): 186 KB gzip, where
 * the whole package or @ant-design/plots weighed 538 KB. Imported by the dashboard page's chunk
 * only (src/client/stats/): no other page, nor the user centre, loads it.
 */
import * as echarts from "echarts/core";
import { BarChart, BoxplotChart, LineChart } from "echarts/charts";
import type { BarSeriesOption, BoxplotSeriesOption, LineSeriesOption } from "echarts/charts";
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from "echarts/components";
import type {
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([
  BarChart,
  LineChart,
  BoxplotChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  MarkLineComponent,
  CanvasRenderer,
]);

/** The options the dashboards may set: only the registered series and components type-check. */
export type ChartOption = echarts.ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | BoxplotSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | MarkLineComponentOption
  | TooltipComponentOption
>;

export { echarts };
