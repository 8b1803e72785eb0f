/**
 * The works API as the author and teacher screens use it: query keys, fetchers that throw
 * the server's info text, and the mutation calls (each carries the work's version).
 * Paths: src/server/work/routes/*.ts; types: src/shared/work/schema.ts.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PageOf } from "../../shared/crud/list";
import type { OpenContest, WorkCreate, WorkListItem, WorkLogEntry, WorkUpdate, WorkView } from "../../shared/work/schema";
import type { PeopleReply, PeopleRole } from "../../shared/work/people";
import type { PublicTeamInvite, TeamInviteBody, TeamInviteRegisterBody, TeamInviteView } from "../../shared/work/invite";
import type { CurrentUser } from "../../shared/account/schema";
import { fetchData, request, type ClientReply, type Method } from "../request";

export const W = "/Backend/Work/work";

export const workKeys = {
  all: ["works"] as const,
  mine: ["works", "mine"] as const,
  open: ["works", "open-contests"] as const,
  detail: (id: number) => ["works", "detail", id] as const,
  log: (id: number) => ["works", "log", id] as const,
  files: (id: number) => ["works", "files", id] as const,
  advised: ["works", "advised"] as const,
  invitations: (id: number) => ["works", "invitations", id] as const,
  teamLink: (code: string) => ["works", "team-link", code] as const,
};

export const TEAM_PUB = "/Backend/Public/work-invite";

/** Pending email invitations of a work (its first author). */
export function useTeamInvitations(id: number, enabled: boolean) {
  return useQuery({
    queryKey: workKeys.invitations(id),
    queryFn: () => fetchData<TeamInviteView[]>(`${W}/${id}/invitations`),
    enabled,
  });
}

export function useTeamLink(code: string) {
  return useQuery({
    queryKey: workKeys.teamLink(code),
    queryFn: () => fetchData<PublicTeamInvite>(`${TEAM_PUB}/${code}`),
    retry: false,
  });
}

/** Students (co-authors) or teachers of the work's school — of the caller's school for a new work. */
export const searchPeople = (role: PeopleRole, q: string, workId?: number) =>
  fetchData<PeopleReply>("/Backend/Work/people", { role, q, ...(workId ? { workId } : {}) });

export function useMyWorks() {
  return useQuery({
    queryKey: workKeys.mine,
    queryFn: () => fetchData<PageOf<WorkListItem>>(`${W}/mine`, { pageSize: 100, sort: "-createdAt" }),
  });
}

export function useOpenContests(enabled = true) {
  return useQuery({ queryKey: workKeys.open, queryFn: () => fetchData<OpenContest[]>(`${W}/open-contests`), enabled });
}

export function useWork(id: number | undefined) {
  return useQuery({ queryKey: workKeys.detail(id ?? 0), queryFn: () => fetchData<WorkView>(`${W}/${id}`), enabled: !!id });
}

export function useWorkLog(id: number | undefined) {
  return useQuery({ queryKey: workKeys.log(id ?? 0), queryFn: () => fetchData<WorkLogEntry[]>(`${W}/${id}/log`), enabled: !!id });
}

/** Refreshes everything that shows a work after a change (the view itself is set from the reply). */
export function useWorkRefresh() {
  const qc = useQueryClient();
  return (id: number, view?: WorkView | null) => {
    if (view) qc.setQueryData(workKeys.detail(id), view);
    else void qc.invalidateQueries({ queryKey: workKeys.detail(id) });
    void qc.invalidateQueries({ queryKey: workKeys.mine });
    void qc.invalidateQueries({ queryKey: workKeys.log(id) });
    void qc.invalidateQueries({ queryKey: workKeys.advised });
  };
}

/** Forgets a work the caller can no longer see (deleted, or left): no refetch of a 404. */
export function useWorkForget() {
  const qc = useQueryClient();
  return (id: number) => {
    for (const key of [workKeys.detail(id), workKeys.log(id), workKeys.files(id)]) qc.removeQueries({ queryKey: key });
    void qc.invalidateQueries({ queryKey: workKeys.mine });
    void qc.invalidateQueries({ queryKey: workKeys.advised });
  };
}

/** A 409 reply: someone changed the work since it was loaded. */
export const isStale = (r: ClientReply) => r.status === 409;

const call = <T>(method: Method, url: string, data?: unknown, params?: Record<string, number | undefined>) =>
  request<T>(url, { method, data, params, notify: false });

export const workApi = {
  create: (body: WorkCreate) => call<WorkView>("POST", W, body),
  update: (id: number, body: WorkUpdate) => call<WorkView>("PATCH", `${W}/${id}`, body),
  remove: (id: number, version: number) => call<null>("DELETE", `${W}/${id}`, undefined, { version }),
  submit: (id: number, version: number) => call<{ id: number; status: string }>("POST", `${W}/${id}/submit`, { version }),
  /** a work returned by format review, corrected before its deadline */
  formatResubmit: (id: number, version: number) =>
    call<{ id: number; status: string }>("POST", `${W}/${id}/format-resubmit`, { version }),
  addAuthor: (id: number, username: string, version: number) =>
    call<WorkView | null>("POST", `${W}/${id}/authors`, { username, version }),
  removeAuthor: (id: number, userId: number, version: number) =>
    call<WorkView | null>("DELETE", `${W}/${id}/authors/${userId}`, undefined, { version }),
  reorder: (id: number, userIds: number[], version: number) =>
    call<WorkView | null>("POST", `${W}/${id}/authors/order`, { userIds, version }),
  confirm: (id: number, version?: number) => call<WorkView>("POST", `${W}/${id}/confirm`, { version }),
  decline: (id: number, version?: number) => call<null>("POST", `${W}/${id}/decline`, { version }),
  addTeacher: (id: number, username: string, version: number) =>
    call<WorkView | null>("POST", `${W}/${id}/teachers`, { username, version }),
  removeTeacher: (id: number, userId: number, version: number) =>
    call<WorkView | null>("DELETE", `${W}/${id}/teachers/${userId}`, undefined, { version }),
  invite: (id: number, body: TeamInviteBody) => call<TeamInviteView>("POST", `${W}/${id}/invitations`, body),
  withdrawInvite: (id: number, invitationId: number) => call<null>("DELETE", `${W}/${id}/invitations/${invitationId}`),
  registerFromLink: (code: string, body: TeamInviteRegisterBody) =>
    request<CurrentUser>(`${TEAM_PUB}/${code}/register`, { method: "POST", data: body, notify: false }),
  teacherReview: (id: number, teacherReview: string | null, version: number) =>
    call<WorkView>("PATCH", `/Backend/Teacher/work/${id}/review`, { teacherReview, version }),
};

/** The print pages (opened in a new tab). */
export const printPath = (kind: "Registration" | "Copyright", id: number) => `/print/${kind}/${id}`;
