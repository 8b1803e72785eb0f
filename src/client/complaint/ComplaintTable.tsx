/** The handlers' list of complaints (overdue first, as the server sorts), rows open the detail. */
import { Table, Typography } from "antd";
import type { PageOf } from "../../shared/crud/list";
import type { ComplaintListItem } from "../../shared/complaint/schema";
import { COMPLAINT_CATEGORY_NAMES } from "../../shared/complaint/states";
import { fmtTime } from "../format";
import { Due, StateTag, TypeTag } from "./parts";

interface Props {
  data?: PageOf<ComplaintListItem>;
  loading: boolean;
  page: { current: number; pageSize: number };
  onPage: (current: number, pageSize: number) => void;
  onOpen: (id: number) => void;
}

export function ComplaintTable({ data, loading, page, onPage, onOpen }: Props) {
  return (
    <Table<ComplaintListItem>
      dataSource={data?.list ?? []}
      rowKey="id"
      loading={loading}
      size="middle"
      data-testid="complaint-list"
      rowClassName={(r) => (r.overdue ? "complaint-overdue" : "")}
      onRow={(r) => ({ onClick: () => onOpen(r.id), style: { cursor: "pointer" } })}
      pagination={{
        current: page.current,
        pageSize: page.pageSize,
        total: data?.total ?? 0,
        showSizeChanger: true,
        showTotal: (t) => `共 ${t} 件`,
        onChange: onPage,
      }}
      scroll={{ x: 1300 }}
      locale={{ emptyText: "没有符合条件的申诉或投诉" }}
    >
      <Table.Column<ComplaintListItem> dataIndex="id" title="编号" width={70} />
      <Table.Column<ComplaintListItem> title="类型" width={70} render={(_, r) => <TypeTag type={r.type} />} />
      <Table.Column<ComplaintListItem>
        title="作品"
        width={230}
        render={(_, r) => (
          <div>
            <Typography.Link onClick={(e) => (e.stopPropagation(), onOpen(r.id))} data-testid="complaint-open">
              {r.workName}
            </Typography.Link>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.workId} · {r.schoolName}
              </Typography.Text>
            </div>
          </div>
        )}
      />
      <Table.Column<ComplaintListItem> title="事由" width={150} render={(_, r) => COMPLAINT_CATEGORY_NAMES[r.category]} />
      <Table.Column<ComplaintListItem> dataIndex="filerName" title="申诉/投诉人" width={110} />
      <Table.Column<ComplaintListItem> dataIndex="contestName" title="赛事" width={200} />
      <Table.Column<ComplaintListItem> title="状态" width={150} render={(_, r) => <StateTag state={r.state} />} />
      <Table.Column<ComplaintListItem> title="期限" width={160} render={(_, r) => <Due dueAt={r.dueAt} overdue={r.overdue} />} />
      <Table.Column<ComplaintListItem> dataIndex="createdAt" title="提交时间" width={140} render={(v: string) => fmtTime(v)} />
    </Table>
  );
}
