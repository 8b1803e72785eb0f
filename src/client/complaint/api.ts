/**
 * The complaints API as the complaint screens call it (routes and shapes:
 * src/shared/complaint/schema.ts): paths per caller kind, query keys, fetchers that throw
 * the server's text, and the step calls (their replies carry the server's Chinese info).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PageOf } from "../../shared/crud/list";
import type { AwardView } from "../../shared/award/schema";
import type {
  ArbitrationBody,
  ComplaintCounts,
  ComplaintFilters,
  ComplaintInfo,
  ComplaintListItem,
  ComplaintWorkView,
  DecisionBody,
  FilerComplaintView,
  HandlerComplaintView,
  OpinionBody,
  StepBody,
  StepOutcome,
} from "../../shared/complaint/schema";
import { post, request } from "../request";
import { fetchData } from "../request";

export const PUBLIC = "/Backend/Public/complaint";
export const FILING = "/Backend/Complaint";
export const MANAGE = "/Backend/ComplaintManagement";
export const ARBITRATE = "/Backend/Arbitrate";
export const REVIEW = "/Backend/ArbitrateManagement";

/** The three handler screens: their API base and what they may do. */
export type HandlerDesk = "manage" | "arbitrate" | "review";
export const DESK_BASE: Record<HandlerDesk, string> = { manage: MANAGE, arbitrate: ARBITRATE, review: REVIEW };

export const complaintKeys = {
  all: ["complaints"] as const,
  info: ["complaints", "info"] as const,
  work: (workId: number) => ["complaints", "work", workId] as const,
  mine: ["complaints", "mine"] as const,
  contests: ["complaints", "contests"] as const,
  list: (desk: HandlerDesk, f: ComplaintFilters & { current: number; pageSize: number }) =>
    ["complaints", desk, "list", f] as const,
  counts: (contestId?: number) => ["complaints", "counts", contestId ?? 0] as const,
  detail: (desk: HandlerDesk, id: number) => ["complaints", desk, "detail", id] as const,
  awards: ["complaints", "awards"] as const,
};

export const useComplaintInfo = () =>
  useQuery({ queryKey: complaintKeys.info, queryFn: () => fetchData<ComplaintInfo>(`${PUBLIC}/info`), staleTime: 60_000 });

export const useComplaintWork = (workId: number | undefined) =>
  useQuery({
    queryKey: complaintKeys.work(workId ?? 0),
    queryFn: () => fetchData<ComplaintWorkView>(`${PUBLIC}/work/${workId}`),
    enabled: !!workId,
    retry: false,
  });

export const useMyComplaints = (enabled = true) =>
  useQuery({ queryKey: complaintKeys.mine, queryFn: () => fetchData<FilerComplaintView[]>(`${FILING}/mine`), enabled });

export const useHandlerContests = () =>
  useQuery({
    queryKey: complaintKeys.contests,
    queryFn: () => fetchData<{ id: number; name: string; level: string; year: number }[]>(`${MANAGE}/contests`),
    staleTime: 60_000,
  });

export const useComplaintList = (desk: HandlerDesk, f: ComplaintFilters & { current: number; pageSize: number }) =>
  useQuery({
    queryKey: complaintKeys.list(desk, f),
    queryFn: () => fetchData<PageOf<ComplaintListItem>>(`${DESK_BASE[desk]}/complaints`, { ...f }),
    placeholderData: (prev) => prev,
  });

export const useComplaintCounts = (contestId?: number) =>
  useQuery({
    queryKey: complaintKeys.counts(contestId),
    queryFn: () => fetchData<ComplaintCounts>(`${MANAGE}/counts`, { contestId }),
  });

export const useHandlerComplaint = (desk: HandlerDesk, id: number | undefined) =>
  useQuery({
    queryKey: complaintKeys.detail(desk, id ?? 0),
    queryFn: () => fetchData<HandlerComplaintView>(`${DESK_BASE[desk]}/complaints/${id}`),
    enabled: !!id,
    retry: false,
  });

/** Award levels for "变更奖项" (every logged-in user reads them). */
/**
 * The award levels a decision may give a work of a contest of that level: its level's work
 * awards (not 优秀指导教师 / 优秀组织奖, not another level's 一等奖 of the same name), in order.
 * The server refuses any other (requireWorkAwardLevel).
 */
export const useAwardLevels = (enabled: boolean, level: AwardView["contestLevel"] | undefined) =>
  useQuery({
    queryKey: [...complaintKeys.awards, level],
    queryFn: async () =>
      (await fetchData<PageOf<AwardView>>("/Backend/Admin/award", { pageSize: 100 })).list
        .filter((a) => !a.archived && a.kind === "work" && a.contestLevel === level)
        .sort((a, b) => a.sort - b.sort || a.id - b.id),
    enabled: enabled && !!level,
    staleTime: 300_000,
  });

/** Refreshes every complaint query after a step. */
export function useComplaintRefresh() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: complaintKeys.all });
}

// ---- Steps (each resolves to the reply; the request client shows its info) ----

export const handlerStep = (
  desk: HandlerDesk,
  id: number,
  step: "accept" | "refuse" | "close" | "confirm" | "return",
  body: StepBody,
) => post<StepOutcome>(`${DESK_BASE[desk]}/complaints/${id}/${step}`, body);
/** Re-judge finished: the new judges' scores replace the old ones (complaint admin, root). */
export const applyRejudge = (id: number, version: number) =>
  post<StepOutcome>(`${MANAGE}/complaints/${id}/rejudge-result`, { version });
export const giveOpinion = (id: number, body: OpinionBody) => post<StepOutcome>(`${MANAGE}/complaints/${id}/opinion`, body);
export const decide = (id: number, body: DecisionBody) => post<StepOutcome>(`${MANAGE}/complaints/${id}/decision`, body);
export const arbitrate = (id: number, body: ArbitrationBody) => post<StepOutcome>(`${ARBITRATE}/complaints/${id}/decision`, body);

/** A filer's or party's step: logged in, or a visitor with the token. */
export function filerStep(
  id: number,
  step: "arbitration" | "withdraw",
  body: { reason?: string; version?: number },
  token?: string,
) {
  return token
    ? post<StepOutcome>(`${PUBLIC}/mine/${id}/${step}`, { ...body, token })
    : post<StepOutcome>(`${FILING}/mine/${id}/${step}`, body);
}

// ---- The visitor's code ----

export const sendCode = (email: string) => post<{ email: string; expiresAt: string }>(`${PUBLIC}/code`, { email });
export const verifyCode = (email: string, code: string) =>
  post<{ token: string; email: string; expiresAt: string }>(`${PUBLIC}/verify`, { email, code });
export const visitorComplaints = (token: string) =>
  request<FilerComplaintView[]>(`${PUBLIC}/mine`, { method: "POST", data: { token }, silent: true });
