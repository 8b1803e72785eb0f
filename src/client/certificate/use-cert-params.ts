/**
 * The print pages' state in the address: contest, tab, list filters and page (a reload or
 * back keeps them). The contest admin's page defaults to holder kind 学生 (per student);
 * clearing it there is written as holderKind=all.
 */
import { useSearchParams } from "react-router";
import { CERT_ROW_STATUS, HOLDER_KINDS, type CertListQuery, type HolderKind } from "../../shared/certificate/print-schema";

export type PrintMode = "root" | "contest";
export type CertTab = "print" | "template";
export type CertFilters = Omit<CertListQuery, "contestId" | "current" | "pageSize">;

export interface CertParams {
  contestId?: number;
  tab: CertTab;
  filters: CertFilters;
  current: number;
  pageSize: number;
}

const id = (v: string | null) => (Number(v) > 0 && Number.isInteger(Number(v)) ? Number(v) : undefined);

/** Address parameters → state; unknown values are dropped. */
export function parseCertParams(sp: URLSearchParams, mode: PrintMode): CertParams {
  const kind = sp.get("holderKind");
  const status = sp.get("status") as CertFilters["status"] | null;
  const keyword = sp.get("keyword")?.trim().slice(0, 50);
  const unprinted = sp.get("unprinted");
  const holderKind: HolderKind | undefined =
    kind && (HOLDER_KINDS as readonly string[]).includes(kind)
      ? (kind as HolderKind)
      : kind === "all"
        ? undefined
        : mode === "contest"
          ? "author"
          : undefined;
  const filters: CertFilters = {
    ...(id(sp.get("groupId")) ? { groupId: id(sp.get("groupId")) } : {}),
    ...(id(sp.get("awardLevelId")) ? { awardLevelId: id(sp.get("awardLevelId")) } : {}),
    ...(id(sp.get("schoolId")) ? { schoolId: id(sp.get("schoolId")) } : {}),
    ...(holderKind ? { holderKind } : {}),
    ...(status && CERT_ROW_STATUS.includes(status) ? { status } : {}),
    ...(keyword ? { keyword } : {}),
    ...(unprinted === "1" ? { unprinted: true } : unprinted === "0" ? { unprinted: false } : {}),
  };
  const pageSize = Number(sp.get("pageSize"));
  return {
    contestId: id(sp.get("contestId")),
    tab: sp.get("tab") === "template" ? "template" : "print",
    filters,
    current: id(sp.get("current")) ?? 1,
    pageSize: [10, 20, 50, 100, 200].includes(pageSize) ? pageSize : 20,
  };
}

export function useCertParams(mode: PrintMode) {
  const [sp, setSp] = useSearchParams();
  const p = parseCertParams(sp, mode);
  const write = (next: CertParams) => {
    const q = new URLSearchParams();
    if (next.contestId) q.set("contestId", String(next.contestId));
    if (next.tab !== "print") q.set("tab", next.tab);
    const f = next.filters;
    for (const k of ["groupId", "awardLevelId", "schoolId", "status", "keyword"] as const)
      if (f[k] !== undefined && f[k] !== "") q.set(k, String(f[k]));
    if (f.holderKind) {
      if (!(mode === "contest" && f.holderKind === "author")) q.set("holderKind", f.holderKind);
    } else if (mode === "contest") q.set("holderKind", "all");
    if (f.unprinted !== undefined) q.set("unprinted", f.unprinted ? "1" : "0");
    if (next.current !== 1) q.set("current", String(next.current));
    if (next.pageSize !== 20) q.set("pageSize", String(next.pageSize));
    setSp(q, { replace: true });
  };
  return {
    ...p,
    /** the user's choice starts with the default filters; the page's first pick keeps those in the address */
    setContest: (contestId: number, keepFilters = false) =>
      write({
        ...p,
        contestId,
        filters: keepFilters ? p.filters : parseCertParams(new URLSearchParams(), mode).filters,
        current: 1,
      }),
    setTab: (tab: CertTab) => write({ ...p, tab }),
    /** a filter change goes back to page 1 */
    setFilters: (next: Partial<CertFilters>) => write({ ...p, filters: { ...p.filters, ...next }, current: 1 }),
    setPage: (current: number, pageSize: number) => write({ ...p, current: pageSize === p.pageSize ? current : 1, pageSize }),
  };
}
