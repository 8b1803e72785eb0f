/**
 * The columns of the pool table (PoolTable.tsx): name (opens the detail), school, province,
 * title, categories, expertise, this year's availability, history, account, contact and the
 * row actions; sortable columns show the table's current server-side sort.
 */
import { Button, Space, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import type { JudgePersonView } from "../../shared/judge-pool/schema";
import { OnDemand } from "../components/on-demand";
import { AvailabilityTag, CategoryTags } from "./parts";

export function poolColumns({
  order,
  setDetail,
  setEditing,
}: {
  /** the sort order a column shows, by its sort key */
  order: (key: string) => "ascend" | "descend" | null;
  setDetail: (p: JudgePersonView) => void;
  setEditing: (e: { person: JudgePersonView }) => void;
}): ColumnsType<JudgePersonView> {
  return [
    {
      title: "姓名",
      key: "name",
      dataIndex: "name",
      sorter: true,
      sortOrder: order("name"),
      fixed: "left",
      width: 120,
      render: (n: string, p) => (
        <a onClick={() => setDetail(p)} data-testid={`pool-name-${p.id}`}>
          {n}
        </a>
      ),
    },
    {
      title: "学校/单位",
      key: "school",
      dataIndex: "schoolName",
      sorter: true,
      sortOrder: order("school"),
      width: 170,
      render: (s: string | null) => s ?? "—",
    },
    {
      title: "省份",
      key: "province",
      dataIndex: "province",
      sorter: true,
      sortOrder: order("province"),
      width: 90,
      render: (s: string | null) => s ?? "—",
    },
    {
      title: "职称",
      key: "title",
      dataIndex: "title",
      sorter: true,
      sortOrder: order("title"),
      width: 100,
      render: (s: string | null) => s ?? "—",
    },
    { title: "评审类别", key: "categories", width: 230, render: (_, p) => <CategoryTags categories={p.categories} /> },
    {
      title: "专业特长",
      key: "tags",
      width: 170,
      render: (_, p) => (p.tags.length ? p.tags.map((t) => <Tag key={t}>{t}</Tag>) : "—"),
    },
    {
      title: "本年度",
      key: "available",
      width: 100,
      render: (_, p) =>
        p.availabilityNote ? (
          <OnDemand tip={p.availabilityNote}>
            <span>
              <AvailabilityTag available={p.available} />
            </span>
          </OnDemand>
        ) : (
          <span>
            <AvailabilityTag available={p.available} />
          </span>
        ),
    },
    {
      title: "参评赛事",
      key: "contests",
      dataIndex: "contests",
      sorter: true,
      sortOrder: order("contests"),
      width: 100,
      render: (n: number, p) =>
        n ? (
          <OnDemand tip={`最近一次：${p.lastYear} 年`}>
            <span>{n}</span>
          </OnDemand>
        ) : (
          "—"
        ),
    },
    {
      title: "已评作品",
      key: "worksScored",
      dataIndex: "worksScored",
      sorter: true,
      sortOrder: order("worksScored"),
      width: 100,
    },
    {
      title: "账号",
      key: "account",
      width: 100,
      render: (_, p) => p.account?.username ?? <Typography.Text type="secondary">未关联</Typography.Text>,
    },
    {
      title: "联系方式",
      key: "contact",
      width: 200,
      render: (_, p) =>
        p.contactVisible ? (
          <span>
            {p.email ?? "—"}
            <br />
            {p.phone ?? ""}
          </span>
        ) : (
          <Typography.Text type="secondary">无权查看</Typography.Text>
        ),
    },
    {
      title: "操作",
      key: "actions",
      fixed: "right",
      width: 120,
      render: (_, p) => (
        <Space>
          <Button size="small" onClick={() => setDetail(p)}>
            详情
          </Button>
          <Button size="small" onClick={() => setEditing({ person: p })}>
            编辑
          </Button>
        </Space>
      ),
    },
  ];
}
