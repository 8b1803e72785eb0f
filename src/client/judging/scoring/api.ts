/**
 * The judging API as the judge's screens and the contest admin's online-judging page call
 * it: query keys, fetchers (throwing the server's text) and the score mutations.
 * Server: src/server/judging/routes/judge.ts and score.ts; shapes: src/shared/judging/.
 */
import { useQuery } from "@tanstack/react-query";
import type { JudgeContest, JudgeWorkView } from "../../../shared/judging/schema";
import type {
  JudgeProgress,
  MyScore,
  OnlineOverview,
  ScoreAdminView,
  ScoreBody,
  ScoreLogCheck,
} from "../../../shared/judging/score-schema";
import { fetchData } from "../../request";
import { request } from "../../request";

export const JUDGE = "/Backend/Judge";
export const JUDGING = "/Backend/Judging/contest";

export const judgingKeys = {
  contests: ["judging", "contests"] as const,
  progress: ["judging", "progress"] as const,
  online: (contestId: number) => ["judging", "online", contestId] as const,
  work: (contestId: number, workId: number) => ["judging", "work", contestId, workId] as const,
  score: (contestId: number, workId: number) => ["judging", "score", contestId, workId] as const,
  admin: (contestId: number) => ["judging", "admin-scores", contestId] as const,
};

export const useJudgeContests = () =>
  useQuery({ queryKey: judgingKeys.contests, queryFn: () => fetchData<JudgeContest[]>(`${JUDGE}/contests`) });
export const useJudgeProgress = () =>
  useQuery({ queryKey: judgingKeys.progress, queryFn: () => fetchData<JudgeProgress[]>(`${JUDGE}/progress`) });
export const useOnline = (contestId: number) =>
  useQuery({
    queryKey: judgingKeys.online(contestId),
    queryFn: () => fetchData<OnlineOverview>(`${JUDGE}/contest/${contestId}/online`),
  });
export const useJudgeWork = (contestId: number, workId: number | undefined) =>
  useQuery({
    queryKey: judgingKeys.work(contestId, workId ?? 0),
    queryFn: () => fetchData<JudgeWorkView>(`${JUDGE}/contest/${contestId}/work/${workId}`),
    enabled: !!workId,
  });
export const useMyScore = (contestId: number, workId: number | undefined) =>
  useQuery({
    queryKey: judgingKeys.score(contestId, workId ?? 0),
    queryFn: () => fetchData<MyScore>(`${JUDGE}/contest/${contestId}/work/${workId}/score`),
    enabled: !!workId,
  });
export const useAdminScores = (contestId: number) =>
  useQuery({
    queryKey: judgingKeys.admin(contestId),
    queryFn: () => fetchData<ScoreAdminView>(`${JUDGING}/${contestId}/scores`),
  });

export const fileUrl = (contestId: number, workId: number, fileId: number) =>
  `${JUDGE}/contest/${contestId}/work/${workId}/file/${fileId}`;

const scoreUrl = (contestId: number, workId: number) => `${JUDGE}/contest/${contestId}/work/${workId}/score`;

/** The replies carry the server's sentence; the caller shows it (notify: false). */
export const scoreApi = {
  saveDraft: (contestId: number, workId: number, body: ScoreBody) =>
    request<MyScore>(scoreUrl(contestId, workId), { method: "PUT", data: body, notify: false }),
  submit: (contestId: number, workId: number, body: ScoreBody) =>
    request<MyScore>(`${scoreUrl(contestId, workId)}/submit`, { method: "POST", data: body, notify: false }),
  reopen: (contestId: number, scoreId: number, reason: string, version: number) =>
    request<{ id: number; status: string; version: number }>(`${JUDGING}/${contestId}/score/${scoreId}/reopen`, {
      method: "POST",
      data: { reason, version },
      notify: false,
    }),
  verifyLog: (contestId: number) => request<ScoreLogCheck>(`${JUDGING}/${contestId}/score-log/verify`, { notify: false }),
};

/**
 * Where the user scores a contest online: /judge/Online/:id for judges (page.judge);
 * teachers judging their school contest have /teacher/SchoolContestJudge/:id.
 */
export const onlinePath = (c: Pick<JudgeContest, "id" | "as">, judgePages: boolean) =>
  c.as === "school_contest_judge" && !judgePages ? `/teacher/SchoolContestJudge/${c.id}` : `/judge/Online/${c.id}`;
