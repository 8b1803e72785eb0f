/** The child contests of one contest (a national contest's provincial ones, a provincial contest's school contests). */
import { useList, useCan } from "@refinedev/core";
import { Button, Space, Table, Tag, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { EditButton } from "@refinedev/antd";
import type { ContestView } from "../../shared/contest/schema";
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../shared/contest/stages";
import { CategoriesCell, QuotaCell, StageCell, names } from "./columns";

const CHILD: Record<ContestLevelKey, ContestLevelKey | null> = { national: "provincial", provincial: "school", school: null };

export function ChildContests({
  parent,
  restricted,
  onEdit,
  onCreate,
}: {
  parent: ContestView;
  restricted?: boolean;
  onEdit: (id: number) => void;
  onCreate?: (parent: ContestView) => void;
}) {
  const level = CHILD[parent.level];
  const { result, query } = useList<ContestView>({
    resource: "contests",
    filters: [{ field: "parentId", operator: "eq", value: parent.id }],
    pagination: { pageSize: 200 },
    sorters: [{ field: "name", order: "asc" }],
  });
  const canCreate = useCan({ resource: "api.contests", action: "create" }).data?.can && !restricted;
  if (!level) return null;
  const levelName = CONTEST_LEVEL_NAMES[level];
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid={`children-of-${parent.id}`}>
      <Space>
        <Typography.Text strong>
          下级{levelName}（{result.total ?? 0}）
        </Typography.Text>
        {canCreate && onCreate && !parent.archived && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => onCreate(parent)}>
            新建{levelName}
          </Button>
        )}
      </Space>
      <Table<ContestView>
        size="small"
        rowKey="id"
        loading={query.isLoading}
        dataSource={result.data}
        pagination={false}
        locale={{ emptyText: `暂无下级${levelName}` }}
      >
        <Table.Column<ContestView> dataIndex="code" title="代码" width={150} />
        <Table.Column<ContestView>
          dataIndex="name"
          title="名称"
          render={(n, r) => (
            <span>
              {n} {r.archived && <Tag>已归档</Tag>}
            </span>
          )}
        />
        <Table.Column<ContestView>
          title={level === "school" ? "学校" : "省份"}
          render={(_, r) => (level === "school" ? r.schoolName : r.province) ?? "—"}
          width={160}
        />
        <Table.Column<ContestView> title="阶段" render={(_, r) => <StageCell contest={r} />} width={110} />
        <Table.Column<ContestView> title="大类" render={(_, r) => <CategoriesCell contest={r} />} width={90} />
        <Table.Column<ContestView> title="推荐名额" render={(_, r) => <QuotaCell contest={r} />} width={90} />
        <Table.Column<ContestView> title="管理员" render={(_, r) => names(r.admins)} width={120} />
        <Table.Column<ContestView>
          title="操作"
          width={80}
          render={(_, r) => <EditButton size="small" resource="contests" recordItemId={r.id} onClick={() => onEdit(r.id)} />}
        />
      </Table>
    </Space>
  );
}
