/**
 * The format review API as the reviewer's screens call it (src/server/review/routes.ts;
 * shapes in src/shared/review/schema.ts): query keys, fetchers that throw the server's
 * text, and the outcome and position calls.
 */
import { useQuery } from "@tanstack/react-query";
import type { PageOf } from "../../../shared/crud/list";
import type {
  Neighbours,
  OutcomeBody,
  OutcomeResult,
  Position,
  ReviewContest,
  ReviewFilters,
  ReviewListItem,
  ReviewSheet,
} from "../../../shared/review/schema";
import type { FormatOutcome } from "../../../shared/work/states";
import { put, request } from "../../request";
import { fetchData } from "../../request";
// The review pages' addresses live with the routing (other areas link into them); re-exported for these screens.
export { cleanFilters, fastReviewPath, reviewDetailPath, reviewListPath } from "../../routing/review-paths";

export const R = "/Backend/Review";

export const reviewKeys = {
  all: ["review"] as const,
  contests: ["review", "contests"] as const,
  reasons: ["review", "reasons"] as const,
  works: (contestId: number, f: ReviewFilters & { current: number; pageSize: number }) =>
    ["review", "works", contestId, f] as const,
  sheet: (workId: number) => ["review", "sheet", workId] as const,
  neighbours: (contestId: number, workId: number, f: ReviewFilters) => ["review", "neighbours", contestId, workId, f] as const,
  position: (contestId: number) => ["review", "position", contestId] as const,
};

export interface Reason {
  code: string;
  name: string;
  hint: string;
}

export const useReviewContests = () =>
  useQuery({ queryKey: reviewKeys.contests, queryFn: () => fetchData<ReviewContest[]>(`${R}/contests`) });

export const useReasons = () =>
  useQuery({ queryKey: reviewKeys.reasons, queryFn: () => fetchData<Reason[]>(`${R}/reasons`), staleTime: Infinity });

export const sheetQuery = (workId: number) => ({
  queryKey: reviewKeys.sheet(workId),
  queryFn: () => fetchData<ReviewSheet>(`${R}/work/${workId}`),
  staleTime: 60_000,
});

export const neighboursQuery = (contestId: number, workId: number, f: ReviewFilters) => ({
  queryKey: reviewKeys.neighbours(contestId, workId, f),
  queryFn: () => fetchData<Neighbours>(`${R}/contest/${contestId}/neighbours`, { workId, ...f }),
  staleTime: 10_000,
});

export const fetchWorks = (contestId: number, f: ReviewFilters & { current: number; pageSize: number }) =>
  fetchData<PageOf<ReviewListItem>>(`${R}/contest/${contestId}/works`, { ...f });

export const useReviewWorks = (contestId: number, f: ReviewFilters & { current: number; pageSize: number }) =>
  useQuery({
    queryKey: reviewKeys.works(contestId, f),
    queryFn: () => fetchWorks(contestId, f),
    placeholderData: (prev) => prev,
  });

/** The first work of the contest's review in this filter (for starting fast review), or null. */
export async function firstWork(contestId: number, f: ReviewFilters): Promise<number | null> {
  const page = await fetchWorks(contestId, { ...f, current: 1, pageSize: 1 });
  return page.list[0]?.id ?? null;
}

/** Gives an outcome; the caller shows the reply (info as message or notification). */
export const giveOutcome = (workId: number, outcome: FormatOutcome, body: OutcomeBody) =>
  request<OutcomeResult>(`${R}/work/${workId}/${outcome}`, { method: "POST", data: body });

export const savePosition = (contestId: number, workId: number) =>
  put<Position>(`${R}/contest/${contestId}/position`, { workId }, { notify: false });
