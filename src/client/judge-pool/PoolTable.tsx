/**
 * The pool table of root and contest admins: search and filters (category — a 大类 also finds
 * its 小类 —, expertise, province, school, this year's availability, history, account),
 * server-side sorting and paging, selection across pages, the detail drawer, create/edit,
 * Excel import/export (the generic ImportExport) and merging two selected records.
 * `selectionActions(selectedPersonIds)` renders more buttons for the selection (e.g. 邀请).
 * The filter bar is PoolFilters.tsx, the columns pool-columns.tsx, the data hook use-pool-list.ts.
 */
import { useState, type ReactNode } from "react";
import { Alert, Button, Space, Table, Tooltip, Typography } from "antd";
import { MergeCellsOutlined, PlusOutlined } from "@ant-design/icons";
import type { JudgePersonView } from "../../shared/judge-pool/schema";
import { ImportExport } from "../crud/ImportExport";
import { PersonDrawer } from "./PersonDrawer";
import { PersonForm } from "./PersonForm";
import { MergeModal } from "./MergeModal";
import { PoolFilters } from "./PoolFilters";
import { poolColumns } from "./pool-columns";
import { usePoolList } from "./use-pool-list";
import { rowCheckbox } from "../components/row-checkbox";

export interface PoolTableProps {
  /** more actions for the selected records (person ids), shown beside 合并 */
  selectionActions?: (selectedPersonIds: number[]) => ReactNode;
}

export function PoolTable({ selectionActions }: PoolTableProps) {
  const { filters, set, page, q, refresh, onTableChange, order } = usePoolList();
  const [keyword, setKeyword] = useState("");
  const [selected, setSelected] = useState<JudgePersonView[]>([]);
  const [detail, setDetail] = useState<JudgePersonView | null>(null);
  const [editing, setEditing] = useState<{ person: JudgePersonView | null } | null>(null);
  const [merging, setMerging] = useState<[JudgePersonView, JudgePersonView] | null>(null);
  const selectedIds = selected.map((p) => p.id);

  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <PoolFilters filters={filters} keyword={keyword} setKeyword={setKeyword} set={set} />
      <Space wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ person: null })}>
          新建评委
        </Button>
        <ImportExport resource="judgePool" filters={filters as Record<string, unknown>} onImported={refresh} />
        <Tooltip title={selected.length === 2 ? "" : "勾选两条重复的记录后合并"}>
          <Button
            icon={<MergeCellsOutlined />}
            disabled={selected.length !== 2}
            onClick={() => setMerging([selected[0], selected[1]])}
            data-testid="pool-merge"
          >
            合并
          </Button>
        </Tooltip>
        {selectionActions?.(selectedIds)}
        {selected.length > 0 && (
          <Typography.Text type="secondary">
            已选 {selected.length} 位{" "}
            <Button type="link" size="small" onClick={() => setSelected([])}>
              清除选择
            </Button>
          </Typography.Text>
        )}
      </Space>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      <Table<JudgePersonView>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        onChange={onTableChange as never}
        scroll={{ x: 1560 }}
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 位`,
        }}
        rowSelection={{
          selectedRowKeys: selectedIds,
          preserveSelectedRowKeys: true,
          getCheckboxProps: (r) => rowCheckbox(`选择${r.name}`),
          onChange: (_keys, rows) =>
            setSelected((prev) => {
              const ids = new Set(_keys as number[]);
              const byId = new Map([...prev, ...rows.filter(Boolean)].map((r) => [r.id, r]));
              return [...ids].map((id) => byId.get(id)!).filter(Boolean);
            }),
        }}
        data-testid="pool-table"
        columns={poolColumns({ order, setDetail, setEditing })}
      />
      <PersonDrawer person={detail} onClose={() => setDetail(null)} onEdit={(p) => setEditing({ person: p })} />
      <PersonForm
        open={!!editing}
        person={editing?.person ?? null}
        onClose={() => setEditing(null)}
        onSaved={(p) => {
          setEditing(null);
          if (detail?.id === p.id) setDetail(p);
          void refresh();
        }}
      />
      <MergeModal
        pair={merging}
        onClose={() => setMerging(null)}
        onMerged={() => {
          setMerging(null);
          setSelected([]);
          void refresh();
        }}
      />
    </Space>
  );
}
