/** The handlers' list filters and page, kept in the address (a reload or back keeps them; ?id= opens a complaint). */
import { useSearchParams } from "react-router";
import type { ComplaintFilters } from "../../shared/complaint/schema";
import { COMPLAINT_STATES, COMPLAINT_TYPES, type ComplaintState, type ComplaintType } from "../../shared/complaint/states";

export type ListParams = ComplaintFilters & { current: number; pageSize: number };

/** Address parameters → filters; unknown values are dropped. */
export function parseListParams(sp: URLSearchParams): ListParams {
  const state = sp.get("state") as ComplaintState | null;
  const type = sp.get("type") as ComplaintType | null;
  return {
    ...(Number(sp.get("contestId")) > 0 ? { contestId: Number(sp.get("contestId")) } : {}),
    ...(state && COMPLAINT_STATES.includes(state) ? { state } : {}),
    ...(type && COMPLAINT_TYPES.includes(type) ? { type } : {}),
    ...(sp.get("overdue") === "1" ? { overdue: 1 } : {}),
    current: Number(sp.get("current")) || 1,
    pageSize: Number(sp.get("pageSize")) || 20,
  };
}

export function useListParams() {
  const [sp, setSp] = useSearchParams();
  const f = parseListParams(sp);
  const id = Number(sp.get("id")) || undefined;
  const write = (next: Partial<ListParams>, openId: number | undefined) => {
    const merged: Record<string, unknown> = { ...f, ...next };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(merged))
      if (v !== undefined && v !== null && v !== "" && !(k === "current" && v === 1) && !(k === "pageSize" && v === 20))
        q.set(k, String(v));
    if (openId) q.set("id", String(openId));
    setSp(q, { replace: true });
  };
  return {
    f,
    id,
    setFilters: (next: Partial<ListParams>) => write({ ...next, current: next.current ?? 1 }, id),
    open: (openId: number | undefined) => write({}, openId),
  };
}
