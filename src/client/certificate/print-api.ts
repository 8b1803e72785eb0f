/**
 * The certificate printing and template API as the print pages call it (routes and shapes:
 * src/shared/certificate/print-schema.ts). Reads throw the server's text; writes resolve to
 * the reply, and the callers show its Chinese info themselves (notify: false).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PageOf } from "../../shared/crud/list";
import type { AwardView } from "../../shared/award/schema";
import type {
  BrowserPrint,
  BrowserPrintConfirm,
  BrowserPrintLogged,
  CertContest,
  CertListQuery,
  CertificateRow,
  PrintBody,
  PrintLogRow,
  TemplateBody,
  TemplateView,
} from "../../shared/certificate/print-schema";
import { post, put, request, type ClientReply } from "../request";
import { fetchData } from "../request";

export const C = "/Backend/Certificate";

export const certKeys = {
  all: ["certificates"] as const,
  contests: ["certificates", "contests"] as const,
  list: (q: CertListQuery) => ["certificates", "list", q] as const,
  prints: (id: number) => ["certificates", "prints", id] as const,
  templates: (contestId: number) => ["certificates", "templates", contestId] as const,
  awards: ["certificates", "awards"] as const,
};

export const useCertContests = () =>
  useQuery({ queryKey: certKeys.contests, queryFn: () => fetchData<CertContest[]>(`${C}/contests`) });

export const useCertList = (q: CertListQuery | null) =>
  useQuery({
    queryKey: certKeys.list(q ?? ({} as CertListQuery)),
    queryFn: () => fetchData<PageOf<CertificateRow>>(`${C}/list`, { ...q }),
    enabled: !!q,
    placeholderData: (prev) => prev,
  });

export const usePrintLog = (id: number | undefined) =>
  useQuery({ queryKey: certKeys.prints(id ?? 0), queryFn: () => fetchData<PrintLogRow[]>(`${C}/${id}/prints`), enabled: !!id });

export const useTemplates = (contestId: number) =>
  useQuery({
    queryKey: certKeys.templates(contestId),
    queryFn: () => fetchData<TemplateView[]>(`${C}/templates`, { contestId }),
  });

/** Award levels (every logged-in user reads them), for the 奖项 filter. */
export const useAwardLevels = () =>
  useQuery({
    queryKey: certKeys.awards,
    queryFn: async () => (await fetchData<PageOf<AwardView>>("/Backend/Admin/award", { pageSize: 100 })).list,
    staleTime: 300_000,
  });

/** The list, its print counts and logs are read again after a print. */
export function useCertRefresh() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: certKeys.all });
}

export const backgroundUrl = (sha256: string) => `${C}/background/${sha256}`;

export const certApi = {
  printBrowser: (body: PrintBody) => post<BrowserPrint>(`${C}/print/browser`, body, { notify: false }),
  /** The user confirmed the browser print happened: logs it. */
  confirmBrowser: (body: BrowserPrintConfirm) => post<BrowserPrintLogged>(`${C}/print/browser/confirm`, body, { notify: false }),
  printPdf: (body: PrintBody) => post<{ jobId: string }>(`${C}/print/pdf`, body, { notify: false }),
  saveTemplate: (body: TemplateBody) => put<TemplateView>(`${C}/templates`, body, { notify: false }),
  uploadBackground: (file: File): Promise<ClientReply<{ sha256: string; width: number; height: number }>> => {
    const form = new FormData();
    form.append("file", file);
    return request(`${C}/templates/background`, { method: "POST", data: form, notify: false });
  },
  /** The sample certificate as a PDF blob, or the server's message. */
  previewPdf: async (body: TemplateBody): Promise<{ blob?: Blob; error?: string }> => {
    try {
      const res = await fetch(`${C}/templates/preview`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/pdf, application/json" },
        body: JSON.stringify(body),
      });
      if (res.ok && (res.headers.get("content-type") ?? "").includes("pdf")) return { blob: await res.blob() };
      const text = await res.text();
      try {
        const reply = JSON.parse(text) as { info?: string };
        return { error: reply.info || `预览失败（${res.status}）` };
      } catch {
        return { error: `预览失败（${res.status}）` };
      }
    } catch {
      return { error: "网络异常，预览失败" };
    }
  },
};
