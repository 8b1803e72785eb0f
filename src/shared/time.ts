/**
 * Beijing time, for the server and both front ends: one formatter, no dependencies. Beijing
 * has kept UTC+8 without daylight saving since 1991 (tzdb Asia/Shanghai), so a moment's
 * wall-clock fields there are those of the moment plus eight hours, read in UTC.
 */

export const BEIJING_OFFSET_MS = 8 * 3600_000;

/** The current moment as an ISO string (UTC). */
export const nowIso = () => new Date().toISOString();

export interface BeijingParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** A moment (epoch ms) as its Beijing wall-clock fields; throws RangeError for an invalid moment, as Date does. */
export function beijingParts(ms: number): BeijingParts {
  if (!Number.isFinite(ms)) throw new RangeError("Invalid time value");
  const d = new Date(ms + BEIJING_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const TOKENS = /YYYY|MM|DD|HH|mm|ss/g;
const p2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** A moment (epoch ms) in Beijing time as `pattern` (tokens YYYY MM DD HH mm ss), e.g. "YYYY-MM-DD HH:mm". */
export function formatBeijing(ms: number, pattern: string): string {
  const p = beijingParts(ms);
  const f: Record<string, string> = {
    YYYY: String(p.year),
    MM: p2(p.month),
    DD: p2(p.day),
    HH: p2(p.hour),
    mm: p2(p.minute),
    ss: p2(p.second),
  };
  return pattern.replace(TOKENS, (t) => f[t]);
}

/** An ISO moment as "2026-07-20 09:00" in Beijing time. */
export const beijingTime = (iso: string) => formatBeijing(Date.parse(iso), "YYYY-MM-DD HH:mm");
