/**
 * The judging setting API as the contest admin's screens call it (/ContestAdmin/Group,
 * /contest-admin/check-group-setting): src/server/judging/routes/groups.ts and assign.ts,
 * shapes in src/shared/judging/schema.ts. Reads throw the server's text; writes resolve to
 * the reply (the request client shows its info).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import type { PageOf } from "../../../shared/crud/list";
import type {
  AssignBody,
  AssignmentView,
  AssignOutcome,
  AutoGroupResult,
  CheckReport,
  ContestJudge,
  JudgeGroupCreate,
  JudgeGroupUpdate,
  JudgeGroupView,
  JudgingSettings,
  JudgingSettingsBody,
  PoolFilters,
  PoolWork,
} from "../../../shared/judging/schema";
import { del, patch, post, put, request } from "../../request";
import { fetchData } from "../../request";

// The base path, the keys and the groups query are shared with the certificate printing (judge-queries/groups.ts).
import { A, judgingKeys } from "../../judge-queries/groups";
export { A, judgingKeys, useGroups } from "../../judge-queries/groups";

export const useSettings = (contestId: number) =>
  useQuery({
    queryKey: judgingKeys.settings(contestId),
    queryFn: () => fetchData<JudgingSettings>(`${A}/${contestId}/settings`),
    enabled: !!contestId,
  });
export const useContestJudges = (contestId: number) =>
  useQuery({
    queryKey: judgingKeys.judges(contestId),
    queryFn: () => fetchData<ContestJudge[]>(`${A}/${contestId}/judges`),
    enabled: !!contestId,
  });
export const usePool = (contestId: number, f: PoolFilters & { current: number; pageSize: number }) =>
  useQuery({
    queryKey: judgingKeys.pool(contestId, f),
    queryFn: () => fetchData<PageOf<PoolWork>>(`${A}/${contestId}/works`, { ...f }),
    enabled: !!contestId,
    placeholderData: (prev) => prev,
  });
export const useCheck = (contestId: number) =>
  useQuery({
    queryKey: judgingKeys.check(contestId),
    queryFn: () => fetchData<CheckReport>(`${A}/${contestId}/check`),
    enabled: !!contestId,
  });

/** Everything of the contest's judging is read again after a change. */
export function useJudgingRefresh(contestId: number) {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: judgingKeys.all(contestId) });
}

export const judgingApi = {
  saveSettings: (contestId: number, body: JudgingSettingsBody) => put<JudgingSettings>(`${A}/${contestId}/settings`, body),
  createGroup: (contestId: number, body: JudgeGroupCreate) =>
    post<JudgeGroupView>(`${A}/${contestId}/groups`, body, { notify: false }),
  updateGroup: (groupId: number, body: JudgeGroupUpdate) =>
    patch<JudgeGroupView>(`${A}/group/${groupId}`, body, { notify: false }),
  setLeader: (groupId: number, leaderId: number | null) => patch<JudgeGroupView>(`${A}/group/${groupId}`, { leaderId }),
  deleteGroup: (groupId: number) => del(`${A}/group/${groupId}`),
  addJudges: (groupId: number, userIds: number[]) => post<JudgeGroupView>(`${A}/group/${groupId}/judges`, { userIds }),
  removeJudge: (groupId: number, userId: number) => del<JudgeGroupView>(`${A}/group/${groupId}/judges/${userId}`),
  autoGroup: (contestId: number, regroup = false) => post<AutoGroupResult>(`${A}/${contestId}/group-works/auto`, { regroup }),
  addWorks: (groupId: number, workIds: number[]) => post<JudgeGroupView>(`${A}/group/${groupId}/works`, { workIds }),
  removeWork: (groupId: number, workId: number) => del<JudgeGroupView>(`${A}/group/${groupId}/works/${workId}`),
  /** The outcome comes back as data also when refused (400): the caller shows it. */
  autoAssign: (contestId: number, body: AssignBody) =>
    request<AssignOutcome | { problems: Problem[] }>(`${A}/${contestId}/assign`, { method: "POST", data: body, notify: false }),
  assign: (contestId: number, workId: number, judgeId: number) =>
    request<AssignmentView | { problems: Problem[] }>(`${A}/${contestId}/assignments`, {
      method: "POST",
      data: { workId, judgeId },
      notify: false,
    }),
  removeAssignment: (assignmentId: number) => del<AssignmentView>(`${A}/assignment/${assignmentId}`),
  replace: (assignmentId: number, judgeId: number) =>
    request<AssignmentView | { problems: Problem[] }>(`${A}/assignment/${assignmentId}/replace`, {
      method: "POST",
      data: { judgeId },
      notify: false,
    }),
};

export interface Problem {
  kind: string;
  workId?: number;
  judgeId?: number;
  message: string;
}

/** The problems of a refused write, or none. */
export const problemsOf = (data: unknown): Problem[] =>
  data && typeof data === "object" && "problems" in data && Array.isArray((data as { problems: unknown }).problems)
    ? (data as { problems: Problem[] }).problems
    : [];

/** The chosen contest in the address (?contestId=), shared by the two screens. */
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
          return q;
        },
        { replace: true },
      ),
  ];
}

export const GROUP_TYPE_NAMES = { normal: "普通组", professional: "专业组" } as const;
