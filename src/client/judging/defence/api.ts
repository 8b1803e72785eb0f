/**
 * The offline defence API as the screens call it: query keys, fetchers (throwing the
 * server's text) and the mutations (replies carry the server's sentence; callers show it).
 * Server: src/server/judging/routes/defence.ts; shapes: src/shared/judging/defence-schema.ts.
 */
import { useQuery } from "@tanstack/react-query";
import type {
  AdminGroupDefence,
  AdminSession,
  DefenceFileView,
  DrawView,
  GroupSheet,
  JudgeProfile,
  JudgeProfileBody,
  JudgeSession,
  MyScore,
  PastWork,
  ReplyView,
  ScoreBody,
  SessionInput,
  SignOffBody,
} from "../../../shared/judging/defence-schema";
import { fetchData } from "../../request";
import { request, type ClientReply } from "../../request";
import { uploadWithProgress } from "../../upload";
import { bj } from "../../format";

export const D = "/Backend/Defence";

export const defenceKeys = {
  mine: (contestId: number) => ["defence", "mine", contestId] as const,
  sheet: (sessionId: number) => ["defence", "sheet", sessionId] as const,
  admin: (groupId: number) => ["defence", "admin", groupId] as const,
  reply: (code: string) => ["defence", "reply", code] as const,
  profile: ["judge", "profile"] as const,
  past: (params: object) => ["judge", "past-works", params] as const,
};

export const useMySessions = (contestId: number) =>
  useQuery({
    queryKey: defenceKeys.mine(contestId),
    queryFn: () => fetchData<JudgeSession[]>(`${D}/my/${contestId}`),
    enabled: contestId > 0,
  });
export const useSheet = (sessionId: number) =>
  useQuery({
    queryKey: defenceKeys.sheet(sessionId),
    queryFn: () => fetchData<GroupSheet>(`${D}/session/${sessionId}/sheet`),
    enabled: sessionId > 0,
  });
export const useAdminDefence = (groupId: number) =>
  useQuery({
    queryKey: defenceKeys.admin(groupId),
    queryFn: () => fetchData<AdminGroupDefence>(`${D}/admin/group/${groupId}`),
    enabled: groupId > 0,
  });
export const useReply = (code: string) =>
  useQuery({
    queryKey: defenceKeys.reply(code),
    queryFn: () => fetchData<ReplyView>(`${D}/reply/${code}`),
    retry: false,
    enabled: code.length > 0,
  });
export const useJudgeProfile = () =>
  useQuery({ queryKey: defenceKeys.profile, queryFn: () => fetchData<JudgeProfile>("/Backend/Judge/profile") });
export const usePastWorks = (params: {
  keyword?: string;
  categoryId?: number;
  year?: number;
  current: number;
  pageSize: number;
}) =>
  useQuery({
    queryKey: defenceKeys.past(params),
    queryFn: () => fetchData<{ list: PastWork[]; total: number; before: number }>("/Backend/Judge/past-works", params),
    placeholderData: (prev) => prev,
  });

const call = <T>(method: "GET" | "POST" | "PUT" | "PATCH", url: string, data?: unknown) =>
  request<T>(url, { method, data, notify: false });

export const defenceApi = {
  score: (sessionId: number, workId: number, body: ScoreBody) =>
    call<MyScore>("PUT", `${D}/session/${sessionId}/work/${workId}/score`, body),
  draw: (sessionId: number, redraw = false) => call<DrawView>("POST", `${D}/session/${sessionId}/draw`, { redraw }),
  signOff: (sessionId: number, body: SignOffBody) => call<GroupSheet>("POST", `${D}/session/${sessionId}/sign-off`, body),
  createSession: (groupId: number, body: SessionInput) => call<AdminSession>("POST", `${D}/admin/group/${groupId}/session`, body),
  updateSession: (sessionId: number, body: SessionInput) => call<AdminSession>("PATCH", `${D}/admin/session/${sessionId}`, body),
  reopen: (sessionId: number, reason: string) => call<AdminSession>("POST", `${D}/admin/session/${sessionId}/reopen`, { reason }),
  saveProfile: (body: JudgeProfileBody) => call<JudgeProfile>("PUT", "/Backend/Judge/profile", body),
};

export const judgeFileUrl = (sessionId: number, workId: number, fileId: number) =>
  `${D}/session/${sessionId}/work/${workId}/files/${fileId}`;
export const replyFileUrl = (code: string, fileId: number) => `${D}/reply/${code}/files/${fileId}`;
export const sheetPath = (sessionId: number) => `/judge/offline-group-result?session=${sessionId}`;
export const replyPath = (code: string) => `/contest/reply/${code}`;

/** Uploads the defence material with progress. */
export function uploadDefence(
  code: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<ClientReply<DefenceFileView>> {
  return uploadWithProgress<DefenceFileView>(`${D}/reply/${code}/files`, {}, file, onProgress);
}

/** "2026年7月20日 09:15" (or "09:15") in Beijing time, like the date pickers. */
export function timeText(iso: string | null | undefined, withDate = true): string {
  if (!iso) return "—";
  const d = bj(iso);
  return d.format(withDate ? "YYYY年M月D日 HH:mm" : "HH:mm");
}
