/**
 * The dashboards' reads (src/shared/stats/schema.ts): one GET per chart group, with the same
 * query (year, contest) on every one, as react-query keys of their own.
 */
import { useQuery } from "@tanstack/react-query";
import { fetchData } from "../request";
import { STATS_PATHS, statsExportPath, type StatsDashboard, type StatsQuery } from "../../shared/stats/schema";

type Path = keyof typeof STATS_PATHS;

const params = (q: StatsQuery) => ({ year: q.year, contestId: q.contestId, schoolId: q.schoolId, province: q.province });

/** One dashboard's figures for the query. */
export function useStats<T>(what: Path, q: StatsQuery) {
  return useQuery({
    queryKey: ["stats", what, q.year ?? null, q.contestId ?? null, q.schoolId ?? null, q.province ?? null],
    queryFn: () => fetchData<T>(STATS_PATHS[what], params(q)),
    staleTime: 30_000,
  });
}

/** The address of a dashboard's .xlsx for the query (a plain link: the session cookie goes with it). */
export function exportHref(d: StatsDashboard, q: StatsQuery): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params(q))) if (v !== undefined && v !== null && v !== "") sp.set(k, String(v));
  const s = sp.toString();
  return statsExportPath(d) + (s ? `?${s}` : "");
}
