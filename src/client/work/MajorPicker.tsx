/** One major by national code, searched on the server (majors resource); the value is the code. */
import { useState } from "react";
import { useList } from "@refinedev/core";
import { Select, type SelectProps } from "antd";
import type { MajorView } from "../../shared/major/schema";

export function MajorPicker({
  current,
  ...props
}: Omit<SelectProps<string | null>, "options" | "mode"> & { current?: { code: string; name: string | null } }) {
  const [keyword, setKeyword] = useState("");
  const { result, query } = useList<MajorView>({
    resource: "majors",
    filters: [
      { field: "keyword", operator: "contains", value: keyword },
      { field: "archived", operator: "eq", value: false },
    ],
    pagination: { pageSize: 50 },
    sorters: [{ field: "code", order: "asc" }],
  });
  const options = result.data.map((m) => ({ value: m.code, label: `${m.code} ${m.name}` }));
  if (current && !options.some((o) => o.value === current.code))
    options.unshift({ value: current.code, label: `${current.code} ${current.name ?? ""}` });
  return (
    <Select
      placeholder="搜索专业代码或名称"
      allowClear
      {...props}
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      loading={query.isFetching}
      options={options}
    />
  );
}
