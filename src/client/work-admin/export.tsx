/**
 * /work/export (root): choose the works by the same filters as /WorkManagement and export
 * them with authors and teachers to .xlsx (a streamed export job with progress).
 */
import { useState } from "react";
import { useList, type CrudFilter } from "@refinedev/core";
import { Alert, Card, Space, Statistic } from "antd";
import type { WorkListItem } from "../../shared/work/schema";
import { filtersObject } from "../crud/filters";
import type { PageProps } from "../routing/model";
import { LIST_PATH } from "./api";
import { ExportButton } from "./parts/ExportButton";
import { WorkFilterForm } from "./parts/WorkFilterForm";

export default function WorkExport({ route }: PageProps) {
  const [filters, setFilters] = useState<CrudFilter[]>([]);
  // Only the count of matching works: one row is enough.
  const { result, query } = useList<WorkListItem>({
    resource: "contestWorks",
    meta: { path: LIST_PATH.contest },
    filters,
    pagination: { currentPage: 1, pageSize: 1 },
  });
  return (
    <Card title={route.label}>
      <Alert
        style={{ marginBottom: 16 }}
        type="info"
        showIcon
        message="按下列条件筛选作品，导出为 .xlsx 文件：每件作品一行，含作品信息、全部作者和指导教师。不填条件则导出全部作品。"
      />
      <WorkFilterForm onSearch={setFilters} />
      <Space size={32} align="center">
        <Statistic
          title="符合条件的作品"
          value={query.isLoading ? "…" : (result.total ?? 0)}
          suffix="件"
          data-testid="export-count"
        />
        <ExportButton type="primary" filters={filtersObject(filters)} />
      </Space>
    </Card>
  );
}
