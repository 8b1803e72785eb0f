/**
 * How the pages show times and sizes: one place, so a change (e.g. always showing Beijing
 * time whatever the browser's zone) is made once. Times are ISO strings from the server.
 */
import dayjs from "dayjs";

/** 2026-07-20 09:00; "—" when there is none. */
export const fmtTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm") : "—");

/** 07-20 09:00, for dense tables; "—" when there is none. */
export const fmtShortTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format("MM-DD HH:mm") : "—");

export const fmtSize = (bytes: number) =>
  bytes >= 1024 * 1024 * 1024 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : bytes >= 1024 * 1024 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} B`;
