/**
 * A chart with its numbers: the chart (chart.tsx) and, beside it on a wide screen (below on a
 * narrow one, or when `below`), the same figures as a table with column headers — for screen
 * readers, for copying, and for keyboard users (a row's link does what a click on its bar does).
 * 下载图片 saves the chart as PNG (ECharts' getDataURL). With no rows the card says 暂无数据.
 */
import { useRef, type ReactNode } from "react";
import { Button, Card, Col, Empty, Row, Table, type TableColumnsType } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { Chart, type ChartClick, type ChartHandle } from "./chart";
import type { ChartOption } from "./echarts";

export interface FigureColumn<R> {
  key: keyof R & string;
  title: string;
  /** right-aligned, shown with thousands separators */
  numeric?: boolean;
  render?: (row: R) => ReactNode;
}

export interface FigureTable<R> {
  columns: FigureColumn<R>[];
  rows: R[];
  rowKey: keyof R & string;
}

interface Props<R> {
  title: string;
  /** the accessible summary of the chart */
  summary: string;
  option: ChartOption;
  table: FigureTable<R>;
  onClick?: (p: ChartClick) => void;
  height?: number;
  /** the table under the chart rather than beside it (wide tables) */
  below?: boolean;
  extra?: ReactNode;
  "data-testid"?: string;
}

/** A number as people read it here: 12,345 (or 12.5). Null and undefined: —. */
export const fmtNum = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v)
    ? v.toLocaleString("zh-CN", { maximumFractionDigits: 2 })
    : v == null
      ? "—"
      : String(v);

/** A share 0..1 as a percentage with one decimal. */
export const fmtShare = (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? "—" : `${(v * 100).toFixed(1)}%`);

/** Saves a data: URL under `name`. */
export function saveDataUrl(url: string, name: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function FigureTableView<R extends object>({ table, title }: { table: FigureTable<R>; title: string }) {
  const columns: TableColumnsType<R> = table.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: c.title,
    align: c.numeric ? "right" : "left",
    render: (_: unknown, row: R) => (c.render ? c.render(row) : c.numeric ? fmtNum(row[c.key]) : (row[c.key] as ReactNode)),
  }));
  return (
    // A region of its own that scrolls: focusable, so a keyboard can scroll it (axe: scrollable-region-focusable).
    <div role="region" aria-label={`${title}（数据表）`} tabIndex={0} style={{ maxHeight: 360, overflow: "auto" }}>
      <Table<R>
        size="small"
        columns={columns}
        dataSource={table.rows}
        rowKey={(r) => String(r[table.rowKey])}
        pagination={false}
        data-testid="figure-table"
      />
    </div>
  );
}

export function ChartCard<R extends object>({ title, summary, option, table, onClick, height, below, extra, ...rest }: Props<R>) {
  const chart = useRef<ChartHandle>(null);
  const empty = table.rows.length === 0;
  const download = () => {
    const url = chart.current?.png();
    if (url) saveDataUrl(url, `${title}.png`);
  };
  return (
    <Card
      size="small"
      title={title}
      data-testid={rest["data-testid"] ?? "chart-card"}
      extra={
        <>
          {extra}
          {!empty && (
            <Button size="small" type="link" icon={<DownloadOutlined />} onClick={download} data-testid="chart-png">
              下载图片
            </Button>
          )}
        </>
      }
    >
      {empty ? (
        <Empty description="暂无数据" />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={below ? 24 : 14}>
            <Chart ref={chart} option={option} label={summary} height={height} onClick={onClick} />
          </Col>
          <Col xs={24} xl={below ? 24 : 10}>
            <FigureTableView table={table} title={title} />
          </Col>
        </Row>
      )}
    </Card>
  );
}
