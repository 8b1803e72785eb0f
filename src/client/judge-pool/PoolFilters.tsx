/**
 * The filter bar of the pool table (PoolTable.tsx): search by name, school or email, category
 * (a 大类 also finds its 小类), expertise, province, school, this year's availability, history,
 * judged year and account. `set` merges a change into the filters (and goes back to page 1).
 */
import { Input, InputNumber, Select, Space } from "antd";
import { PROVINCES } from "../../shared/provinces";
import { SchoolPicker } from "../account/SchoolPicker";
import { useTags } from "./api";
import { CategorySelect } from "./parts";
import type { PoolFilterValues } from "./use-pool-list";

export function PoolFilters({
  filters,
  keyword,
  setKeyword,
  set,
}: {
  filters: PoolFilterValues;
  keyword: string;
  setKeyword: (v: string) => void;
  set: (patch: Partial<PoolFilterValues>) => void;
}) {
  const tags = useTags();
  return (
    <Space wrap data-testid="pool-filters">
      <Input.Search
        allowClear
        placeholder="姓名、学校或邮箱"
        aria-label="姓名、学校或邮箱"
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => set({ keyword: v.trim() || undefined })}
        style={{ width: 220 }}
        data-testid="pool-search"
      />
      <CategorySelect
        value={filters.categoryId}
        onChange={(v) => set({ categoryId: v ?? undefined })}
        placeholder="评审类别（大类含小类）"
        aria-label="评审类别（大类含小类）"
        style={{ width: 220 }}
        data-testid="pool-category"
      />
      <Select
        allowClear
        showSearch
        placeholder="专业特长"
        aria-label="专业特长"
        style={{ width: 150 }}
        value={filters.tag}
        onChange={(v) => set({ tag: v })}
        options={(tags.data ?? []).map((t) => ({ value: t.tag, label: `${t.tag}（${t.count}）` }))}
        data-testid="pool-tag"
      />
      <Select
        allowClear
        showSearch
        placeholder="省份"
        aria-label="省份"
        style={{ width: 130 }}
        value={filters.province}
        onChange={(v) => set({ province: v })}
        options={PROVINCES.map((p) => ({ value: p, label: p }))}
      />
      <div style={{ width: 220 }}>
        <SchoolPicker
          size="middle"
          allowClear
          aria-label="学校"
          value={filters.schoolId}
          onChange={(v) => set({ schoolId: v ?? undefined })}
        />
      </div>
      <Select
        allowClear
        placeholder="本年度参评意愿"
        aria-label="本年度参评意愿"
        style={{ width: 150 }}
        value={filters.available}
        onChange={(v) => set({ available: v })}
        options={[
          { value: "yes", label: "可参评" },
          { value: "no", label: "不可参评" },
          { value: "unknown", label: "未填写" },
        ]}
        data-testid="pool-available"
      />
      <Select
        allowClear
        placeholder="评审经历"
        aria-label="评审经历"
        style={{ width: 130 }}
        value={filters.history}
        onChange={(v) => set({ history: v })}
        options={[
          { value: "any", label: "评审过" },
          { value: "none", label: "从未评审" },
        ]}
      />
      <InputNumber
        placeholder="评审年度"
        aria-label="评审年度"
        min={2000}
        max={2100}
        style={{ width: 110 }}
        value={filters.judgedYear}
        onChange={(v) => set({ judgedYear: v ?? undefined })}
      />
      <Select
        allowClear
        placeholder="账号"
        aria-label="账号"
        style={{ width: 110 }}
        value={filters.hasAccount}
        onChange={(v) => set({ hasAccount: v })}
        options={[
          { value: true, label: "已有账号" },
          { value: false, label: "没有账号" },
        ]}
      />
    </Space>
  );
}
