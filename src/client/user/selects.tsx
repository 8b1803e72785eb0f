/**
 * Searchable selects over other resources for the user pages: schools and majors (the
 * server searches by keyword, 30 at a time) and contests — all of them for root, the
 * admin's own ones (GET /Backend/ContestAdmin/contest/mine) for a contest admin.
 */
import { useSelect } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { useMyContests as useMyContestsQuery } from "../notice/contest-select";
import { Select, type SelectProps } from "antd";
import type { ContestView } from "../../shared/contest/schema";
import type { MajorView } from "../../shared/major/schema";
import type { SchoolView } from "../../shared/school/schema";

type Known = { value: string | number; label: string } | null | undefined;

interface Props<V> {
  value?: V;
  onChange?: (v: V | undefined) => void;
  placeholder?: string;
  style?: React.CSSProperties;
  allowClear?: boolean;
  /** the current value's option, so an edit form shows its label before any search */
  known?: Known;
  id?: string;
}

const active: CrudFilter[] = [{ field: "archived", operator: "eq", value: false }];
const byKeyword = (value: string): CrudFilter[] => [...active, { field: "keyword", operator: "contains", value }];

/** Puts the known option first when the loaded page does not hold it. */
function withKnown(options: SelectProps["options"], known: Known): SelectProps["options"] {
  const list = options ?? [];
  if (!known || list.some((o) => o.value === known.value)) return list;
  return [known, ...list];
}

export function SchoolSelect({ known, ...rest }: Props<number>) {
  const { selectProps } = useSelect<SchoolView>({
    resource: "schools",
    optionLabel: (s) => `${s.name}（${s.code}）`,
    optionValue: (s) => s.id as unknown as string,
    filters: active,
    onSearch: byKeyword,
    pagination: { pageSize: 30, mode: "server" },
  });
  return (
    <Select<number>
      {...(selectProps as SelectProps<number>)}
      {...rest}
      options={withKnown(selectProps.options, known)}
      showSearch
      filterOption={false}
      placeholder={rest.placeholder ?? "输入学校名称或代码搜索"}
      notFoundContent="没有找到学校"
    />
  );
}

export function MajorSelect({ known, ...rest }: Props<string>) {
  const { selectProps } = useSelect<MajorView>({
    resource: "majors",
    optionLabel: (m) => `${m.code} ${m.name}`,
    optionValue: "code",
    filters: active,
    onSearch: byKeyword,
    pagination: { pageSize: 30, mode: "server" },
  });
  return (
    <Select<string>
      {...(selectProps as SelectProps<string>)}
      {...rest}
      options={withKnown(selectProps.options, known)}
      showSearch
      filterOption={false}
      placeholder={rest.placeholder ?? "输入专业代码或名称搜索"}
      notFoundContent="没有找到专业"
    />
  );
}

/** Every contest (root), searched by keyword. */
export function AnyContestSelect(props: Props<number>) {
  const { selectProps } = useSelect<ContestView>({
    resource: "contests",
    optionLabel: "name",
    optionValue: (c) => c.id as unknown as string,
    filters: active,
    onSearch: byKeyword,
    sorters: [{ field: "year", order: "desc" }],
    pagination: { pageSize: 30, mode: "server" },
  });
  return (
    <Select<number>
      {...(selectProps as SelectProps<number>)}
      {...props}
      showSearch
      filterOption={false}
      placeholder={props.placeholder ?? "输入赛事名称搜索"}
      notFoundContent="没有找到赛事"
    />
  );
}

/** The contests the signed-in contest admin runs (a workflow query: react-query, not a refine resource). */
export function useMyContests() {
  const mine = useMyContestsQuery();
  return { contests: mine.data ?? [], loading: mine.isLoading };
}

export function MyContestSelect(props: Props<number>) {
  const { contests, loading } = useMyContests();
  return (
    <Select
      {...props}
      loading={loading}
      placeholder={props.placeholder ?? "选择赛事"}
      notFoundContent="您目前没有负责的赛事"
      options={contests.map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}
