/**
 * The judging setting API's base path and query keys, and the query of a contest's judge groups:
 * used by the judging admin screens (judging/admin/api.ts re-exports them) and by the certificate
 * printing filters (certificate), which sit above judging.
 */
import { useQuery } from "@tanstack/react-query";
import type { JudgeGroupView, PoolFilters } from "../../shared/judging/schema";
import { fetchData } from "../request";

export const A = "/Backend/ContestAdmin/judging";

export const judgingKeys = {
  all: (contestId: number) => ["judging-admin", contestId] as const,
  settings: (contestId: number) => ["judging-admin", contestId, "settings"] as const,
  groups: (contestId: number) => ["judging-admin", contestId, "groups"] as const,
  judges: (contestId: number) => ["judging-admin", contestId, "judges"] as const,
  pool: (contestId: number, f: PoolFilters & { current: number; pageSize: number }) =>
    ["judging-admin", contestId, "pool", f] as const,
  check: (contestId: number) => ["judging-admin", contestId, "check"] as const,
};

export const useGroups = (contestId: number) =>
  useQuery({
    queryKey: judgingKeys.groups(contestId),
    queryFn: () => fetchData<JudgeGroupView[]>(`${A}/${contestId}/groups`),
    enabled: !!contestId,
  });
