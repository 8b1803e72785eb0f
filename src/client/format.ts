/**
 * How the pages show times and sizes: one place. Every time is shown in Beijing time
 * (Asia/Shanghai), whatever the browser's time zone, and the date pickers agree: their values
 * are dayjs objects in Beijing time (bj()), and antd's picker takes "now" in the default zone
 * set here. Times are ISO strings from the server.
 */
import dayjs, { type Dayjs } from "dayjs";
import utc from "dayjs/plugin/utc";
import timezone from "dayjs/plugin/timezone";

export const BEIJING_TZ = "Asia/Shanghai";
import { BEIJING_LABEL } from "./beijing-label";
import { formatBeijing } from "../shared/time";

export { BEIJING_LABEL };

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.tz.setDefault(BEIJING_TZ);

/** A moment (an ISO string, a Date, a dayjs; none: now) as a dayjs in Beijing time — for pickers and comparisons. */
export const bj = (v?: string | number | Date | Dayjs | null) =>
  (v === undefined || v === null ? dayjs() : dayjs(v)).tz(BEIJING_TZ);

/**
 * A picker's value as the moment it shows, read as Beijing time. antd parses a typed date in
 * the browser's zone, so a value typed in New York (or on a UTC machine) would otherwise be
 * sent 8–13 hours off; the picker shows wall-clock fields, and those are Beijing time here.
 */
export const pickerIso = (d: Dayjs) => dayjs.tz(d.format("YYYY-MM-DDTHH:mm:ss.SSS"), BEIJING_TZ).toISOString();

/** A picker's day (Beijing) as YYYY-MM-DD. */
export const bjDate = (d: Dayjs) => d.tz(BEIJING_TZ).format("YYYY-MM-DD");

// A moment with its zone written out (the server's ISO strings: …Z or …+08:00).
const ZONED = /T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)$/;
// Beijing has kept UTC+8 without daylight saving since 1991 (tzdb Asia/Shanghai).
const FIXED_FROM = Date.UTC(1992, 0, 1);

/**
 * An ISO moment in Beijing time as `pattern` (tokens YYYY MM DD HH mm ss). For the server's
 * zoned ISO strings since 1992 this is arithmetic on UTC+8 (shared/time.ts): dayjs's tz() builds
 * an Intl formatter per call, ~1 ms each on a slow machine, dozens per table page. Anything else
 * (no zone written, an earlier date, unparseable) goes through dayjs as before.
 */
function formatBj(iso: string, pattern: string): string {
  const ms = ZONED.test(iso) ? Date.parse(iso) : NaN;
  if (!(ms >= FIXED_FROM)) return bj(iso).format(pattern);
  return formatBeijing(ms, pattern);
}

/** 2026-07-20 09:00 (Beijing); "—" when there is none. */
export const fmtTime = (iso: string | null | undefined) => (iso ? formatBj(iso, "YYYY-MM-DD HH:mm") : "—");

/** 2026-07-20 09:00:05 (Beijing); "—" when there is none. */
export const fmtTimeSec = (iso: string | null | undefined) => (iso ? formatBj(iso, "YYYY-MM-DD HH:mm:ss") : "—");

/** 2026-07-20 (Beijing); "—" when there is none. */
export const fmtDate = (iso: string | null | undefined) => (iso ? formatBj(iso, "YYYY-MM-DD") : "—");

/** 07-20 09:00, for dense tables (Beijing); "—" when there is none. */
export const fmtShortTime = (iso: string | null | undefined) => (iso ? formatBj(iso, "MM-DD HH:mm") : "—");

/** 2026-07-20 09:00（北京时间）, for a time inside a sentence. */
export const fmtTimeLabelled = (iso: string | null | undefined) => (iso ? `${fmtTime(iso)}（${BEIJING_LABEL}）` : "—");

export const fmtSize = (bytes: number) =>
  bytes >= 1024 * 1024 * 1024
    ? `${(bytes / 1024 ** 3).toFixed(2)} GB`
    : bytes >= 1024 * 1024
      ? `${(bytes / 1024 ** 2).toFixed(1)} MB`
      : bytes >= 1024
        ? `${Math.round(bytes / 1024)} KB`
        : `${bytes} B`;
