/**
 * The judge invitation API as the screens call it: query keys, fetchers (throwing the
 * server's text) and the writes (replies carry the server's sentence; callers show it).
 * Server: src/server/judge-invite/routes.ts; shapes: src/shared/judge-invite/schema.ts.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PageOf } from "../../shared/crud/list";
import type {
  AcceptBody,
  AnswerOutcome,
  CheckBody,
  ConflictCheck,
  InvitationFilters,
  InvitationView,
  InviteBody,
  InviteContest,
  InviteDashboard,
  InviteOutcome,
  InviteRegisterBody,
  MyInvitations,
  PublicInvitation,
} from "../../shared/judge-invite/schema";
import type { CurrentUser } from "../../shared/account/schema";
import { request } from "../request";
import { fetchData } from "../request";
import { poolKeys } from "../judge-queries/pool-keys";
import { conflictKey } from "../judging/profile/conflicts";
import { fmtTime } from "../format";

export const JI = "/Backend/JudgeInvite";
export const PUB = "/Backend/Public/judge-invite";

export const inviteKeys = {
  all: ["judge-invite"] as const,
  contest: (id: number) => ["judge-invite", "contest", id] as const,
  list: (id: number, f: InvitationFilters) => ["judge-invite", "list", id, f] as const,
  dashboard: (id: number) => ["judge-invite", "dashboard", id] as const,
  mine: ["judge-invite", "mine"] as const,
  link: (code: string) => ["judge-invite", "link", code] as const,
};

export const useInviteContest = (id: number | undefined) =>
  useQuery({
    queryKey: inviteKeys.contest(id ?? 0),
    queryFn: () => fetchData<InviteContest>(`${JI}/contests/${id}`),
    enabled: !!id,
  });
export const useInvitations = (id: number | undefined, f: InvitationFilters) =>
  useQuery({
    queryKey: inviteKeys.list(id ?? 0, f),
    queryFn: () => fetchData<PageOf<InvitationView>>(`${JI}/contests/${id}/invitations`, { ...f }),
    enabled: !!id,
    placeholderData: (prev) => prev,
  });
export const useDashboard = (id: number | undefined) =>
  useQuery({
    queryKey: inviteKeys.dashboard(id ?? 0),
    queryFn: () => fetchData<InviteDashboard>(`${JI}/contests/${id}/dashboard`),
    enabled: !!id,
  });
export const useMyInvitations = (enabled = true) =>
  useQuery({ queryKey: inviteKeys.mine, queryFn: () => fetchData<MyInvitations>(`${JI}/mine`), enabled });
export const useLink = (code: string) =>
  useQuery({
    queryKey: inviteKeys.link(code),
    queryFn: () => fetchData<PublicInvitation>(`${PUB}/${code}`),
    enabled: code.length > 0,
    retry: false,
  });

/** Everything about invitations is read again after a change; so is what an acceptance writes (the pool record, declared conflicts). */
export function useInviteRefresh() {
  const qc = useQueryClient();
  return () => {
    for (const key of [inviteKeys.all, poolKeys.all, conflictKey]) void qc.invalidateQueries({ queryKey: key });
  };
}

const call = <T>(url: string, data: unknown) => request<T>(url, { method: "POST", data, notify: false });

export const inviteApi = {
  check: (contestId: number, body: CheckBody) => call<ConflictCheck>(`${JI}/contests/${contestId}/check`, body),
  send: (contestId: number, body: InviteBody) => call<InviteOutcome>(`${JI}/contests/${contestId}/invitations`, body),
  withdraw: (id: number, reason?: string) => call<InvitationView>(`${JI}/invitations/${id}/withdraw`, { reason }),
  resend: (id: number, answerBy?: string) => call<InvitationView>(`${JI}/invitations/${id}/resend`, answerBy ? { answerBy } : {}),
  acceptMine: (id: number, body: AcceptBody) => call<AnswerOutcome>(`${JI}/mine/${id}/accept`, body),
  declineMine: (id: number, reason?: string) => call<AnswerOutcome>(`${JI}/mine/${id}/decline`, { reason }),
  register: (code: string, body: InviteRegisterBody) => call<CurrentUser>(`${PUB}/${code}/register`, body),
  accept: (code: string, body: AcceptBody) => call<AnswerOutcome>(`${PUB}/${code}/accept`, body),
  decline: (code: string, reason?: string) => call<AnswerOutcome>(`${PUB}/${code}/decline`, { reason }),
};

/** "2026-06-30 23:59" in Beijing time ("" when none): the one formatting module. */
export const bjTime = (iso: string | null | undefined) => (iso ? fmtTime(iso) : "");
