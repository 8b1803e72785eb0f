/**
 * Selects over master-data resources with server-side search: users of one role (contest
 * admins, reviewers), contests of one level, schools. The current values' labels come from
 * the record being edited, so they show before any search.
 */
import { useMemo } from "react";
import { useSelect } from "@refinedev/antd";
import { Select, type SelectProps } from "antd";
import type { CrudFilter } from "@refinedev/core";
import type { ContestView, MemberRef } from "../../shared/contest/schema";
import type { ContestLevelKey } from "../../shared/contest/stages";
import type { SchoolView } from "../../shared/school/schema";
import type { UserView } from "../../shared/user/schema";

type Opt = { value: number; label: string };

const merge = (options: Opt[], known: Opt[]) => {
  const seen = new Set(options.map((o) => o.value));
  return [...options, ...known.filter((k) => !seen.has(k.value))];
};

const keyword = (value: string): CrudFilter[] => [{ field: "keyword", operator: "contains", value }];

type Pass = Omit<SelectProps, "options" | "onSearch" | "filterOption" | "loading">;

export function UserSelect({ role, known = [], ...rest }: { role: number; known?: MemberRef[] } & Pass) {
  const { selectProps } = useSelect<UserView>({
    resource: "users",
    optionLabel: (u) => `${u.name}（${u.username}）`,
    optionValue: (u) => u.id as never,
    filters: [{ field: "userType", operator: "in", value: [role] }],
    onSearch: keyword,
    pagination: { pageSize: 50 },
  });
  const options = useMemo(
    () =>
      merge(
        (selectProps.options ?? []) as Opt[],
        known.map((m) => ({ value: m.id, label: `${m.name}（${m.username}）` })),
      ),
    [selectProps.options, known],
  );
  return <Select mode="multiple" allowClear {...selectProps} {...rest} options={options} />;
}

export function ContestSelect({
  level,
  year,
  known,
  ...rest
}: { level?: ContestLevelKey; year?: number; known?: { id: number; name: string } | null } & Pass) {
  const filters: CrudFilter[] = [{ field: "archived", operator: "eq", value: false }];
  if (level) filters.push({ field: "level", operator: "eq", value: level });
  if (year) filters.push({ field: "year", operator: "eq", value: year });
  const { selectProps } = useSelect<ContestView>({
    resource: "contests",
    optionLabel: (c) => `${c.name}（${c.code}）`,
    optionValue: (c) => c.id as never,
    filters,
    onSearch: keyword,
    pagination: { pageSize: 50 },
  });
  const options = useMemo(
    () => merge((selectProps.options ?? []) as Opt[], known ? [{ value: known.id, label: known.name }] : []),
    [selectProps.options, known],
  );
  return <Select allowClear {...selectProps} {...rest} options={options} />;
}

export function SchoolSelect({
  province,
  known,
  ...rest
}: { province?: string | null; known?: { id: number; name: string } | null } & Pass) {
  const filters: CrudFilter[] = [{ field: "archived", operator: "eq", value: false }];
  if (province) filters.push({ field: "province", operator: "eq", value: province });
  const { selectProps } = useSelect<SchoolView>({
    resource: "schools",
    optionLabel: (s) => `${s.name}（${s.code}）`,
    optionValue: (s) => s.id as never,
    filters,
    onSearch: keyword,
    pagination: { pageSize: 50 },
  });
  const options = useMemo(
    () => merge((selectProps.options ?? []) as Opt[], known ? [{ value: known.id, label: known.name }] : []),
    [selectProps.options, known],
  );
  return <Select allowClear {...selectProps} {...rest} options={options} />;
}
