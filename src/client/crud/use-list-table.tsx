/**
 * The paginated lists' table hook (issue 31): refine's `useList` with the view — page, page size,
 * sort, filters — read from and written to the page's address (./list-address.ts), so Back
 * returns to the same view and a copied link reproduces it. The address is the one source of the
 * view: a table change or a filter replaces the address (no history entry per click), and any
 * address change (Back, a link, the menu) is what the table shows.
 *
 * Why not refine's own `syncWithLocation`: its address is qs-nested
 * (`filters[0][field]=status&filters[0][operator]=in&filters[0][value][0]=…`), written
 * unencoded (a `&` or `#` in a search text breaks it), read back with every value as a string
 * and never checked (a bad value goes to the server, whose 422 leaves the page empty); it keeps
 * its own copy of the view, re-read from the address only when the component mounts, so a link
 * to the same page while on it changes nothing; and it does not give antd the sort (the column
 * shows no arrow after Back) or the pages' filter bars their values.
 *
 * Also returned: `values` (the address's filters, for the filter bars' values) and `formKey`,
 * which changes when the address changed from outside the list (Back/forward, a link, the menu),
 * so a filter form keyed by it starts again from the address. `ListTable` shows the sort on its
 * columns (antd needs each sortable column's `sortOrder`).
 */
import { cloneElement, Fragment, isValidElement, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";
import { Grid, Table, type TablePaginationConfig, type TableProps } from "antd";
import type { SorterResult } from "antd/es/table/interface";
import { useList, type BaseRecord, type CrudFilter, type CrudSort, type MetaQuery } from "@refinedev/core";
import {
  applyCrudFilters,
  crudFiltersOf,
  listAddress,
  parseListAddress,
  type FilterValue,
  type ListSpec,
  type ListView,
} from "./list-address";

const OWN_WRITE = { listAddress: true };

/** The list's view in the address, a writer of it, and the key of the filter forms. */
export function useListAddress(spec: ListSpec) {
  const location = useLocation();
  const navigate = useNavigate();
  const search = location.search;
  const view = useMemo(() => parseListAddress(search, spec), [search, spec]);
  // The address changed from outside (not by `go`): filter forms start again from it.
  const own = (location.state as typeof OWN_WRITE | null)?.listAddress === true;
  const [seen, setSeen] = useState(search);
  const [formKey, setFormKey] = useState(0);
  if (seen !== search) {
    setSeen(search);
    if (!own) setFormKey((k) => k + 1);
  }
  const { pathname, hash } = location;
  // The address as last written: the router renders a navigation as a transition, so a second
  // change right after the first (a filter, then a sort) must build on the first, not on the
  // address this render still shows.
  const latest = useRef(search);
  useEffect(() => {
    latest.current = search;
  }, [search]);
  const go = useCallback(
    (next: Partial<ListView>) => {
      const prev = new URLSearchParams(latest.current);
      const to = listAddress({ ...parseListAddress(prev, spec), ...next }, spec, prev);
      if (to === (latest.current === "?" ? "" : latest.current)) return Promise.resolve();
      latest.current = to;
      return navigate({ pathname, search: to, hash }, { replace: true, state: OWN_WRITE, preventScrollReset: true });
    },
    [navigate, pathname, hash, spec],
  );
  return { view, go, formKey };
}

export interface ListTableOptions {
  resource: string;
  meta?: MetaQuery;
  /** what the address carries: page sizes, sortable fields, filters (a constant or memoised) */
  address: ListSpec;
  /** filters always applied and never in the address (the page's own scope) */
  permanent?: CrudFilter[];
}

const NO_FILTERS: CrudFilter[] = [];

export function useListTable<T extends BaseRecord>({ resource, meta, address: spec, permanent = NO_FILTERS }: ListTableOptions) {
  const { view, go, formKey } = useListAddress(spec);
  const breakpoint = Grid.useBreakpoint();
  const sorters = useMemo(() => (view.sort ? [view.sort] : []), [view.sort]);
  const filters = useMemo(() => [...permanent, ...crudFiltersOf(view.filters)], [permanent, view.filters]);
  const { query, result } = useList<T>({
    resource,
    meta,
    pagination: { currentPage: view.page, pageSize: view.pageSize },
    sorters,
    filters,
  });

  // A page past the end (an old link, a list that shrank): the last page instead of an empty one.
  const total = query.isSuccess && !query.isPlaceholderData ? result.total : undefined;
  useEffect(() => {
    if (total !== undefined && view.page > 1 && (view.page - 1) * view.pageSize >= total) {
      void go({ page: Math.max(1, Math.ceil(total / view.pageSize)) });
    }
  }, [total, view.page, view.pageSize, go]);

  const setFilters = useCallback(
    (given: CrudFilter[], behavior: "merge" | "replace" = "merge") => {
      void go({ filters: applyCrudFilters(view.filters, given, spec, behavior), page: 1 });
    },
    [go, view.filters, spec],
  );
  const setSorters = useCallback(
    (s: CrudSort[]) => {
      void go({ sort: s[0] ?? spec.sort, page: 1 });
    },
    [go, spec],
  );

  const onChange: NonNullable<TableProps<T>["onChange"]> = (pagination: TablePaginationConfig, _filters, sorter, extra) => {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const field = s?.order ? String(s.columnKey ?? (Array.isArray(s.field) ? s.field.join(".") : s.field)) : undefined;
    const sort: CrudSort | undefined = field ? { field, order: s?.order === "descend" ? "desc" : "asc" } : spec.sort;
    void go({
      sort,
      page: extra.action === "paginate" ? (pagination.current ?? 1) : 1,
      pageSize: pagination.pageSize ?? view.pageSize,
    });
  };

  const tableProps: TableProps<T> = {
    dataSource: result.data,
    loading: !query.isFetched,
    onChange,
    pagination: {
      current: view.page,
      pageSize: view.pageSize,
      total: result.total,
      simple: !breakpoint.sm,
      position: !breakpoint.sm ? ["bottomCenter"] : ["bottomRight"],
    },
    scroll: { x: true },
  };

  return {
    tableProps,
    tableQuery: query,
    /** the filters applied (the permanent ones first), e.g. for an export of the filtered rows */
    filters,
    setFilters,
    sorters,
    setSorters,
    /** the address's filter values, by name (for the filter bars) */
    values: view.filters as Readonly<Record<string, FilterValue | undefined>>,
    view,
    formKey,
  };
}

/**
 * A search box's text: the address's value at first, and again whenever the address changed
 * from outside the list (`formKey`); typing changes only the box until it is searched.
 */
export function useAddressText(value: FilterValue | undefined, formKey: number) {
  const fromAddress = typeof value === "string" ? value : "";
  const [textValue, setText] = useState(fromAddress);
  const [key, setKey] = useState(formKey);
  if (key !== formKey) {
    setKey(formKey);
    setText(fromAddress);
  }
  return [textValue, setText] as const;
}

type Order = "ascend" | "descend" | null;

/** antd's sort order of a column (by its key, else its dataIndex) under the view's sort. */
function orderOf(sort: CrudSort | undefined, key: unknown): Order {
  if (!sort || String(key) !== sort.field) return null;
  return sort.order === "desc" ? "descend" : "ascend";
}

/**
 * Every sortable column (also inside fragments and arrays) with its `sortOrder` from the sort.
 * By hand, not Children.map: that would prefix the columns' keys, which antd reads as their keys.
 */
export function withSortOrder(children: ReactNode, sort: CrudSort | undefined): ReactNode {
  if (Array.isArray(children)) return children.map((c: ReactNode) => withSortOrder(c, sort));
  if (!isValidElement<{ children?: ReactNode; sorter?: unknown; dataIndex?: unknown }>(children)) return children;
  if (children.type === Fragment) return withSortOrder(children.props.children, sort);
  if (!children.props.sorter) return children;
  const dataIndex = children.props.dataIndex;
  const key = children.key ?? (Array.isArray(dataIndex) ? dataIndex.join(".") : dataIndex);
  return cloneElement(children as React.ReactElement<{ sortOrder?: Order }>, { sortOrder: orderOf(sort, key) });
}

/** antd's Table whose sortable columns show the list's sort (`sort`: the hook's `view.sort`). */
export function ListTable<T extends object>({ sort, children, ...props }: TableProps<T> & { sort: CrudSort | undefined }) {
  return <Table<T> {...props}>{withSortOrder(children, sort)}</Table>;
}
