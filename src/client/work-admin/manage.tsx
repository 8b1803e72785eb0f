/**
 * /WorkManagement (root and contest admins): the works in scope, searched by contest, id, name,
 * school, 大类, status and author; server-side paging and sorting; per-row decisions
 * (accept, reject, disqualify) and, for works in format review, fast review from that work;
 * selected rows change status in bulk; export of the filtered works.
 */
import { useState } from "react";
import { useCanNow } from "../providers/use-can-now";
import { Button, Card, Space, Table, Typography } from "antd";
import { Link } from "react-router";
import type { WorkListItem } from "../../shared/work/schema";
import type { WorkAction } from "../../shared/work/states";
import { ROLE } from "../../shared/roles";
import { filtersObject } from "../crud/filters";
import { ListTable, useListTable } from "../crud/use-list-table";
import { useSession } from "../providers/use-session";
import type { PageProps } from "../routing/model";
import { fastReviewPath } from "../routing/review-paths";
import { LIST_PATH } from "./api";
import { BulkStatusModal } from "./parts/BulkStatusModal";
import { workColumns } from "./parts/columns";
import { ExportButton } from "./parts/ExportButton";
import { WORK_LIST_ADDRESS, WorkFilterForm, workSearchOf } from "./parts/WorkFilterForm";
import { ReasonModal, WorkActions } from "./parts/WorkActions";
import { Inline } from "../components/light";
import { rowCheckbox } from "../components/row-checkbox";

type Work = Pick<WorkListItem, "id" | "name" | "status" | "version">;

/** Works awaiting or in format review: the contest admin can review them one by one from here. */
const FORMAT_REVIEW = new Set<string>(["accepted", "format_returned", "format_resubmitted"]);

export default function WorkManagement({ route }: PageProps) {
  const { user } = useSession();
  const canDecide = useCanNow()("api.contestWorks", "update");
  const [selected, setSelected] = useState<WorkListItem[]>([]);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [reason, setReason] = useState<{ work: Work; action: WorkAction } | null>(null);
  // The view lives in the address (crud/list-address.ts): ?contestId= opens the list filtered by a
  // contest (e.g. the national contest: its entries' national state), ?status=accepted,format_resubmitted
  // (the to-do centre's 待形式审查) by status; page, size, sort and the other filters the same way.
  const { tableProps, setFilters, filters, tableQuery, values, view, formKey } = useListTable<WorkListItem>({
    resource: "contestWorks",
    meta: { path: LIST_PATH.contest },
    address: WORK_LIST_ADDRESS,
  });
  const initial = workSearchOf(values);
  const refresh = () => void tableQuery.refetch();

  return (
    <Card
      title={route.label}
      extra={
        <Space>
          {user.userType === ROLE.contestAdmin && (
            <Link to="/ContestAdmin/AddWork">
              <Button>代学校录入作品</Button>
            </Link>
          )}
          <ExportButton filters={filtersObject(filters)} />
        </Space>
      }
    >
      <WorkFilterForm key={formKey} contests initial={initial} onSearch={(f) => setFilters(f, "replace")} />
      {canDecide && (
        <Space style={{ marginBottom: 12 }}>
          <Button disabled={!selected.length} onClick={() => setBulkOpen(true)} data-testid="bulk-open">
            批量更改状态
          </Button>
          <Typography.Text type="secondary">
            {selected.length ? `已选择 ${selected.length} 件作品` : "勾选作品后可批量更改状态"}
          </Typography.Text>
          {selected.length > 0 && (
            <Button type="link" onClick={() => setSelected([])}>
              清除选择
            </Button>
          )}
        </Space>
      )}
      <ListTable
        {...tableProps}
        sort={view.sort}
        rowKey="id"
        size="middle"
        scroll={{ x: "max-content" }}
        data-testid="work-table"
        rowSelection={
          canDecide
            ? {
                preserveSelectedRowKeys: true,
                selectedRowKeys: selected.map((w) => w.id),
                getCheckboxProps: (w) => rowCheckbox(`选择《${w.name}》`),
                onChange: (_, rows) => setSelected(rows.filter(Boolean)),
              }
            : undefined
        }
        pagination={{
          ...tableProps.pagination,
          showTotal: (n: number) => `共 ${n} 件作品`,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
        }}
      >
        {workColumns()}
        {canDecide && (
          <Table.Column<WorkListItem>
            title="操作"
            fixed="right"
            width={200}
            render={(_, r) => (
              <Inline gap={4}>
                <WorkActions side="contest" work={r} onDone={refresh} onReason={(work, action) => setReason({ work, action })} />
                {FORMAT_REVIEW.has(r.status) && (
                  <Link to={fastReviewPath(r.contest.id, r.id)} data-testid={`fast-review-${r.id}`}>
                    快速审核
                  </Link>
                )}
              </Inline>
            )}
          />
        )}
      </ListTable>
      <ReasonModal
        side="contest"
        work={reason?.work ?? null}
        action={reason?.action ?? null}
        onClose={() => setReason(null)}
        onDone={refresh}
      />
      <BulkStatusModal
        open={bulkOpen}
        works={selected}
        root={user.userType === ROLE.root}
        onClose={() => setBulkOpen(false)}
        onDone={() => {
          setSelected([]);
          refresh();
        }}
      />
    </Card>
  );
}
