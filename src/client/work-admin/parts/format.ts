/** Small display helpers shared by the works admin pages. */
import dayjs from "dayjs";

export const fmtTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm") : "—");

export const fmtSize = (bytes: number) =>
  bytes >= 1024 * 1024 * 1024 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : bytes >= 1024 * 1024 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} B`;
