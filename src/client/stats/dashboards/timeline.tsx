/**
 * 报名进度: works created, submitted, approved by the school, recommended and received, per day
 * or cumulative. The first chart puts this edition beside the previous one on the same axis of
 * days before the registration deadline (the deadline marked), so "where were we last year on
 * this day" is one look; the second shows this edition's five steps by date.
 */
import { useMemo, useState } from "react";
import { Segmented, Space } from "antd";
import {
  TIMELINE_SERIES,
  TIMELINE_SERIES_NAMES,
  type TimelineEdition,
  type TimelinePoint,
  type TimelineReply,
  type TimelineSeriesKey,
} from "../../../shared/stats/schema";
import { bj } from "../../format";
import { ChartCard, type FigureColumn } from "../chart-card";
import { lineOption, type Series } from "../options";
import type { DashboardProps } from "../types";

type Mode = "cumulative" | "count";
const DAY = 86_400_000;
const dayNo = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);

const seriesOf = (e: TimelineEdition | null, key: string) => e?.series.find((s) => s.key === key)?.points ?? [];

/** The values of `points` along `keys` (ascending time), per day or carried forward; null after `stop`. */
function along<K>(points: TimelinePoint[], keys: K[], keyOf: (p: TimelinePoint) => K, mode: Mode, stop?: (k: K) => boolean) {
  const at = new Map(points.map((p) => [keyOf(p), p]));
  let carried = 0;
  return keys.map((k) => {
    if (stop?.(k)) return null;
    const p = at.get(k);
    if (p) carried = p.cumulative;
    return mode === "count" ? (p?.count ?? 0) : carried;
  });
}

interface AlignedRow {
  d: number;
  label: string;
  curDate: string;
  cur: number | null;
  prev: number | null;
}

function Aligned({ data, mode, skey }: { data: TimelineReply; mode: Mode; skey: TimelineSeriesKey }) {
  const { current, previous } = data;
  const built = useMemo(() => {
    const cur = seriesOf(current, skey);
    const prev = seriesOf(previous, skey);
    const deadline = current.deadline;
    const name = TIMELINE_SERIES_NAMES[skey];
    if (!deadline) {
      const dates = cur.map((p) => p.date);
      const values = along(cur, dates, (p) => p.date, mode);
      return {
        option: lineOption(dates, [{ name: `${current.year} 年${name}`, values }]),
        rows: dates.map((d, i) => ({ d: i, label: d, curDate: d, cur: values[i], prev: null })),
        summary: `${current.year} 年${name}作品数（无报名截止日，按日期）：共 ${values.at(-1) ?? 0} 件`,
      };
    }
    const today = dayNo(bj().format("YYYY-MM-DD"));
    const todayBefore = dayNo(deadline) - today;
    const ds = [...cur, ...prev].map((p) => p.daysBefore).filter((d): d is number => d !== null);
    const hi = Math.max(0, ...ds);
    const lo = Math.min(0, ...ds);
    const range = Array.from({ length: hi - lo + 1 }, (_, i) => hi - i);
    const curValues = along(
      cur,
      range,
      (p) => p.daysBefore ?? NaN,
      mode,
      (d) => d < todayBefore,
    );
    const prevValues = along(prev, range, (p) => p.daysBefore ?? NaN, mode);
    const series: Series[] = [{ name: `${current.year} 年（本届）`, values: curValues }];
    if (previous) series.push({ name: `${previous.year} 年（上届）`, values: prevValues, muted: true });
    const withEvents = new Set(ds);
    const rows: AlignedRow[] = range
      .map((d, i) => ({
        d,
        label: d > 0 ? `截止前 ${d} 天` : d === 0 ? "截止日" : `截止后 ${-d} 天`,
        curDate: bj(new Date((dayNo(deadline) - d) * DAY)).format("MM-DD"),
        cur: curValues[i],
        prev: previous ? prevValues[i] : null,
      }))
      .filter((r) => withEvents.has(r.d) || r.d === 0);
    const nowIdx = range.findIndex((d) => d === Math.max(lo, Math.min(hi, todayBefore)));
    const lastYearSameDay = previous && nowIdx >= 0 ? prevValues[nowIdx] : null;
    const curNow = curValues.filter((v) => v !== null).at(-1) ?? 0;
    return {
      option: lineOption(range.map(String), series, {
        mark: { at: "0", label: `报名截止 ${deadline}` },
        xName: "距报名截止天数（正数为截止前）",
      }),
      rows,
      summary:
        `${name}作品数按距报名截止天数对齐：本届${mode === "cumulative" ? "累计" : "最近一日"} ${curNow} 件` +
        (lastYearSameDay !== null ? `，上届同期 ${lastYearSameDay} 件` : "，无上届数据") +
        `；报名截止 ${deadline}`,
    };
  }, [current, previous, mode, skey]);
  const columns: FigureColumn<AlignedRow>[] = [
    { key: "label", title: "距截止" },
    { key: "curDate", title: "本届日期" },
    { key: "cur", title: `${current.year} 年`, numeric: true },
    ...(previous ? [{ key: "prev" as const, title: `${previous.year} 年`, numeric: true }] : []),
  ];
  return (
    <ChartCard
      title={`${TIMELINE_SERIES_NAMES[skey]}：本届与上届（${mode === "cumulative" ? "累计" : "每日"}）`}
      summary={built.summary}
      option={built.option}
      table={{ columns, rows: built.rows, rowKey: "d" }}
      height={360}
      data-testid="timeline-aligned"
    />
  );
}

type StepRow = { date: string } & Record<string, number | string | null>;

function Steps({ current, mode }: { current: TimelineEdition; mode: Mode }) {
  const built = useMemo(() => {
    const dates = [...new Set(current.series.flatMap((s) => s.points.map((p) => p.date)))].sort();
    const series = TIMELINE_SERIES.map((k) => ({
      key: k,
      name: TIMELINE_SERIES_NAMES[k],
      values: along(seriesOf(current, k), dates, (p) => p.date, mode),
    }));
    const rows: StepRow[] = dates.map((date, i) => ({ date, ...Object.fromEntries(series.map((s) => [s.key, s.values[i]])) }));
    const mark = current.deadline && dates.includes(current.deadline) ? { at: current.deadline, label: "报名截止" } : undefined;
    return { option: lineOption(dates, series, { mark }), rows, series };
  }, [current, mode]);
  const totals = current.series.map((s) => `${s.name} ${s.total}`).join("，");
  return (
    <ChartCard
      title={`本届各环节（${mode === "cumulative" ? "累计" : "每日"}，按日期）`}
      summary={`${current.year} 年各环节作品数合计：${totals || "无数据"}`}
      option={built.option}
      table={{
        columns: [{ key: "date", title: "日期" }, ...built.series.map((s) => ({ key: s.key, title: s.name, numeric: true }))],
        rows: built.rows,
        rowKey: "date",
      }}
      below
      height={320}
      data-testid="timeline-steps"
    />
  );
}

export function TimelineDashboard({ data }: DashboardProps<TimelineReply>) {
  const [skey, setKey] = useState<TimelineSeriesKey>("submitted");
  const [mode, setMode] = useState<Mode>("cumulative");
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Space wrap>
        <Segmented
          aria-label="环节"
          value={skey}
          onChange={(v) => setKey(v as TimelineSeriesKey)}
          options={TIMELINE_SERIES.map((k) => ({ value: k, label: TIMELINE_SERIES_NAMES[k] }))}
        />
        <Segmented
          aria-label="累计或每日"
          value={mode}
          onChange={(v) => setMode(v as Mode)}
          options={[
            { value: "cumulative", label: "累计" },
            { value: "count", label: "每日" },
          ]}
        />
      </Space>
      <Aligned data={data} mode={mode} skey={skey} />
      <Steps current={data.current} mode={mode} />
    </Space>
  );
}
