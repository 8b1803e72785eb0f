import type { StatsQuery } from "../../shared/stats/schema";

/** What each dashboard of the page (page.tsx) renders: the reply of its own GET, and the page's query. */
export interface DashboardProps<T> {
  data: T;
  q: StatsQuery;
}
