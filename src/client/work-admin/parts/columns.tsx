/** Columns every works list shares: id (link to the detail), name, category, school, status, team, time. */
import { Link } from "react-router";
import { Table } from "antd";
import type { WorkListItem } from "../../../shared/work/schema";
import type { WorkState } from "../../../shared/work/states";
import { detailPath } from "../api";
import { StatusTag } from "../../work/components/StatusTag";
import { fmtTime } from "../../format";
import { Lines, Muted } from "../../components/light";

type Opts = { school?: boolean; contest?: boolean; sortable?: boolean };

export function workColumns({ school = true, contest = true, sortable = true }: Opts = {}) {
  return [
    <Table.Column<WorkListItem>
      key="id"
      dataIndex="id"
      title="作品编号"
      width={120}
      sorter={sortable}
      render={(id: number) => <Link to={detailPath(id)}>{id}</Link>}
    />,
    <Table.Column<WorkListItem>
      key="name"
      dataIndex="name"
      title="作品名称"
      sorter={sortable}
      render={(name: string, r) => (
        <Lines>
          <Link to={detailPath(r.id)}>{name}</Link>
          {contest && <Muted small>{r.contest.name}</Muted>}
        </Lines>
      )}
    />,
    <Table.Column<WorkListItem>
      key="categoryId"
      dataIndex="categoryId"
      title="大类 / 小类"
      sorter={sortable}
      render={(_, r) => (
        <Lines>
          <span>{r.category.name}</span>
          {r.subcategory && <Muted small>{r.subcategory.name}</Muted>}
        </Lines>
      )}
    />,
    ...(school
      ? [
          <Table.Column<WorkListItem>
            key="schoolId"
            dataIndex="schoolId"
            title="学校"
            sorter={sortable}
            render={(_, r) => r.school.name}
          />,
        ]
      : []),
    <Table.Column<WorkListItem>
      key="status"
      dataIndex="status"
      title="状态"
      width={130}
      sorter={sortable}
      render={(s: WorkState, r) => <StatusTag status={s} name={r.statusName} />}
    />,
    <Table.Column<WorkListItem>
      key="authorNames"
      dataIndex="authorNames"
      title="作者 / 指导教师"
      render={(v: string, r) => (
        <Lines>
          <span>{v || "—"}</span>
          {r.teacherNames && <Muted small>指导：{r.teacherNames}</Muted>}
        </Lines>
      )}
    />,
    <Table.Column<WorkListItem>
      key="submittedAt"
      dataIndex="submittedAt"
      title="提交时间"
      width={150}
      sorter={sortable}
      render={fmtTime}
    />,
  ];
}
