/**
 * A list's view in the page's address (issue 31): page, page size, sort and filters as plain,
 * readable query parameters, so Back returns to the same view and a copied link reproduces it.
 *
 *   /WorkManagement?page=2&pageSize=50&sort=name&order=desc&contestId=3&status=accepted,format_resubmitted&name=光伏
 *
 * - `page`: 1-based, left out on page 1. `pageSize`: left out at the list's default; only the
 *   list's own sizes are taken.
 * - `sort` + `order` (`asc` | `desc`): left out at the list's default sort; only the list's
 *   sortable fields are taken.
 * - every filter under its own name: text (trimmed, at most 100 characters), an id (positive
 *   integer), a yes/no (`true` | `false`), one of a closed set, or several of a closed set
 *   separated by commas.
 *
 * Anything malformed or unknown is dropped, so a hand-edited or stale address opens the list at
 * its defaults rather than failing. Parameters that are not the list's (another widget's) are
 * kept as they are. Pure: the hook is ./use-list-table.ts.
 */
import type { CrudFilter, CrudSort } from "@refinedev/core";

export type FilterKind =
  | { type: "text" }
  | { type: "int" }
  | { type: "bool" }
  | { type: "one"; of: readonly (string | number)[] }
  | { type: "some"; of: readonly (string | number)[] };

export const text: FilterKind = { type: "text" };
export const int: FilterKind = { type: "int" };
export const bool: FilterKind = { type: "bool" };
export const oneOf = (of: readonly (string | number)[]): FilterKind => ({ type: "one", of });
export const someOf = (of: readonly (string | number)[]): FilterKind => ({ type: "some", of });

export type FilterValue = string | number | boolean | (string | number)[];

export interface ListSpec {
  /** the default page size */
  pageSize: number;
  /** the sizes the list offers (the default is always allowed; antd's 10, 20, 50, 100 when not given) */
  pageSizes?: readonly number[];
  /** the default sort */
  sort?: CrudSort;
  /** the fields a user may sort by (the default sort's field always may) */
  sortable?: readonly string[];
  /** the filters the address carries, by name */
  filters: Readonly<Record<string, FilterKind>>;
}

export interface ListView {
  page: number;
  pageSize: number;
  /** undefined: the server's own order (the list has no default sort) */
  sort: CrudSort | undefined;
  filters: Record<string, FilterValue>;
}

const TEXT_MAX = 100;
const PAGE_MAX = 100_000;
const INT_MAX = 9_999_999_999;
const LIST_KEYS = ["page", "pageSize", "sort", "order"];

const toInt = (raw: string | null, max: number): number | undefined => {
  if (raw === null || !/^\d{1,10}$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  return n >= 1 && n <= max ? n : undefined;
};

/** One filter's value from its text in the address, or undefined when it is not a valid one. */
export function parseFilter(kind: FilterKind, raw: string | null): FilterValue | undefined {
  if (raw === null) return undefined;
  switch (kind.type) {
    case "text": {
      const v = raw.trim();
      return v && v.length <= TEXT_MAX ? v : undefined;
    }
    case "int":
      return toInt(raw, INT_MAX);
    case "bool":
      return raw === "true" ? true : raw === "false" ? false : undefined;
    case "one":
      return kind.of.find((o) => String(o) === raw.trim());
    case "some": {
      const asked = new Set(raw.split(",").map((s) => s.trim()));
      const picked = kind.of.filter((o) => asked.has(String(o)));
      return picked.length ? picked : undefined;
    }
  }
}

/** A filter value as the address writes it, or undefined when the filter is empty or not valid. */
export function formatFilter(kind: FilterKind, value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const raw = Array.isArray(value) ? value.map(String).join(",") : String(value as string | number | boolean);
  return parseFilter(kind, raw) === undefined ? undefined : raw.trim();
}

/** antd's size changer offers these unless the list sets its own. */
const ANTD_SIZES = [10, 20, 50, 100];
const sizesOf = (spec: ListSpec) => new Set([spec.pageSize, ...(spec.pageSizes ?? ANTD_SIZES)]);
const sortableOf = (spec: ListSpec) => new Set([...(spec.sort ? [spec.sort.field] : []), ...(spec.sortable ?? [])]);

/** The list's view in an address (its query string or parameters); what is missing or bad takes the default. */
export function parseListAddress(search: string | URLSearchParams, spec: ListSpec): ListView {
  const q = typeof search === "string" ? new URLSearchParams(search) : search;
  const size = toInt(q.get("pageSize"), 10_000);
  const field = q.get("sort");
  const order = q.get("order") ?? "asc";
  const sort =
    field !== null && sortableOf(spec).has(field) && (order === "asc" || order === "desc")
      ? { field, order: order as CrudSort["order"] }
      : spec.sort;
  const filters: Record<string, FilterValue> = {};
  for (const [name, kind] of Object.entries(spec.filters)) {
    const v = parseFilter(kind, q.get(name));
    if (v !== undefined) filters[name] = v;
  }
  return {
    page: toInt(q.get("page"), PAGE_MAX) ?? 1,
    pageSize: size !== undefined && sizesOf(spec).has(size) ? size : spec.pageSize,
    sort,
    filters,
  };
}

/**
 * The address parameters of a view: `keep` (the current ones) without the list's own, then the
 * view's values that differ from the list's defaults, in a fixed order.
 */
export function listAddressParams(view: ListView, spec: ListSpec, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  const own = new Set([...LIST_KEYS, ...Object.keys(spec.filters)]);
  keep?.forEach((value, key) => {
    if (!own.has(key)) out.append(key, value);
  });
  for (const [name, kind] of Object.entries(spec.filters)) {
    const v = formatFilter(kind, view.filters[name]);
    if (v !== undefined) out.set(name, v);
  }
  if (view.sort && sortableOf(spec).has(view.sort.field) && !sameSort(view.sort, spec.sort)) {
    out.set("sort", view.sort.field);
    out.set("order", view.sort.order);
  }
  if (view.pageSize !== spec.pageSize && sizesOf(spec).has(view.pageSize)) out.set("pageSize", String(view.pageSize));
  if (view.page > 1) out.set("page", String(Math.min(view.page, PAGE_MAX)));
  return out;
}

/** The query string ("?…", or "" when the view is the list's default) of a view; commas as they are. */
export function listAddress(view: ListView, spec: ListSpec, keep?: URLSearchParams): string {
  const s = listAddressParams(view, spec, keep).toString().replace(/%2C/gi, ",");
  return s ? `?${s}` : "";
}

const sameSort = (a: CrudSort | undefined, b: CrudSort | undefined) => a?.field === b?.field && a?.order === b?.order;

/** The view's filters as refine's CrudFilters (several values as "in", one as "eq"). */
export function crudFiltersOf(filters: Record<string, FilterValue>): CrudFilter[] {
  return Object.entries(filters).map(([field, value]) => ({ field, operator: Array.isArray(value) ? "in" : "eq", value }));
}

/**
 * refine's CrudFilters (as the pages' filter bars build them) applied to the view's filters:
 * "replace" keeps only the given ones, "merge" changes the given ones; an empty value clears its
 * filter; a field the list does not carry in its address is ignored.
 */
export function applyCrudFilters(
  current: Record<string, FilterValue>,
  given: readonly CrudFilter[],
  spec: ListSpec,
  behavior: "merge" | "replace" = "merge",
): Record<string, FilterValue> {
  const out = behavior === "replace" ? {} : { ...current };
  for (const f of given) {
    if (!("field" in f)) continue;
    const kind = spec.filters[f.field];
    if (!kind) continue;
    const raw = formatFilter(kind, f.value);
    const v = raw === undefined ? undefined : parseFilter(kind, raw);
    if (v === undefined) delete out[f.field];
    else out[f.field] = v;
  }
  return out;
}

/** Whether two views show the same rows (same page, size, sort and filters). */
export const sameView = (a: ListView, b: ListView, spec: ListSpec) => listAddress(a, spec) === listAddress(b, spec);
