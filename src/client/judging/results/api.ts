/**
 * The results API as /ContestAdmin/ContestResult calls it (src/server/judging/routes/results.ts,
 * shapes in src/shared/judging/result-schema.ts). Reads throw the server's text; writes
 * resolve to the reply (the request client shows its info as the message).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import type {
  AllocateOutcome,
  ComputeBody,
  ComputeOutcome,
  ExtraJudgeOutcome,
  ExtraJudgeProposal,
  FitView,
  PromoteOutcome,
  PublicationView,
  PublishBody,
  ResultContestItem,
  ResultPatch,
  ResultRow,
  ResultsOverview,
} from "../../../shared/judging/result-schema";
import type { HonourAdd, HonourView } from "../../../shared/certificate/print-schema";
import { del, patch, post } from "../../request";
import { fetchData } from "../../request";

export const A = "/Backend/ContestAdmin/judging";
const R = (contestId: number) => `${A}/${contestId}/results`;

export const resultKeys = {
  contests: ["results", "contests"] as const,
  all: (contestId: number) => ["results", contestId] as const,
  overview: (contestId: number) => ["results", contestId, "overview"] as const,
  ranking: (contestId: number, group: string) => ["results", contestId, "ranking", group] as const,
  fit: (contestId: number) => ["results", contestId, "fit"] as const,
  extra: (contestId: number) => ["results", contestId, "extra"] as const,
  honours: (contestId: number) => ["results", contestId, "honours"] as const,
};

export const useResultContests = () =>
  useQuery({ queryKey: resultKeys.contests, queryFn: () => fetchData<ResultContestItem[]>(`${A}/result-contests`) });
export const useOverview = (contestId: number) =>
  useQuery({ queryKey: resultKeys.overview(contestId), queryFn: () => fetchData<ResultsOverview>(R(contestId)) });
export const useRanking = (contestId: number, group: string) =>
  useQuery({
    queryKey: resultKeys.ranking(contestId, group),
    queryFn: () => fetchData<ResultRow[]>(`${R(contestId)}/ranking`, { group }),
  });
export const useFit = (contestId: number, enabled: boolean) =>
  useQuery({ queryKey: resultKeys.fit(contestId), queryFn: () => fetchData<FitView>(`${R(contestId)}/fit`), enabled });
export const useExtraJudges = (contestId: number, enabled: boolean) =>
  useQuery({
    queryKey: resultKeys.extra(contestId),
    queryFn: () => fetchData<ExtraJudgeProposal[]>(`${R(contestId)}/extra-judges`),
    enabled,
  });

export const useHonours = (contestId: number) =>
  useQuery({ queryKey: resultKeys.honours(contestId), queryFn: () => fetchData<HonourView>(`${A}/${contestId}/honours`) });

/** Everything of the contest's results is read again after a change. */
export function useResultsRefresh(contestId: number) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: resultKeys.all(contestId) });
    void qc.invalidateQueries({ queryKey: resultKeys.contests });
  };
}

export const resultsApi = {
  compute: (contestId: number, body: ComputeBody) =>
    post<ComputeOutcome & { awardsCleared: boolean }>(`${R(contestId)}/compute`, body),
  allocate: (contestId: number, options: { groups?: string[]; includeIncomplete?: boolean } = {}) =>
    post<AllocateOutcome>(`${R(contestId)}/allocate`, {
      ...(options.groups ? { groups: options.groups } : {}),
      ...(options.includeIncomplete ? { includeIncomplete: true } : {}),
    }),
  patch: (contestId: number, workId: number, body: ResultPatch) => patch<ResultRow>(`${R(contestId)}/work/${workId}`, body),
  promote: (contestId: number, lowestAwardLevelId?: number) =>
    post<PromoteOutcome>(`${R(contestId)}/promote`, lowestAwardLevelId ? { lowestAwardLevelId } : {}),
  publish: (contestId: number, body: PublishBody) => post<PublicationView>(`${R(contestId)}/publish`, body),
  unpublish: (contestId: number, reason: string) => post<PublicationView>(`${R(contestId)}/unpublish`, { reason }),
  extraJudge: (contestId: number, workId: number, judgeId?: number) =>
    post<ExtraJudgeOutcome>(`${R(contestId)}/extra-judge`, judgeId ? { workId, judgeId } : { workId }),
  exportUrl: (contestId: number) => `${R(contestId)}/export`,
};

/** 优秀指导教师 / 优秀组织奖 (src/server/judging/service/results/honours.ts). */
export const honoursApi = {
  propose: (contestId: number, awardLevelId: number, reason?: string) =>
    post<HonourView>(`${A}/${contestId}/honours/propose`, reason ? { awardLevelId, reason } : { awardLevelId }),
  add: (contestId: number, body: HonourAdd) => post<HonourView>(`${A}/${contestId}/honours`, body),
  remove: (contestId: number, id: number, reason?: string) =>
    del<HonourView>(`${A}/${contestId}/honours/${id}`, undefined, reason ? { params: { reason } } : {}),
};

/** The chosen contest in the address (?contestId=). */
export function useContestParam(): [number | undefined, (id: number) => void] {
  const [sp, setSp] = useSearchParams();
  const id = Number(sp.get("contestId")) || undefined;
  return [
    id,
    (next: number) =>
      setSp(
        (prev) => {
          const q = new URLSearchParams(prev);
          q.set("contestId", String(next));
          q.delete("group");
          return q;
        },
        { replace: true },
      ),
  ];
}

export const fmt = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? "—" : v.toFixed(digits));
export const LEVEL_NAMES: Record<string, string> = { national: "国赛", provincial: "省赛", school: "校赛" };
