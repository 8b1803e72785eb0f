/**
 * State of the fast review page (fast-review.tsx): the filters in the query string, the
 * sheet and its neighbours, preloading of the works the reviewer may go to next, the saved
 * position, giving an outcome and moving on; the keyboard shortcuts are in review-keys.ts.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@refinedev/core";
import { App } from "antd";
import type { OutcomeResult, ReviewFilters } from "../../../shared/review/schema";
import { FORMAT_FILTERS, type FormatFilter, type FormatOutcome } from "../../../shared/work/states";
import {
  cleanFilters,
  fastReviewPath,
  firstWork,
  giveOutcome,
  neighboursQuery,
  reviewKeys,
  reviewListPath,
  savePosition,
  sheetQuery,
  useReviewContests,
} from "./api";
import { useCategoryOptions } from "../../work-type/use-tree";
import { LABELS } from "./OutcomeButtons";
import type { ReasonOutcome } from "./OutcomeModal";
import { sheetDupQuery } from "../../dupcheck/api";
import { useReviewKeys } from "./review-keys";

function useFastFilters(): [ReviewFilters, (f: ReviewFilters) => void] {
  const [sp, setSp] = useSearchParams();
  const qs = sp.toString();
  const f = useMemo(() => {
    const q = new URLSearchParams(qs);
    const status = q.get("status");
    return cleanFilters({
      status: status && status in FORMAT_FILTERS ? (status as FormatFilter) : undefined,
      categoryId: Number(q.get("categoryId")) || undefined,
      keyword: q.get("keyword") ?? undefined,
    });
  }, [qs]);
  const set = (next: ReviewFilters) =>
    setSp(new URLSearchParams(Object.entries(cleanFilters(next)).map(([k, v]) => [k, String(v)])), { replace: true });
  return [f, set];
}

export function useFastReview(contestId: number, workId: number) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [filters, setFilters] = useFastFilters();
  const pendingFilters = useMemo(() => ({ ...filters, status: "pending" as const }), [filters]);
  const samePending = filters.status === "pending";

  const sheet = useQuery({ ...sheetQuery(workId), enabled: !!workId });
  const nav = useQuery({ ...neighboursQuery(contestId, workId, filters), enabled: !!workId });
  const pendingNav = useQuery({ ...neighboursQuery(contestId, workId, pendingFilters), enabled: !!workId && !samePending });
  const nextPending = (samePending ? nav.data : pendingNav.data)?.next ?? null;
  const contests = useReviewContests();
  const contest = contests.data?.find((c) => c.id === contestId);
  const cats = useCategoryOptions();
  const [modal, setModal] = useState<ReasonOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  // Reviewers go back to the contest's list; contest admins and root (who have no list) to the works.
  const hasList = !!useCan({ resource: "page.review", action: "view" }).data?.can;
  const back = hasList ? { to: reviewListPath(contestId), label: "作品列表" } : { to: "/WorkManagement", label: "作品管理" };

  // Preload: the sheets of the works the reviewer may go to next, and their neighbours.
  const ahead = [...new Set([nav.data?.next, nextPending, nav.data?.prev].filter((x): x is number => !!x && x !== workId))];
  const nextSheet = useQuery({ ...sheetQuery(nav.data?.next ?? 0), enabled: !!nav.data?.next });
  useEffect(() => {
    for (const id of ahead) {
      void qc.prefetchQuery(sheetQuery(id));
      void qc.prefetchQuery(sheetDupQuery(id));
      void qc.prefetchQuery(neighboursQuery(contestId, id, filters));
      if (!samePending) void qc.prefetchQuery(neighboursQuery(contestId, id, pendingFilters));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ahead.join(","), contestId, filters, pendingFilters, samePending, qc]);

  // The address follows the work; the server keeps the position for the contest list.
  useEffect(() => {
    if (workId && contestId) void savePosition(contestId, workId);
  }, [contestId, workId]);

  const go = useCallback(
    (id: number) => {
      setDone(false);
      void navigate(fastReviewPath(contestId, id, filters), { replace: true });
      window.scrollTo({ top: 0 });
    },
    [contestId, filters, navigate],
  );

  const afterOutcome = useCallback(
    async (r: OutcomeResult, outcome: FormatOutcome) => {
      void qc.invalidateQueries({ queryKey: reviewKeys.sheet(r.id) });
      void qc.invalidateQueries({ queryKey: ["review", "neighbours"] });
      void qc.invalidateQueries({ queryKey: reviewKeys.contests });
      void qc.invalidateQueries({ queryKey: ["review", "works"] });
      if (outcome === "format_reopen") return;
      // The next work waiting for review in this filter (known ahead), else the server's; past the
      // last one, wrap around to the first work still pending in this filter (a review opened from
      // a row starts in the middle), so "done" means no pending work is left at all.
      let target = nextPending ?? (filters.categoryId || filters.keyword ? null : r.next);
      if (!target) target = await firstWork(contestId, pendingFilters).catch(() => null);
      if (target && target !== r.id) go(target);
      else setDone(true);
    },
    [contestId, filters.categoryId, filters.keyword, go, nextPending, pendingFilters, qc],
  );

  const decide = useCallback(
    async (outcome: FormatOutcome) => {
      const s = sheet.data;
      if (!s || busy) return;
      if (!s.outcomes.includes(outcome)) {
        message.warning(`该作品当前为「${s.statusName}」，不能${LABELS[outcome]}`);
        return;
      }
      if (outcome === "format_return" || outcome === "format_reject") {
        setModal(outcome);
        return;
      }
      setBusy(true);
      const reply = await giveOutcome(s.id, outcome, { version: s.version });
      setBusy(false);
      if (reply.error === 0 && reply.data) await afterOutcome(reply.data, outcome);
    },
    [afterOutcome, busy, message, sheet.data],
  );

  const move = useCallback(
    (dir: "next" | "prev") => {
      const id = nav.data?.[dir];
      if (id) go(id);
      else message.info(dir === "next" ? "已经是最后一件" : "已经是第一件");
    },
    [go, message, nav.data],
  );

  // The keyboard.
  useReviewKeys(!!modal, decide, move);

  const restart = async () => {
    const start =
      (await firstWork(contestId, pendingFilters).catch(() => null)) ?? (await firstWork(contestId, filters).catch(() => null));
    if (start) go(start);
    else message.info("当前筛选下没有作品");
  };

  return {
    filters,
    setFilters,
    sheet,
    nav,
    nextPending,
    contest,
    cats,
    modal,
    setModal,
    busy,
    done,
    setDone,
    back,
    nextSheet,
    afterOutcome,
    decide,
    move,
    restart,
  };
}
