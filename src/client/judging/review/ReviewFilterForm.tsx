/** The filter form of the format review list (review-list.tsx): 审查状态, 作品大类, 关键词; a change goes to page 1. */
import { Form, Input, Select } from "antd";
import type { ReviewFilters } from "../../../shared/review/schema";
import { useCategoryOptions } from "../../work-type/use-tree";
import { cleanFilters } from "./api";
import { STATUS_FILTER_OPTIONS } from "./status-options";

export function ReviewFilterForm({
  f,
  setF,
}: {
  f: ReviewFilters;
  setF: (f: Partial<ReviewFilters & { current: number; pageSize: number }>) => void;
}) {
  const [form] = Form.useForm();
  const cats = useCategoryOptions();
  return (
    <Form
      form={form}
      layout="inline"
      style={{ marginBottom: 16, rowGap: 8 }}
      initialValues={{ status: f.status, categoryId: f.categoryId, keyword: f.keyword }}
      onFinish={(v: ReviewFilters) =>
        setF({
          ...cleanFilters(v),
          status: v.status,
          categoryId: v.categoryId,
          keyword: v.keyword?.trim() || undefined,
          current: 1,
        })
      }
    >
      <Form.Item name="status" label="审查状态">
        <Select
          allowClear
          placeholder="全部"
          style={{ width: 140 }}
          options={STATUS_FILTER_OPTIONS}
          data-testid="filter-status"
          onChange={() => form.submit()}
        />
      </Form.Item>
      <Form.Item name="categoryId" label="作品大类">
        <Select
          allowClear
          placeholder="全部大类"
          style={{ width: 220 }}
          options={cats.options}
          loading={cats.loading}
          onChange={() => form.submit()}
        />
      </Form.Item>
      <Form.Item name="keyword" label="关键词">
        <Input.Search
          allowClear
          placeholder="作品编号或名称"
          style={{ width: 240 }}
          onSearch={() => form.submit()}
          data-testid="filter-keyword"
        />
      </Form.Item>
    </Form>
  );
}
