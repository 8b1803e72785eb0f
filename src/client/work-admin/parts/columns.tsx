/** Columns every works list shares: id (link to the detail), name, category, school, status, team, time. */
import { Link } from "react-router";
import { Space, Table, Typography } from "antd";
import type { WorkListItem } from "../../../shared/work/schema";
import type { WorkState } from "../../../shared/work/states";
import { detailPath } from "../api";
import { StatusTag } from "../../work/components/StatusTag";
import { fmtTime } from "../../format";

type Opts = { school?: boolean; contest?: boolean; sortable?: boolean };

export function workColumns({ school = true, contest = true, sortable = true }: Opts = {}) {
  return [
    <Table.Column<WorkListItem> key="id" dataIndex="id" title="作品编号" width={120} sorter={sortable} render={(id: number) => <Link to={detailPath(id)}>{id}</Link>} />,
    <Table.Column<WorkListItem>
      key="name"
      dataIndex="name"
      title="作品名称"
      sorter={sortable}
      render={(name: string, r) => (
        <Space direction="vertical" size={0}>
          <Link to={detailPath(r.id)}>{name}</Link>
          {contest && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.contest.name}</Typography.Text>}
        </Space>
      )}
    />,
    <Table.Column<WorkListItem>
      key="categoryId"
      dataIndex="categoryId"
      title="大类 / 小类"
      sorter={sortable}
      render={(_, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.category.name}</span>
          {r.subcategory && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.subcategory.name}</Typography.Text>}
        </Space>
      )}
    />,
    ...(school ? [<Table.Column<WorkListItem> key="schoolId" dataIndex="schoolId" title="学校" sorter={sortable} render={(_, r) => r.school.name} />] : []),
    <Table.Column<WorkListItem> key="status" dataIndex="status" title="状态" width={130} sorter={sortable} render={(s: WorkState, r) => <StatusTag status={s} name={r.statusName} />} />,
    <Table.Column<WorkListItem>
      key="authorNames"
      dataIndex="authorNames"
      title="作者 / 指导教师"
      render={(v: string, r) => (
        <Space direction="vertical" size={0}>
          <span>{v || "—"}</span>
          {r.teacherNames && <Typography.Text type="secondary" style={{ fontSize: 12 }}>指导：{r.teacherNames}</Typography.Text>}
        </Space>
      )}
    />,
    <Table.Column<WorkListItem> key="submittedAt" dataIndex="submittedAt" title="提交时间" width={150} sorter={sortable} render={fmtTime} />,
  ];
}
