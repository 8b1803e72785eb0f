/**
 * The addresses of the format review pages (routes.tsx) with their list filters: the review screens
 * (judging/review, which re-exports them from its api.ts) and the pages that link into them (work
 * management, the national incoming panel) build links here, without depending on the review screens.
 */
import type { ReviewFilters } from "../../shared/review/schema";

/** Drops empty filters so query keys and URLs stay stable. */
export const cleanFilters = (f: ReviewFilters): ReviewFilters => ({
  ...(f.status ? { status: f.status } : {}),
  ...(f.categoryId ? { categoryId: f.categoryId } : {}),
  ...(f.keyword?.trim() ? { keyword: f.keyword.trim() } : {}),
});

export const fastReviewPath = (contestId: number, workId: number, f: ReviewFilters = {}) => {
  const q = new URLSearchParams(Object.entries(cleanFilters(f)).map(([k, v]) => [k, String(v)])).toString();
  return `/reviewer/fastReview/${contestId}/startFrom/${workId}${q ? `?${q}` : ""}`;
};
export const reviewListPath = (contestId: number) => `/ContestReviewer/Review/${contestId}`;
export const reviewDetailPath = (workId: number) => `/reviewer/reviewDetail/${workId}`;
