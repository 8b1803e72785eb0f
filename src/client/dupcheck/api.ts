/**
 * The duplicate check's API as the screens call it (src/server/dupcheck/routes.ts; shapes in
 * src/shared/dupcheck/api.ts): query keys, fetchers that throw the server's text, the checks
 * by text and document, the side by side calls, the report and the admin calls.
 */
import { useQuery } from "@tanstack/react-query";
import type { PageOf } from "../../shared/crud/list";
import type {
  DupAdminStats,
  DupEntriesQuery,
  DupEntryRow,
  DupFilters,
  DupPairView,
  DupReportContest,
  DupSettingsBody,
  DupSheetPanel,
  DupTextReport,
  DupWorkReport,
} from "../../shared/dupcheck/api";
import type { DupIgnoredShingle, DupSettings } from "../../shared/dupcheck/schema";
import { post, put, request, type ClientReply, type Params } from "../request";
import { fetchData } from "../request";

export const D = "/Backend/DupCheck";

export const dupKeys = {
  all: ["dupcheck"] as const,
  work: (id: number, f: DupFilters) => ["dupcheck", "work", id, f] as const,
  pair: (a: number, b: number) => ["dupcheck", "pair", a, b] as const,
  sheet: (id: number) => ["dupcheck", "sheet", id] as const,
  contests: ["dupcheck", "contests"] as const,
  stats: ["dupcheck", "admin", "stats"] as const,
  entries: (q: DupEntriesQuery) => ["dupcheck", "admin", "entries", q] as const,
  ignored: (current: number, pageSize: number) => ["dupcheck", "admin", "ignored", current, pageSize] as const,
};

const params = (f: object): Params =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== null && v !== "")) as Params;

export const useWorkCheck = (id: number, f: DupFilters) =>
  useQuery({
    queryKey: dupKeys.work(id, f),
    queryFn: () => fetchData<DupWorkReport>(`${D}/work/${id}`, params(f)),
    enabled: id > 0,
    placeholderData: (prev) => prev,
    staleTime: 10_000,
  });

export const usePair = (a: number, b: number) =>
  useQuery({
    queryKey: dupKeys.pair(a, b),
    queryFn: () => fetchData<DupPairView>(`${D}/pair/${a}/${b}`),
    enabled: a > 0 && b > 0,
  });

export const sheetDupQuery = (workId: number) => ({
  queryKey: dupKeys.sheet(workId),
  queryFn: () => fetchData<DupSheetPanel>(`/Backend/Review/work/${workId}/dupcheck`),
  staleTime: 30_000,
});
export const useSheetDup = (workId: number) => useQuery({ ...sheetDupQuery(workId), enabled: workId > 0 });

export const checkText = (text: string, f: DupFilters) =>
  post<DupTextReport>(`${D}/text`, { text, ...params(f) }, { notify: false });
export const pairText = (text: string, workId: number, title?: string) =>
  post<DupPairView>(`${D}/pair-text`, { text, workId, ...(title ? { title } : {}) }, { notify: false });

function formOf(file: File) {
  const form = new FormData();
  form.append("file", file);
  return form;
}
export const checkDocument = (file: File, f: DupFilters) =>
  request<DupTextReport>(`${D}/document`, {
    method: "POST",
    params: params(f),
    data: formOf(file),
    notify: false,
    timeout: 120_000,
  });
export const pairDocument = (file: File, workId: number) =>
  request<DupPairView>(`${D}/pair-document`, {
    method: "POST",
    params: { workId },
    data: formOf(file),
    notify: false,
    timeout: 120_000,
  });

export const useReportContests = (enabled: boolean) =>
  useQuery({ queryKey: dupKeys.contests, queryFn: () => fetchData<DupReportContest[]>(`${D}/contests`), enabled });
export const startReport = (contestId: number, threshold: number | undefined, outsideContest: boolean) =>
  post<{ jobId: string }>(
    `${D}/report`,
    { contestId, outsideContest, ...(threshold !== undefined ? { threshold } : {}) },
    { notify: false },
  );

export const useAdminStats = (poll: boolean) =>
  useQuery({
    queryKey: dupKeys.stats,
    queryFn: () => fetchData<DupAdminStats>(`${D}/admin/stats`),
    refetchInterval: poll ? 2000 : false,
  });
export const useEntries = (q: DupEntriesQuery) =>
  useQuery({
    queryKey: dupKeys.entries(q),
    queryFn: () => fetchData<PageOf<DupEntryRow>>(`${D}/admin/entries`, params(q)),
    placeholderData: (prev) => prev,
  });
export const useIgnored = (current: number, pageSize: number) =>
  useQuery({
    queryKey: dupKeys.ignored(current, pageSize),
    queryFn: () => fetchData<PageOf<DupIgnoredShingle>>(`${D}/admin/ignored`, { current, pageSize }),
    placeholderData: (prev) => prev,
  });
export const saveSettings = (body: DupSettingsBody): Promise<ClientReply<DupSettings>> =>
  put<DupSettings>(`${D}/admin/settings`, body);
export const startRebuild = (reextract: boolean) =>
  post<{ jobId: string }>(`${D}/admin/rebuild`, { reextract }, { notify: false });
export const reindex = (workId: number) => post<{ workId: number }>(`${D}/admin/work/${workId}/reindex`, {});
