/** 专业组 majors by national code, searched on the server (majors resource); values are codes. */
import { useMemo, useRef, useState } from "react";
import { useList } from "@refinedev/core";
import { Select, type SelectProps } from "antd";
import type { MajorView } from "../../shared/major/schema";

export function MajorSelect(props: Omit<SelectProps<string[]>, "options" | "mode">) {
  const [keyword, setKeyword] = useState("");
  const labels = useRef(new Map<string, string>());
  const { result, query } = useList<MajorView>({
    resource: "majors",
    filters: [{ field: "keyword", operator: "contains", value: keyword }],
    pagination: { pageSize: 100 },
    sorters: [{ field: "code", order: "asc" }],
  });
  const options = useMemo(() => {
    const found = result.data.map((m) => ({ value: m.code, label: `${m.code} ${m.name}${m.archived ? "（已归档）" : ""}` }));
    for (const o of found) labels.current.set(o.value, o.label);
    const chosen = (props.value ?? [])
      .filter((c) => !found.some((o) => o.value === c))
      .map((c) => ({ value: c, label: labels.current.get(c) ?? c }));
    return [...found, ...chosen];
  }, [result.data, props.value]);
  return (
    <Select
      placeholder="搜索专业代码或名称"
      {...props}
      mode="multiple"
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      loading={query.isFetching}
      options={options}
    />
  );
}
