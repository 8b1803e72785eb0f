import type { CrudFilter } from "@refinedev/core";

/** refine's current filters as the plain object the export endpoint takes. */
export function filtersObject(filters: readonly CrudFilter[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of filters) {
    if ("field" in f && f.value !== undefined && f.value !== null && f.value !== "") out[f.field] = f.value;
  }
  return out;
}
