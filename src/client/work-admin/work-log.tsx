/**
 * /author/WorkLog (root): the log of every work, newest first (GET /Backend/Admin/work-log),
 * filtered by work id and action: who changed what, when, with old and new values.
 */
import { useTable } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Card, Input, Select, Space, Table } from "antd";
import { Link } from "react-router";
import type { WorkLogEntry } from "../../shared/work/schema";
import { LOG_ACTION_NAMES } from "../../shared/work/fields";
import type { PageProps } from "../routing/model";
import { detailPath } from "./api";
import { ChangeList } from "./parts/ChangeList";
import { fmtTime } from "../format";

export default function WorkLogPage({ route }: PageProps) {
  const { tableProps, setFilters } = useTable<WorkLogEntry>({
    resource: "workLogs",
    meta: { path: "Admin/work-log" },
    pagination: { pageSize: 20 },
    syncWithLocation: false,
  });
  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");
  return (
    <Card title={route.label}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="作品编号（10 位）"
          aria-label="作品编号（10 位）"
          style={{ width: 220 }}
          onSearch={(v) => setFilter("workId", /^\d{10}$/.test(v.trim()) ? Number(v.trim()) : undefined)}
          data-testid="log-work-id"
        />
        <Select
          allowClear
          placeholder="操作"
          aria-label="操作"
          style={{ width: 180 }}
          options={Object.entries(LOG_ACTION_NAMES).map(([value, label]) => ({ value, label }))}
          onChange={(v) => setFilter("action", v)}
        />
      </Space>
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        data-testid="work-log-table"
        pagination={{ ...tableProps.pagination, showTotal: (n: number) => `共 ${n} 条` }}
      >
        <Table.Column<WorkLogEntry> dataIndex="at" title="时间" width={150} render={fmtTime} />
        <Table.Column<WorkLogEntry>
          dataIndex="workId"
          title="作品编号"
          width={120}
          render={(id: number) => <Link to={detailPath(id)}>{id}</Link>}
        />
        <Table.Column<WorkLogEntry>
          dataIndex="user"
          title="操作人"
          width={160}
          render={(u: WorkLogEntry["user"]) => (u ? `${u.name}（${u.username}）` : "系统")}
        />
        <Table.Column<WorkLogEntry> dataIndex="actionName" title="操作" width={140} />
        <Table.Column<WorkLogEntry>
          dataIndex="changes"
          title="变更内容"
          render={(c: WorkLogEntry["changes"]) => <ChangeList changes={c} />}
        />
      </Table>
    </Card>
  );
}
