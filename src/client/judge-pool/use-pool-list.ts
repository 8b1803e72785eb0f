/**
 * The pool table's data hook (PoolTable.tsx): filters, paging and server-side sort, the list
 * query (previous page kept while loading), a refresh of every pool query, and the table's
 * change handler.
 */
import { useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SorterResult } from "antd/es/table/interface";
import type { PageOf } from "../../shared/crud/list";
import type { JudgePersonFilters, JudgePersonView } from "../../shared/judge-pool/schema";
import { fetchData } from "../request";
import { PERSONS, poolKeys } from "./api";

export type PoolFilterValues = Omit<JudgePersonFilters, "keyword"> & { keyword?: string };
type Filters = PoolFilterValues;

export function usePoolList() {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const [sort, setSort] = useState<string | null>(null);
  const qc = useQueryClient();

  const params = { ...filters, current: page.current, pageSize: page.pageSize, ...(sort ? { sort } : {}) };
  const q = useQuery({
    queryKey: [...poolKeys.all, "list", params],
    queryFn: () => fetchData<PageOf<JudgePersonView>>(PERSONS, params as never),
    placeholderData: keepPreviousData,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: poolKeys.all });
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => {
      const next = { ...f, ...patch };
      for (const k of Object.keys(next) as (keyof Filters)[])
        if (next[k] === undefined || next[k] === null || next[k] === "") delete next[k];
      return next;
    });
    setPage((p) => ({ ...p, current: 1 }));
  };

  const onTableChange = (
    pagination: { current?: number; pageSize?: number },
    _f: unknown,
    sorter: SorterResult<JudgePersonView> | SorterResult<JudgePersonView>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order ? String(s.columnKey ?? s.field) : null;
    setSort(field ? `${s.order === "descend" ? "-" : ""}${field}` : null);
    setPage({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? 20 });
  };
  const order = (key: string) => (sort === key ? "ascend" : sort === `-${key}` ? "descend" : null);
  return { filters, set, page, q, refresh, onTableChange, order };
}
