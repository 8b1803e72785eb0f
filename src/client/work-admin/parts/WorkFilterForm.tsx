/**
 * The works search of /WorkManagement and /work/export: id, name, school, 大类, status
 * (several), author, and (`contests`) the contest — under a national contest a promoted
 * work shows and filters by its national entry's state. Gives the filters as refine
 * CrudFilters (status as "in").
 */
import { Button, Form, Input, Select, Space } from "antd";
import type { CrudFilter } from "@refinedev/core";
import { WORK_STATES, WORK_STATE_NAMES } from "../../../shared/work/states";
import { int, someOf, text, type FilterValue, type ListSpec } from "../../crud/list-address";
import { useCategoryOptions } from "../../work-type/use-tree";
import { ContestSelect } from "../../notice/contest-select";

export interface WorkSearch {
  id?: string;
  name?: string;
  schoolName?: string;
  categoryId?: number;
  status?: string[];
  authorName?: string;
  contestId?: number;
}

/**
 * The works lists' view in the address (crud/list-address.ts), e.g.
 * /WorkManagement?contestId=3&status=accepted,format_resubmitted&page=2&sort=name&order=asc
 */
export const WORK_LIST_ADDRESS: ListSpec = {
  pageSize: 20,
  pageSizes: [20, 50, 100],
  sort: { field: "id", order: "desc" },
  sortable: ["id", "name", "categoryId", "schoolId", "status", "submittedAt"],
  filters: {
    contestId: int,
    id: int,
    name: text,
    schoolName: text,
    categoryId: int,
    status: someOf(WORK_STATES),
    authorName: text,
  },
};

/** The form's values from the address's filters. */
export function workSearchOf(v: Readonly<Record<string, FilterValue | undefined>>): WorkSearch {
  const str = (x: unknown) => (typeof x === "string" ? x : undefined);
  const num = (x: unknown) => (typeof x === "number" ? x : undefined);
  return {
    contestId: num(v.contestId),
    id: v.id === undefined ? undefined : String(v.id),
    name: str(v.name),
    schoolName: str(v.schoolName),
    categoryId: num(v.categoryId),
    status: Array.isArray(v.status) ? v.status.map(String) : undefined,
    authorName: str(v.authorName),
  };
}

const EMPTY: Required<Record<keyof WorkSearch, undefined>> = {
  id: undefined,
  name: undefined,
  schoolName: undefined,
  categoryId: undefined,
  status: undefined,
  authorName: undefined,
  contestId: undefined,
};

const STATUS_OPTIONS = WORK_STATES.map((s) => ({ value: s, label: WORK_STATE_NAMES[s] }));

export function toCrudFilters(v: WorkSearch): CrudFilter[] {
  const text = (s?: string) => s?.trim() || undefined;
  return [
    { field: "id", operator: "eq", value: text(v.id) ? Number(v.id) : undefined },
    { field: "name", operator: "eq", value: text(v.name) },
    { field: "schoolName", operator: "eq", value: text(v.schoolName) },
    { field: "categoryId", operator: "eq", value: v.categoryId },
    { field: "status", operator: "in", value: v.status?.length ? v.status : undefined },
    { field: "authorName", operator: "eq", value: text(v.authorName) },
    { field: "contestId", operator: "eq", value: v.contestId ?? undefined },
  ];
}

export function WorkFilterForm({
  onSearch,
  contests,
  initial,
}: {
  onSearch: (filters: CrudFilter[]) => void;
  contests?: boolean;
  initial?: WorkSearch;
}) {
  const [form] = Form.useForm<WorkSearch>();
  const { options: categories } = useCategoryOptions();
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={initial}
      onFinish={(v) => onSearch(toCrudFilters(v))}
      style={{ marginBottom: 16, rowGap: 8 }}
      data-testid="work-filters"
    >
      {contests && (
        <Form.Item name="contestId">
          <ContestSelect
            allowClear
            placeholder="全部赛事"
            aria-label="赛事"
            style={{ width: 340 }}
            defaultContestId={initial?.contestId}
            data-testid="filter-contest"
          />
        </Form.Item>
      )}
      <Form.Item name="id" rules={[{ pattern: /^\s*\d{10}\s*$/, message: "作品编号为 10 位数字" }]}>
        <Input allowClear placeholder="作品编号" style={{ width: 140 }} data-testid="filter-id" />
      </Form.Item>
      <Form.Item name="name">
        <Input allowClear placeholder="作品名称" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="schoolName">
        <Input allowClear placeholder="学校名称" style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="categoryId">
        <Select
          allowClear
          placeholder="作品大类"
          aria-label="作品大类"
          style={{ width: 190 }}
          options={categories}
          showSearch
          optionFilterProp="label"
        />
      </Form.Item>
      <Form.Item name="status">
        <Select
          mode="multiple"
          allowClear
          placeholder="状态（可多选）"
          aria-label="状态"
          style={{ minWidth: 200 }}
          options={STATUS_OPTIONS}
          maxTagCount="responsive"
        />
      </Form.Item>
      <Form.Item name="authorName">
        <Input allowClear placeholder="作者姓名" style={{ width: 120 }} />
      </Form.Item>
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="filter-search">
            查询
          </Button>
          <Button onClick={() => (form.setFieldsValue(EMPTY), onSearch(toCrudFilters({})))}>重置</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
