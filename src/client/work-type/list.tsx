/**
 * /admin/WorkTypeManagement (root): the tree 大类 → 小类 from the work-type tree, each 大类
 * with its team size, 专业组, materials and scoring standard. A 大类 is edited in a drawer, a
 * 小类 in a modal; delete archives a category that is in use, archived ones can be restored.
 */
import { useState } from "react";
import { CreateButton, DeleteButton, EditButton } from "@refinedev/antd";
import { useCan, useUpdate } from "@refinedev/core";
import { Button, Card, Popover, Space, Switch, Table, Tag, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import type { WorkTypeTreeNode } from "../../shared/work-type/schema";
import { deleteNotices, failedNotice } from "../crud/notify";
import type { PageProps } from "../routing/model";
import { CategoryDrawer, useCategoryDrawer } from "./CategoryDrawer";
import { SubcategoryModal, useSubcategoryModal } from "./SubcategoryModal";
import { useWorkTypeTree } from "./use-tree";

type Child = WorkTypeTreeNode["children"][number];

function Scoring({ c }: { c: WorkTypeTreeNode }) {
  const content = (
    <Space direction="vertical" size={2}>
      {c.rubric.map((r) => (
        <span key={r.id}>
          {r.name}：{r.maxPoints} 分
          {r.description ? <Typography.Text type="secondary">（{r.description}）</Typography.Text> : null}
        </span>
      ))}
      {c.deductions.map((d) => (
        <Typography.Text key={d.name} type="danger">
          {d.name}：−{d.points} 分
        </Typography.Text>
      ))}
    </Space>
  );
  return (
    <Popover title="评分标准" content={content}>
      <span>{c.rubric.map((r) => `${r.name} ${r.maxPoints}`).join(" / ") || "未设置"}</span>
    </Popover>
  );
}

/** A name, with 已归档 when archived. */
const nameCell = (n: string, archived: boolean) => (
  <span>
    {n} {archived && <Tag>已归档</Tag>}
  </span>
);

/** 专业组: the number of majors (their codes on hover), or 不分组. */
const professionalCell = (c: WorkTypeTreeNode) =>
  c.hasProfessionalGroup ? (
    <Popover title="专业组专业代码" content={c.professionalMajors.join("、")}>
      <Tag color="purple">分组（{c.professionalMajors.length} 个专业）</Tag>
    </Popover>
  ) : (
    "不分组"
  );

export default function WorkTypeList({ route }: PageProps) {
  const [showArchived, setShowArchived] = useState(false);
  const { tree, query } = useWorkTypeTree(true);
  const refresh = () => void query.refetch();
  const create = useCategoryDrawer("create", refresh);
  const edit = useCategoryDrawer("edit", refresh);
  const [parent, setParent] = useState<{ id: number; name: string } | null>(null);
  const addSub = useSubcategoryModal("create", refresh);
  const editSub = useSubcategoryModal("edit", refresh);
  const canCreate = useCan({ resource: "api.workTypes", action: "create" }).data?.can;
  const canUpdate = useCan({ resource: "api.workTypes", action: "update" }).data?.can;
  const { mutate: update } = useUpdate();
  const restore = (id: number, name: string) =>
    update(
      {
        resource: "workTypes",
        id,
        values: { archived: false },
        successNotification: { type: "success", message: `已恢复“${name}”` },
        errorNotification: failedNotice("作品类别"),
      },
      { onSuccess: refresh },
    );
  // After a delete the edit forms no longer ask for the deleted record.
  const forget = (id: number) => {
    for (const f of [edit, editSub]) if (f.id === id) f.setId?.(undefined);
  };
  const rows = tree.filter((c) => showArchived || !c.archived);

  const actions = (id: number, name: string, archived: boolean, onEdit: () => void, what: string) => (
    <Space>
      <EditButton size="small" resource="workTypes" recordItemId={id} onClick={onEdit} />
      {archived && canUpdate ? (
        <Button size="small" onClick={() => restore(id, name)}>
          恢复
        </Button>
      ) : (
        <DeleteButton
          size="small"
          resource="workTypes"
          recordItemId={id}
          confirmTitle={`删除该${what}？有小类或被赛事使用时将改为归档。`}
          onSuccess={() => (forget(id), refresh())}
          {...deleteNotices(`作品${what}`)}
        />
      )}
    </Space>
  );

  const children = (c: WorkTypeTreeNode) => (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Space>
        <Typography.Text strong>
          “{c.name}”的小类（{c.children.length}）
        </Typography.Text>
        {canCreate && !c.archived && (
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => (setParent({ id: c.id, name: c.name }), addSub.show())}
            data-testid={`add-sub-${c.id}`}
          >
            添加小类
          </Button>
        )}
      </Space>
      <Table<Child>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={c.children.filter((s) => showArchived || !s.archived)}
        locale={{ emptyText: "暂无小类" }}
      >
        <Table.Column<Child> dataIndex="sort" title="排序" width={70} />
        <Table.Column<Child> dataIndex="name" title="小类名称" render={(n: string, s) => nameCell(n, s.archived)} />
        <Table.Column<Child> dataIndex="description" title="说明" render={(v) => v ?? "—"} />
        <Table.Column<Child>
          title="操作"
          width={170}
          render={(_, s) => actions(s.id, s.name, s.archived, () => editSub.show(s.id), "小类")}
        />
      </Table>
    </Space>
  );

  return (
    <Card
      title={route.label}
      extra={
        <Space>
          <Switch checked={showArchived} onChange={setShowArchived} checkedChildren="显示已归档" unCheckedChildren="隐藏已归档" />
          <CreateButton resource="workTypes" onClick={() => create.show()} data-testid="category-create">
            新建大类
          </CreateButton>
        </Space>
      }
    >
      <Table<WorkTypeTreeNode>
        rowKey="id"
        size="middle"
        loading={query.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1300 }}
        expandable={{ expandedRowRender: children, childrenColumnName: "__subcategories" }}
        data-testid="work-type-table"
      >
        <Table.Column<WorkTypeTreeNode> dataIndex="sort" title="排序" width={70} />
        <Table.Column<WorkTypeTreeNode>
          dataIndex="name"
          title="大类"
          width={180}
          render={(n: string, c) => nameCell(n, c.archived)}
        />
        <Table.Column<WorkTypeTreeNode> title="作者" width={80} render={(_, c) => `${c.minAuthors}–${c.maxAuthors} 人`} />
        <Table.Column<WorkTypeTreeNode> title="指导教师" width={90} render={(_, c) => `≤ ${c.maxTeachers} 人`} />
        <Table.Column<WorkTypeTreeNode> title="专业组" width={120} render={(_, c) => professionalCell(c)} />
        <Table.Column<WorkTypeTreeNode> title="提交材料" width={90} render={(_, c) => `${c.requiredAttachments.length} 项`} />
        <Table.Column<WorkTypeTreeNode> title="评分标准" width={320} render={(_, c) => <Scoring c={c} />} />
        <Table.Column<WorkTypeTreeNode> title="小类" width={70} render={(_, c) => c.children.length} />
        <Table.Column<WorkTypeTreeNode>
          title="操作"
          width={170}
          fixed="right"
          render={(_, c) => actions(c.id, c.name, c.archived, () => (edit.show(c.id), edit.form.resetFields()), "大类")}
        />
      </Table>
      <CategoryDrawer drawer={create} name="category-create" />
      <CategoryDrawer drawer={edit} name="category-edit" />
      <SubcategoryModal modal={addSub} parent={parent} name="subcategory-create" />
      <SubcategoryModal modal={editSub} name="subcategory-edit" />
    </Card>
  );
}
