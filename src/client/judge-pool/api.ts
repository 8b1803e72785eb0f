/**
 * The judge pool API as the /judgePool screens use it (routes: src/shared/judge-pool/schema.ts):
 * query keys, fetchers that throw the server's text, and the write calls (replies as they come).
 */
import { useQuery } from "@tanstack/react-query";
import type {
  JudgeHistory,
  JudgePersonCreate,
  JudgePersonUpdate,
  JudgePersonView,
  JudgeSelfBody,
  JudgeSelfView,
  MergeBody,
  TagCount,
} from "../../shared/judge-pool/schema";
import { request } from "../request";
import { fetchData } from "../request";

export const POOL = "/Backend/JudgePool";
export const PERSONS = `${POOL}/persons`;

// The keys are shared with the invitations (judge-queries/pool-keys.ts).
import { poolKeys } from "../judge-queries/pool-keys";
export { poolKeys };

export const useHistory = (id: number | null) =>
  useQuery({
    queryKey: poolKeys.history(id ?? 0),
    queryFn: () => fetchData<JudgeHistory>(`${PERSONS}/${id}/history`),
    enabled: !!id,
  });
export const useTags = (enabled = true) =>
  useQuery({ queryKey: poolKeys.tags, queryFn: () => fetchData<TagCount[]>(`${POOL}/tags`), enabled });
export const useSelf = () => useQuery({ queryKey: poolKeys.self, queryFn: () => fetchData<JudgeSelfView>(`${POOL}/self`) });

export const poolApi = {
  create: (body: JudgePersonCreate) => request<JudgePersonView>(PERSONS, { method: "POST", data: body, notify: false }),
  update: (id: number, body: JudgePersonUpdate) =>
    request<JudgePersonView>(`${PERSONS}/${id}`, { method: "PATCH", data: body, notify: false }),
  merge: (body: MergeBody) => request<JudgePersonView>(`${PERSONS}/merge`, { method: "POST", data: body, notify: false }),
  saveSelf: (body: JudgeSelfBody) => request<JudgeSelfView>(`${POOL}/self`, { method: "PUT", data: body, notify: false }),
};

/** "0.83" → "83%"; null → "—". */
export const percent = (x: number | null) => (x === null ? "—" : `${Math.round(x * 1000) / 10}%`);
/** A judge effect in points with its sign; null → "—". */
export const effectText = (x: number | null) => (x === null ? "—" : `${x > 0 ? "+" : ""}${x.toFixed(2)} 分`);
