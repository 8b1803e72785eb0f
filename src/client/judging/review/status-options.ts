/** The review status filter's options (审查状态), shared by the review list and fast review. */
import { FORMAT_FILTERS, type FormatFilter } from "../../../shared/work/states";

export const STATUS_FILTER_OPTIONS = (Object.keys(FORMAT_FILTERS) as FormatFilter[]).map((k) => ({
  value: k,
  label: FORMAT_FILTERS[k].name,
}));
