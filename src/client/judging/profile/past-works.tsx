/**
 * /judge/yearWorkQuery: earlier years' works, to spot a work entered again — by name or
 * work id, category and year; blind: id, year, name, category and the published award
 * only (no authors, teachers or school).
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import type { PastWork } from "../../../shared/judging/defence-schema";
import type { PageProps } from "../../routing/model";
import { fetchData } from "../../request";
import { usePastWorks } from "../defence/api";

interface Filters {
  keyword?: string;
  categoryId?: number;
  year?: number;
}

interface Category {
  id: number;
  name: string;
  parentId: number | null;
}

function useCategoryOptions() {
  return useQuery({
    queryKey: ["work-types", "options"],
    queryFn: async () => {
      const page = await fetchData<{ list: Category[] }>("/Backend/Admin/work-type", { pageSize: 500 });
      const tops = page.list.filter((c) => c.parentId === null);
      return tops.map((t) => ({
        label: t.name,
        title: t.name,
        options: [
          { label: `${t.name}（全部）`, value: t.id },
          ...page.list.filter((c) => c.parentId === t.id).map((c) => ({ label: c.name, value: c.id })),
        ],
      }));
    },
    staleTime: 300_000,
  });
}

export default function PastWorks({ route }: PageProps) {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const q = usePastWorks({ ...filters, ...page });
  const cats = useCategoryOptions();
  const before = q.data?.before;

  return (
    <Card title={route.label} data-testid="past-works">
      <Space direction="vertical" size={12} style={{ width: "100%" }}>
        <Typography.Text type="secondary">
          查询{before ? ` ${before} 年以前` : "往年"}
          参赛的作品，用于发现重复参赛的作品。仅显示作品编号、年份、名称、类别和已公布的奖项，不显示作者和学校。
        </Typography.Text>
        <Form<Filters>
          layout="inline"
          onFinish={(v) => {
            setFilters({
              keyword: v.keyword?.trim() || undefined,
              categoryId: v.categoryId ?? undefined,
              year: v.year ?? undefined,
            });
            setPage((p) => ({ ...p, current: 1 }));
          }}
        >
          <Form.Item name="keyword">
            <Input allowClear placeholder="作品名称或 10 位作品编号" style={{ width: 240 }} data-testid="past-keyword" />
          </Form.Item>
          <Form.Item name="categoryId">
            <Select
              allowClear
              placeholder="作品类别"
              aria-label="作品类别"
              style={{ width: 240 }}
              options={cats.data ?? []}
              loading={cats.isLoading}
              showSearch
              optionFilterProp="label"
            />
          </Form.Item>
          <Form.Item name="year">
            <InputNumber placeholder="年份" min={2000} max={before ? before - 1 : 2100} style={{ width: 110 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="past-search">
            查询
          </Button>
        </Form>
        {q.error && <Alert type="error" showIcon message={q.error.message} />}
        <Table<PastWork>
          rowKey="id"
          size="middle"
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          data-testid="past-table"
          locale={{ emptyText: "没有符合条件的往年作品" }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: q.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (n) => `共 ${n} 件`,
            onChange: (current, pageSize) => setPage({ current, pageSize }),
          }}
          columns={[
            { title: "作品编号", dataIndex: "id", width: 130 },
            { title: "年份", dataIndex: "year", width: 80 },
            { title: "作品名称", dataIndex: "name" },
            { title: "类别", render: (_, w) => [w.category, w.subcategory].filter(Boolean).join(" / ") },
            {
              title: "获奖",
              width: 200,
              render: (_, w) =>
                w.awards.length ? (
                  w.awards.map((a) => (
                    <Tag key={a} color="gold">
                      {a}
                    </Tag>
                  ))
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
